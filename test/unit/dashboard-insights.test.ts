import { describe, expect, it } from 'vitest';
import type { CheckoutItem, Delivery, SandboxEvent } from '../../renderer/api/types.js';
import { declineInWords, formatDay } from '../../renderer/lib/format.js';
import {
  cardSpend,
  cardTransactions,
  checkoutsByStatus,
  paidVolume,
  totals,
  webhookHealth,
} from '../../renderer/lib/insights.js';

// The home page's sums, in integer minor units, per currency and per sandbox day (UTC).

const NOW = Date.parse('2026-12-03T10:00:00Z');
const checkout = (status: string, paid: number | null, paidAt: string | null, currency = 'USDC') =>
  ({ status, paid_amount: paid, paid_at: paidAt, currency }) as CheckoutItem;
const cardEvent = (id: string, status: string, amount: number, at: string) =>
  ({
    type: 'card.transaction',
    created_at: at,
    data: { id, status, amount, type: 'card_payment', created_at: at },
  }) as unknown as SandboxEvent;

describe('home page sums', () => {
  it('adds paid amounts to the day they were paid, per currency, within the last 30 days', () => {
    const series = paidVolume(
      [
        checkout('completed', 120_000_000, '2026-12-03T01:00:00Z'),
        checkout('paid', 30_000_000, '2026-12-03T23:59:59Z'),
        checkout('partial', 5_000_000, '2026-12-01T12:00:00Z', 'USDT'),
        checkout('active', null, null),
        checkout('completed', 99_000_000, '2026-10-01T00:00:00Z'), // before the window
      ],
      NOW,
    );
    expect(series.days).toHaveLength(30);
    expect(series.days.at(-1)).toBe(Date.parse('2026-12-03T00:00:00Z'));
    expect(series.byCurrency.USDC?.at(-1)).toBe(150_000_000);
    expect(series.byCurrency.USDT?.at(-3)).toBe(5_000_000);
    expect(totals(series)).toEqual({ USDC: 150_000_000, USDT: 5_000_000 });
  });

  it('counts checkouts per status, most first', () => {
    const rows = checkoutsByStatus([
      checkout('paid', 1, 'x'),
      checkout('active', null, null),
      checkout('paid', 1, 'x'),
    ]);
    expect(rows).toEqual([
      { status: 'paid', count: 2 },
      { status: 'active', count: 1 },
    ]);
  });

  it('takes each card transaction in its newest state; only settled payments are spend', () => {
    // Newest first, as the event log lists them.
    const txs = cardTransactions([
      cardEvent('a', 'completed', -74_000_000, '2026-12-02T10:00:00Z'),
      cardEvent('a', 'requested', -74_000_000, '2026-12-02T10:00:00Z'),
      cardEvent('b', 'declined', -9_000_000_000, '2026-12-02T11:00:00Z'),
      cardEvent('b', 'requested', -9_000_000_000, '2026-12-02T11:00:00Z'),
    ]);
    expect(txs.map((t) => `${t.id}:${t.status}`)).toEqual(['a:completed', 'b:declined']);
    expect(totals(cardSpend(txs, NOW))).toEqual({ USDC: 74_000_000 });
  });
});

describe('webhook health', () => {
  const delivery = (status: 'pending' | 'delivered' | 'failed', attempts: number) =>
    ({ status, attempt_count: attempts }) as Delivery;

  it('counts retrying and failed deliveries against the rate: 4 of 10 retrying is not 100%', () => {
    const health = webhookHealth([
      ...Array.from({ length: 6 }, () => delivery('delivered', 1)),
      ...Array.from({ length: 4 }, () => delivery('pending', 1)),
    ]);
    expect(health).toMatchObject({ delivered: 6, retrying: 4, failed: 0, sending: 0, firstTry: 6, rate: 60 });
  });

  it('rounds down (99.9% is not 100%), leaves unsent deliveries out, and has no rate before any attempt', () => {
    const many = [...Array.from({ length: 999 }, () => delivery('delivered', 2)), delivery('failed', 5)];
    expect(webhookHealth(many)).toMatchObject({ rate: 99, firstTry: 0, failed: 1 });
    expect(webhookHealth([delivery('pending', 0), delivery('delivered', 1)])).toMatchObject({
      sending: 1,
      rate: 100,
    });
    expect(webhookHealth([delivery('pending', 0)]).rate).toBeNull();
    expect(webhookHealth([]).rate).toBeNull();
  });
});

describe('plain words', () => {
  it('says card declines as a merchant would', () => {
    expect(declineInWords('exceeds spend_tx_max (5,000.00 USDC)')).toBe(
      'Over the card’s limit per payment (5,000.00 USDC)',
    );
    expect(declineInWords('insufficient funds (balance 12.00 USDC)')).toBe(
      'Not enough money on the card (12.00 USDC left)',
    );
    expect(declineInWords('card is locked')).toBe('The card is locked');
    expect(declineInWords('something new')).toBe('Something new');
  });

  it('shows dates without time like the timestamps', () => {
    expect(formatDay('2026-12-31')).toBe('31 Dec 2026');
  });
});
