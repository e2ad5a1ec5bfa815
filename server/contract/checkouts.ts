import { type Static, Type } from 'typebox';
import {
  Amount,
  described,
  EnvName,
  Nullable,
  PositiveAmount,
  StringEnum,
  Timestamp,
  Uuid,
} from './common.js';
import { Alpha3Country, Email } from './customers.js';
import { RefundRecord, RefundStatus } from './refunds.js';

export const CHECKOUT_STATUSES = [
  'active',
  'paid',
  'completed',
  'partial',
  'partially_refunded',
  'refunded',
  'expired',
  'cancelled',
] as const;
export const CheckoutStatus = StringEnum(CHECKOUT_STATUSES);
export type CheckoutStatus = Static<typeof CheckoutStatus>;

export const Method = StringEnum(['crypto', 'fiat', 'any']);
export type Method = Static<typeof Method>;

export const CheckoutToken = Type.Object({
  name: Type.String(),
  contract_address: Type.String(),
  min: Amount,
  max: Amount,
  gas_fee: Amount,
});

export const CryptoChain = Type.Object({
  chain: Type.String(),
  address: Type.String(),
  tokens: Type.Array(CheckoutToken),
});
export type CryptoChain = Static<typeof CryptoChain>;

export const Fiat = Type.Object({
  session_url: Type.String(),
  success_url: Nullable(Type.String()),
  cancel_url: Nullable(Type.String()),
});
export type Fiat = Static<typeof Fiat>;

const baseFields = {
  id: Uuid,
  merchant_id: Uuid,
  title: Type.String(),
  description: Nullable(Type.String()),
  amount: Nullable(Type.Integer()),
  currency: Type.String(),
  method: Method,
  status: CheckoutStatus,
  hosted_url: Type.String(),
  reference: Nullable(Type.String()),
  customer_id: Nullable(Uuid),
  paid_amount: Nullable(Type.Integer()),
  paid_at: Nullable(Timestamp),
  payer_address: Nullable(Type.String()),
  refunded_amount: Type.Integer(),
  refund_status: Nullable(RefundStatus),
  reseller_id: Nullable(Uuid),
  reseller_fee: Type.Integer(),
  platform_fee: Type.Integer(),
  platform_gas_fee: Type.Integer(),
  expires_at: Timestamp,
  created_at: Timestamp,
  updated_at: Timestamp,
};

/** The list item: the base object, without crypto_chains and fiat. */
export const CheckoutBase = Type.Object(baseFields);
export type CheckoutBase = Static<typeof CheckoutBase>;

export const Checkout = Type.Object({
  ...baseFields,
  crypto_chains: Type.Array(CryptoChain),
  fiat: Nullable(Fiat),
});
export type Checkout = Static<typeof Checkout>;

export const CreateCheckoutBody = Type.Object(
  {
    title: Type.String({ minLength: 1, maxLength: 200, description: 'what the payer sees' }),
    description: Type.Optional(Type.String({ maxLength: 2000, description: 'more words for the payer' })),
    amount: Type.Optional(
      described(PositiveAmount, 'minor units (25 USDC = 25000000); omitted: an open amount'),
    ),
    currency: Type.Optional(Type.String({ pattern: '^[A-Za-z]{3,5}$', description: 'default USDC' })),
    method: Type.Optional(described(Method, 'how it can be paid (default crypto)')),
    chains: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 32 }), {
        maxItems: 20,
        description: 'the chains offered (default: every chain of the settings)',
      }),
    ),
    reference: Type.Optional(
      Type.String({ minLength: 1, maxLength: 255, description: "the merchant's own order reference" }),
    ),
    success_url: Type.Optional(
      Type.String({
        format: 'uri',
        maxLength: 2048,
        description: 'where the hosted page sends a payer who paid',
      }),
    ),
    cancel_url: Type.Optional(
      Type.String({ format: 'uri', maxLength: 2048, description: 'where it sends one who cancelled' }),
    ),
    expires_at: Type.String({ format: 'date-time', description: 'when it stops accepting payments' }),
    customer_id: Type.Optional(described(Uuid, 'an existing customer of the merchant')),
    customer_name: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: "the payer's name" }),
    ),
    customer_email: Type.Optional(described(Email, "the payer's email")),
    customer_country: Type.Optional(Alpha3Country),
    merchant_id: Type.Optional(described(Uuid, 'a reseller acting for this merchant of its own')),
  },
  {
    examples: [
      {
        title: 'Order #1042',
        description: 'Two annual seats',
        amount: 25_000_000,
        currency: 'USDC',
        reference: 'order-1042',
        expires_at: '2026-12-01T12:00:00Z',
        customer_name: 'Ada Lovelace',
        customer_email: 'ada@example.com',
        customer_country: 'GBR',
      },
    ],
  },
);
export type CreateCheckoutBody = Static<typeof CreateCheckoutBody>;

