import type { Clock } from '../../clock.js';
import type { CheckoutPaymentRow, CheckoutRow, CheckoutsRepo } from '../../db/checkouts.js';
import type { MerchantsRepo } from '../../db/merchants.js';
import type { Page } from '../../db/pagination.js';
import { BusinessRuleError, ForbiddenError, NotFoundError, ValidationError } from '../../errors.js';
import type { Ids } from '../../ids.js';
import type {
  Checkout,
  CheckoutBase,
  CreateCheckoutBody,
  CryptoChain,
  SimulatePaymentBody,
} from '../../schemas/checkouts.js';
import type { Settings } from '../../schemas/settings.js';
import type { Scheduler } from '../../scheduler.js';
import { generateAddress, generateTxid, isValidAddress } from '../../simulate/addresses.js';
import { targetMerchant } from '../access.js';
import type { CustomerService } from '../customers/service.js';
import { checkCountry } from '../customers/service.js';
import type { EventRecorder } from '../events/recorder.js';
import { Accounts, type Ledger } from '../ledger/service.js';
import { splitFees } from '../money/fees.js';
import type { Env, Principal } from '../types.js';
import { checkoutCurrency, eligibleChains, FIAT_CURRENCIES } from './chains.js';
import { completedPayload, createdPayload, paidPayload, toCheckout, toCheckoutBase } from './present.js';
import { assertMove } from './state.js';

export const JOB_EXPIRE = 'checkout.expire';
export const JOB_SETTLE = 'checkout.settle';
export const JOB_RELEASE_FEES = 'checkout.release-fees';
/** Platform and reseller fees stay held this long after paid_at; refunds inside it claw them back. */
export const FEE_HOLD_MS = 7 * 24 * 3600 * 1000;
const MAX_EXPIRY_MS = 30 * 24 * 3600 * 1000;

export interface CheckoutDeps {
  checkouts: CheckoutsRepo;
  merchants: MerchantsRepo;
  customers: CustomerService;
  clock: Clock;
  ids: Ids;
  settings: () => Settings;
  events: EventRecorder;
  scheduler: Scheduler;
  ledger: Ledger;
  baseUrl: (env: Env) => string;
}

export interface PaymentResult {
  checkout: Checkout;
  payment: CheckoutPaymentRow;
}

export class CheckoutService {
  constructor(private readonly deps: CheckoutDeps) {}

  // ---- /v1 -------------------------------------------------------------------------------------

  private readonly paidHooks: ((row: CheckoutRow) => void)[] = [];

  /** Runs inside the transaction that marks a checkout paid (invoices listen). */
  onPaid(hook: (row: CheckoutRow) => void): void {
    this.paidHooks.push(hook);
  }

