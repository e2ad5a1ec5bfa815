import { type Static, Type } from 'typebox';
import { described, EnvName, Nullable, PositiveAmount, StringEnum, Timestamp, Uuid } from './common.js';

const Txid = Type.String({
  minLength: 1,
  maxLength: 128,
  description: 'the transaction hash (default: a made-up one)',
});
const Env = described(EnvName, 'the environment: test (default) or production');

export const DepositBody = Type.Object({
  merchant_id: described(Uuid, 'the merchant credited'),
  env: Type.Optional(Env),
  chain: Type.String({ minLength: 1, maxLength: 32, description: 'the chain it arrives on (e.g. ethereum)' }),
  currency: Type.String({ minLength: 1, maxLength: 16, description: 'the token (e.g. USDC)' }),
  amount: described(PositiveAmount, "in the currency's minor units (25 USDC = 25000000)"),
  txid: Type.Optional(Txid),
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
  currency: Type.String({ minLength: 1, maxLength: 16, description: 'the token (e.g. USDC)' }),
  amount: described(PositiveAmount, "in the currency's minor units (25 USDC = 25000000)"),
  txid: Type.Optional(Txid),
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
  merchant_id: described(Uuid, 'the merchant paid out'),
  env: Type.Optional(Env),
  amount: described(PositiveAmount, "in the currency's minor units, from its available balance"),
  currency: Type.String({ pattern: '^[A-Za-z]{3,5}$', description: 'e.g. USDC' }),
  destination: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 256,
      description: 'where it goes (an account or address, any text)',
    }),
  ),
  outcome: Type.Optional(
    described(PayoutStatus, 'completed (default), or failed to rehearse a failure: the funds come back'),
  ),
  failure_reason: Type.Optional(
    Type.String({ minLength: 1, maxLength: 500, description: 'with outcome failed: the reason given' }),
  ),
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
  env: Type.Optional(Env),
  currency: Type.String({ pattern: '^[A-Za-z]{3,5}$', description: 'e.g. USDC' }),
  amount: described(PositiveAmount, "in the currency's minor units (25 USDC = 25000000)"),
  memo: Type.Optional(Type.String({ maxLength: 200, description: "a note kept in the merchant's ledger" })),
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
  env: Type.Optional(Env),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 1000, description: 'at most this many, newest first' }),
  ),
});

export const AddressParams = Type.Object({ address: Type.String({ minLength: 1, maxLength: 128 }) });
