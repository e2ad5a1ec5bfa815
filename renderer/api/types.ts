// Shapes of the sandbox control API (/sandbox/...), as the server documents them in its OpenAPI
// document (/sandbox/openapi.json). The renderer keeps its own copy: it talks to the server over
// HTTP only and never imports server code.

export type Env = 'test' | 'production';
export type Role = 'owner' | 'admin' | 'developer';
export type KybStatus = 'draft' | 'pending' | 'approved' | 'rejected';

export interface Urls {
  test: string;
  production: string;
  dashboard: string;
}

export interface Health {
  status: 'ok';
  version: string;
  now: string;
  urls: Urls;
}

export interface Merchant {
  id: string;
  name: string;
  legal_name: string | null;
  country: string | null;
  kyb_status: KybStatus;
  platform_rate: number | null;
  created_at: string;
  updated_at: string;
}

export interface ApiKey {
  id: string;
  merchant_id: string;
  name: string;
  role: Role;
  /** The full key: sandbox keys stay viewable. */
  key: string;
  created_at: string;
  revoked_at: string | null;
}

export interface CreateMerchantInput {
  name: string;
  legal_name?: string;
  country?: string;
}

export interface CreateApiKeyInput {
  name: string;
  role: Role;
}

export interface ClockState {
  now: string;
  offset_ms: number;
  frozen: boolean;
  /** Jobs that fell due and ran because of the call (advance, resume). */
  ran?: number;
}

/** A recorded event, as GET /sandbox/events streams it (`event: event`). */
export interface SandboxEvent {
  id: string;
  env: Env;
  merchant_id: string;
  type: string;
  resource_id: string | null;
  data: Record<string, unknown>;
  created_at: string;
}

// ---- Checkouts ----------------------------------------------------------------------------------

export type CheckoutStatus =
  | 'active'
  | 'paid'
  | 'completed'
  | 'partial'
  | 'partially_refunded'
  | 'refunded'
  | 'expired'
  | 'cancelled';

/** A checkout as lists return it (GET /sandbox/merchants/{id}/checkouts). Amounts: integers, 6dp. */
export interface CheckoutItem {
  id: string;
  merchant_id: string;
  title: string;
  description: string | null;
  amount: number | null;
  currency: string;
  method: 'crypto' | 'fiat' | 'any';
  status: CheckoutStatus;
  hosted_url: string;
  reference: string | null;
  customer_id: string | null;
  paid_amount: number | null;
  paid_at: string | null;
  payer_address: string | null;
  refunded_amount: number;
  refund_status: string | null;
  reseller_id: string | null;
  reseller_fee: number;
  platform_fee: number;
  platform_gas_fee: number;
  expires_at: string;
  created_at: string;
  updated_at: string;
}

export interface ChainToken {
  name: string;
  contract_address: string;
  min: number;
  max: number;
  gas_fee: number;
}

export interface CryptoChain {
  chain: string;
  address: string;
  tokens: ChainToken[];
}

export interface Checkout extends CheckoutItem {
  crypto_chains: CryptoChain[];
  fiat: { session_url: string; success_url: string | null; cancel_url: string | null } | null;
}

export interface CheckoutPayment {
  id: string;
  checkout_id: string;
  method: string;
  chain: string | null;
  token: string | null;
  amount: number;
  payer_address: string | null;
  txid: string | null;
  created_at: string;
}

export interface RefundRecord {
  id: string;
  checkout_id: string;
  amount: number;
  refund_fee: number;
  gas_fee_payer: string;
  customer_amount: number;
  merchant_debit: number;
  receiver: string | null;
  reason: string | null;
  txid: string | null;
  status_after: string;
  created_at: string;
}

/** GET /sandbox/checkouts/{id}: the checkout with what the chain saw and what was refunded. */
export interface CheckoutDetail {
  checkout: Checkout;
  env: Env;
  received_amount: number;
  payments: CheckoutPayment[];
  refunds: RefundRecord[];
}

export interface CreateCheckoutInput {
  title: string;
  amount: number;
  expires_at: string;
  currency?: string;
}

export interface SimulatePaymentInput {
  amount?: number;
  method?: 'crypto' | 'fiat';
  chain?: string;
  token?: string;
}

export interface RefundInput {
  amount?: number;
  reason?: string;
  gas_fee_payer?: 'merchant';
}

export interface RefundResult {
  id: string;
  status: string;
  refund_status: string;
  refunded_amount: number;
  refund_fee: number;
  remaining_amount: number;
}

// ---- Webhooks -----------------------------------------------------------------------------------

