import type { Clock } from '../../clock.js';
import type { CreateCheckoutBody } from '../../contract/checkouts.js';
import type {
  ActivatedInvoice,
  ActivateInvoiceBody,
  CreateInvoiceBody,
  Invoice,
  InvoiceStatus,
  LineItem,
} from '../../contract/invoices.js';
import type { CheckoutRow } from '../../db/checkouts.js';
import type { InvoiceRow, InvoicesRepo } from '../../db/invoices.js';
import type { Page } from '../../db/pagination.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../../errors.js';
import type { Ids } from '../../ids.js';
import type { MerchantAccess } from '../access.js';
import { checkoutCurrency } from '../checkouts/chains.js';
import type { CheckoutLifecycle } from '../checkouts/lifecycle.js';
import type { CheckoutService } from '../checkouts/service.js';
import type { CustomerService } from '../customers/service.js';
import { checkCountry } from '../customers/service.js';
import type { EventRecorder } from '../events/recorder.js';
import { invoiceStates } from '../state.js';
import type { Env, Principal } from '../types.js';
import { checkoutExpiry, formatInvoiceNumber, invoiceMoney, isCalendarDate } from './math.js';

export interface InvoiceDeps {
  invoices: InvoicesRepo;
  customers: Pick<CustomerService, 'ownedBy' | 'findByEmail' | 'insert'>;
  checkouts: Pick<CheckoutService, 'create'>;
  lifecycle: Pick<CheckoutLifecycle, 'find' | 'cancel'>;
  access: Pick<MerchantAccess, 'targetMerchant'>;
  clock: Clock;
  ids: Ids;
  events: Pick<EventRecorder, 'record'>;
  unit: Pick<UnitOfWork, 'atomically'>;
}

