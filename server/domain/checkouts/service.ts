import type { AddressSource } from '../../addresses/source.js';
import type { Clock } from '../../clock.js';
import type {
  Checkout,
  CheckoutBase,
  CheckoutInspection,
  CreateCheckoutBody,
  CryptoChain,
} from '../../contract/checkouts.js';
import type { Settings } from '../../contract/settings.js';
import type { CheckoutRow, CheckoutsRepo } from '../../db/checkouts.js';
import type { Page } from '../../db/pagination.js';
import type { RefundsRepo } from '../../db/refunds.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import { BusinessRuleError, ForbiddenError, NotFoundError, ValidationError } from '../../errors.js';
import type { Ids } from '../../ids.js';
import type { JobQueue } from '../../scheduler.js';
import type { MerchantAccess } from '../access.js';
import type { CustomerService } from '../customers/service.js';
import { checkCountry } from '../customers/service.js';
import type { EventRecorder } from '../events/recorder.js';
import { formatMoney } from '../money/format.js';
import type { Env, Principal } from '../types.js';
import { checkoutCurrency, eligibleChains, FIAT_CURRENCIES } from './chains.js';
import { type CheckoutLifecycle, JOB_EXPIRE } from './lifecycle.js';
import { createdPayload, toCheckoutBase, toNewCheckout } from './present.js';

const MAX_EXPIRY_MS = 30 * 24 * 3600 * 1000;

export interface CheckoutDeps {
  checkouts: CheckoutsRepo;
  refunds: Pick<RefundsRepo, 'ofCheckout'>;
  lifecycle: CheckoutLifecycle;
  customers: CustomerService;
  access: Pick<MerchantAccess, 'targetMerchant' | 'activeTerms'>;
  clock: Clock;
  ids: Ids;
  /** new deposit addresses (the address worker's, or derived from `ids`) */
  addressSource: Pick<AddressSource, 'next'>;
  settings: () => Settings;
  events: Pick<EventRecorder, 'record'>;
  unit: Pick<UnitOfWork, 'atomically'>;
  scheduler: JobQueue;
  baseUrl: (env: Env) => string;
}

/** The merchant's checkout API (/v1/checkouts): create, list, get, cancel. */
export class CheckoutService {
  constructor(private readonly deps: CheckoutDeps) {}

  /**
   * With `merchant_id` (a reseller acting for a connected merchant) the checkout is the target
   * merchant's and snapshots the connection's rate and caps (spec fee rule 5: later changes do not
   * touch it). An invoice's checkout inherits the invoice's reseller (`link.resellerId`) with the
   * connection's terms at activation, while that connection is still active.
   */
  create(
    principal: Principal,
    body: CreateCheckoutBody,
    link: { invoiceId?: string; resellerId?: string | null } = {},
  ): Checkout {
    const { clock, ids } = this.deps;
    const acting = this.deps.access.targetMerchant(principal, body.merchant_id);
    const merchantId = acting.merchantId;
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
          `No eligible chains: none of the ${body.chains ? 'requested ' : ''}chains accepts ${currency}${amount === null ? '' : ` for an amount of ${formatMoney(amount, currency)}`}`,
        );
      }
      chains = eligible.map(({ chain, tokens }) => ({
        chain,
        address: this.deps.addressSource.next(chain),
        tokens,
      }));
    }

    return this.deps.unit.atomically(() => {
      const customerId = this.resolveCustomer(principal.env, merchantId, body);
      const reseller =
        acting.reseller ??
        (link.resellerId ? this.deps.access.activeTerms(link.resellerId, merchantId, principal.env) : null);
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
        reseller_id: reseller?.reseller_id ?? null,
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
        reseller_rate: reseller?.rate ?? null,
        reseller_min_fee: reseller?.min_fee ?? null,
        reseller_max_fee: reseller?.max_fee ?? null,
      };
      this.deps.checkouts.insert(row);
      this.deps.scheduler.schedule(JOB_EXPIRE, row.id, expiresAt);
      const checkout = toNewCheckout(row, this.deps.baseUrl(row.env), chains);
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
    return this.deps.lifecycle.present(this.owned(principal, id));
  }

  cancel(principal: Principal, id: string): void {
    this.deps.lifecycle.cancel(this.owned(principal, id));
  }

  /** The hosted pages: a checkout by id, as the customer-facing address of its environment sees it. */
  hosted(id: string, env: Env): Checkout {
    const row = this.deps.lifecycle.find(id);
    if (row.env !== env) throw new NotFoundError('Checkout', id);
    return this.deps.lifecycle.present(row);
  }

  /** Control API: a checkout of any merchant with what the outside world did to it. */
  inspect(id: string): CheckoutInspection {
    const row = this.deps.lifecycle.find(id);
    return {
      checkout: this.deps.lifecycle.present(row),
      env: row.env,
      received_amount: row.received_amount,
      payments: this.deps.checkouts.payments(row.id),
      refunds: this.deps.refunds.ofCheckout(row.id),
    };
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
