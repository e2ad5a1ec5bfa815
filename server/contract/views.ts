import { type Static, Type } from 'typebox';
import type * as cards from './cards.js';
import { CheckoutBase, CheckoutStatus } from './checkouts.js';
import { described, EnvName, Nullable, Uuid } from './common.js';
import { Customer } from './customers.js';
import { EventTypeName } from './events.js';
import { Invoice, InvoiceStatus } from './invoices.js';

/**
 * The dashboard's list views (control API): filters, a search and keyset paging over a
 * merchant's resources in one environment. Lists stay plain arrays, newest first (PRODUCT.md,
 * Lists); the next page starts after the last id of this one.
 */
const page = {
  env: Type.Optional(described(EnvName, 'the environment: test (default) or production')),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 1000, description: 'at most this many, newest first' }),
  ),
  starting_after: Type.Optional(
    described(Uuid, 'the next page: the items after this id (the last of the page before)'),
  ),
};
/** Matches an id exactly, or (where a list says so) part of a name, email, title or reference. */
const Search = Type.String({ minLength: 1, maxLength: 200 });

export const CheckoutListQuery = Type.Object({
  ...page,
  status: Type.Optional(CheckoutStatus),
  q: Type.Optional(described(Search, 'an id, or part of the title or reference')),
});
export type CheckoutListQuery = Static<typeof CheckoutListQuery>;

export const CustomerListQuery = Type.Object({
  ...page,
  /** id, or part of the name or email */
  q: Type.Optional(Search),
});
export type CustomerListQuery = Static<typeof CustomerListQuery>;

export const InvoiceListQuery = Type.Object({
  ...page,
  status: Type.Optional(InvoiceStatus),
  /** id, or part of the invoice number or title */
  q: Type.Optional(Search),
});
export type InvoiceListQuery = Static<typeof InvoiceListQuery>;

export const EventListQuery = Type.Object({
  ...page,
  type: Type.Optional(EventTypeName),
  q: Type.Optional(described(Search, "the event's id, or (part of) the id of the resource it is about")),
});
export type EventListQuery = Static<typeof EventListQuery>;

/** A customer with what was made for them (newest first, the latest 100 of each). */
export const CustomerDetail = Type.Object({
  customer: Customer,
  env: EnvName,
  invoices: Type.Array(Invoice),
  checkouts: Type.Array(CheckoutBase),
});
export type CustomerDetail = Static<typeof CustomerDetail>;

/** An invoice with its customer and the checkout that collects it (once activated). */
export const InvoiceDetail = Type.Object({
  invoice: Invoice,
  env: EnvName,
  customer: Nullable(Customer),
  checkout: Nullable(CheckoutBase),
});
export type InvoiceDetail = Static<typeof InvoiceDetail>;

/** The card secrets exchange's shapes (contract/cards.ts), named for the dashboard's reveal. */
export type EncryptedData = Static<typeof cards.EncryptedData>;
export type SessionBody = Static<typeof cards.SessionBody>;
export type SecretsResult = Static<typeof cards.SecretsResult>;
export type PinResult = Static<typeof cards.PinResult>;
