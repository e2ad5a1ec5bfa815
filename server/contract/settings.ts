import { type Static, Type } from 'typebox';
import { Amount, StringEnum, Uuid } from './common.js';

export const ChainToken = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 16 }),
    contract_address: Type.String({ maxLength: 128 }),
    /** 6dp; 0 = no minimum */
    min: Amount,
    /** 6dp; 0 = no maximum */
    max: Amount,
    /** 6dp platform gas fee for payments and refunds through this token */
    gas_fee: Amount,
  },
  { additionalProperties: false },
);
export type ChainToken = Static<typeof ChainToken>;

export const ChainConfig = Type.Object(
  {
    chain: Type.String({ minLength: 1, maxLength: 32 }),
    tokens: Type.Array(ChainToken, { minItems: 1, maxItems: 16 }),
  },
  { additionalProperties: false },
);
export type ChainConfig = Static<typeof ChainConfig>;

export const CardProduct = Type.Object(
  {
    id: Uuid,
    name: Type.String({ minLength: 1, maxLength: 100 }),
    type: StringEnum(['virtual', 'physical']),
  },
  { additionalProperties: false },
);
export type CardProduct = Static<typeof CardProduct>;

export const Settings = Type.Object({
  platform_rate: Type.Integer({
    minimum: 0,
    maximum: 10000,
    description: 'basis points of the paid amount the platform keeps',
  }),
  settlement_delay_seconds: Type.Integer({
    minimum: 0,
    maximum: 30 * 86400,
    description: 'how long after paid a checkout settles (completed), in sandbox seconds',
  }),
  application_review: StringEnum(['auto', 'manual'], {
    description: 'card applications: approved at once (auto) or pending until reviewed (manual)',
  }),
  rate_limit_per_minute: Type.Integer({
    minimum: 0,
    maximum: 10_000_000,
    description: 'requests per minute per API key; 0 = off',
  }),
  concurrency_limit: Type.Integer({
    minimum: 0,
    maximum: 100_000,
    description: 'concurrent requests per API key; 0 = off',
  }),
  webhook_timeout_ms: Type.Integer({
    minimum: 1,
    maximum: 120_000,
    description: 'how long a webhook receiver has to answer',
  }),
  /** at most 32 chains of 16 tokens: every checkout walks the catalogue */
  chains: Type.Array(ChainConfig, {
    minItems: 1,
    maxItems: 32,
    description: 'the chains and tokens checkouts offer',
  }),
  card_catalogue: Type.Array(CardProduct, { maxItems: 100, description: 'the card products' }),
  hosted_pages_frame_ancestors: Type.Array(
    Type.String({ pattern: '^https?://[A-Za-z0-9.\\-\\[\\]:]+$', maxLength: 200 }),
    {
      maxItems: 20,
      description:
        'origins that may show the hosted pages (checkout, card payment, KYC) in a frame, e.g. a shop embedding its checkout; empty (the default): none',
    },
  ),
});
export type Settings = Static<typeof Settings>;

/** Unknown keys are refused (422 naming the key): a misspelt setting should not pass silently. */
export const SettingsPatch = Type.Partial(Settings, { additionalProperties: false });
export type SettingsPatch = Static<typeof SettingsPatch>;