/** Control API: an on-chain transfer (or a fiat payment) detected for a checkout. */
export const SimulatePaymentBody = Type.Object({
  amount: Type.Optional(described(PositiveAmount, 'minor units; omitted: what is due')),
  method: Type.Optional(StringEnum(['crypto', 'fiat'], { description: "default: the checkout's" })),
  chain: Type.Optional(
    Type.String({ minLength: 1, maxLength: 32, description: "one of the checkout's (default its first)" }),
  ),
  token: Type.Optional(
    Type.String({ minLength: 1, maxLength: 16, description: "one of the chain's (default its first)" }),
  ),
  payer_address: Type.Optional(
    Type.String({ minLength: 1, maxLength: 128, description: 'the sender (default: a made-up one)' }),
  ),
  txid: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 128,
      description: 'the transaction hash (default: a made-up one); the same txid again is the same transfer',
    }),
  ),
  late: Type.Optional(
    Type.Boolean({
      description:
        'The transfer arrives after the checkout stopped accepting payments. A still active checkout ' +
        'reaches its expiry first (expired, or partial if something arrived). The transfer is ' +
        'recorded with outcome `late` and not credited; the checkout does not move and no event fires.',
    }),
  ),
  unsupported_chain: Type.Optional(
    Type.Boolean({
      description:
        'The transfer is sent on `chain` (required), a known chain the checkout does not offer, to one ' +
        'of its deposit addresses valid there. The service never detects it: recorded with outcome ' +
        '`unsupported_chain`, not credited, whatever the checkout status; no event fires.',
    }),
  ),
});
export type SimulatePaymentBody = Static<typeof SimulatePaymentBody>;

/**
 * What became of a transfer to a checkout: `received` counts toward it; `late` (after it stopped
 * accepting payments) and `unsupported_chain` (on a chain it does not offer) are recorded only.
 */
export const PaymentOutcome = StringEnum(['received', 'late', 'unsupported_chain']);
export type PaymentOutcome = Static<typeof PaymentOutcome>;

export const CheckoutPayment = Type.Object({
  id: Uuid,
  checkout_id: Uuid,
  method: StringEnum(['crypto', 'fiat']),
  chain: Nullable(Type.String()),
  token: Nullable(Type.String()),
  amount: Type.Integer(),
  payer_address: Nullable(Type.String()),
  txid: Nullable(Type.String()),
  outcome: PaymentOutcome,
  created_at: Timestamp,
});
export type CheckoutPayment = Static<typeof CheckoutPayment>;

/** Control API: a checkout with what the outside world did to it (GET /sandbox/checkouts/{id}). */
export const CheckoutInspection = Type.Object({
  checkout: Checkout,
  env: EnvName,
  received_amount: Type.Integer(),
  payments: Type.Array(CheckoutPayment),
  refunds: Type.Array(RefundRecord),
});
export type CheckoutInspection = Static<typeof CheckoutInspection>;

export const PaymentResult = Type.Object({ checkout: Checkout, payment: CheckoutPayment });
export type PaymentResult = Static<typeof PaymentResult>;
