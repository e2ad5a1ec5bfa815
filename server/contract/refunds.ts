import { type Static, Type } from 'typebox';
import { EnvName, Nullable, StringEnum, Timestamp, Uuid } from './common.js';

export const RefundBody = Type.Object(
  {
    /** any integer: zero, negative or too large is the spec's 400 "Invalid refund amount", not a 422 */
    amount: Type.Optional(
      Type.Integer({
        minimum: Number.MIN_SAFE_INTEGER,
        maximum: Number.MAX_SAFE_INTEGER,
        description: 'minor units; omitted: all that is left',
      }),
    ),
    reason: Type.Optional(Type.String({ maxLength: 500, description: 'why, in words' })),
    receiver: Type.Optional(
      Type.String({ minLength: 1, maxLength: 128, description: "the payer's address to refund to" }),
    ),
    gas_fee_payer: Type.Optional(
      Type.String({
        maxLength: 32,
        description: '"merchant": the merchant absorbs the gas; anything else deducts it from the refund',
      }),
    ),
  },
  { examples: [{ amount: 10_000_000, reason: 'One seat returned', gas_fee_payer: 'merchant' }] },
);
export type RefundBody = Static<typeof RefundBody>;

/** A checkout's refund progress (null before the first refund). */
export const RefundStatus = StringEnum(['partially_refunded', 'refunded']);
export type RefundStatus = Static<typeof RefundStatus>;

export const RefundResult = Type.Object({
  id: Uuid,
  /** the checkout's status after the refund (an enum in the document: CheckoutStatus) */
  status: Type.String(),
  refund_status: RefundStatus,
  refunded_amount: Type.Integer(),
  refund_fee: Type.Integer(),
  remaining_amount: Type.Integer(),
});
export type RefundResult = Static<typeof RefundResult>;

export const RefundRecord = Type.Object({
  id: Uuid,
  checkout_id: Uuid,
  merchant_id: Uuid,
  env: EnvName,
  amount: Type.Integer(),
  refund_fee: Type.Integer(),
  gas_fee_payer: Type.String(),
  customer_amount: Type.Integer(),
  merchant_debit: Type.Integer(),
  platform_clawback: Type.Integer(),
  reseller_clawback: Type.Integer(),
  receiver: Nullable(Type.String()),
  reason: Nullable(Type.String()),
  txid: Nullable(Type.String()),
  status_after: Type.String(),
  created_at: Timestamp,
});
export type RefundRecord = Static<typeof RefundRecord>;
