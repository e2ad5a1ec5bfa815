// What the home page shows, worked out from the lists the control API already serves (checkouts,
// card-transaction events, webhook deliveries): pure functions, so the store computes them once per
// read and a unit test can check the sums.
// The fields used, not the contract's types: this leaf imports nothing (the unit tests load it in Node).
interface CheckoutItem {
  status: string;
  currency: string;
  paid_amount: number | null;
  paid_at: string | null;
}
interface SandboxEvent {
  type: string;
  created_at: string;
  data: Record<string, unknown>;
}
interface Delivery {
  status: 'pending' | 'delivered' | 'failed';
  attempt_count: number;
}

const DAY = 86_400_000;

/** Days shown by the charts: the last 30, ending with the sandbox's today. */
export const CHART_DAYS = 30;

/** Midnight UTC of the day `ms` falls in. */
export const dayStart = (ms: number) => Math.floor(ms / DAY) * DAY;

/** One series per currency, one value (minor units) per day; `days` are the days' midnights (ms). */
export interface DailySeries {
  days: number[];
  byCurrency: Record<string, number[]>;
}

function emptySeries(now: number, count: number): DailySeries {
  const last = dayStart(now);
  return { days: Array.from({ length: count }, (_, i) => last - (count - 1 - i) * DAY), byCurrency: {} };
}

function addTo(series: DailySeries, at: number, currency: string, amount: number) {
  const index = (dayStart(at) - series.days[0]!) / DAY;
  if (index < 0 || index >= series.days.length) return;
  const values = series.byCurrency[currency] ?? series.days.map(() => 0);
  values[index]! += amount;
  series.byCurrency[currency] = values;
}

/** Money received per day: the paid amount of each checkout on the day it was paid. */
export function paidVolume(checkouts: CheckoutItem[], now: number, count = CHART_DAYS): DailySeries {
  const series = emptySeries(now, count);
  for (const checkout of checkouts) {
    if (checkout.paid_at && checkout.paid_amount) {
      addTo(series, Date.parse(checkout.paid_at), checkout.currency, checkout.paid_amount);
    }
  }
  return series;
}

/** How many checkouts are in each status, most first. */
export function checkoutsByStatus(checkouts: CheckoutItem[]): { status: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const checkout of checkouts) counts.set(checkout.status, (counts.get(checkout.status) ?? 0) + 1);
  return [...counts].map(([status, count]) => ({ status, count })).sort((a, b) => b.count - a.count);
}

/** One card transaction as its latest event tells it (the events carry no list of their own). */
export interface CardActivity {
  id: string;
  type: string;
  status: string;
  /** Negative for spending, as the API stores it. */
  amount: number;
  currency: string;
  merchantName: string | null;
  createdAt: string;
}

const text = (value: unknown) => (typeof value === 'string' ? value : null);

/**
 * The card transactions behind `card.transaction` events (newest first): one per transaction, in
 * the state of its newest event. The webhook payload names no currency: card wallets hold USDC.
 */
export function cardTransactions(events: SandboxEvent[]): CardActivity[] {
  const seen = new Map<string, CardActivity>();
  for (const event of events) {
    if (event.type !== 'card.transaction') continue;
    const id = text(event.data.id);
    const amount = event.data.amount;
    if (!id || seen.has(id) || typeof amount !== 'number') continue;
    seen.set(id, {
      id,
      type: text(event.data.type) ?? 'card_payment',
      status: text(event.data.status) ?? 'requested',
      amount,
      currency: text(event.data.currency) ?? 'USDC',
      merchantName: text(event.data.merchant_name),
      createdAt: text(event.data.created_at) ?? event.created_at,
    });
  }
  return [...seen.values()];
}

/** Card spending per day: completed card payments (as positive amounts). */
export function cardSpend(transactions: CardActivity[], now: number, count = CHART_DAYS): DailySeries {
  const series = emptySeries(now, count);
  for (const tx of transactions) {
    if (tx.type === 'card_payment' && tx.status === 'completed') {
      addTo(series, Date.parse(tx.createdAt), tx.currency, -tx.amount);
    }
  }
  return series;
}

/** Sum of each currency's series. */
export const totals = (series: DailySeries): Record<string, number> =>
  Object.fromEntries(
    Object.entries(series.byCurrency).map(([currency, values]) => [
      currency,
      values.reduce((a, b) => a + b, 0),
    ]),
  );

export interface WebhookHealth {
  delivered: number;
  failed: number;
  /** Pending after at least one failed attempt: a retry is due. */
  retrying: number;
  /** Pending with no attempt yet: being sent now. */
  sending: number;
  /** Delivered on the first attempt. */
  firstTry: number;
  /**
   * Delivered, in percent of every delivery that has had an attempt (delivered, failed or
   * retrying): a retrying delivery has not arrived, so it counts against the rate. Null before any.
   */
  rate: number | null;
}

export function webhookHealth(deliveries: readonly Delivery[]): WebhookHealth {
  const health: WebhookHealth = { delivered: 0, failed: 0, retrying: 0, sending: 0, firstTry: 0, rate: null };
  for (const delivery of deliveries) {
    if (delivery.status === 'pending') {
      if (delivery.attempt_count > 0) health.retrying += 1;
      else health.sending += 1;
    } else health[delivery.status] += 1;
    if (delivery.status === 'delivered' && delivery.attempt_count <= 1) health.firstTry += 1;
  }
  const tried = health.delivered + health.failed + health.retrying;
  if (tried > 0) health.rate = Math.floor((health.delivered / tried) * 100);
  return health;
}