  create(principal: Principal, body: CreateCheckoutBody, link: { invoiceId?: string } = {}): Checkout {
    const { clock, ids } = this.deps;
    const merchantId = targetMerchant(principal, body.merchant_id);
    const currency = checkoutCurrency(body.currency);
    const method = body.method ?? 'crypto';
    if (method !== 'crypto' && !FIAT_CURRENCIES.has(currency)) {
      throw new ValidationError(
        'currency',
        `fiat payment takes ${[...FIAT_CURRENCIES].join(', ')}, not ${currency}`,
      );
    }
    if (method === 'fiat' && body.chains !== undefined) {
      throw new ValidationError('chains', 'applies to the crypto method only');
    }
    checkCountry('customer_country', body.customer_country);

    const now = clock.now();
    const expiresAt = Date.parse(body.expires_at);
    // The date-time format admits what Date cannot represent (a leap second, 23:59:60): a 422, not a 500.
    if (Number.isNaN(expiresAt)) throw new ValidationError('expires_at', 'must be a valid date-time');
    if (expiresAt <= now) throw new BusinessRuleError('expires_at must be in the future');
    if (expiresAt > now + MAX_EXPIRY_MS)
      throw new BusinessRuleError('expires_at must be at most 30 days from now');
    if (
      body.reference !== undefined &&
      this.deps.checkouts.referenceTaken(merchantId, principal.env, body.reference)
    ) {
      throw new BusinessRuleError(
        `Duplicate reference: ${body.reference} is already used by another checkout`,
      );
    }

    const amount = body.amount ?? null;
    let chains: CryptoChain[] = [];
    if (method !== 'fiat') {
      const eligible = eligibleChains(this.deps.settings().chains, body.chains, currency, amount);
      if (eligible.length === 0 && method === 'crypto') {
        throw new BusinessRuleError(
          `No eligible chains: none of the ${body.chains ? 'requested ' : ''}chains accepts ${currency}${amount === null ? '' : ` for an amount of ${amount}`}`,
        );
      }
      chains = eligible.map(({ chain, tokens }) => ({ chain, address: generateAddress(chain, ids), tokens }));
    }

    return this.deps.events.transaction(() => {
      const customerId = this.resolveCustomer(principal.env, merchantId, body);
      const created = clock.nowIso();
      const row: CheckoutRow = {
        id: ids.uuid(),
        merchant_id: merchantId,
        env: principal.env,
        title: body.title,
        description: body.description ?? null,
        amount,
        currency,
        method,
        status: 'active',
        reference: body.reference ?? null,
        customer_id: customerId,
        received_amount: 0,
        paid_amount: null,
        paid_at: null,
        payer_address: null,
        paid_chain: null,
        paid_token: null,
        refunded_amount: 0,
        refund_status: null,
        reseller_id: null,
        reseller_fee: 0,
        platform_fee: 0,
        platform_gas_fee: 0,
        crypto_chains: JSON.stringify(chains),
        success_url: body.success_url ?? null,
        cancel_url: body.cancel_url ?? null,
        expires_at: new Date(expiresAt).toISOString(),
        created_at: created,
        updated_at: created,
        invoice_id: link.invoiceId ?? null,
        settled_at: null,
        fees_released_at: null,
        reseller_rate: null,
        reseller_min_fee: null,
        reseller_max_fee: null,
      };
      this.deps.checkouts.insert(row);
      this.deps.scheduler.schedule(JOB_EXPIRE, row.id, expiresAt);
      const checkout = toCheckout(row, this.deps.baseUrl(row.env as Env));
      this.deps.events.record(principal.env, merchantId, 'checkout.created', createdPayload(checkout));
      return checkout;
    });
  }

  list(principal: Principal, page: Page): CheckoutBase[] {
    return this.listFor(principal.merchantId, principal.env, page);
  }

  listFor(merchantId: string, env: Env, page: Page): CheckoutBase[] {
    const base = this.deps.baseUrl(env);
    return this.deps.checkouts.list(merchantId, env, page).map((r) => toCheckoutBase(r, base));
  }

  get(principal: Principal, id: string): Checkout {
    return this.present(this.owned(principal, id));
  }

  cancel(principal: Principal, id: string): void {
    this.cancelRow(this.owned(principal, id));
  }

  // ---- the outside world (control API) ----------------------------------------------------------

  /** Any checkout by id, whatever its merchant or environment (ids are global UUIDs). */
  find(id: string): CheckoutRow {
    const row = this.deps.checkouts.findById(id);
    if (!row) throw new NotFoundError('Checkout', id);
    return row;
  }

  present(row: CheckoutRow): Checkout {
    return toCheckout(row, this.deps.baseUrl(row.env as Env));
  }

  payments(id: string): CheckoutPaymentRow[] {
    this.find(id);
    return this.deps.checkouts.payments(id);
  }

