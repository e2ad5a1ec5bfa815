import { type Static, type TSchema, Type } from 'typebox';
import { CardStatus, CardTransactionStatus, CardTransactionType, CardType } from './cards.js';
import { Checkout, CheckoutStatus, Method } from './checkouts.js';
import { Nullable, StringEnum, Timestamp, Uuid } from './common.js';
import { Payout } from './funds.js';
import { Invoice } from './invoices.js';
import { RefundStatus } from './refunds.js';

/**
 * Webhook payloads (spec: Events). Every event is delivered as `{id, event, data}`; `data` is the
 * schema below for its type. Where the spec shows no payload (checkout.partial/.expired/.cancelled,
 * invoice.*, payout.*) data is the resource as it is at that moment (PRODUCT.md).
 */
export const CheckoutCreatedData = Type.Object({
  id: Uuid,
  merchant_id: Uuid,
  hosted_url: Type.String(),
  amount: Nullable(Type.Integer()),
  currency: Type.String(),
  method: Method,
  reference: Nullable(Type.String()),
  customer_id: Nullable(Uuid),
  reseller_id: Nullable(Uuid),
  expires_at: Nullable(Timestamp),
  status: CheckoutStatus,
  crypto_chains: Type.Array(Type.Object({ chain: Type.String(), address: Type.String() })),
  fiat: Nullable(
    Type.Object({
      session_url: Type.String(),
      success_url: Nullable(Type.String()),
      cancel_url: Nullable(Type.String()),
    }),
  ),
});

export const CheckoutPaidData = Type.Object({
  id: Uuid,
  merchant_id: Uuid,
  amount: Nullable(Type.Integer()),
  currency: Type.String(),
  status: CheckoutStatus,
});

export const CheckoutCompletedData = Type.Object({
  ...CheckoutPaidData.properties,
  reseller_fee: Type.Integer(),
  platform_fee: Type.Integer(),
  reseller_id: Nullable(Uuid),
  referral_fee: Type.Integer(),
  referred_by: Nullable(Uuid),
});

export const CheckoutRefundedData = Type.Object({
  id: Uuid,
  merchant_id: Uuid,
  refund_amount: Type.Integer(),
  refunded_amount: Type.Integer(),
  refund_fee: Type.Integer(),
  remaining_amount: Type.Integer(),
  currency: Type.String(),
  reason: Nullable(Type.String()),
  status: RefundStatus,
});

export const CardCreatedData = Type.Object({
  id: Uuid,
  cardholder_id: Uuid,
  status: CardStatus,
  ctype: CardType,
  last4: Type.String(),
  exp_month: Type.String(),
  exp_year: Type.String(),
  created_at: Timestamp,
});

export const CardTransactionData = Type.Object({
  id: Uuid,
  card_id: Uuid,
  amount: Type.Integer(),
  local_amount: Type.Integer(),
  local_currency: Type.String(),
  merchant_name: Nullable(Type.String()),
  type: CardTransactionType,
  status: CardTransactionStatus,
  created_at: Timestamp,
});

export const DepositReceivedData = Type.Object({
  merchant_id: Uuid,
  amount: Type.Integer(),
  currency: Type.String(),
  txid: Type.String(),
});

/** Every event type and its data: the one list (endpoints subscribe to these names). */
export const EVENT_DATA = {
  'checkout.created': CheckoutCreatedData,
  'checkout.paid': CheckoutPaidData,
  'checkout.completed': CheckoutCompletedData,
  'checkout.partial': Checkout,
  'checkout.refunded': CheckoutRefundedData,
  'checkout.expired': Checkout,
  'checkout.cancelled': Checkout,
  'invoice.paid': Invoice,
  'invoice.sent': Invoice,
  'payout.completed': Payout,
  'payout.failed': Payout,
  'card.created': CardCreatedData,
  'card.transaction': CardTransactionData,
  'deposit.received': DepositReceivedData,
} as const satisfies Record<string, TSchema>;

export type EventType = keyof typeof EVENT_DATA;
export const EVENT_TYPES = Object.keys(EVENT_DATA) as EventType[];
export const EventTypeName = StringEnum(EVENT_TYPES as unknown as readonly EventType[]);

export type EventData<T extends EventType> = Static<(typeof EVENT_DATA)[T]>;

/** The delivered body: `{id: delivery id, event, data}`, one schema per event type. */
export const webhookEnvelope = <T extends EventType>(event: T) =>
  Type.Object({ id: Uuid, event: Type.Literal(event), data: EVENT_DATA[event] });

export type WebhookEnvelope = {
  [T in EventType]: { id: string; event: T; data: EventData<T> };
}[EventType];
