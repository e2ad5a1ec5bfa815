import type { Clock } from '../../clock.js';
import type { Checkout, CheckoutPayment, CheckoutStatus, CryptoChain } from '../../contract/checkouts.js';
import type { Env } from '../../contract/common.js';
import type { Settings } from '../../contract/settings.js';
import type { CheckoutPaymentRow, CheckoutRow, CheckoutsRepo } from '../../db/checkouts.js';
import type { MerchantsRepo } from '../../db/merchants.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import { NotFoundError } from '../../errors.js';
import type { Ids } from '../../ids.js';
import type { JobQueue } from '../../scheduler.js';
import type { EventRecorder } from '../events/recorder.js';
import { Accounts, type Ledger } from '../ledger/service.js';
import { type CheckoutFees, checkoutFees } from '../money/fees.js';
import { checkoutStates } from '../state.js';
import { completedPayload, paidPayload, toCheckout } from './present.js';

export const JOB_EXPIRE = 'checkout.expire';
export const JOB_SETTLE = 'checkout.settle';
export const JOB_RELEASE_FEES = 'checkout.release-fees';
/** Platform and reseller fees stay held this long after paid_at; refunds inside it claw them back. */
export const FEE_HOLD_MS = 7 * 24 * 3600 * 1000;

export interface LifecycleDeps {
  checkouts: CheckoutsRepo;
  merchants: Pick<MerchantsRepo, 'findById'>;
  clock: Clock;
  ids: Ids;
  settings: () => Settings;
  events: Pick<EventRecorder, 'record'>;
  unit: Pick<UnitOfWork, 'atomically'>;
  scheduler: JobQueue;
  ledger: Ledger;
  baseUrl: (env: Env) => string;
}

/** An incoming transfer as the chain (or the fiat provider) reports it. */
export type IncomingPayment = Omit<CheckoutPaymentRow, 'id' | 'checkout_id' | 'created_at' | 'outcome'> & {
  /** the paying token's gas fee (0 for fiat) */
  gas_fee: number;
};

/**
 * A checkout's life after creation, shared by the merchant API, the chain simulator and the
 * scheduled jobs: every status change goes through `checkoutStates`, and every one moves money
 * through the ledger and records its event in the same transaction.
 */
export class CheckoutLifecycle {
  private readonly paidHooks: ((row: CheckoutRow) => void)[] = [];

  constructor(private readonly deps: LifecycleDeps) {}

  /** Runs inside the transaction that marks a checkout paid (invoices listen). */
  onPaid(hook: (row: CheckoutRow) => void): void {
    this.paidHooks.push(hook);
  }

  /** Any checkout by id, whatever its merchant or environment (ids are global UUIDs). */
  find(id: string): CheckoutRow {
    const row = this.deps.checkouts.findById(id);
    if (!row) throw new NotFoundError('Checkout', id);
    return row;
  }

  findIfExists(id: string): CheckoutRow | undefined {
    return this.deps.checkouts.findById(id);
  }

  present(row: CheckoutRow): Checkout {
    return toCheckout(row, this.deps.baseUrl(row.env));
  }

  payments(id: string): CheckoutPayment[] {
    this.find(id);
    return this.deps.checkouts.payments(id);
  }

  /** The payment a transfer already made, by its txid (a chain reports a transfer once). */
  paymentByTxid(txid: string): CheckoutPaymentRow | undefined {
    return this.deps.checkouts.paymentByTxid(txid);
  }

  /** Writes the row with a new status (checked against the state table) and other changes. */
  transition(row: CheckoutRow, to: CheckoutStatus, changes: Partial<CheckoutRow> = {}, message?: string) {
    return this.save({ ...checkoutStates.move(row, to, message), ...changes });
  }

  /** Writes changes that leave the status as it is. */
  save(row: CheckoutRow): CheckoutRow {
    const next = { ...row, updated_at: this.deps.clock.nowIso() };
    this.deps.checkouts.save(next);
    return next;
  }

  cancel(row: CheckoutRow): CheckoutRow {
    checkoutStates.assert(row.status, 'cancelled', `Cannot cancel a checkout with status ${row.status}`);
    return this.deps.unit.atomically(() => {
      const next = this.transition(row, 'cancelled');
      this.deps.scheduler.cancel(JOB_EXPIRE, row.id);
      if (row.received_amount > 0) {
        // Transfers that arrived before the cancel go back to the payer.
        this.deps.ledger.post(next.env, 'checkout.cancel', row.id, [
          {
            account: Accounts.pending(row.merchant_id),
            currency: row.currency,
            amount: -row.received_amount,
          },
          { account: Accounts.world, currency: row.currency, amount: row.received_amount },
        ]);
      }
      this.deps.events.record(next.env, next.merchant_id, 'checkout.cancelled', this.present(next));
      return next;
    });
  }

