/**
 * Invoice money and dates (PRODUCT.md, Invoice money and Invoice payment): tiny pure functions,
 * integers only. Products and sums are taken in BigInt so nothing above Number.MAX_SAFE_INTEGER
 * is ever silently rounded; such totals are rejected instead.
 */
import { ValidationError } from '../../errors.js';
import { taxAmount } from '../money/fees.js';

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const DAY_MS = 86_400_000;
/** A checkout may expire at most this far ahead (spec: Limits, checkout expires_at). */
export const MAX_CHECKOUT_MS = 30 * DAY_MS;
/** The fallback expiry stays this much inside the 30 days: checkout creation reads the clock again. */
const EXPIRY_MARGIN_MS = 1000;

export interface LineItemInput {
  description: string;
  quantity: number;
  unit_price: number;
}
export interface LineItem extends LineItemInput {
  total: number;
}

export interface MoneyInput {
  line_items?: readonly LineItemInput[] | undefined;
  subtotal?: number | undefined;
  amount?: number | undefined;
  tax_rate?: number | undefined;
}

export interface InvoiceMoney {
  line_items: LineItem[];
  subtotal: number;
  tax_rate: number;
  tax_amount: number;
  amount: number;
}

/** quantity × unit_price, exact; null when the product is above Number.MAX_SAFE_INTEGER. */
export function lineTotal(quantity: number, unitPrice: number): number | null {
  const total = BigInt(quantity) * BigInt(unitPrice);
  return total > MAX_SAFE ? null : Number(total);
}

function requireInteger(field: string, value: number, min: number, max = Number.MAX_SAFE_INTEGER): void {
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new ValidationError(field, `must be an integer from ${min} to ${max}`);
  }
}

/**
 * Derives every money field from what the caller gave. Line totals are quantity × unit_price;
 * subtotal is Σ line totals, or the given subtotal, or amount when only amount is given;
 * tax_amount = subtotal × tax_rate / 10000 half up; amount = subtotal + tax_amount.
 * Inputs that contradict each other are a 422 naming the field, never a guess. An empty
 * line_items array counts as no line items (our choice).
 */
export function invoiceMoney(input: MoneyInput): InvoiceMoney {
  const items = input.line_items ?? [];
  const hasItems = items.length > 0;
  const hasSubtotal = input.subtotal !== undefined;
  const hasAmount = input.amount !== undefined;
  const taxRate = input.tax_rate ?? 0;
  requireInteger('tax_rate', taxRate, 0, 10_000);
  if (input.subtotal !== undefined) requireInteger('subtotal', input.subtotal, 0);
  if (input.amount !== undefined) requireInteger('amount', input.amount, 1);

  if (!hasItems && !hasSubtotal && !hasAmount) {
    throw new ValidationError('amount', 'is required when neither line_items nor subtotal is given');
  }
  if (!hasItems && !hasSubtotal && taxRate > 0) {
    throw new ValidationError(
      'tax_rate',
      'applies to a subtotal or line_items; amount alone is the final total (give subtotal to have tax calculated)',
    );
  }

  const lines = items.map((item, i): LineItem => {
    requireInteger(`line_items[${i}].quantity`, item.quantity, 1);
    requireInteger(`line_items[${i}].unit_price`, item.unit_price, 0);
    const total = lineTotal(item.quantity, item.unit_price);
    if (total === null) {
      throw new ValidationError(
        `line_items[${i}]`,
        `quantity × unit_price (${item.quantity} × ${item.unit_price}) exceeds ${Number.MAX_SAFE_INTEGER}`,
      );
    }
    return { description: item.description, quantity: item.quantity, unit_price: item.unit_price, total };
  });

  let subtotal: number;
  if (hasItems) {
    const sum = lines.reduce((acc, line) => acc + BigInt(line.total), 0n);
    if (sum > MAX_SAFE) {
      throw new ValidationError(
        'line_items',
        `the line totals add up to ${sum}, above ${Number.MAX_SAFE_INTEGER}`,
      );
    }
    subtotal = Number(sum);
    if (hasSubtotal && input.subtotal !== subtotal) {
      throw new ValidationError(
        'subtotal',
        `${input.subtotal} is not the sum of the line totals (${subtotal})`,
      );
    }
  } else {
    subtotal = input.subtotal ?? (input.amount as number);
  }

  const tax = taxAmount(subtotal, taxRate);
  const total = BigInt(subtotal) + BigInt(tax);
  if (total > MAX_SAFE) {
    throw new ValidationError(
      'amount',
      `subtotal + tax_amount (${subtotal} + ${tax}) exceeds ${Number.MAX_SAFE_INTEGER}`,
    );
  }
  const amount = Number(total);
  if (hasAmount && (hasItems || hasSubtotal) && input.amount !== amount) {
    throw new ValidationError(
      'amount',
      `${input.amount} is not subtotal + tax_amount (${subtotal} + ${tax} = ${amount}); omit amount or make it match`,
    );
  }
  if (amount === 0)
    throw new ValidationError('amount', 'the invoice total must be at least 1 (it comes to 0)');
  return { line_items: lines, subtotal, tax_rate: taxRate, tax_amount: tax, amount };
}

/** INV-000001: the number zero-padded to six digits (more digits once past 999999). */
export function formatInvoiceNumber(sequence: number): string {
  return `INV-${String(sequence).padStart(6, '0')}`;
}

/** YYYY-MM-DD naming a real calendar day (2026-02-30 is not). */
export function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const ms = Date.parse(`${value}T00:00:00.000Z`);
  return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === value;
}

/** The last millisecond of a UTC calendar day: 23:59:59.999Z. */
export function endOfDay(date: string): number {
  return Date.parse(`${date}T23:59:59.999Z`);
}

/**
 * When the checkout an activation creates expires: the end of due_date if that is in the future
 * and at most 30 days from now, else 30 days from now (less a second: checkout creation checks the
 * 30-day limit against its own, slightly later, reading of the clock).
 */
export function checkoutExpiry(dueDate: string | null, now: number): number {
  const fallback = now + MAX_CHECKOUT_MS - EXPIRY_MARGIN_MS;
  if (dueDate === null) return fallback;
  const end = endOfDay(dueDate);
  return end > now && end <= now + MAX_CHECKOUT_MS ? end : fallback;
}