export interface WebhookEndpoint {
  id: string;
  merchant_id: string;
  env: Env;
  url: string;
  /** Event types, or ["*"] for every event. */
  events: string[];
  /** Signing secret (whsec_...). */
  secret: string;
  created_at: string;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface DeliveryAttempt {
  number: number;
  at: string;
  request_headers: Record<string, string>;
  request_body: string;
  response_status: number | null;
  response_body: string | null;
  duration_ms: number;
  error: string | null;
}

export interface Delivery {
  id: string;
  event_id: string;
  event: string;
  merchant_id: string;
  env: Env;
  endpoint_id: string;
  url: string;
  status: DeliveryStatus;
  attempt_count: number;
  next_attempt_at: string | null;
  created_at: string;
  updated_at: string;
  attempts: DeliveryAttempt[];
}

/** `event: delivery` on the live stream: the delivery (attempts empty) plus the attempt just made. */
export interface DeliveryNotice extends Delivery {
  attempt: DeliveryAttempt;
}

export interface InboxMessage {
  id: number;
  received_at: string;
  headers: Record<string, string>;
  body: string;
  /** Whether the signature matched the endpoint's secret; null when the delivery is unknown. */
  signature_valid: boolean | null;
  response_status: number;
}

export interface Inbox {
  name: string;
  response_status: number;
  messages: InboxMessage[];
}

// ---- Money --------------------------------------------------------------------------------------

export interface Balance {
  currency: string;
  available: number;
  /** Detected on-chain, not yet settled to the merchant. */
  held: number;
}

export interface StaticAddress {
  id: number;
  merchant_id: string;
  chain: string;
  address: string;
  created_at: string;
}

export interface ChainConfig {
  chain: string;
  tokens: ChainToken[];
}

export interface Settings {
  platform_rate: number;
  settlement_delay_seconds: number;
  application_review: 'auto' | 'manual';
  chains: ChainConfig[];
  card_catalogue: CardProduct[];
}

export interface Deposit {
  id: string;
  merchant_id: string;
  env: Env;
  chain: string;
  address: string;
  currency: string;
  amount: number;
  txid: string;
  created_at: string;
}

export interface PayoutInput {
  merchant_id: string;
  env: Env;
  amount: number;
  currency: string;
  destination?: string;
  outcome: 'completed' | 'failed';
}

export interface Payout {
  id: string;
  merchant_id: string;
  env: Env;
  amount: number;
  currency: string;
  destination: string | null;
  status: 'completed' | 'failed';
  failure_reason: string | null;
  created_at: string;
}

export interface LedgerTransaction {
  id: string;
  env: Env;
  kind: string;
  ref_id: string | null;
  memo: string | null;
  created_at: string;
  entries: { account: string; currency: string; amount: number }[];
}

// ---- Cards --------------------------------------------------------------------------------------

export interface CardProduct {
  id: string;
  name: string;
  type: 'virtual' | 'physical';
}

export interface Cardholder {
  id: string;
  merchant_id: string;
  name: string;
  email: string | null;
  username: string;
  is_kyc_verified: boolean;
  balances: { currency: string; balance: number; rate: number; value: number }[];
  created_at: string;
}

export interface CardApplication {
  id: string;
  cardholder_id: string;
  catalogue: string;
  status: 'pending' | 'approved' | 'rejected';
  created_at: string;
  updated_at: string;
}

export type CardStatus = 'notActivated' | 'active' | 'locked' | 'canceled';

export interface PaymentCard {
  id: string;
  /** The cardholder's id. */
  user_id: string;
  catalogue_id: string;
  status: CardStatus;
  ctype: 'virtual' | 'physical';
  last4: string;
  exp_month: string;
  exp_year: string;
  spend_tx_max: number;
  spend_daily_max: number;
  spend_monthly_max: number;
  spend_online_enabled: boolean;
  spend_present_enabled: boolean;
  created_at: string;
}

/** GET /sandbox/cardholders/{id}. */
export interface CardholderDetail {
  /** The cardholder as lists show it (email, wallet balances), plus its environment and KYC status. */
  cardholder: Cardholder & { env: Env; kyc_status: string };
  applications: CardApplication[];
  cards: PaymentCard[];
}

export type CardTransactionType = 'card_payment' | 'card_refund' | 'card_deposit' | 'card_withdraw';

export interface CardTransaction {
  id: string;
  card_id: string;
  cardholder_id: string;
  type: CardTransactionType;
  /** requested → completed | declined | reversed for payments; completed for the others. */
  status: string;
  /** Negative for spending. */
  amount: number;
  currency: string;
  local_amount: number;
  local_currency: string;
  merchant_name: string | null;
  channel: string | null;
  decline_reason: string | null;
  created_at: string;
  updated_at: string;
}

export interface AuthorizationInput {
  amount: number;
  merchant_name?: string;
  channel: 'online' | 'present';
}

export interface PublicKey {
  env: Env;
  public_key_pem: string;
}
