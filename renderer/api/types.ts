// The shapes of the sandbox control API (/sandbox/...), taken from the server's contract
// (server/contract/): the same TypeBox schemas that validate the requests, serialize the answers and
// make the OpenAPI document. Type-only imports: no server code and no TypeBox reach the bundle, and a
// change to a field of the contract fails the renderer's typecheck wherever the renderer has to follow.
// Only the renderer's own names (aliases) live here, never a copy of a shape.
// The one exception to "types only": server/contract/call.ts and the operation table it reads
// (operations.ts) are imported as values (api/client.ts, api/scenarios.ts, api/active-workspace.ts,
// lib/workspaces.ts): small runtime tables of methods and paths with no schema and no TypeBox, so
// the renderer calls by operationId and spells no API path of its own.

import type { OperationAnswer } from '../../server/contract/call.js';
import type { Delivery, DeliveryAttempt } from '../../server/contract/webhooks.js';

export type {
  ApplicationStatus,
  ApplyBody,
  AuthorizationBody as AuthorizationInput,
  Card as PaymentCard,
  CardApplication,
  Cardholder,
  CardholderDetail,
  CardMoveBody,
  CardStatus,
  CardTransaction,
  CardTransactionStatus,
  CardTransactionType,
  CreateCardholderBody,
  FundBody,
  IssueCardBody,
  KycResultBody,
  KycState,
  KycStatus,
  PatchCardBody,
  PublicKey,
  ReviewBody,
} from '../../server/contract/cards.js';
export type {
  Checkout,
  CheckoutBase as CheckoutItem,
  CheckoutInspection as CheckoutDetail,
  CheckoutPayment,
  CheckoutStatus,
  CreateCheckoutBody as CreateCheckoutInput,
  CryptoChain,
  PaymentResult,
  SimulatePaymentBody as SimulatePaymentInput,
} from '../../server/contract/checkouts.js';
export type { Env } from '../../server/contract/common.js';
export type { Customer } from '../../server/contract/customers.js';
export type { EventType } from '../../server/contract/events.js';
export type {
  AddressDepositBody,
  Balance,
  CreditBody,
  Deposit,
  DepositBurst,
  DepositBurstBody,
  LedgerTransaction,
  Payout,
  PayoutBody as PayoutInput,
  PayoutStatus,
} from '../../server/contract/funds.js';
export type { Invoice, InvoiceStatus, LineItem } from '../../server/contract/invoices.js';
export type {
  ApiKey,
  CreateApiKeyBody as CreateApiKeyInput,
  CreatedMerchant,
  CreateMerchantBody as CreateMerchantInput,
  KybStatus,
  Merchant,
  Role,
} from '../../server/contract/merchants.js';
export type {
  RefundBody as RefundInput,
  RefundRecord,
  RefundResult,
} from '../../server/contract/refunds.js';
export type { RequestLogEntry } from '../../server/contract/requests.js';
export type {
  CreateConnectionBody,
  ProvisionBody,
  ProvisionedMerchant,
  ProvisionResult,
  ResellerConnection,
  ResellerConnectionStatus,
  ResellerConnections,
  ResellerIncome,
  UpdateConnectionBody,
} from '../../server/contract/resellers.js';
export type {
  AdvanceBody,
  ClockState,
  Health,
  SandboxEvent,
  Urls,
} from '../../server/contract/sandbox-state.js';
export type {
  CardProduct,
  ChainConfig,
  ChainToken,
  Settings,
  SettingsPatch,
} from '../../server/contract/settings.js';
export type { StaticAddress } from '../../server/contract/static-addresses.js';
export type {
  CheckoutListQuery,
  CustomerDetail,
  CustomerListQuery,
  EncryptedData,
  EventListQuery,
  InvoiceDetail,
  InvoiceListQuery,
  PinResult,
  SecretsResult,
  SessionBody,
} from '../../server/contract/views.js';
export type {
  ConfigureInboxBody,
  CreateEndpointBody,
  Delivery,
  DeliveryAttempt,
  DeliveryStatus,
  EndpointHealth,
  Inbox,
  InboxMessage,
  TestEventBody,
  UpdateEndpointBody,
  WebhookEndpoint,
} from '../../server/contract/webhooks.js';

export type {
  Checkpoint,
  CreateWorkspaceBody,
  Fired,
  Workspace,
} from '../../server/contract/workspaces.js';

/** sandboxRestoreCheckpoint: the checkpoint restored and the workspace as it now is. */
export type RestoreResult = OperationAnswer<'sandboxRestoreCheckpoint'>;

/**
 * `event: delivery` on the live stream (GET /sandbox/events): the delivery (attempts empty) plus the
 * attempt just made. The contract has no schema for this message (server/http/sandbox/stream.ts
 * builds it from the two below), so it is composed here from the contract's parts, not copied.
 */
export type DeliveryNotice = Delivery & { attempt: DeliveryAttempt };

export type { PatchMerchantBody as PatchMerchantInput } from '../../server/contract/merchants.js';
export type { Change, ChangeKind, ChangeNotice } from '../../server/contract/sandbox-state.js';
