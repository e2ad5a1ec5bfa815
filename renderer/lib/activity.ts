// An event of the log as one line a merchant reads: "Payment received · 120.00 USDC · NW-1008".
import type { EventType, SandboxEvent } from '../api/types';
import { formatMoney, humanize } from './format';

/**
 * Every event type the contract lists, in a merchant's words: what presentation mode shows instead
 * of the type ("Payment received", not checkout.paid). A type the contract gains fails the
 * typecheck here until it has its words.
 */
export const EVENT_WORDS: Record<EventType, string> = {
  'checkout.created': 'Checkout created',
  'checkout.paid': 'Payment received',
  'checkout.completed': 'Payment settled',
  'checkout.partial': 'Paid in part',
  'checkout.refunded': 'Refund sent',
  'checkout.expired': 'Checkout expired',
  'checkout.cancelled': 'Checkout cancelled',
  'invoice.paid': 'Invoice paid',
  'invoice.sent': 'Invoice sent',
  'payout.completed': 'Payout sent',
  'payout.failed': 'Payout failed',
  'card.created': 'Card issued',
  'card.transaction': 'Card payment',
  'deposit.received': 'Deposit received',
};

/** An event type in words: its own words, else the type made readable ("Checkout partially refunded"). */
export const eventInWords = (type: string): string =>
  (EVENT_WORDS as Record<string, string>)[type] ?? humanize(type).replace(/^./, (c) => c.toUpperCase());

const HEADLINES: Record<string, string> = {
  ...EVENT_WORDS,
  'checkout.partially_refunded': 'Part refunded',
};

const CARD_HEADLINES: Record<string, string> = {
  requested: 'Card payment requested',
  pending: 'Card payment pending',
  paid: 'Card payment paid',
  completed: 'Card payment',
  declined: 'Card payment declined',
  reversed: 'Card payment reversed',
};

const text = (value: unknown) => (typeof value === 'string' && value ? value : null);
const num = (value: unknown) => (typeof value === 'number' ? value : null);

export type Tone = 'good' | 'bad' | 'neutral';

export interface ActivityLine {
  headline: string;
  detail: string | null;
  amount: string | null;
  tone: Tone;
}

/** An event (of the log, or a delivered body's `{event, data}`) as one line a merchant reads. */
export function describeEvent(event: Pick<SandboxEvent, 'type' | 'data'>): ActivityLine {
  const data = event.data;
  if (event.type === 'card.transaction') {
    const status = text(data.status) ?? 'requested';
    const kind = text(data.type);
    const amount = num(data.amount);
    const headline =
      kind === 'card_deposit'
        ? 'Card topped up'
        : kind === 'card_withdraw'
          ? 'Card funds withdrawn'
          : kind === 'card_refund'
            ? 'Card refund'
            : (CARD_HEADLINES[status] ?? 'Card payment');
    return {
      headline,
      detail: text(data.merchant_name),
      // The card payload names no currency: card wallets hold USDC.
      amount: amount === null ? null : formatMoney(Math.abs(amount), text(data.currency) ?? 'USDC'),
      tone: status === 'declined' || status === 'reversed' ? 'bad' : 'neutral',
    };
  }
  const currency = text(data.currency);
  const amount =
    event.type === 'checkout.refunded'
      ? (num(data.refunded_amount) ?? num(data.amount))
      : event.type === 'checkout.partial' || event.type === 'checkout.paid'
        ? (num(data.paid_amount) ?? num(data.amount))
        : num(data.amount);
  const bad = /failed|cancelled|expired|declined/.test(event.type);
  const good = /paid|completed|received/.test(event.type);
  return {
    headline: HEADLINES[event.type] ?? eventInWords(event.type),
    detail: text(data.title) ?? text(data.reference) ?? text(data.number) ?? null,
    amount: amount !== null && currency ? formatMoney(amount, currency) : null,
    tone: bad ? 'bad' : good ? 'good' : 'neutral',
  };
}