  cancelRow(row: CheckoutRow): void {
    assertMove(row.status, 'cancelled', `Cannot cancel a checkout with status ${row.status}`);
    this.deps.events.transaction(() => {
      const next = this.save({ ...row, status: 'cancelled' });
      this.deps.scheduler.cancel(JOB_EXPIRE, row.id);
      if (row.received_amount > 0) {
        // Transfers that arrived before the cancel go back to the payer.
        this.deps.ledger.post(next.env as Env, 'checkout.cancel', row.id, [
          {
            account: Accounts.pending(row.merchant_id),
            currency: row.currency,
            amount: -row.received_amount,
          },
          { account: Accounts.world, currency: row.currency, amount: row.received_amount },
        ]);
      }
      this.deps.events.record(next.env as Env, next.merchant_id, 'checkout.cancelled', this.present(next));
    });
  }

  /**
   * An incoming transfer (or a fiat payment). Transfers accumulate while the checkout is active;
   * once they reach the amount (any transfer for an open amount) it is paid and settlement is
   * scheduled `settlement_delay_seconds` later on the sandbox clock.
   */
  pay(id: string, body: SimulatePaymentBody): PaymentResult {
    const row = this.find(id);
    if (row.status !== 'active')
      throw new BusinessRuleError(`Checkout is not active (status: ${row.status})`);
    const method = body.method ?? (row.method === 'fiat' ? 'fiat' : 'crypto');
    if (method === 'fiat' && row.method === 'crypto')
      throw new BusinessRuleError('Checkout does not accept fiat payment');
    if (method === 'crypto' && row.method === 'fiat')
      throw new BusinessRuleError('Checkout does not accept crypto payment');

    let chain: string | null = null;
    let token: string | null = null;
    let gasFee = 0;
    let payer: string | null = null;
    let txid: string | null = null;
    if (method === 'crypto') {
      const chains = JSON.parse(row.crypto_chains) as CryptoChain[];
      const target = body.chain
        ? chains.find((c) => c.chain.toLowerCase() === body.chain!.toLowerCase())
        : chains[0];
      if (!target) {
        throw new BusinessRuleError(
          `Checkout has no deposit address on chain ${body.chain} (chains: ${chains.map((c) => c.chain).join(', ') || 'none'})`,
        );
      }
      const tokenEntry = body.token
        ? target.tokens.find((t) => t.name.toUpperCase() === body.token!.toUpperCase())
        : target.tokens[0];
      if (!tokenEntry) {
        throw new BusinessRuleError(
          `Token ${body.token} is not accepted on ${target.chain} for this checkout (tokens: ${target.tokens.map((t) => t.name).join(', ')})`,
        );
      }
      chain = target.chain;
      token = tokenEntry.name;
      gasFee = tokenEntry.gas_fee;
      if (body.payer_address !== undefined && !isValidAddress(chain, body.payer_address)) {
        throw new ValidationError('payer_address', `not a valid ${chain} address`);
      }
      payer = body.payer_address ?? generateAddress(chain, this.deps.ids);
      txid = body.txid ?? generateTxid(chain, this.deps.ids);
    }
    const amount = body.amount ?? (row.amount === null ? null : row.amount - row.received_amount);
    if (amount === null) throw new ValidationError('amount', 'required for an open-amount checkout');

    return this.deps.events.transaction(() => {
      const now = this.deps.clock.nowIso();
      const payment: CheckoutPaymentRow = {
        id: this.deps.ids.uuid(),
        checkout_id: row.id,
        method,
        chain,
        token,
        amount,
        payer_address: payer,
        txid,
        created_at: now,
      };
      this.deps.checkouts.insertPayment(payment);
      // Detected on-chain: the merchant's, but not available until settlement.
      this.deps.ledger.post(row.env as Env, 'checkout.payment', row.id, [
        { account: Accounts.world, currency: row.currency, amount: -amount },
        { account: Accounts.pending(row.merchant_id), currency: row.currency, amount },
      ]);
      const received = row.received_amount + amount;
      const base = {
        ...row,
        received_amount: received,
        payer_address: payer,
        paid_chain: chain,
        paid_token: token,
      };
      if (row.amount !== null && received < row.amount) {
        return { checkout: this.present(this.save(base)), payment };
      }
      const next = this.save({
        ...base,
        status: 'paid',
        paid_amount: received,
        paid_at: now,
        platform_gas_fee: gasFee,
      });
      const env = next.env as Env;
      this.deps.scheduler.cancel(JOB_EXPIRE, row.id);
      this.deps.scheduler.schedule(
        JOB_SETTLE,
        row.id,
        this.deps.clock.now() + this.deps.settings().settlement_delay_seconds * 1000,
      );
      this.deps.events.record(env, next.merchant_id, 'checkout.paid', paidPayload(next));
      for (const hook of this.paidHooks) hook(next);
      return { checkout: this.present(next), payment };
    });
  }

