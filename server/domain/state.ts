import type { ApplicationStatus, CardStatus, CardTransactionStatus, KycStatus } from '../contract/cards.js';
import type { CheckoutStatus } from '../contract/checkouts.js';
import type { PayoutStatus } from '../contract/funds.js';
import type { InvoiceStatus } from '../contract/invoices.js';
import type { KybStatus } from '../contract/merchants.js';
import type { ResellerConnectionStatus } from '../contract/resellers.js';
import type { DeliveryStatus } from '../contract/webhooks.js';
import { BusinessRuleError } from '../errors.js';

/** The `from` of a new row's first status, as the coverage report names it. */
export const NEW = '(new)';

/** A refused status move: one error type for every resource (a 400 with the status named). */
export class TransitionError extends BusinessRuleError {
  constructor(
    readonly resource: string,
    readonly from: string,
    readonly to: string,
    message = `Cannot move a ${resource} from ${from} to ${to}`,
  ) {
    super(message);
  }
}

/**
 * A resource's allowed status moves, in one table. Every status change of every resource goes
 * through `move` (or `assert` where the new row is built by hand), so a move the table does not
 * list can never be written.
 */
export class StateMachine<S extends string> {
  constructor(
    readonly resource: string,
    readonly moves: Readonly<Record<S, readonly S[]>>,
    /** The statuses a new row may start in (the spec's "(new)" rows). */
    readonly initial: readonly S[] = [],
  ) {}

  get states(): S[] {
    return Object.keys(this.moves) as S[];
  }

  can(from: S, to: S): boolean {
    return this.moves[from]?.includes(to) ?? false;
  }

  /** Throws a TransitionError (with `message`, when given, so each caller keeps the spec's words). */
  assert(from: S, to: S, message?: string): void {
    if (!this.can(from, to)) throw new TransitionError(this.resource, from, to, message);
  }

  /** Throws a TransitionError unless a new row may start in `status`. */
  assertInitial(status: S): void {
    if (!this.initial.includes(status)) throw new TransitionError(this.resource, NEW, status);
  }

  /** The row with its new status, after checking the move. */
  move<R extends { status: S }>(row: R, to: S, message?: string): R {
    this.assert(row.status, to, message);
    return { ...row, status: to };
  }
}

/** spec: States and transitions, Checkout (refund moves included). */
export const checkoutStates = new StateMachine<CheckoutStatus>(
  'checkout',
  {
    active: ['paid', 'expired', 'partial', 'cancelled'],
    paid: ['completed', 'partially_refunded', 'refunded'],
    completed: ['partially_refunded', 'refunded'],
    partial: ['partially_refunded', 'refunded'],
    partially_refunded: ['partially_refunded', 'refunded'],
    refunded: [],
    expired: [],
    cancelled: [],
  },
  ['active'],
);

/** Invoice: activation sends it, its checkout's payment pays it; draft or sent can be cancelled. */
export const invoiceStates = new StateMachine<InvoiceStatus>(
  'invoice',
  {
    draft: ['sent', 'cancelled'],
    sent: ['paid', 'cancelled'],
    paid: [],
    cancelled: [],
  },
  ['draft'],
);

/** Card: a physical card is activated once; active ⇄ locked (spec); any live card can be cancelled. */
export const cardStates = new StateMachine<CardStatus>(
  'card',
  {
    notActivated: ['active', 'canceled'],
    active: ['locked', 'canceled'],
    locked: ['active', 'canceled'],
    canceled: [],
  },
  ['active', 'notActivated'],
);

/** Card application: manual review decides a pending one once (auto review creates it approved). */
export const applicationStates = new StateMachine<ApplicationStatus>(
  'card application',
  {
    pending: ['approved', 'rejected'],
    approved: [],
    rejected: [],
  },
  ['pending', 'approved'],
);

/**
 * Identity verification: a session starts it; the provider's result decides it. A rejected
 * cardholder may start again (a new session); a result may arrive without a session started
 * through the API (the sandbox plays the provider) and the provider may review a decided
 * cardholder again. Nothing returns to not_started, and a verified cardholder never goes back to
 * pending.
 */
export const kycStates = new StateMachine<KycStatus>(
  'identity verification',
  {
    not_started: ['pending', 'approved', 'rejected'],
    pending: ['pending', 'approved', 'rejected'],
    rejected: ['pending', 'approved', 'rejected'],
    approved: ['approved', 'rejected'],
  },
  ['not_started'],
);

/** spec: Card transaction (webhook statuses): an authorization is settled, declined or reversed. */
export const cardTransactionStates = new StateMachine<CardTransactionStatus>(
  'card transaction',
  {
    requested: ['completed', 'declined', 'reversed'],
    pending: ['completed', 'declined', 'reversed'],
    paid: ['completed'],
    completed: [],
    declined: [],
    reversed: [],
  },
  ['requested', 'declined', 'completed'],
);

/**
 * spec: Webhook delivery: pending until a 2xx (delivered) or the 5th failure (failed). A manual
 * retry (the sandbox's, like the service dashboard's) sends once more whatever the status, and the
 * attempt's answer decides again.
 */
export const deliveryStates = new StateMachine<DeliveryStatus>(
  'webhook delivery',
  {
    pending: ['pending', 'delivered', 'failed'],
    delivered: ['delivered', 'pending', 'failed'],
    failed: ['failed', 'pending', 'delivered'],
  },
  ['pending'],
);

