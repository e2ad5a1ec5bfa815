import type { Clock } from '../../clock.js';
import type { CreateCustomerBody, Customer, UpdateCustomerBody } from '../../contract/customers.js';
import type { CustomerRow, CustomersRepo } from '../../db/customers.js';
import type { Page } from '../../db/pagination.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../../errors.js';
import type { Ids } from '../../ids.js';
import type { MerchantAccess } from '../access.js';
import { isAlpha3Country } from '../countries.js';
import type { Env, Principal } from '../types.js';

export interface CustomerDeps {
  customers: CustomersRepo;
  access: Pick<MerchantAccess, 'targetMerchant'>;
  clock: Clock;
  ids: Ids;
}

export interface CustomerFields {
  name: string;
  email?: string | null | undefined;
  phone?: string | null | undefined;
  country?: string | null | undefined;
  notes?: string | null | undefined;
}

export const toCustomer = ({ env: _env, ...row }: CustomerRow): Customer => row;

export function checkCountry(field: string, country: string | null | undefined): void {
  if (country != null && !isAlpha3Country(country)) {
    throw new ValidationError(field, `not an ISO 3166-1 alpha-3 country code: ${country}`);
  }
}

export class CustomerService {
  constructor(private readonly deps: CustomerDeps) {}

  /** With `merchant_id` (a reseller with an active connection) the customer is that merchant's. */
  create(principal: Principal, body: CreateCustomerBody): Customer {
    const { merchantId } = this.deps.access.targetMerchant(principal, body.merchant_id);
    return toCustomer(this.insert(principal.env, merchantId, body));
  }

  insert(env: Env, merchantId: string, fields: CustomerFields): CustomerRow {
    checkCountry('country', fields.country);
    const now = this.deps.clock.nowIso();
    const row: CustomerRow = {
      id: this.deps.ids.uuid(),
      merchant_id: merchantId,
      env,
      name: fields.name,
      email: fields.email ?? null,
      phone: fields.phone ?? null,
      country: fields.country ?? null,
      notes: fields.notes ?? null,
      created_at: now,
      updated_at: now,
    };
    this.deps.customers.insert(row);
    return row;
  }

  list(principal: Principal, page: Page): Customer[] {
    return this.deps.customers.list(principal.merchantId, principal.env, page).map(toCustomer);
  }

  get(principal: Principal, id: string): Customer {
    return toCustomer(this.owned(principal, id));
  }

  update(principal: Principal, id: string, body: UpdateCustomerBody): Customer {
    checkCountry('country', body.country);
    const row = this.owned(principal, id);
    // PUT replaces the record: fields left out become null (name is required).
    const next: CustomerRow = {
      ...row,
      name: body.name,
      email: body.email ?? null,
      phone: body.phone ?? null,
      country: body.country ?? null,
      notes: body.notes ?? null,
      updated_at: this.deps.clock.nowIso(),
    };
    this.deps.customers.update(next);
    return toCustomer(next);
  }

  delete(principal: Principal, id: string): void {
    this.owned(principal, id);
    this.deps.customers.delete(id);
  }

  /** A customer of this merchant in this environment; another merchant's is a 403. */
  owned(principal: Principal, id: string): CustomerRow {
    return this.ownedBy(principal.env, principal.merchantId, id);
  }

  ownedBy(env: Env, merchantId: string, id: string): CustomerRow {
    const row = this.deps.customers.findById(id, env);
    if (!row) throw new NotFoundError('Customer', id);
    if (row.merchant_id !== merchantId) throw new ForbiddenError('Customer belongs to another merchant');
    return row;
  }

  findByEmail(env: Env, merchantId: string, email: string): CustomerRow | undefined {
    return this.deps.customers.findByEmail(merchantId, env, email);
  }
}