  /** Settles a paid checkout now (the control API's /complete, and the settlement job). */
  complete(id: string): Checkout {
    const row = this.find(id);
    if (row.status !== 'paid')
      throw new BusinessRuleError(`Only a paid checkout can be completed (status: ${row.status})`);
    return this.present(this.settle(row));
  }

  /** Expires an active checkout now: `partial` if anything arrived, else `expired`. */
  expire(id: string): Checkout {
    const row = this.find(id);
    if (row.status !== 'active')
      throw new BusinessRuleError(`Only an active checkout can expire (status: ${row.status})`);
    return this.present(this.expireRow(row));
  }

  // ---- scheduled work ---------------------------------------------------------------------------

  onExpireDue(id: string): void {
    const row = this.deps.checkouts.findById(id);
    if (row?.status === 'active') this.expireRow(row);
  }

  onSettleDue(id: string): void {
    const row = this.deps.checkouts.findById(id);
    if (row?.status === 'paid' && row.settled_at === null) this.settle(row);
  }

  /** End of the fee hold: held fees move to the platform and reseller accounts. */
  onReleaseFeesDue(id: string): void {
    const row = this.deps.checkouts.findById(id);
    if (!row || row.settled_at === null || row.fees_released_at !== null) return;
    const { currency, merchant_id: merchantId } = row;
    this.deps.ledger.post(row.env as Env, 'fees.release', row.id, [
      { account: Accounts.feesHeld(merchantId), currency, amount: -(row.platform_fee + row.reseller_fee) },
      { account: Accounts.platformFees, currency, amount: row.platform_fee },
      ...(row.reseller_id
        ? [{ account: Accounts.resellerFees(row.reseller_id), currency, amount: row.reseller_fee }]
        : []),
    ]);
    this.save({ ...row, fees_released_at: this.deps.clock.nowIso() });
  }

  /**
   * Credits a paid checkout's funds to the merchant if that has not happened yet (a refund before
   * settlement settles first). Returns the row as it is after. Runs inside the caller's transaction.
   */
  ensureSettled(row: CheckoutRow): CheckoutRow {
    if (row.settled_at !== null) return row;
    this.deps.scheduler.cancel(JOB_SETTLE, row.id);
    return this.save({
      ...row,
      ...this.credit(row, row.paid_amount ?? 0, row.platform_gas_fee, row.paid_at!),
    });
  }

  private settle(row: CheckoutRow): CheckoutRow {
    return this.deps.events.transaction(() => {
      const paid = row.paid_amount ?? 0;
      const fees = this.credit(row, paid, row.platform_gas_fee, row.paid_at!);
      const next = this.save({ ...row, status: 'completed', ...fees });
      this.deps.scheduler.cancel(JOB_SETTLE, row.id);
      this.deps.events.record(
        next.env as Env,
        next.merchant_id,
        'checkout.completed',
        completedPayload(next),
      );
      return next;
    });
  }