  /**
   * A transfer arrived. Transfers accumulate while the checkout is active; once they reach the
   * amount (any transfer for an open amount) it is paid: the fees are fixed on what arrived (an
   * overpayment included) and settlement is scheduled `settlement_delay_seconds` later on the
   * sandbox clock.
   */
  receive(row: CheckoutRow, incoming: IncomingPayment): { row: CheckoutRow; payment: CheckoutPaymentRow } {
    return this.deps.unit.atomically(() => {
      const now = this.deps.clock.nowIso();
      const { gas_fee: gasFee, ...fields } = incoming;
      const payment = this.insertPayment(row, fields, 'received');
      // Detected on-chain: the merchant's, but not available until settlement.
      this.deps.ledger.post(row.env, 'checkout.payment', row.id, [
        { account: Accounts.world, currency: row.currency, amount: -payment.amount },
        { account: Accounts.pending(row.merchant_id), currency: row.currency, amount: payment.amount },
      ]);
      const received = row.received_amount + payment.amount;
      const base: CheckoutRow = {
        ...row,
        received_amount: received,
        payer_address: payment.payer_address,
        paid_chain: payment.chain,
        paid_token: payment.token,
      };
      if (row.amount !== null && received < row.amount) return { row: this.save(base), payment };
      const next = this.transition(base, 'paid', {
        paid_amount: received,
        paid_at: now,
        ...this.fees(base, received, gasFee),
      });
      this.deps.scheduler.cancel(JOB_EXPIRE, row.id);
      this.deps.scheduler.schedule(
        JOB_SETTLE,
        row.id,
        this.deps.clock.now() + this.deps.settings().settlement_delay_seconds * 1000,
      );
      this.deps.events.record(next.env, next.merchant_id, 'checkout.paid', paidPayload(next));
      for (const hook of this.paidHooks) hook(next);
      return { row: next, payment };
    });
  }

  /**
   * A transfer the checkout does not count: `late` (it no longer accepts payments) or
   * `unsupported_chain` (sent on a chain it does not offer). Recorded on the checkout, which keeps
   * its status; no event. A late transfer reached the service's deposit address, so the platform
   * holds it (`platform:unmatched`), out of the merchant's balance; one on another chain never
   * reached the service and moves nothing in its books.
   */
  recordUncounted(
    row: CheckoutRow,
    incoming: IncomingPayment,
    outcome: 'late' | 'unsupported_chain',
  ): CheckoutPaymentRow {
    return this.deps.unit.atomically(() => {
      const { gas_fee: _gas, ...fields } = incoming;
      const payment = this.insertPayment(row, fields, outcome);
      if (outcome === 'late') {
        this.deps.ledger.post(row.env, 'checkout.late-payment', row.id, [
          { account: Accounts.world, currency: row.currency, amount: -payment.amount },
          { account: Accounts.unmatched, currency: row.currency, amount: payment.amount },
        ]);
      }
      return payment;
    });
  }

  private insertPayment(
    row: CheckoutRow,
    fields: Omit<IncomingPayment, 'gas_fee'>,
    outcome: CheckoutPaymentRow['outcome'],
  ): CheckoutPaymentRow {
    const payment: CheckoutPaymentRow = {
      id: this.deps.ids.uuid(),
      checkout_id: row.id,
      ...fields,
      outcome,
      created_at: this.deps.clock.nowIso(),
    };
    this.deps.checkouts.insertPayment(payment);
    return payment;
  }

  /** paid → completed: the funds are credited (less the fees fixed when paid) and checkout.completed fires. */
  settle(row: CheckoutRow, message?: string): CheckoutRow {
    checkoutStates.assert(row.status, 'completed', message);
    return this.deps.unit.atomically(() => {
      const next = this.transition(row, 'completed', this.credit(row));
      this.deps.scheduler.cancel(JOB_SETTLE, row.id);
      this.deps.events.record(next.env, next.merchant_id, 'checkout.completed', completedPayload(next));
      return next;
    });
  }

