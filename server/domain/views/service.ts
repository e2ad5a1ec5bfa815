import type { CheckoutBase, CheckoutStatus } from '../../contract/checkouts.js';
import type { Env } from '../../contract/common.js';
import type { Customer } from '../../contract/customers.js';
import type { EventType } from '../../contract/events.js';
import type { Invoice, InvoiceStatus } from '../../contract/invoices.js';
import type { SandboxEvent } from '../../contract/sandbox-state.js';
import type { CustomerDetail, InvoiceDetail } from '../../contract/views.js';
import type { CheckoutRow } from '../../db/checkouts.js';
import type { ViewsRepo } from '../../db/views.js';
import { NotFoundError } from '../../errors.js';
import { toCheckoutBase } from '../checkouts/present.js';
import { toCustomer } from '../customers/service.js';
import { toInvoice } from '../invoices/service.js';
import type { MerchantService } from '../merchants/service.js';

export interface ListOptions {
  limit: number;
  startingAfter?: string | undefined;
  /** an id exactly, or part of the list's text fields */
  search?: string | undefined;
}

export interface DashboardViewDeps {
  repo: ViewsRepo;
  merchants: Pick<MerchantService, 'get'>;
  baseUrl: (env: Env) => string;
}

/**
 * What the dashboard lists and opens, read-only and keyless like every control view: the
 * same objects /v1 returns, with filters, a search and keyset paging. An unknown merchant is a 404.
 */
export class DashboardViews {
  constructor(private readonly deps: DashboardViewDeps) {}

  checkouts(merchantId: string, env: Env, options: ListOptions & { status?: CheckoutStatus | undefined }) {
    this.deps.merchants.get(merchantId);
    return this.deps.repo
      .checkouts(merchantId, env, { ...page(options), equals: { status: options.status } })
      .map((row) => this.checkout(row));
  }

  customers(merchantId: string, env: Env, options: ListOptions): Customer[] {
    this.deps.merchants.get(merchantId);
    return this.deps.repo.customers(merchantId, env, page(options)).map(toCustomer);
  }

  customer(id: string): CustomerDetail {
    const row = this.deps.repo.customer(id);
    if (!row) throw new NotFoundError('Customer', id);
    return {
      customer: toCustomer(row),
      env: row.env,
      invoices: this.deps.repo.invoicesOfCustomer(id).map(toInvoice),
      checkouts: this.deps.repo.checkoutsOfCustomer(id).map((c) => this.checkout(c)),
    };
  }

  invoices(
    merchantId: string,
    env: Env,
    options: ListOptions & { status?: InvoiceStatus | undefined },
  ): Invoice[] {
    this.deps.merchants.get(merchantId);
    return this.deps.repo
      .invoices(merchantId, env, { ...page(options), equals: { status: options.status } })
      .map(toInvoice);
  }

  invoice(id: string): InvoiceDetail {
    const row = this.deps.repo.invoice(id);
    if (!row) throw new NotFoundError('Invoice', id);
    const customer = this.deps.repo.customer(row.customer_id);
    const checkout = row.checkout_id === null ? undefined : this.deps.repo.checkout(row.checkout_id);
    return {
      invoice: toInvoice(row),
      env: row.env,
      customer: customer ? toCustomer(customer) : null,
      checkout: checkout ? this.checkout(checkout) : null,
    };
  }

  events(merchantId: string, env: Env, options: ListOptions & { type?: EventType | undefined }) {
    this.deps.merchants.get(merchantId);
    return this.deps.repo
      .events(merchantId, env, { ...page(options), equals: { type: options.type } })
      .map((row): SandboxEvent => ({ ...row, data: JSON.parse(row.data) as Record<string, unknown> }));
  }

  private checkout(row: CheckoutRow): CheckoutBase {
    return toCheckoutBase(row, this.deps.baseUrl(row.env));
  }
}

const page = ({ limit, startingAfter, search }: ListOptions) => ({ limit, startingAfter, search });