  private expireRow(row: CheckoutRow): CheckoutRow {
    return this.deps.events.transaction(() => {
      this.deps.scheduler.cancel(JOB_EXPIRE, row.id);
      const env = row.env as Env;
      if (row.received_amount === 0) {
        const next = this.save({ ...row, status: 'expired' });
        this.deps.events.record(env, next.merchant_id, 'checkout.expired', this.present(next));
        return next;
      }
      // Something arrived: credited (minus fees) as a partial payment.
      const payments = this.deps.checkouts.payments(row.id);
      const last = payments[payments.length - 1];
      const gas = last?.chain ? this.gasFee(row, last.chain, last.token) : 0;
      const paidAt = last?.created_at ?? this.deps.clock.nowIso();
      const fees = this.credit(row, row.received_amount, gas, paidAt);
      const next = this.save({
        ...row,
        status: 'partial',
        paid_amount: row.received_amount,
        paid_at: paidAt,
        ...fees,
      });
      this.deps.events.record(env, next.merchant_id, 'checkout.partial', this.present(next));
      return next;
    });
  }

  /**
   * Credits `paid` to the merchant out of pending: less the platform and reseller fees, which stay
   * held for 7 days from paid_at, and less the gas fee (capped so a tiny payment never leaves the
   * merchant owing). Returns the fee fields to store.
   */
  private credit(row: CheckoutRow, paid: number, gas: number, paidAt: string) {
    const merchant = this.deps.merchants.findById(row.merchant_id);
    const rate = merchant?.platform_rate ?? this.deps.settings().platform_rate;
    const reseller =
      row.reseller_rate === null
        ? null
        : { rate: row.reseller_rate, min_fee: row.reseller_min_fee, max_fee: row.reseller_max_fee };
    const fees = splitFees(paid, rate, reseller);
    const gross = fees.platform_fee + fees.reseller_fee;
    const gasFee = Math.min(gas, paid - gross);
    const { currency, merchant_id: merchantId } = row;
    this.deps.ledger.post(row.env as Env, 'checkout.settlement', row.id, [
      { account: Accounts.pending(merchantId), currency, amount: -paid },
      { account: Accounts.available(merchantId), currency, amount: paid - gross - gasFee },
      { account: Accounts.feesHeld(merchantId), currency, amount: gross },
      { account: Accounts.platformGas, currency, amount: gasFee },
    ]);
    this.deps.scheduler.schedule(JOB_RELEASE_FEES, row.id, Date.parse(paidAt) + FEE_HOLD_MS);
    return {
      platform_fee: fees.platform_fee,
      reseller_fee: fees.reseller_fee,
      platform_gas_fee: gasFee,
      settled_at: this.deps.clock.nowIso(),
    };
  }

  private gasFee(row: CheckoutRow, chain: string, token: string | null): number {
    const chains = JSON.parse(row.crypto_chains) as CryptoChain[];
    return chains.find((c) => c.chain === chain)?.tokens.find((t) => t.name === token)?.gas_fee ?? 0;
  }

  save(row: CheckoutRow): CheckoutRow {
    const next = { ...row, updated_at: this.deps.clock.nowIso() };
    this.deps.checkouts.save(next);
    return next;
  }

  owned(principal: Principal, id: string): CheckoutRow {
    const row = this.deps.checkouts.findById(id);
    if (!row || row.env !== principal.env) throw new NotFoundError('Checkout', id);
    if (row.merchant_id !== principal.merchantId)
      throw new ForbiddenError('Checkout belongs to another merchant');
    return row;
  }

  private resolveCustomer(env: Env, merchantId: string, body: CreateCheckoutBody): string | null {
    if (body.customer_id !== undefined)
      return this.deps.customers.ownedBy(env, merchantId, body.customer_id).id;
    if (body.customer_email !== undefined) {
      const existing = this.deps.customers.findByEmail(env, merchantId, body.customer_email);
      if (existing) return existing.id;
    }
    if (body.customer_name === undefined) {
      if (body.customer_email !== undefined) {
        throw new ValidationError(
          'customer_name',
          'required to create a customer inline (no customer has that email)',
        );
      }
      return null;
    }
    return this.deps.customers.insert(env, merchantId, {
      name: body.customer_name,
      email: body.customer_email ?? null,
      country: body.customer_country ?? null,
    }).id;
  }
}
