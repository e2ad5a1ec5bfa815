import { readFileSync } from 'node:fs';
import type { EventType } from '../contract/events.js';

/**
 * The built-in scenario library: one YAML file per entry in ./library/ (shipped beside this module
 * in dist/ too), each producing one event sequence and asserting it with expect steps. Run them with
 * `svc-sandbox trigger NAME`, POST /sandbox/scenarios/library/{name}/run or the dashboard; `demo`
 * builds a sales-demo workspace (`svc-sandbox serve --demo`).
 */
export interface LibraryEntry {
  /** the file is `library/<name>.yaml`; the scenario's own `name` is the same */
  name: string;
  description: string;
  /** the webhook event types it produces, in order */
  events: EventType[];
}

export const LIBRARY: readonly LibraryEntry[] = [
  {
    name: 'checkout.created',
    description: 'A merchant creates a 25 USDC checkout.',
    events: ['checkout.created'],
  },
  {
    name: 'checkout.paid',
    description: 'A checkout is paid in full on-chain.',
    events: ['checkout.created', 'checkout.paid'],
  },
  {
    name: 'checkout.completed',
    description: 'A paid checkout settles after the settlement delay; the funds become available.',
    events: ['checkout.created', 'checkout.paid', 'checkout.completed'],
  },
  {
    name: 'checkout.partial',
    description: '10 of 25 USDC arrive, then the checkout expires: it ends partial, the 10 USDC credited.',
    events: ['checkout.created', 'checkout.partial'],
  },
  {
    name: 'checkout.overpaid',
    description: '30 USDC arrive for a 25 USDC checkout: paid, with the whole 30 USDC as paid_amount.',
    events: ['checkout.created', 'checkout.paid', 'checkout.completed'],
  },
  {
    name: 'checkout.expired',
    description: 'Nothing arrives before the expiry.',
    events: ['checkout.created', 'checkout.expired'],
  },
  {
    name: 'checkout.cancelled',
    description: 'The merchant deletes an open checkout.',
    events: ['checkout.created', 'checkout.cancelled'],
  },
  {
    name: 'checkout.refunded',
    description: 'A completed checkout is refunded in part.',
    events: ['checkout.created', 'checkout.paid', 'checkout.completed', 'checkout.refunded'],
  },
  {
    name: 'refund.clawback',
    description:
      'A reseller’s checkout is refunded in half within the 7-day fee hold: part of the held reseller fee is clawed back.',
    events: ['checkout.created', 'checkout.paid', 'checkout.completed', 'checkout.refunded'],
  },
  {
    name: 'reseller.fees',
    description:
      'A reseller sells for a merchant at 5 %; 7 days after completion its fee is released to its income.',
    events: ['checkout.created', 'checkout.paid', 'checkout.completed'],
  },
  {
    name: 'invoice.sent',
    description: 'A draft invoice is activated and gets a checkout.',
    events: ['checkout.created', 'invoice.sent'],
  },
  {
    name: 'invoice.paid',
    description: 'A sent invoice’s checkout is paid.',
    events: ['checkout.created', 'invoice.sent', 'checkout.paid', 'invoice.paid'],
  },
  {
    name: 'deposit.received',
    description: '15 USDT arrive at the merchant’s static TRON address.',
    events: ['deposit.received'],
  },
  {
    name: 'payout.completed',
    description: 'A 20 USDC payout to the merchant’s bank completes.',
    events: ['payout.completed'],
  },
  {
    name: 'payout.failed',
    description: 'A payout is rejected by the bank; the money stays with the merchant.',
    events: ['payout.failed'],
  },
  {
    name: 'card.created',
    description: 'A KYC-verified cardholder is approved and issued a virtual card.',
    events: ['card.created'],
  },
  {
    name: 'card.transaction',
    description: 'A card payment is authorized, then settled by the network.',
    events: ['card.created', 'card.transaction', 'card.transaction'],
  },
  {
    name: 'card.declined.limit',
    description: 'An authorization above the card’s per-transaction limit is declined.',
    events: ['card.created', 'card.transaction', 'card.transaction'],
  },
  {
    name: 'card.reversal',
    description: 'A card authorization is voided before settlement; the held funds return.',
    events: ['card.created', 'card.transaction', 'card.transaction'],
  },
  {
    name: 'kyc.rejected',
    description: 'The identity provider rejects a cardholder, who then cannot apply for a card.',
    events: [],
  },
  {
    name: 'webhook.retries-exhausted',
    description:
      'An endpoint answers 500: checkout.created is retried at +5 m, +30 m, +2 h, +5 h, then failed.',
    events: ['checkout.created'],
  },
  {
    name: 'checkout.late-payment',
    description:
      'A transfer arrives after the checkout expired: recorded as late, credited to no one; the checkout stays expired.',
    events: ['checkout.created', 'checkout.expired'],
  },
  {
    name: 'checkout.partial-race',
    description:
      'Partial transfers race the expiry: those before it count and the checkout ends partial; the one after is late.',
    events: ['checkout.created', 'checkout.partial'],
  },
  {
    name: 'checkout.unsupported-chain',
    description:
      'A transfer on a chain the checkout does not offer: never detected, nothing credited; the checkout expires unpaid.',
    events: ['checkout.created', 'checkout.expired'],
  },
  {
    name: 'card.reversal.unsettled',
    description:
      'An authorization expecting settlement the next day is reversed instead; the hold returns and no settlement comes.',
    events: ['card.created', 'card.transaction', 'card.transaction'],
  },
  {
    name: 'deposit.burst',
    description:
      '25 transfers reach a static address in the same block: 25 deposits, 25 deposit.received, all credited.',
    events: Array.from({ length: 25 }, () => 'deposit.received' as const),
  },
  {
    name: 'demo',
    description:
      'A sales-demo workspace: branded merchants, checkouts in every state across chains, invoices, resellers with fee income, cardholders with cards and history, webhooks with failures and retries, spread over a month.',
    events: [
      'checkout.created',
      'checkout.paid',
      'checkout.completed',
      'checkout.partial',
      'checkout.expired',
      'checkout.cancelled',
      'checkout.refunded',
      'invoice.sent',
      'invoice.paid',
      'deposit.received',
      'payout.completed',
      'payout.failed',
      'card.created',
      'card.transaction',
    ],
  },
];

/** The library entry called `name`, or undefined. */
export function libraryEntry(name: string): LibraryEntry | undefined {
  return LIBRARY.find((entry) => entry.name === name);
}

/** The YAML text of a library entry (read from beside this module, in server/ and in dist/). */
export function libraryText(name: string): string {
  const entry = libraryEntry(name);
  if (!entry) throw new Error(`no library scenario named ${name}`);
  return readFileSync(new URL(`./library/${entry.name}.yaml`, import.meta.url), 'utf8');
}
