import { type Static, Type } from 'typebox';
import { described, EnvName, Nullable, PositiveAmount, StringEnum, Timestamp, Uuid } from './common.js';
import { Email } from './customers.js';

export const CardholderBalance = Type.Object({
  currency: Type.String(),
  /** micro-units (6dp) */
  balance: Type.Integer(),
  /** USD per unit of the currency (1 for the USD stablecoins) */
  rate: Type.Number(),
  /** balance × rate, micro-units of USD */
  value: Type.Integer(),
});

export const Cardholder = Type.Object({
  id: Uuid,
  merchant_id: Uuid,
  name: Type.String(),
  email: Nullable(Type.String()),
  username: Type.String(),
  is_kyc_verified: Type.Boolean(),
  balances: Type.Array(CardholderBalance),
  created_at: Timestamp,
});
export type Cardholder = Static<typeof Cardholder>;

export const CreateCardholderBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200, description: "the cardholder's name" }),
  email: Type.Optional(described(Email, "the cardholder's email")),
});
export type CreateCardholderBody = Static<typeof CreateCardholderBody>;

export const KycToken = Type.Object({
  token: Type.String(),
  /** the sandbox's stand-in for the identity provider's page for this token */
  url: Type.String(),
});

const Band = Type.String({
  pattern: '^[0-9]{1,12}_[0-9]{1,12}$',
  description: 'two numbers joined by an underscore',
});

export const ApplyBody = Type.Object({
  catalogue: described(Uuid, 'the card product (the card catalogue lists them)'),
  account_purpose: Type.String({
    minLength: 1,
    maxLength: 200,
    description: 'what the card is for, in words',
  }),
  occupation: Type.String({ minLength: 1, maxLength: 200, description: "the cardholder's occupation" }),
  annual_salary: Band,
  expected_monthly_volume: Band,
});
export type ApplyBody = Static<typeof ApplyBody>;

export const ApplicationStatus = StringEnum(['pending', 'approved', 'rejected']);

export const CardApplication = Type.Object({
  id: Uuid,
  cardholder_id: Uuid,
  catalogue: Uuid,
  status: ApplicationStatus,
  account_purpose: Type.String(),
  occupation: Type.String(),
  annual_salary: Type.String(),
  expected_monthly_volume: Type.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export type CardApplication = Static<typeof CardApplication>;
export type ApplicationStatus = Static<typeof ApplicationStatus>;

export const CardType = StringEnum(['virtual', 'physical']);
export type CardType = Static<typeof CardType>;
export const IssueCardBody = Type.Object({
  catalogue: described(Uuid, 'the card product (the card catalogue lists them)'),
  type: described(CardType, 'virtual (active at once) or physical (activated on arrival)'),
});
export type IssueCardBody = Static<typeof IssueCardBody>;

export const CardStatus = StringEnum(['notActivated', 'active', 'locked', 'canceled']);
export type CardStatus = Static<typeof CardStatus>;

export const Card = Type.Object({
  id: Uuid,
  /** the cardholder's id */
  user_id: Uuid,
  catalogue_id: Uuid,
  status: CardStatus,
  ctype: CardType,
  last4: Type.String(),
  exp_month: Type.String(),
  exp_year: Type.String(),
  spend_tx_max: Type.Integer(),
  spend_daily_max: Type.Integer(),
  spend_monthly_max: Type.Integer(),
  spend_online_enabled: Type.Boolean(),
  spend_present_enabled: Type.Boolean(),
  created_at: Timestamp,
});
export type Card = Static<typeof Card>;

export const PatchCardBody = Type.Object({
  status: StringEnum(['active', 'locked'], {
    description: 'locked: it authorizes nothing until active again',
  }),
});
export type PatchCardBody = Static<typeof PatchCardBody>;

const Limit = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });
export const LimitsBody = Type.Object({
  spend_tx_max: Type.Optional(Limit),
  spend_daily_max: Type.Optional(Limit),
  spend_monthly_max: Type.Optional(Limit),
  spend_online_enabled: Type.Optional(Type.Boolean()),
  spend_present_enabled: Type.Optional(Type.Boolean()),
});
export type LimitsBody = Static<typeof LimitsBody>;

export const FundBody = Type.Object({
  amount: described(PositiveAmount, 'minor units (6 decimals)'),
  currency: Type.String({ pattern: '^[A-Za-z]{3,5}$', description: 'e.g. USDC' }),
  remark: Type.Optional(Type.String({ maxLength: 500, description: 'a note, in words' })),
});
export type FundBody = Static<typeof FundBody>;

export const CardParams = Type.Object({ ch_id: Uuid, card_id: Uuid });
/** A card's transactions, newest first. */
export const CardTransactionListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
});

export const EncryptedData = Type.Object({
  iv: Type.String({ minLength: 1, maxLength: 64 }),
  data: Type.String({ minLength: 1, maxLength: 4096 }),
});
export const SessionBody = Type.Object({ session: Type.String({ minLength: 1, maxLength: 4096 }) });
/**
 * The card-secret reads also take `session` outside the body, for clients that cannot send a GET
 * body (fetch): the `X-SVC-Session` header or the `session` query parameter. One source is enough;
 * several must agree.
 */
