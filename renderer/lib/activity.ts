// An event of the log as one line a merchant reads: "Payment received · 120.00 USDC · NW-1008".
import type { SandboxEvent } from '../api/types';
import { formatMoney, humanize } from './format';

const HEADLINES: Record<string, string> = {
  'checkout.created': 'Checkout created',
  'checkout.paid': 'Payment received',
  'checkout.completed': 'Payment settled',
  'checkout.partial': 'Paid in part',
  'checkout.refunded': 'Refund sent',
  'checkout.partially_refunded': 'Part refunded',
  'checkout.expired': 'Checkout expired',
  'checkout.cancelled': 'Checkout cancelled',
  'invoice.paid': 'Invoice paid',
  'invoice.sent': 'Invoice sent',
  'payout.completed': 'Payout sent',
  'payout.failed': 'Payout failed',
  'card.created': 'Card issued',
  'deposit.received': 'Deposit received',
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

export function describeEvent(event: SandboxEvent): ActivityLine {
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
    headline: HEADLINES[event.type] ?? humanize(event.type).replace(/^./, (c) => c.toUpperCase()),
    detail: text(data.title) ?? text(data.reference) ?? text(data.number) ?? null,
    amount: amount !== null && currency ? formatMoney(amount, currency) : null,
    tone: bad ? 'bad' : good ? 'good' : 'neutral',
  };
}
