/**
 * Fee and refund arithmetic: tiny pure functions named after the spec, integers only. Every
 * division floors (BigInt keeps huge products exact) and every split hands out each unit once.
 */
const BPS = 10_000n;

/** amount × bps / 10000, floored. */
export function applyRate(amount: number, bps: number): number {
  return Number((BigInt(amount) * BigInt(bps)) / BPS);
}

/** Spec rule 2: platform_fee = amount × platform_rate / 10000. */
export function platformFee(amount: number, platformRate: number): number {
  return applyRate(amount, platformRate);
}

/** Spec rule 1: gross = amount × rate / 10000, clamped to [min_fee, max_fee] where those are set. */
export function grossCommission(
  amount: number,
  rate: number,
  minFee: number | null,
  maxFee: number | null,
): number {
  let gross = applyRate(amount, rate);
  if (minFee !== null && gross < minFee) gross = minFee;
  if (maxFee !== null && gross > maxFee) gross = maxFee;
  // A commission can never take more than was paid.
  return Math.min(gross, amount);
}

export interface FeeSplit {
  platform_fee: number;
  reseller_fee: number;
  /** what the merchant keeps before gas: amount − gross (spec rule 4) */
  merchant_net: number;
}

/**
 * Spec rules 1–4. Without a reseller the gross is the platform fee. With one, reseller_fee =
 * gross − platform_fee; if the reseller's gross is below the platform fee the platform still takes
 * its fee and the reseller gets nothing (our choice: the spec leaves a negative reseller fee open).
 */
export function splitFees(
  amount: number,
  platformRate: number,
  reseller: { rate: number; min_fee: number | null; max_fee: number | null } | null,
): FeeSplit {
  const platform = platformFee(amount, platformRate);
  if (!reseller) return { platform_fee: platform, reseller_fee: 0, merchant_net: amount - platform };
  const gross = Math.max(
    grossCommission(amount, reseller.rate, reseller.min_fee, reseller.max_fee),
    platform,
  );
  return { platform_fee: platform, reseller_fee: gross - platform, merchant_net: amount - gross };
}

export interface CheckoutFees {
  platform_fee: number;
  reseller_fee: number;
  platform_gas_fee: number;
}

/**
 * Every figure a payment fixes on its checkout when it is detected: the fees of rules 1–4 on what
 * was paid, and the paying token's gas fee, capped at what the fees leave the merchant (a tiny
 * payment, or a commission near the whole amount, never leaves the merchant owing). Settlement,
 * `checkout.completed` and refunds inside the hold use these figures as they are.
 */
export function checkoutFees(
  paid: number,
  platformRate: number,
  reseller: { rate: number; min_fee: number | null; max_fee: number | null } | null,
  gas: number,
): CheckoutFees {
  const split = splitFees(paid, platformRate, reseller);
  return {
    platform_fee: split.platform_fee,
    reseller_fee: split.reseller_fee,
    platform_gas_fee: Math.min(gas, split.merchant_net),
  };
}

/** `total × part / whole`, floored, for 0 ≤ part ≤ whole, whole > 0. */
export function proportion(total: number, part: number, whole: number): number {
  if (whole <= 0) return 0;
  return Number((BigInt(total) * BigInt(part)) / BigInt(whole));
}

export interface Clawback {
  merchant_debit: number;
  platform_clawback: number;
  reseller_clawback: number;
}

/**
 * How X (what leaves for the customer, plus gas when the merchant pays it) is funded.
 * Within the fee hold: the fees still held pay their proportional share — X × fees / refundable,
 * capped at what is held — split between platform and reseller in proportion (the remainder unit
 * to the reseller), and the merchant pays the rest. After the hold, the merchant pays all of X.
 */
export function clawbackShares(
  x: number,
  refundable: number,
  fees: { platform_fee: number; reseller_fee: number },
  withinHold: boolean,
): Clawback {
  const held = fees.platform_fee + fees.reseller_fee;
  if (!withinHold || held === 0) return { merchant_debit: x, platform_clawback: 0, reseller_clawback: 0 };
  const clawback = Math.min(proportion(x, held, refundable), held);
  const platform = proportion(clawback, fees.platform_fee, held);
  return {
    merchant_debit: x - clawback,
    platform_clawback: platform,
    reseller_clawback: clawback - platform,
  };
}

/** Spec gas handling: what the customer receives and X, the amount the merchant side funds. */
export function refundGas(
  amount: number,
  gas: number,
  payer: 'customer' | 'merchant',
): { customer_amount: number; funded: number } {
  return payer === 'merchant'
    ? { customer_amount: amount, funded: amount + gas }
    : { customer_amount: amount - gas, funded: amount - gas };
}

/** Invoice tax: subtotal × tax_rate / 10000, rounded half up. */
export function taxAmount(subtotal: number, taxRate: number): number {
  return Number((BigInt(subtotal) * BigInt(taxRate) + 5_000n) / BPS);
}
