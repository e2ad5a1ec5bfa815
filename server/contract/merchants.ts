import { type Static, Type } from 'typebox';
import { described, Nullable, StringEnum, Timestamp, Uuid } from './common.js';

export const Role = StringEnum(['owner', 'admin', 'developer']);
export type Role = Static<typeof Role>;

export const KybStatus = StringEnum(['draft', 'pending', 'approved', 'rejected']);

/** spec: Provisioned merchant, btype company or individual. */
export const BusinessType = StringEnum(['company', 'individual']);
export type BusinessType = Static<typeof BusinessType>;

export const Merchant = Type.Object({
  id: Uuid,
  name: Type.String(),
  legal_name: Nullable(Type.String()),
  country: Nullable(Type.String()),
  kyb_status: KybStatus,
  /** per-merchant override of settings.platform_rate; null = use the setting */
  platform_rate: Nullable(Type.Integer()),
  /** company or individual; set by provisioning (default company), null for other merchants */
  btype: Nullable(BusinessType),
  website: Nullable(Type.String()),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Merchant = Static<typeof Merchant>;

export const ApiKey = Type.Object({
  id: Uuid,
  merchant_id: Uuid,
  name: Type.String(),
  role: Role,
  /** the full key: sandbox keys stay viewable, as in the service's dashboard */
  key: Type.String(),
  created_at: Timestamp,
  revoked_at: Nullable(Timestamp),
});
export type ApiKey = Static<typeof ApiKey>;

export const CreateMerchantBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200, description: 'the shop name' }),
  legal_name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'the company name' })),
  country: Type.Optional(Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2' })),
  kyb_status: Type.Optional(described(KybStatus, 'business verification (default approved)')),
  btype: Type.Optional(described(BusinessType, 'company or individual')),
  website: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, description: "the shop's site" })),
});
export type CreateMerchantBody = Static<typeof CreateMerchantBody>;

export const PatchMerchantBody = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'the shop name' })),
  kyb_status: Type.Optional(described(KybStatus, 'business verification')),
  platform_rate: Type.Optional(
    described(
      Nullable(Type.Integer({ minimum: 0, maximum: 10000 })),
      "basis points of each payment the platform keeps, this merchant's own; null: the setting's",
    ),
  ),
});
export type PatchMerchantBody = Static<typeof PatchMerchantBody>;

export const CreateApiKeyBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200, description: 'a label for the key' }),
  role: Type.Optional(described(Role, 'what it may do (default developer)')),
});
export type CreateApiKeyBody = Static<typeof CreateApiKeyBody>;

export const CreatedMerchant = Type.Object({ merchant: Merchant, api_key: ApiKey });
export type CreatedMerchant = Static<typeof CreatedMerchant>;
export type KybStatus = Static<typeof KybStatus>;
