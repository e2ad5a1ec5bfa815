import { type Static, Type } from 'typebox';
import { Checkout } from './checkouts.js';
import { Amount, Nullable, PositiveAmount, StringEnum, Timestamp, Uuid } from './common.js';
import { Alpha3Country, Email } from './customers.js';

export const InvoiceStatus = StringEnum(['draft', 'sent', 'paid', 'cancelled']);
export type InvoiceStatus = Static<typeof InvoiceStatus>;

export const LineItem = Type.Object({
  description: Type.String(),
  quantity: Type.Integer(),
  unit_price: Type.Integer(),
  total: Type.Integer(),
});
export type LineItem = Static<typeof LineItem>;

/** The invoice object, field for field as the spec's Resources → Invoice table. */
export const Invoice = Type.Object({
  id: Uuid,
  merchant_id: Uuid,
  customer_id: Uuid,
  invoice_number: Type.String(),
  title: Type.String(),
  description: Nullable(Type.String()),
  status: InvoiceStatus,
  amount: Type.Integer(),
  currency: Type.String(),
  due_date: Nullable(Type.String()),
  line_items: Type.Array(LineItem),
  subtotal: Type.Integer(),
  tax_rate: Type.Integer(),
  tax_amount: Type.Integer(),
  recipient_note: Nullable(Type.String()),
  checkout_id: Nullable(Uuid),
  paid_at: Nullable(Timestamp),
  paid_amount: Nullable(Type.Integer()),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Invoice = Static<typeof Invoice>;

export const LineItemInput = Type.Object({
  description: Type.String({ minLength: 1, maxLength: 500 }),
  quantity: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
  unit_price: Amount,
});
export type LineItemInput = Static<typeof LineItemInput>;

export const MAX_LINE_ITEMS = 100;

export const CreateInvoiceBody = Type.Object({
  title: Type.String({ minLength: 1, maxLength: 200 }),
  customer_id: Type.Optional(Uuid),
  customer_name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  customer_email: Type.Optional(Email),
  customer_country: Type.Optional(Alpha3Country),
  // Same bound as a checkout's description: activation copies it onto the checkout.
  description: Type.Optional(Type.String({ maxLength: 2000 })),
  currency: Type.Optional(Type.String({ pattern: '^[A-Za-z]{3,5}$' })),
  line_items: Type.Optional(Type.Array(LineItemInput, { maxItems: MAX_LINE_ITEMS })),
  amount: Type.Optional(PositiveAmount),
  // format date: YYYY-MM-DD and a real calendar day (2026-02-30 fails).
  due_date: Type.Optional(Type.String({ format: 'date' })),
  recipient_note: Type.Optional(Type.String({ maxLength: 5000 })),
  subtotal: Type.Optional(Amount),
  tax_rate: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000 })),
  merchant_id: Type.Optional(Uuid),
});
export type CreateInvoiceBody = Static<typeof CreateInvoiceBody>;

export const ActivateInvoiceBody = Type.Object({
  success_url: Type.Optional(Type.String({ format: 'uri', maxLength: 2048 })),
  cancel_url: Type.Optional(Type.String({ format: 'uri', maxLength: 2048 })),
});
export type ActivateInvoiceBody = Static<typeof ActivateInvoiceBody>;

export const ActivatedInvoice = Type.Object({ invoice: Invoice, checkout: Checkout });
export type ActivatedInvoice = Static<typeof ActivatedInvoice>;
