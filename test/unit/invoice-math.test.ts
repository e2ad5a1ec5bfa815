import { describe, expect, it } from 'vitest';
import {
  checkoutExpiry,
  endOfDay,
  formatInvoiceNumber,
  invoiceMoney,
  isCalendarDate,
  lineTotal,
} from '../../server/domain/invoices/math.js';
import { ValidationError } from '../../server/errors.js';

const MAX = Number.MAX_SAFE_INTEGER; // 9_007_199_254_740_991
const item = (quantity: number, unit_price: number, description = 'x') => ({
  description,
  quantity,
  unit_price,
});

/** Runs `fn`, expecting a 422 whose message starts with `field: `. */
function expect422(fn: () => unknown, field: string): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    const message = (error as ValidationError).message;
    expect((error as ValidationError).statusCode).toBe(422);
    expect(message.startsWith(`${field}: `), message).toBe(true);
    return message;
  }
  throw new Error(`expected a 422 naming ${field}`);
}

describe('invoice math (hand-computed)', () => {
  it('line totals are quantity × unit_price, exact up to MAX_SAFE_INTEGER', () => {
    expect(lineTotal(3, 1_333_333)).toBe(3_999_999);
    expect(lineTotal(1, 0)).toBe(0);
    expect(lineTotal(1, MAX)).toBe(MAX);
    expect(lineTotal(3, 3_002_399_751_580_330)).toBe(9_007_199_254_740_990);
    // 2 × 2^52 = 2^53: one above the largest safe integer.
    expect(lineTotal(2, 4_503_599_627_370_496)).toBeNull();
    expect(lineTotal(MAX, MAX)).toBeNull();
  });

  it('line items: subtotal = Σ totals, tax half up, amount = subtotal + tax', () => {
    // 2 × 12.5 + 3 × 1.333333 = 28.999999; × 8.25% = 2.3924999175 → 2.392500
    expect(
      invoiceMoney({
        line_items: [item(2, 12_500_000, 'Seat'), item(3, 1_333_333, 'Add-on')],
        tax_rate: 825,
      }),
    ).toEqual({
      line_items: [
        { description: 'Seat', quantity: 2, unit_price: 12_500_000, total: 25_000_000 },
        { description: 'Add-on', quantity: 3, unit_price: 1_333_333, total: 3_999_999 },
      ],
      subtotal: 28_999_999,
      tax_rate: 825,
      tax_amount: 2_392_500,
      amount: 31_392_499,
    });
  });

  it('amount only: subtotal = amount, no tax, no line items', () => {
    expect(invoiceMoney({ amount: 5_000_000 })).toEqual({
      line_items: [],
      subtotal: 5_000_000,
      tax_rate: 0,
      tax_amount: 0,
      amount: 5_000_000,
    });
    expect(invoiceMoney({ amount: 1, tax_rate: 0 }).amount).toBe(1);
  });

  it('subtotal + tax_rate rounds half up', () => {
    // 1_000_005 × 12.5% = 125_000.625 → 125_001
    expect(invoiceMoney({ subtotal: 1_000_005, tax_rate: 1250 })).toMatchObject({
      subtotal: 1_000_005,
      tax_amount: 125_001,
      amount: 1_125_006,
      line_items: [],
    });
    // exactly half: 2 × 25% = 0.5 → 1; just under: 1 × 49.99% = 0.4999 → 0
    expect(invoiceMoney({ subtotal: 2, tax_rate: 2500 }).tax_amount).toBe(1);
    expect(invoiceMoney({ subtotal: 1, tax_rate: 5000 }).tax_amount).toBe(1);
    expect(invoiceMoney({ subtotal: 1, tax_rate: 4999 }).tax_amount).toBe(0);
    // 100% tax doubles the subtotal
    expect(invoiceMoney({ subtotal: 7, tax_rate: 10_000 })).toMatchObject({ tax_amount: 7, amount: 14 });
    // 3 × 33.33% = 0.9999 → 1
    expect(invoiceMoney({ subtotal: 3, tax_rate: 3333 }).tax_amount).toBe(1);
  });

  it('consistent redundant inputs are accepted', () => {
    expect(
      invoiceMoney({
        line_items: [item(4, 250_000)],
        subtotal: 1_000_000,
        tax_rate: 1000,
        amount: 1_100_000,
      }),
    ).toMatchObject({ subtotal: 1_000_000, tax_amount: 100_000, amount: 1_100_000 });
    expect(invoiceMoney({ subtotal: 1_000_005, tax_rate: 1250, amount: 1_125_006 }).amount).toBe(1_125_006);
    // A zero-priced line next to a paid one is fine; an empty list counts as no line items.
    expect(invoiceMoney({ line_items: [item(1, 0), item(1, 9)] }).amount).toBe(9);
    expect(invoiceMoney({ line_items: [], amount: 10 })).toMatchObject({
      subtotal: 10,
      amount: 10,
      line_items: [],
    });
  });

  it('contradictory inputs are a 422 naming the field', () => {
    expect(expect422(() => invoiceMoney({ line_items: [item(2, 5)], subtotal: 11 }), 'subtotal')).toContain(
      '10',
    );
    expect(expect422(() => invoiceMoney({ line_items: [item(2, 5)], amount: 11 }), 'amount')).toContain('10');
    // 1_000_005 + 125_001 = 1_125_006, not the pre-rounding 1_125_005
    expect422(() => invoiceMoney({ subtotal: 1_000_005, tax_rate: 1250, amount: 1_125_005 }), 'amount');
    expect422(() => invoiceMoney({ amount: 1_000_000, tax_rate: 1000 }), 'tax_rate');
    expect(expect422(() => invoiceMoney({}), 'amount')).toMatch(/line_items.*subtotal/);
    expect422(() => invoiceMoney({ tax_rate: 100 }), 'amount');
    expect422(() => invoiceMoney({ line_items: [] }), 'amount');
    expect422(() => invoiceMoney({ line_items: [item(3, 0)] }), 'amount');
    expect422(() => invoiceMoney({ subtotal: 0 }), 'amount');
    expect422(() => invoiceMoney({ subtotal: 0, tax_rate: 10_000 }), 'amount');
  });

  it('totals above MAX_SAFE_INTEGER are a 422, never rounded', () => {
    expect(
      expect422(
        () => invoiceMoney({ line_items: [item(1, 1), item(2, 4_503_599_627_370_496)] }),
        'line_items[1]',
      ),
    ).toContain(String(MAX));
    expect422(() => invoiceMoney({ line_items: [item(1, MAX), item(1, 1)] }), 'line_items');
    // MAX × 0.01% = 900_719_925_474.0991 → tax 900_719_925_474 pushes the total over
    expect422(() => invoiceMoney({ subtotal: MAX, tax_rate: 1 }), 'amount');
    expect(invoiceMoney({ subtotal: MAX }).amount).toBe(MAX);
  });

  it('guards its integer inputs for callers without a schema', () => {
    expect422(() => invoiceMoney({ subtotal: 10, tax_rate: 10_001 }), 'tax_rate');
    expect422(() => invoiceMoney({ subtotal: 1.5 }), 'subtotal');
    expect422(() => invoiceMoney({ amount: 0 }), 'amount');
    expect422(() => invoiceMoney({ line_items: [item(0, 5)] }), 'line_items[0].quantity');
    expect422(() => invoiceMoney({ line_items: [item(1, -1)] }), 'line_items[0].unit_price');
  });

  it('numbers are INV- and six zero-padded digits', () => {
    expect(formatInvoiceNumber(1)).toBe('INV-000001');
    expect(formatInvoiceNumber(42)).toBe('INV-000042');
    expect(formatInvoiceNumber(999_999)).toBe('INV-999999');
    expect(formatInvoiceNumber(1_000_000)).toBe('INV-1000000');
  });

  it('due dates must be real calendar days', () => {
    for (const ok of ['2026-02-28', '2024-02-29', '2026-12-31', '2000-02-29'])
      expect(isCalendarDate(ok), ok).toBe(true);
    for (const bad of [
      '2026-02-30',
      '2025-02-29',
      '1900-02-29',
      '2026-04-31',
      '2026-13-01',
      '2026-1-01',
      '2026-01-01T00:00:00Z',
      '',
    ])
      expect(isCalendarDate(bad), bad).toBe(false);
    expect(new Date(endOfDay('2026-02-28')).toISOString()).toBe('2026-02-28T23:59:59.999Z');
  });

  it('checkout expiry: end of due_date when future and within 30 days, else now + 30 days − 1 s', () => {
    const now = Date.parse('2026-01-15T12:00:00.000Z');
    const iso = (ms: number) => new Date(ms).toISOString();
    const fallback = '2026-02-14T11:59:59.000Z';
    expect(iso(checkoutExpiry('2026-01-20', now))).toBe('2026-01-20T23:59:59.999Z');
    expect(iso(checkoutExpiry('2026-01-15', now))).toBe('2026-01-15T23:59:59.999Z'); // today, still ahead
    expect(iso(checkoutExpiry('2026-02-13', now))).toBe('2026-02-13T23:59:59.999Z'); // 29.5 days
    expect(iso(checkoutExpiry('2026-02-14', now))).toBe(fallback); // ends 30.5 days out
    expect(iso(checkoutExpiry('2026-01-14', now))).toBe(fallback); // already past
    expect(iso(checkoutExpiry(null, now))).toBe(fallback);
    // the end of the day exactly 30 days ahead is still within
    expect(iso(checkoutExpiry('2026-02-14', Date.parse('2026-01-15T23:59:59.999Z')))).toBe(
      '2026-02-14T23:59:59.999Z',
    );
  });
});
