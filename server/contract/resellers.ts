import { type Static, Type } from 'typebox';
import { described, Nullable, StringEnum, Timestamp, Uuid } from './common.js';
import { Email } from './customers.js';
import { BusinessType, KybStatus } from './merchants.js';

/** spec: Reseller connection, status active or revoked. */
export const ResellerConnectionStatus = StringEnum(['active', 'revoked']);
export type ResellerConnectionStatus = Static<typeof ResellerConnectionStatus>;

/** A commission rate in basis points (10000 = 100%). */
export const Bps = Type.Integer({ minimum: 0, maximum: 10_000 });
/** A fee cap in minor units (6dp for USDC/USDT); null = no cap. */
const FeeCap = Nullable(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }));

export const ResellerConnection = Type.Object({
  id: Uuid,
  reseller_id: Uuid,
  /** the target merchant */
  merchant_id: Uuid,
  status: ResellerConnectionStatus,
  rate: Type.Integer(),
  min_fee: Nullable(Type.Integer()),
  max_fee: Nullable(Type.Integer()),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type ResellerConnection = Static<typeof ResellerConnection>;

/**
 * POST /v1/reseller/connections. The body is the connection's whole terms: a cap left out is no
 * cap, whether the connection is new or re-created (so the same body always gives the same terms).
 */
const Rate = described(Bps, "the reseller's commission in basis points of each payment (200 = 2%)");
const MinFee = described(
  FeeCap,
  'the smallest commission per payment, in minor units; null or left out: none',
);
const MaxFee = described(
  FeeCap,
  'the largest commission per payment, in minor units; null or left out: none',
);

export const CreateConnectionBody = Type.Object(
  {
    merchant_id: described(Uuid, 'the merchant the reseller earns on'),
    rate: Rate,
    min_fee: Type.Optional(MinFee),
    max_fee: Type.Optional(MaxFee),
  },
  {
    examples: [
      { merchant_id: '7c9e6679-7425-40de-944b-e07fc1f90ae7', rate: 200, min_fee: 500_000, max_fee: null },
    ],
  },
);
export type CreateConnectionBody = Static<typeof CreateConnectionBody>;

/** PUT /v1/reseller/connections/{id}: rate required; a cap left out stays, null removes it. */
export const UpdateConnectionBody = Type.Object({
  rate: Rate,
  min_fee: Type.Optional(
    described(FeeCap, 'the smallest commission per payment; left out: unchanged, null: none'),
  ),
  max_fee: Type.Optional(
    described(FeeCap, 'the largest commission per payment; left out: unchanged, null: none'),
  ),
});
export type UpdateConnectionBody = Static<typeof UpdateConnectionBody>;

/** A reseller's own connection: /v1/reseller/connections/{connection_id}. */
export const ConnectionParams = Type.Object({ connection_id: Uuid });
export type ConnectionParams = Static<typeof ConnectionParams>;

/** A merchant's incoming connection: /v1/merchants/{id}/reseller-connections/{connection_id}. */
export const MerchantConnectionParams = Type.Object({ id: Uuid, connection_id: Uuid });
export type MerchantConnectionParams = Static<typeof MerchantConnectionParams>;

/** POST /v1/reseller/provision (spec: Provision body). Violations are 400s naming the field. */
export const ProvisionBody = Type.Object({
  email: described(Email, "the new merchant's owner's email (its login)"),
  password: Type.String({ minLength: 6, maxLength: 1024, description: "the owner's password" }),
  full_name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: "the owner's name" })),
  merchant_name: Type.String({ minLength: 1, maxLength: 200, description: 'the shop name' }),
  legal_name: Type.String({ minLength: 1, maxLength: 200, description: 'the company name' }),
  country: Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2' }),
  btype: Type.Optional(described(BusinessType, 'company (default) or individual')),
  website: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, description: "the shop's site" })),
  rate: Rate,
  min_fee: Type.Optional(MinFee),
  max_fee: Type.Optional(MaxFee),
});
export type ProvisionBody = Static<typeof ProvisionBody>;

/** spec: Provisioned merchant (returned by provisioning). */
export const ProvisionedMerchant = Type.Object({
  id: Uuid,
  name: Type.String(),
  legal_name: Type.String(),
  country: Type.String(),
  btype: BusinessType,
  kyb_status: KybStatus,
  created_at: Timestamp,
});
export type ProvisionedMerchant = Static<typeof ProvisionedMerchant>;

export const ProvisionResult = Type.Object({
  user_id: Uuid,
  merchant: ProvisionedMerchant,
  connection_id: Uuid,
});
export type ProvisionResult = Static<typeof ProvisionResult>;

// ---- the control API (/sandbox) ----

/** GET /sandbox/merchants/{id}/reseller-connections: both directions, every status, newest first. */
export const ResellerConnections = Type.Object({
  outgoing: Type.Array(ResellerConnection),
  incoming: Type.Array(ResellerConnection),
});
export type ResellerConnections = Static<typeof ResellerConnections>;

/**
 * GET /sandbox/merchants/{id}/reseller-income: per currency, the reseller fees released to
 * `reseller:{id}:fees` (earned) and those still in the 7-day hold (pending), in minor units.
 */
export const ResellerIncome = Type.Object({
  currency: Type.String(),
  earned: Type.Integer(),
  pending: Type.Integer(),
});
export type ResellerIncome = Static<typeof ResellerIncome>;