const SessionString = Type.String({ minLength: 1, maxLength: 4096 });
export const SessionQuery = Type.Object({
  session: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 4096,
      description: 'The wrapped session key, instead of `session` in the body.',
    }),
  ),
});
export const SessionHeaders = Type.Object({
  'x-svc-session': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 4096,
      description: 'The wrapped session key, instead of `session` in the body.',
    }),
  ),
});
/** The secrets read's body: `session` may come from the header or the query instead. */
export const SecretsBody = Type.Object({ session: Type.Optional(SessionString) });
export const SetPinBody = Type.Object({
  session: Type.String({ minLength: 1, maxLength: 4096 }),
  encrypted_data: EncryptedData,
});
export const SecretsResult = Type.Object({ encryptedPan: EncryptedData, encryptedCvc: EncryptedData });
export const PinResult = Type.Object({ encryptedPin: EncryptedData });

export const CardTransactionType = StringEnum([
  'card_payment',
  'card_refund',
  'card_deposit',
  'card_withdraw',
]);
export type CardTransactionType = Static<typeof CardTransactionType>;

/** spec: Card transaction (webhook statuses) */
export const CardTransactionStatus = StringEnum([
  'requested',
  'pending',
  'paid',
  'completed',
  'declined',
  'reversed',
]);
export type CardTransactionStatus = Static<typeof CardTransactionStatus>;

/** The /v1 list item (the webhook payload has another shape). */
export const CardTransactionItem = Type.Object({
  id: Uuid,
  amount: Type.Integer(),
  currency: Type.String(),
  description: Type.String(),
  status: CardTransactionStatus,
  created_at: Timestamp,
});
export type CardTransactionItem = Static<typeof CardTransactionItem>;

/** The control API's full view of a card transaction. */
export const CardTransaction = Type.Object({
  id: Uuid,
  card_id: Uuid,
  cardholder_id: Uuid,
  type: CardTransactionType,
  status: CardTransactionStatus,
  amount: Type.Integer(),
  currency: Type.String(),
  local_amount: Type.Integer(),
  local_currency: Type.String(),
  merchant_name: Nullable(Type.String()),
  channel: Nullable(StringEnum(['online', 'present'])),
  decline_reason: Nullable(Type.String()),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type CardTransaction = Static<typeof CardTransaction>;

const MoveFields = {
  amount: described(PositiveAmount, 'minor units (6 decimals), positive'),
  currency: Type.Optional(Type.String({ pattern: '^[A-Za-z]{3,5}$', description: 'default USDC' })),
  merchant_name: Type.Optional(
    Type.String({ minLength: 1, maxLength: 200, description: 'the shop, as the network names it' }),
  ),
  local_amount: Type.Optional(described(PositiveAmount, "the amount in the shop's currency")),
  local_currency: Type.Optional(
    Type.String({ pattern: '^[A-Z]{3}$', description: "the shop's currency (ISO 4217)" }),
  ),
};

export const AuthorizationBody = Type.Object({
  /** positive micro-units; stored negative (spending) */
  ...MoveFields,
  channel: Type.Optional(StringEnum(['online', 'present'], { description: 'online or card present' })),
  settle_after_seconds: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 30 * 24 * 3600,
      description:
        'The settlement the network is expected to send this long after an approved authorization, ' +
        'on the sandbox clock (card.transaction completed then). A reversal, decline or settlement ' +
        'before it cancels it. Omitted: the authorization waits for a control call.',
    }),
  ),
});
export type AuthorizationBody = Static<typeof AuthorizationBody>;

export const CardMoveBody = Type.Object(MoveFields);
export type CardMoveBody = Static<typeof CardMoveBody>;

export const KycResultBody = Type.Object({
  result: StringEnum(['approved', 'rejected'], { description: "the identity provider's verdict" }),
});
export type KycResultBody = Static<typeof KycResultBody>;
export const ReviewBody = Type.Object({
  status: StringEnum(['approved', 'rejected'], { description: "the issuer's decision" }),
});
export type ReviewBody = Static<typeof ReviewBody>;
export const KeysQuery = Type.Object({
  env: Type.Optional(described(EnvName, 'the environment: test (default) or production')),
});

/** The identity provider's view of a cardholder (the spec's is_kyc_verified, and where it stands). */
export const KycStatus = StringEnum(['not_started', 'pending', 'approved', 'rejected']);
export type KycStatus = Static<typeof KycStatus>;

export const KycState = Type.Object({ id: Uuid, is_kyc_verified: Type.Boolean(), kyc_status: KycStatus });
export type KycState = Static<typeof KycState>;

/** Control API: a cardholder with its environment, KYC state, applications and cards. */
export const CardholderDetail = Type.Object({
  cardholder: Type.Object({ ...Cardholder.properties, env: EnvName, kyc_status: KycStatus }),
  applications: Type.Array(CardApplication),
  cards: Type.Array(Card),
});
export type CardholderDetail = Static<typeof CardholderDetail>;

/** GET /sandbox/keys: the environment's RSA public key for card-secret sessions. */
export const PublicKey = Type.Object({ env: EnvName, public_key_pem: Type.String() });
export type PublicKey = Static<typeof PublicKey>;