export function toInvoice(row: InvoiceRow): Invoice {
  return {
    id: row.id,
    merchant_id: row.merchant_id,
    customer_id: row.customer_id,
    invoice_number: row.invoice_number,
    title: row.title,
    description: row.description,
    status: row.status,
    amount: row.amount,
    currency: row.currency,
    due_date: row.due_date,
    line_items: JSON.parse(row.line_items) as LineItem[],
    subtotal: row.subtotal,
    tax_rate: row.tax_rate,
    tax_amount: row.tax_amount,
    recipient_note: row.recipient_note,
    checkout_id: row.checkout_id,
    paid_at: row.paid_at,
    paid_amount: row.paid_amount,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export class InvoiceService {
  constructor(private readonly deps: InvoiceDeps) {}

  create(principal: Principal, body: CreateInvoiceBody): Invoice {
    const { clock, ids, invoices } = this.deps;
    // On behalf of a connected merchant: the invoice is the merchant's and remembers the reseller.
    const acting = this.deps.access.targetMerchant(principal, body.merchant_id);
    const merchantId = acting.merchantId;
    const currency = checkoutCurrency(body.currency);
    if (body.due_date !== undefined && !isCalendarDate(body.due_date)) {
      throw new ValidationError('due_date', 'must be a real calendar date, YYYY-MM-DD');
    }
    checkCountry('customer_country', body.customer_country);
    const customerName = body.customer_name;
    if (body.customer_id === undefined && customerName === undefined) {
      throw new ValidationError('customer_name', 'is required when customer_id is absent');
    }
    const money = invoiceMoney(body);

    // One transaction: the inline customer, the next number and the insert commit together.
    return this.deps.unit.atomically(() => {
      const customerId =
        body.customer_id !== undefined
          ? this.deps.customers.ownedBy(principal.env, merchantId, body.customer_id).id
          : this.inlineCustomer(principal.env, merchantId, customerName as string, body);
      const now = clock.nowIso();
      const row: InvoiceRow = {
        id: ids.uuid(),
        merchant_id: merchantId,
        env: principal.env,
        customer_id: customerId,
        invoice_number: formatInvoiceNumber(invoices.lastNumber(merchantId, principal.env) + 1),
        title: body.title,
        description: body.description ?? null,
        status: 'draft',
        amount: money.amount,
        currency,
        due_date: body.due_date ?? null,
        line_items: JSON.stringify(money.line_items),
        subtotal: money.subtotal,
        tax_rate: money.tax_rate,
        tax_amount: money.tax_amount,
        recipient_note: body.recipient_note ?? null,
        checkout_id: null,
        paid_at: null,
        paid_amount: null,
        created_at: now,
        updated_at: now,
        reseller_id: acting.reseller?.reseller_id ?? null,
      };
      invoices.insert(row);
      return toInvoice(row);
    });
  }

  list(principal: Principal, page: Page): Invoice[] {
    return this.deps.invoices.list(principal.merchantId, principal.env, page).map(toInvoice);
  }

  get(principal: Principal, id: string): Invoice {
    return toInvoice(this.owned(principal, id));
  }

  /**
   * draft → sent: creates the hosted checkout for the invoice amount, links it both ways and
   * emits invoice.sent, in one transaction (a checkout that cannot be created leaves a draft).
   */
  activate(principal: Principal, id: string, body: ActivateInvoiceBody): ActivatedInvoice {
    const { checkouts, clock, events, unit } = this.deps;
    return unit.atomically(() => {
      const row = this.owned(principal, id);
      invoiceStates.assert(row.status, 'sent', `Cannot activate an invoice with status ${row.status}`);
      const checkoutBody: CreateCheckoutBody = {
        title: row.title,
        amount: row.amount,
        currency: row.currency,
        method: 'crypto',
        expires_at: new Date(checkoutExpiry(row.due_date, clock.now())).toISOString(),
      };
      if (row.description !== null) checkoutBody.description = row.description;
      const customerId = this.liveCustomer(row);
      if (customerId !== undefined) checkoutBody.customer_id = customerId;
      if (body.success_url !== undefined) checkoutBody.success_url = body.success_url;
      if (body.cancel_url !== undefined) checkoutBody.cancel_url = body.cancel_url;
      const checkout = checkouts.create({ ...principal, merchantId: row.merchant_id }, checkoutBody, {
        invoiceId: row.id,
        resellerId: row.reseller_id,
      });
      const invoice = toInvoice(this.transition(row, 'sent', { checkout_id: checkout.id }));
      events.record(row.env, row.merchant_id, 'invoice.sent', invoice);
      return { invoice, checkout };
    });
  }

  /** draft or sent → cancelled; a sent invoice's checkout is cancelled too while still active. */
  cancel(principal: Principal, id: string): void {
    const { lifecycle, unit } = this.deps;
    unit.atomically(() => {
      const row = this.owned(principal, id);
      invoiceStates.assert(row.status, 'cancelled', `Cannot cancel an invoice with status ${row.status}`);
      if (row.checkout_id !== null) {
        const checkout = lifecycle.find(row.checkout_id);
        if (checkout.status === 'active') lifecycle.cancel(checkout);
      }
      // The spec has no invoice.cancelled event; the checkout's own checkout.cancelled still fires.
      this.transition(row, 'cancelled');
    });
  }

  /**
   * Hook run inside the transaction that marks a checkout paid: its invoice, if it is `sent`,
   * becomes paid with the checkout's paid_at and paid_amount, and invoice.paid is emitted.
   */
  onCheckoutPaid(checkout: CheckoutRow): void {
    if (checkout.invoice_id === null) return;
    const row = this.deps.invoices.findById(checkout.invoice_id);
    if (!row || row.checkout_id !== checkout.id || !invoiceStates.can(row.status, 'paid')) return;
    const invoice = toInvoice(
      this.transition(row, 'paid', { paid_at: checkout.paid_at, paid_amount: checkout.paid_amount }),
    );
    this.deps.events.record(row.env, row.merchant_id, 'invoice.paid', invoice);
  }

  /** An invoice of this merchant in this environment; another environment's is unknown (404). */
  owned(principal: Principal, id: string): InvoiceRow {
    const row = this.deps.invoices.findById(id);
    if (!row || row.env !== principal.env) throw new NotFoundError('Invoice', id);
    if (row.merchant_id !== principal.merchantId)
      throw new ForbiddenError('Invoice belongs to another merchant');
    return row;
  }

  private transition(row: InvoiceRow, to: InvoiceStatus, changes: Partial<InvoiceRow> = {}): InvoiceRow {
    return this.save({ ...invoiceStates.move(row, to), ...changes });
  }

  private save(row: InvoiceRow): InvoiceRow {
    const next = { ...row, updated_at: this.deps.clock.nowIso() };
    this.deps.invoices.save(next);
    return next;
  }

  /** customer_name (+ email, country): the customer with that email if there is one, else a new one. */
  private inlineCustomer(env: Env, merchantId: string, name: string, body: CreateInvoiceBody): string {
    if (body.customer_email !== undefined) {
      const existing = this.deps.customers.findByEmail(env, merchantId, body.customer_email);
      if (existing) return existing.id;
    }
    return this.deps.customers.insert(env, merchantId, {
      name,
      email: body.customer_email ?? null,
      country: body.customer_country ?? null,
    }).id;
  }

  /**
   * The invoice's customer id if that customer still exists. Deleting a customer leaves its
   * invoices unaffected (spec), so activation must not fail on it: the checkout then has none.
   */
  private liveCustomer(row: InvoiceRow): string | undefined {
    try {
      return this.deps.customers.ownedBy(row.env, row.merchant_id, row.customer_id).id;
    } catch (error) {
      if (error instanceof NotFoundError) return undefined;
      throw error;
    }
  }
}
