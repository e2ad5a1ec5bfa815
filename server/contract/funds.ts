import { type Static, Type } from 'typebox';
import { EnvName, Nullable, PositiveAmount, StringEnum, Timestamp, Uuid } from './common.js';

export const DepositBody = Type.Object({
  merchant_id: Uuid,
  env: Type.Optional(EnvName),
  chain: Type.String({ minLength: 1, maxLength: 32 }),
  currency: Type.String({ minLength: 1, maxLength: 16 }),
  amount: PositiveAmount,
  txid: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
});
export type DepositBody = Static<typeof DepositBody>;

/** Control API: many transfers to one static address in the same block (POST /sandbox/deposits/bursts). */
export const DepositBurstBody = Type.Object({
  merchant_id: Uuid,
  env: Type.Optional(EnvName),
  chain: Type.String({ minLength: 1, maxLength: 32 }),
  currency: Type.String({ minLength: 1, maxLength: 16 }),
  /** each transfer's amount */
  amount: PositiveAmount,
  count: Type.Integer({
    minimum: 1,
    maximum: 500,
    description: 'How many transfers arrive at once, each with its own txid and deposit.received.',
  }),
});
export type DepositBurstBody = Static<typeof DepositBurstBody>;

export const AddressDepositBody = Type.Object({
  currency: Type.String({ minLength: 1, maxLength: 16 }),
  amount: PositiveAmount,
  txid: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
});
export type AddressDepositBody = Static<typeof AddressDepositBody>;

export const Deposit = Type.Object({
  id: Uuid,
  merchant_id: Uuid,
  env: EnvName,
  chain: Type.String(),
  address: Type.String(),
  currency: Type.String(),
  amount: Type.Integer(),
  txid: Type.String(),
  created_at: Timestamp,
});
export type Deposit = Static<typeof Deposit>;

export const DepositBurst = Type.Object({
  count: Type.Integer(),
  /** the sum credited, in the currency's minor units */
  total: Type.Integer(),
  deposits: Type.Array(Deposit),
});
export type DepositBurst = Static<typeof DepositBurst>;

export const PayoutStatus = StringEnum(['completed', 'failed']);
export type PayoutStatus = Static<typeof PayoutStatus>;

export const PayoutBody = Type.Object({
  merchant_id: Uuid,
  env: Type.Optional(EnvName),
  amount: PositiveAmount,
  currency: Type.String({ pattern: '^[A-Za-z]{3,5}$' }),
  destination: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
  outcome: Type.Optional(PayoutStatus),
  failure_reason: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
});
export type PayoutBody = Static<typeof PayoutBody>;

export const Payout = Type.Object({
  id: Uuid,
  merchant_id: Uuid,
  env: EnvName,
  amount: Type.Integer(),
  currency: Type.String(),
  destination: Nullable(Type.String()),
  status: PayoutStatus,
  failure_reason: Nullable(Type.String()),
  created_at: Timestamp,
});
export type Payout = Static<typeof Payout>;

export const Balance = Type.Object({
  currency: Type.String(),
  available: Type.Integer(),
  held: Type.Integer(),
});
export type Balance = Static<typeof Balance>;

export const CreditBody = Type.Object({
  env: Type.Optional(EnvName),
  currency: Type.String({ pattern: '^[A-Za-z]{3,5}$' }),
  amount: PositiveAmount,
  memo: Type.Optional(Type.String({ maxLength: 200 })),
});
export type CreditBody = Static<typeof CreditBody>;

export const LedgerTransaction = Type.Object({
  id: Uuid,
  env: EnvName,
  kind: Type.String(),
  ref_id: Nullable(Type.String()),
  memo: Nullable(Type.String()),
  created_at: Timestamp,
  entries: Type.Array(
    Type.Object({ account: Type.String(), currency: Type.String(), amount: Type.Integer() }),
  ),
});
export type LedgerTransaction = Static<typeof LedgerTransaction>;

export const MerchantListQuery = Type.Object({
  env: Type.Optional(EnvName),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
});

export const AddressParams = Type.Object({ address: Type.String({ minLength: 1, maxLength: 128 }) });
