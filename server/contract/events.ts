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
export const CheckoutCreatedData = Type.Object(
  {
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
  },
  {
    examples: [
      {
        id: '3f2504e0-4f89-41d3-9a0c-0305e82c3301',
        merchant_id: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
        hosted_url: 'http://127.0.0.1:4010/pay/3f2504e0-4f89-41d3-9a0c-0305e82c3301',
        amount: 25_000_000,
        currency: 'USDC',
        method: 'crypto',
        reference: 'order-1042',
        customer_id: null,
        reseller_id: null,
        expires_at: '2026-12-01T12:00:00.000Z',
        status: 'active',
        crypto_chains: [{ chain: 'polygon', address: '0x80699Efb373187F4586Dd6E63161d9C4Ba710C6B' }],
        fiat: null,
      },
    ],
  },
);

export const CheckoutPaidData = Type.Object(
  {
    id: Uuid,
    merchant_id: Uuid,
    amount: Nullable(Type.Integer()),
    currency: Type.String(),
    status: CheckoutStatus,
  },
  {
    examples: [
      {
        id: '3f2504e0-4f89-41d3-9a0c-0305e82c3301',
        merchant_id: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
        amount: 25_000_000,
        currency: 'USDC',
        status: 'paid',
      },
    ],
  },
);

export const CheckoutCompletedData = Type.Object(
  {
    ...CheckoutPaidData.properties,
    reseller_fee: Type.Integer(),
    platform_fee: Type.Integer(),
    reseller_id: Nullable(Uuid),
    referral_fee: Type.Integer(),
    referred_by: Nullable(Uuid),
  },
  {
    examples: [
      {
        id: '3f2504e0-4f89-41d3-9a0c-0305e82c3301',
        merchant_id: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
        amount: 25_000_000,
        currency: 'USDC',
        status: 'completed',
        reseller_fee: 250_000,
        platform_fee: 250_000,
        reseller_id: '9b2c1e4a-2d3f-4c5b-8e6f-7a8b9c0d1e2f',
        referral_fee: 0,
        referred_by: null,
      },
    ],
  },
);

export const CheckoutRefundedData = Type.Object(
  {
    id: Uuid,
    merchant_id: Uuid,
    refund_amount: Type.Integer(),
    refunded_amount: Type.Integer(),
    refund_fee: Type.Integer(),
    remaining_amount: Type.Integer(),
    currency: Type.String(),
    reason: Nullable(Type.String()),
    status: RefundStatus,
  },
  {
    examples: [
      {
        id: '3f2504e0-4f89-41d3-9a0c-0305e82c3301',
        merchant_id: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
        refund_amount: 10_000_000,
        refunded_amount: 10_000_000,
        refund_fee: 10_000,
        remaining_amount: 15_000_000,
        currency: 'USDC',
        reason: 'One seat returned',
        status: 'partially_refunded',
      },
    ],
  },
);

export const CardCreatedData = Type.Object(
  {
    id: Uuid,
    cardholder_id: Uuid,
    status: CardStatus,
    ctype: CardType,
    last4: Type.String(),
    exp_month: Type.String(),
    exp_year: Type.String(),
    created_at: Timestamp,
  },
  {
    examples: [
      {
        id: '5d1f0c2a-8b7e-4f6a-9c3d-2e1b0a9f8e7d',
        cardholder_id: '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
        status: 'active',
        ctype: 'virtual',
        last4: '4242',
        exp_month: '11',
        exp_year: '2029',
        created_at: '2026-11-23T12:00:00.000Z',
      },
    ],
  },
);

export const CardTransactionData = Type.Object(
  {
    id: Uuid,
    card_id: Uuid,
    amount: Type.Integer(),
    local_amount: Type.Integer(),
    local_currency: Type.String(),
    merchant_name: Nullable(Type.String()),
    type: CardTransactionType,
    status: CardTransactionStatus,
    created_at: Timestamp,
  },
  {
    examples: [
      {
        id: 'c0ffee00-1234-4abc-8def-0123456789ab',
        card_id: '5d1f0c2a-8b7e-4f6a-9c3d-2e1b0a9f8e7d',
        amount: -12_500_000,
        local_amount: -1250,
        local_currency: 'USD',
        merchant_name: 'Corner Coffee',
        type: 'card_payment',
        status: 'requested',
        created_at: '2026-11-23T12:05:00.000Z',
      },
    ],
  },
);

export const DepositReceivedData = Type.Object(
  {
    merchant_id: Uuid,
    amount: Type.Integer(),
    currency: Type.String(),
    txid: Type.String(),
  },
  {
    examples: [
      {
        merchant_id: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
        amount: 50_000_000,
        currency: 'USDT',
        txid: '0x4e3a3754410177e6937ef1f84bba68ea139e8d1a2258c5f85db9f1cd715a1bdd',
      },
    ],
  },
);

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
