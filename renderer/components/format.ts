// Sandbox time is shown in UTC: it is what the API returns and what webhooks carry.

const dateTime = new Intl.DateTimeFormat('en-GB', {
  weekday: 'short',
  day: '2-digit',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});
const time = new Intl.DateTimeFormat('en-GB', {
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
  timeZone: 'UTC',
});
const shortDate = new Intl.DateTimeFormat('en-GB', {
  day: '2-digit',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: 'UTC',
});

export const formatDate = (ms: number) => dateTime.format(ms);
export const formatTime = (ms: number) => time.format(ms);
export const formatTimestamp = (iso: string) => `${shortDate.format(Date.parse(iso))} UTC`;

/** "+1 d 2 h 3 min" ahead of (or behind) real time; "in step with real time" at zero. */
export function formatOffset(ms: number): string {
  const sign = ms < 0 ? '−' : '+';
  let seconds = Math.round(Math.abs(ms) / 1000);
  if (seconds === 0) return 'in step with real time';
  const days = Math.floor(seconds / 86400);
  seconds -= days * 86400;
  const hours = Math.floor(seconds / 3600);
  seconds -= hours * 3600;
  const minutes = Math.floor(seconds / 60);
  seconds -= minutes * 60;
  const parts = [
    days ? `${days} d` : '',
    hours ? `${hours} h` : '',
    minutes ? `${minutes} min` : '',
    seconds && !days ? `${seconds} s` : '',
  ].filter(Boolean);
  return `${sign}${parts.join(' ')} ${ms < 0 ? 'behind' : 'ahead of'} real time`;
}

// Money is integers in 6dp minor units everywhere (1 USDC = 1 000 000). It is formatted and parsed
// with string arithmetic, never through floats, so what is shown is exactly what is stored.

const UNIT_DIGITS = 6;

/** 25_000_000 → "25.00", 1_234_567 → "1.234567", -500_000 → "−0.50"; thousands grouped. */
export function formatAmount(minor: number): string {
  const negative = minor < 0;
  const digits = String(Math.abs(Math.trunc(minor))).padStart(UNIT_DIGITS + 1, '0');
  const whole = digits.slice(0, -UNIT_DIGITS).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const fraction = digits.slice(-UNIT_DIGITS).replace(/0+$/, '').padEnd(2, '0');
  return `${negative ? '−' : ''}${whole}.${fraction}`;
}

/** "25.00 USDC"; a null amount (open-amount checkout) is "Any amount". */
export const formatMoney = (minor: number | null, currency: string) =>
  minor === null ? `Any amount · ${currency}` : `${formatAmount(minor)} ${currency}`;

/** "12.5" → 12_500_000; null when not a positive number with at most 6 decimals. */
export function parseAmount(text: string): number | null {
  const match = /^\s*(\d{1,9})(?:[.,](\d{0,6}))?\s*$/.exec(text);
  if (!match) return null;
  const minor = Number(match[1]) * 10 ** UNIT_DIGITS + Number((match[2] ?? '').padEnd(UNIT_DIGITS, '0'));
  return minor > 0 ? minor : null;
}

/** "0x1234…cdef": long addresses and ids, shortened for tables (the full value is in the title). */
export const shorten = (value: string, keep = 6) =>
  value.length <= keep * 2 + 1 ? value : `${value.slice(0, keep)}…${value.slice(-keep + 2)}`;

/** "checkout.partially_refunded" style machine words → "partially refunded". */
export const humanize = (value: string) => value.replace(/[._]/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2');
