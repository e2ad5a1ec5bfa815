import type { CheckoutStatus } from '../../contract/checkouts.js';

/**
 * Amounts as the hosted pages show them, shared by the server's HTML and the pages' script (one
 * function, so the first paint and every live update read the same). Pure: no DOM, no Node.
 */

/** Minor units per unit: every currency the sandbox handles has 6 decimals (spec: amounts in 10^-6). */
const SCALE = 1_000_000;

/**
 * Human units from integer minor units, exactly (no float arithmetic): `4000000` → `4.00`, at
 * least two decimals and at most six, thousands grouped.
 */
export function formatUnits(amount: number): string {
  const sign = amount < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(amount));
  const whole = Math.floor(abs / SCALE);
  const fraction = String(abs % SCALE)
    .padStart(6, '0')
    .replace(/0{1,4}$/, '');
  const grouped = String(whole).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign}${grouped}.${fraction.padEnd(2, '0')}`;
}

/** `4000000, 'USDC'` → `4.00 USDC`. */
export const formatMinor = (amount: number, currency: string): string => `${formatUnits(amount)} ${currency}`;

/** "4.00" → 4000000; null when the text is not a positive amount with at most 6 decimals. */
export function parseUnits(text: string): number | null {
  const match = /^\s*(\d{1,9})(?:[.,](\d{1,6}))?\s*$/.exec(text);
  if (!match) return null;
  const value = Number(match[1]) * SCALE + Number((match[2] ?? '').padEnd(6, '0'));
  return value > 0 ? value : null;
}

/** A pill's tone on the hosted pages (a CSS class). */
export type Tone = '' | 'ok' | 'warn' | 'muted' | 'bad';

/**
 * A settled checkout's status in words and its tone, shared by the server's first paint and the
 * page script's live updates (an active checkout's words depend on the clock and what arrived).
 */
export const STATUS_LABELS: Partial<Record<CheckoutStatus, [string, Tone]>> = {
  paid: ['Paid', 'ok'],
  completed: ['Paid', 'ok'],
  partially_refunded: ['Partially refunded', 'ok'],
  refunded: ['Refunded', 'muted'],
  expired: ['Expired', 'muted'],
  partial: ['Expired, part paid', 'warn'],
  cancelled: ['Cancelled', 'bad'],
};

/**
 * The checkout's expiry as its details say it, or null for no line: "Expires" and its time while it
 * can still be paid; "Expired" and the time it ran out once that time has passed. None when it
 * closed before its time (expired through the control API: a time still ahead would contradict
 * "expired") or was paid or cancelled (its expiry no longer matters). Shared by the server's first
 * paint and the page script, which says it again as the sandbox clock moves.
 */
export function expiryFact(
  status: CheckoutStatus,
  expiresAt: string,
  now: number,
): { label: 'Expires' | 'Expired'; at: string } | null {
  const passed = Date.parse(expiresAt) <= now;
  if (status === 'active') return { label: passed ? 'Expired' : 'Expires', at: expiresAt };
  if ((status === 'expired' || status === 'partial') && passed) return { label: 'Expired', at: expiresAt };
  return null;
}
