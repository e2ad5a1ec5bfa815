/**
 * Amounts in messages people read (errors, failure reasons) are written in the currency's own
 * units — "12.50 USDC", not "12500000" — the way the dashboard's forms take them. Fields stay
 * integers in minor units; only prose is formatted. String arithmetic: exact, never floats.
 */

/** Decimal places of a currency's minor unit: every currency of the API is 6dp (spec: "6dp"). */
export const currencyDigits = (_currency: string): number => 6;

/** 12_500_000 → "12.50", 1_234_567 → "1.234567", 99_999_999_000_000 → "99,999,999.00". */
export function formatUnits(minor: number, currency: string): string {
  const places = currencyDigits(currency);
  const negative = minor < 0;
  const digits = String(Math.abs(Math.trunc(minor))).padStart(places + 1, '0');
  const whole = digits.slice(0, -places).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const fraction = digits.slice(-places).replace(/0+$/, '').padEnd(2, '0');
  return `${negative ? '-' : ''}${whole}.${fraction}`;
}

/** "12.50 USDC". */
export const formatMoney = (minor: number, currency: string): string =>
  `${formatUnits(minor, currency)} ${currency}`;