/** KYB is decided by the platform: the sandbox plays the reviewer and may set any status. */
export const kybStates = new StateMachine<KybStatus>('KYB review', {
  draft: ['draft', 'pending', 'approved', 'rejected'],
  pending: ['draft', 'pending', 'approved', 'rejected'],
  approved: ['draft', 'pending', 'approved', 'rejected'],
  rejected: ['draft', 'pending', 'approved', 'rejected'],
});

/**
 * spec: States and transitions, Reseller connection. A new connection is created active (a new
 * row, no move). active → active: the terms are updated (PUT, or POST for the same merchant);
 * active → revoked: the target merchant revokes it; revoked → active: the reseller re-creates it
 * (POST for the same merchant). PUT is the spec's active → active row only, so a revoked connection
 * is re-created, never updated (ResellerService.update refuses it with a TransitionError). The
 * reseller's DELETE removes the record whatever its status: that is no status move.
 */
export const resellerConnectionStates = new StateMachine<ResellerConnectionStatus>(
  'reseller connection',
  {
    active: ['active', 'revoked'],
    revoked: ['active'],
  },
  ['active'],
);

/** Payout (spec: events only): the payout rail answers at once, so a payout starts decided. */
export const payoutStates = new StateMachine<PayoutStatus>('payout', { completed: [], failed: [] }, [
  'completed',
  'failed',
]);

/** A spec state machine as the coverage report lists it: its table above, and each move's trigger. */
export interface CoveredMachine {
  /** the name the report and storage use (server/db/migrations/023-coverage.ts counts under it) */
  name: string;
  states: StateMachine<string>;
  /** what makes the move, in the spec's words where it has them */
  via: (from: string, to: string) => string;
}

const refundVia = (to: string) =>
  to === 'refunded' ? 'refund that brings refunded_amount to paid_amount' : 'partial refund';

/**
 * Every state machine of the spec, for the coverage report: each (new) → initial and each move of
 * its table is one transition. Storage counts the status writes it sees; a test checks that every
 * counted move is one listed here, so the domain cannot make a move this list lacks.
 */
export const COVERED_MACHINES: readonly CoveredMachine[] = [
  {
    name: 'checkout',
    states: checkoutStates,
    via: (from, to) =>
      ({
        active: 'POST /v1/checkouts',
        paid: 'payment detected on-chain',
        completed: 'settlement, about 1 minute after paid',
        expired: 'expiry time reached, no payment',
        partial: 'expiry reached after a partial payment',
        cancelled: 'DELETE /v1/checkouts/{id} or dashboard cancel',
      })[to] ?? (from === NEW ? '' : refundVia(to)),
  },
  {
    name: 'invoice',
    states: invoiceStates,
    via: (_from, to) =>
      ({
        draft: 'POST /v1/invoices',
        sent: 'POST /v1/invoices/{id}/activate',
        paid: 'its checkout is paid',
        cancelled: 'DELETE /v1/invoices/{id}',
      })[to] ?? '',
  },
  {
    name: 'card',
    states: cardStates,
    via: (from, to) =>
      from === NEW
        ? `${to === 'active' ? 'virtual' : 'physical'} card issued`
        : ({
            active: from === 'locked' ? 'PATCH card with status active' : 'activation',
            locked: 'PATCH card with status locked',
            canceled: 'card cancelled',
          }[to] ?? ''),
  },
  {
    name: 'cardholder_kyc',
    states: kycStates,
    via: (from, to) =>
      from === NEW
        ? 'POST /v1/cardholders'
        : to === 'pending'
          ? 'verification session started'
          : `identity provider result: ${to}`,
  },
  {
    name: 'card_application',
    states: applicationStates,
    via: (from, to) =>
      from === NEW
        ? `application submitted (${to === 'approved' ? 'auto' : 'manual'} review)`
        : `manual review: ${to}`,
  },
  {
    name: 'card_transaction',
    states: cardTransactionStates,
    via: (from, to) =>
      from === NEW
        ? ({
            requested: 'authorization',
            declined: 'authorization declined at once by the card rules',
            completed: 'refund, deposit or withdrawal',
          }[to] ?? '')
        : ({ completed: 'settlement', declined: 'decline', reversed: 'reversal' }[to] ?? ''),
  },
  {
    name: 'reseller_connection',
    states: resellerConnectionStates,
    via: (from, to) =>
      from === NEW
        ? 'POST /v1/reseller/connections or /v1/reseller/provision'
        : to === 'revoked'
          ? 'the merchant revokes it'
          : from === 'revoked'
            ? 'POST /v1/reseller/connections for the same merchant'
            : 'terms updated (PUT, or POST for the same merchant)',
  },
  {
    name: 'payout',
    states: payoutStates,
    via: (_from, to) => (to === 'completed' ? 'payout confirmed' : 'payout failed'),
  },
  {
    name: 'webhook_delivery',
    states: deliveryStates,
    via: (from, to) =>
      from === NEW
        ? 'event fanned out to a subscribed endpoint'
        : from !== 'pending'
          ? `manual retry, then ${to === 'delivered' ? 'a 2xx' : to === 'failed' ? 'a failure' : 'waiting'}`
          : ({
              pending: 'failed attempt, retry scheduled',
              delivered: 'a 2xx answer',
              failed: 'the 5th failed attempt',
            }[to] ?? ''),
  },
];