  /** active → expired, or → partial if anything arrived (credited, minus fees, as a partial payment). */
  expire(row: CheckoutRow, message?: string): CheckoutRow {
    const to = row.received_amount === 0 ? 'expired' : 'partial';
    checkoutStates.assert(row.status, to, message);
    return this.deps.unit.atomically(() => {
      this.deps.scheduler.cancel(JOB_EXPIRE, row.id);
      if (to === 'expired') {
        const next = this.transition(row, 'expired');
        this.deps.events.record(next.env, next.merchant_id, 'checkout.expired', this.present(next));
        return next;
      }
      const payments = this.deps.checkouts.payments(row.id).filter((p) => p.outcome === 'received');
      const last = payments[payments.length - 1];
      const gas = last?.chain ? gasFeeOf(row, last.chain, last.token) : 0;
      // What arrived is paid and credited at once: its fees are fixed and settled together.
      const paid: CheckoutRow = {
        ...row,
        paid_amount: row.received_amount,
        paid_at: last?.created_at ?? this.deps.clock.nowIso(),
        ...this.fees(row, row.received_amount, gas),
      };
      const next = this.transition(paid, 'partial', this.credit(paid));
      this.deps.events.record(next.env, next.merchant_id, 'checkout.partial', this.present(next));
      return next;
    });
  }

  /**
   * Credits a paid checkout's funds to the merchant if that has not happened yet (a refund before
   * settlement settles first). Returns the row as it is after. Runs inside the caller's transaction.
   */
  ensureSettled(row: CheckoutRow): CheckoutRow {
    if (row.settled_at !== null) return row;
    this.deps.scheduler.cancel(JOB_SETTLE, row.id);
    return this.save({ ...row, ...this.credit(row) });
  }

  /** End of the fee hold: held fees move to the platform and reseller accounts. */
  releaseFees(row: CheckoutRow): void {
    if (row.settled_at === null || row.fees_released_at !== null) return;
    const { currency, merchant_id: merchantId } = row;
    this.deps.ledger.post(row.env, 'fees.release', row.id, [
      { account: Accounts.feesHeld(merchantId), currency, amount: -(row.platform_fee + row.reseller_fee) },
      { account: Accounts.platformFees, currency, amount: row.platform_fee },
      ...(row.reseller_id
        ? [{ account: Accounts.resellerFees(row.reseller_id), currency, amount: row.reseller_fee }]
        : []),
    ]);
    this.save({ ...row, fees_released_at: this.deps.clock.nowIso() });
  }

  /**
   * The figures a payment of `paid` fixes (fee rules 1–4 and the gas fee): the platform rate of the
   * merchant (else the setting) as it is now, the reseller terms snapshotted at creation.
   */
  private fees(row: CheckoutRow, paid: number, gas: number): CheckoutFees {
    const merchant = this.deps.merchants.findById(row.merchant_id);
    const rate = merchant?.platform_rate ?? this.deps.settings().platform_rate;
    const reseller =
      row.reseller_rate === null
        ? null
        : { rate: row.reseller_rate, min_fee: row.reseller_min_fee, max_fee: row.reseller_max_fee };
    return checkoutFees(paid, rate, reseller, gas);
  }

  /**
   * Credits a paid row's `paid_amount` to the merchant out of pending, with the figures fixed when
   * it was paid, unchanged: less the platform and reseller fees, which stay held for 7 days from
   * paid_at, and less the gas fee. Returns the settlement time to store.
   */
  private credit(row: CheckoutRow): { settled_at: string } {
    const paid = row.paid_amount ?? 0;
    const gross = row.platform_fee + row.reseller_fee;
    const gas = row.platform_gas_fee;
    const { currency, merchant_id: merchantId } = row;
    this.deps.ledger.post(row.env, 'checkout.settlement', row.id, [
      { account: Accounts.pending(merchantId), currency, amount: -paid },
      { account: Accounts.available(merchantId), currency, amount: paid - gross - gas },
      { account: Accounts.feesHeld(merchantId), currency, amount: gross },
      { account: Accounts.platformGas, currency, amount: gas },
    ]);
    this.deps.scheduler.schedule(JOB_RELEASE_FEES, row.id, Date.parse(row.paid_at!) + FEE_HOLD_MS);
    return { settled_at: this.deps.clock.nowIso() };
  }
}

/** The gas fee of a chain/token as fixed on the checkout at creation. */
export function gasFeeOf(row: CheckoutRow, chain: string | null, token: string | null): number {
  const chains = JSON.parse(row.crypto_chains) as CryptoChain[];
  return chains.find((c) => c.chain === chain)?.tokens.find((t) => t.name === token)?.gas_fee ?? 0;
}
