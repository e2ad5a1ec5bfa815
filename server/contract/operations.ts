// The operation table: every operation of the API by its operationId, made from the route
// definitions (server/http/operation-table.ts). Do not edit: change the route, then run
// `npm run operations`; a test fails while this file is behind the routes.
//
// `operations` holds what a client needs at run time (no schema: the renderer bundles it);
// `OperationTypes` the contract's types of each one's parameters, query, body and answer.

import type { Static } from 'typebox';
import type { ApplyBody, AuthorizationBody, Card, CardApplication, CardMoveBody, CardParams, CardTransaction, CardTransactionItem, CardTransactionListQuery, Cardholder, CardholderDetail, CreateCardholderBody, FundBody, IssueCardBody, KeysQuery, KycResultBody, KycState, KycToken, LimitsBody, PatchCardBody, PinResult, PublicKey, ReviewBody, SecretsBody, SecretsResult, SessionBody, SessionQuery, SetPinBody } from './cards.js';
import type { Checkout, CheckoutBase, CheckoutInspection, CreateCheckoutBody, PaymentResult, SimulatePaymentBody } from './checkouts.js';
import type { EmptyObject, EnvLimitQuery, EnvListQuery, EnvQuery, IdParams, ListQuery } from './common.js';
import type { Coverage } from './coverage.js';
import type { CreateCustomerBody, Customer, UpdateCustomerBody } from './customers.js';
import type { Faults, FaultsInput } from './faults.js';
import type { AddressDepositBody, Balance, CreditBody, Deposit, DepositBody, DepositBurst, DepositBurstBody, LedgerTransaction, Payout, PayoutBody } from './funds.js';
import type { ActivateInvoiceBody, ActivatedInvoice, CreateInvoiceBody, Invoice } from './invoices.js';
import type { ApiKey, CreateApiKeyBody, CreateMerchantBody, CreatedMerchant, Merchant, PatchMerchantBody } from './merchants.js';
import type { ReceiverCheckBody, ReceiverCheckResult } from './receiver-checks.js';
import type { RecordingExpectBody, RecordingExpectResult, RecordingStartBody, RecordingState, RecordingStopped } from './recording.js';
import type { RefundBody, RefundResult } from './refunds.js';
import type { RequestLogEntry, RequestLogQuery, VerifyRequestsBody, VerifyRequestsResult } from './requests.js';
import type { ConnectionParams, CreateConnectionBody, MerchantConnectionParams, ProvisionBody, ProvisionResult, ResellerConnection, ResellerConnections, ResellerIncome, UpdateConnectionBody } from './resellers.js';
import type { AdvanceBody, AdvanceResult, ClockState, Health, ResetResult, SandboxEvent, StreamQuery } from './sandbox-state.js';
import type { LibraryList, LibraryNameParams, LibraryRun, LibraryRunBody, LibraryScenarioDetail } from './scenario-library.js';
import type { ScenarioJsonSchema, ScenarioRun, ScenarioRunBody } from './scenarios.js';
import type { CardProduct, Settings, SettingsPatch } from './settings.js';
import type { AddressParams, StaticAddress, WithdrawChains } from './static-addresses.js';
import type { ExportQuery, ImportResult, WorkspaceContents } from './transfer.js';
import type { CheckoutListQuery, CustomerDetail, CustomerListQuery, EventListQuery, InvoiceDetail, InvoiceListQuery } from './views.js';
import type { ConfigureInboxBody, CreateEndpointBody, Delivery, DeliveryQuery, EndpointHealth, Inbox, InboxName, InboxQuery, InboxSummary, ListenSecret, ListenSession, ListenSessionBody, ListenSessionClosed, ResendBody, TestEventBody, UpdateEndpointBody, WebhookEndpoint } from './webhooks.js';
import type { Checkpoint, CheckpointParams, CreateCheckpointBody, CreateWorkspaceBody, RestoreResult, Workspace, WorkspaceParams } from './workspaces.js';

/** Method, path (`{name}` for each parameter), whether it only reads, and its summary. */
export const operations = {
  activateInvoice: { method: 'POST', path: '/v1/invoices/{id}/activate', reads: false, summary: "Activate an invoice" },
  applyForCard: { method: 'POST', path: '/v1/cardholders/{id}/cards/apply', reads: false, summary: "Apply for a card for a cardholder" },
  createCardholder: { method: 'POST', path: '/v1/cardholders', reads: false, summary: "Create a cardholder" },
  createCheckout: { method: 'POST', path: '/v1/checkouts', reads: false, summary: "Create a checkout" },
  createCustomer: { method: 'POST', path: '/v1/customers', reads: false, summary: "Create a customer" },
  createInvoice: { method: 'POST', path: '/v1/invoices', reads: false, summary: "Create an invoice" },
  createResellerConnection: { method: 'POST', path: '/v1/reseller/connections', reads: false, summary: "Create a reseller connection" },
  deleteCheckout: { method: 'DELETE', path: '/v1/checkouts/{id}', reads: false, summary: "Delete a checkout" },
  deleteCustomer: { method: 'DELETE', path: '/v1/customers/{id}', reads: false, summary: "Delete a customer" },
  deleteInvoice: { method: 'DELETE', path: '/v1/invoices/{id}', reads: false, summary: "Delete an invoice" },
  deleteMerchantResellerConnection: { method: 'DELETE', path: '/v1/merchants/{id}/reseller-connections/{connection_id}', reads: false, summary: "Delete a reseller connection of a merchant" },
  deleteResellerConnection: { method: 'DELETE', path: '/v1/reseller/connections/{connection_id}', reads: false, summary: "Delete a reseller connection" },
  fundCardholder: { method: 'POST', path: '/v1/cardholders/{id}/fund', reads: false, summary: "Fund a cardholder" },
  getCardholder: { method: 'GET', path: '/v1/cardholders/{id}', reads: true, summary: "Get a cardholder" },
  getCardholderCard: { method: 'GET', path: '/v1/cardholders/{ch_id}/cards/{card_id}', reads: true, summary: "Get a card of a cardholder" },
  getCardPin: { method: 'GET', path: '/v1/cardholders/{ch_id}/cards/{card_id}/pin', reads: true, summary: "Read a card’s PIN (encrypted)" },
  getCheckout: { method: 'GET', path: '/v1/checkouts/{id}', reads: true, summary: "Get a checkout" },
  getCustomer: { method: 'GET', path: '/v1/customers/{id}', reads: true, summary: "Get a customer" },
  getInvoice: { method: 'GET', path: '/v1/invoices/{id}', reads: true, summary: "Get an invoice" },
  issueCard: { method: 'POST', path: '/v1/cardholders/{id}/cards', reads: false, summary: "Issue a card to a cardholder" },
  listCardholderCards: { method: 'GET', path: '/v1/cardholders/{id}/cards', reads: true, summary: "List cards of a cardholder" },
  listCardholders: { method: 'GET', path: '/v1/cardholders', reads: true, summary: "List cardholders" },
  listCardTransactions: { method: 'GET', path: '/v1/cardholders/{ch_id}/cards/{card_id}/transactions', reads: true, summary: "List transactions of a card" },
  listCheckouts: { method: 'GET', path: '/v1/checkouts', reads: true, summary: "List checkouts" },
  listCustomers: { method: 'GET', path: '/v1/customers', reads: true, summary: "List customers" },
  listIncomingResellerConnections: { method: 'GET', path: '/v1/merchants/{id}/reseller-connections/incoming', reads: true, summary: "List reseller connections made to a merchant" },
  listInvoices: { method: 'GET', path: '/v1/invoices', reads: true, summary: "List invoices" },
  listResellerConnections: { method: 'GET', path: '/v1/reseller/connections', reads: true, summary: "List reseller connections" },
  listStaticAddresses: { method: 'GET', path: '/v1/static-addresses', reads: true, summary: "List static addresses" },
  listWithdrawChains: { method: 'GET', path: '/v1/withdraw/chains', reads: true, summary: "List withdraw chains" },
  provisionMerchant: { method: 'POST', path: '/v1/reseller/provision', reads: false, summary: "Provision a merchant" },
  recallCardholder: { method: 'POST', path: '/v1/cardholders/{id}/recall', reads: false, summary: "Recall a cardholder" },
  refundCheckout: { method: 'POST', path: '/v1/checkouts/{id}/refund', reads: false, summary: "Refund a checkout" },
  revealCardSecrets: { method: 'POST', path: '/v1/cardholders/{ch_id}/cards/{card_id}/secrets', reads: false, summary: "Read a card’s PAN and CVC (encrypted)" },
  sandboxActivateCard: { method: 'POST', path: '/sandbox/cards/{id}/activate', reads: false, summary: "Activate a card" },
  sandboxAddRecordingExpectation: { method: 'POST', path: '/sandbox/recording/expect', reads: false, summary: "Add an expectation from the current state of a resource to the recording" },
  sandboxAdvanceClock: { method: 'POST', path: '/sandbox/clock/advance', reads: false, summary: "Advance the clock" },
  sandboxCancelCard: { method: 'POST', path: '/sandbox/cards/{id}/cancel', reads: false, summary: "Cancel a card" },
  sandboxCancelCheckout: { method: 'POST', path: '/sandbox/checkouts/{id}/cancel', reads: false, summary: "Cancel a checkout" },
  sandboxCheckReceiver: { method: 'POST', path: '/sandbox/receiver-checks', reads: false, summary: "Grade a webhook receiver" },
  sandboxClearFaults: { method: 'DELETE', path: '/sandbox/faults', reads: false, summary: "Clear the API faults" },
  sandboxClearInboxMessages: { method: 'DELETE', path: '/sandbox/inboxes/{name}/messages', reads: false, summary: "Clear the messages of an inbox" },
  sandboxCompleteCheckout: { method: 'POST', path: '/sandbox/checkouts/{id}/complete', reads: false, summary: "Complete a checkout" },
  sandboxCreateCardAuthorization: { method: 'POST', path: '/sandbox/cards/{id}/authorizations', reads: false, summary: "Create an authorization of a card" },
  sandboxCreateCardDeposit: { method: 'POST', path: '/sandbox/cards/{id}/deposits', reads: false, summary: "Create a deposit of a card" },
  sandboxCreateCardholderApplication: { method: 'POST', path: '/sandbox/cardholders/{id}/applications', reads: false, summary: "Create an application of a cardholder" },
  sandboxCreateCardholderCard: { method: 'POST', path: '/sandbox/cardholders/{id}/cards', reads: false, summary: "Create a card of a cardholder" },
  sandboxCreateCardRefund: { method: 'POST', path: '/sandbox/cards/{id}/refunds', reads: false, summary: "Create a refund of a card" },
  sandboxCreateCardSecret: { method: 'POST', path: '/sandbox/cards/{id}/secrets', reads: false, summary: "Create a secret of a card" },
  sandboxCreateCardWithdrawal: { method: 'POST', path: '/sandbox/cards/{id}/withdrawals', reads: false, summary: "Create a withdrawal of a card" },
  sandboxCreateDeposit: { method: 'POST', path: '/sandbox/deposits', reads: false, summary: "Create a deposit" },
  sandboxCreateDepositBurst: { method: 'POST', path: '/sandbox/deposits/bursts', reads: false, summary: "Create a burst of deposits" },
  sandboxCreateListenSession: { method: 'POST', path: '/sandbox/listen-sessions', reads: false, summary: "Start forwarding every merchant’s webhooks to svc-sandbox listen" },
  sandboxCreateMerchant: { method: 'POST', path: '/sandbox/merchants', reads: false, summary: "Create a merchant" },
  sandboxCreateMerchantApiKey: { method: 'POST', path: '/sandbox/merchants/{id}/api-keys', reads: false, summary: "Create an API key of a merchant" },
  sandboxCreateMerchantCardholder: { method: 'POST', path: '/sandbox/merchants/{id}/cardholders', reads: false, summary: "Create a cardholder of a merchant" },
  sandboxCreateMerchantCheckout: { method: 'POST', path: '/sandbox/merchants/{id}/checkouts', reads: false, summary: "Create a checkout of a merchant" },
  sandboxCreateMerchantResellerConnection: { method: 'POST', path: '/sandbox/merchants/{id}/reseller-connections', reads: false, summary: "Create a reseller connection of a merchant" },
  sandboxCreateMerchantWebhookEndpoint: { method: 'POST', path: '/sandbox/merchants/{id}/webhook-endpoints', reads: false, summary: "Create a webhook endpoint of a merchant" },
  sandboxCreatePayout: { method: 'POST', path: '/sandbox/payouts', reads: false, summary: "Create a payout" },
  sandboxCreateStaticAddressDeposit: { method: 'POST', path: '/sandbox/static-addresses/{address}/deposits', reads: false, summary: "Create a deposit of a static address" },
  sandboxCreateWorkspace: { method: 'POST', path: '/sandbox/workspaces', reads: false, summary: "Create a workspace" },
  sandboxCreditMerchant: { method: 'POST', path: '/sandbox/merchants/{id}/credit', reads: false, summary: "Credit a merchant" },
  sandboxDeclineCardTransaction: { method: 'POST', path: '/sandbox/card-transactions/{id}/decline', reads: false, summary: "Decline a card transaction" },
  sandboxDeleteApiKey: { method: 'DELETE', path: '/sandbox/api-keys/{id}', reads: false, summary: "Delete an API key" },
  sandboxDeleteCheckpoint: { method: 'DELETE', path: '/sandbox/checkpoints/{name}', reads: false, summary: "Delete a checkpoint" },
  sandboxDeleteListenSession: { method: 'DELETE', path: '/sandbox/listen-sessions/{id}', reads: false, summary: "Stop a listen session and remove its endpoints" },
  sandboxDeleteResellerConnection: { method: 'DELETE', path: '/sandbox/reseller-connections/{id}', reads: false, summary: "Delete a reseller connection" },
  sandboxDeleteWebhookEndpoint: { method: 'DELETE', path: '/sandbox/webhook-endpoints/{id}', reads: false, summary: "Delete a webhook endpoint" },
  sandboxDeleteWorkspace: { method: 'DELETE', path: '/sandbox/workspaces/{id}', reads: false, summary: "Delete a workspace" },
  sandboxExpireCheckout: { method: 'POST', path: '/sandbox/checkouts/{id}/expire', reads: false, summary: "Expire a checkout" },
  sandboxExportWorkspace: { method: 'GET', path: '/sandbox/export', reads: true, summary: "Export the workspace (or one merchant) as a bundle file" },
  sandboxFreezeClock: { method: 'POST', path: '/sandbox/clock/freeze', reads: false, summary: "Freeze the clock" },
  sandboxFundCardholder: { method: 'POST', path: '/sandbox/cardholders/{id}/fund', reads: false, summary: "Fund a cardholder" },
  sandboxGetCardCatalogue: { method: 'GET', path: '/sandbox/card-catalogue', reads: true, summary: "Get the card catalogue" },
  sandboxGetCardholder: { method: 'GET', path: '/sandbox/cardholders/{id}', reads: true, summary: "Get a cardholder" },
  sandboxGetCardTransaction: { method: 'GET', path: '/sandbox/card-transactions/{id}', reads: true, summary: "Get a card transaction" },
  sandboxGetCheckout: { method: 'GET', path: '/sandbox/checkouts/{id}', reads: true, summary: "Get a checkout" },
  sandboxGetClock: { method: 'GET', path: '/sandbox/clock', reads: true, summary: "Get the clock" },
  sandboxGetCoverage: { method: 'GET', path: '/sandbox/coverage', reads: true, summary: "Events and state transitions reached" },
  sandboxGetCustomer: { method: 'GET', path: '/sandbox/customers/{id}', reads: true, summary: "Get a customer" },
  sandboxGetDelivery: { method: 'GET', path: '/sandbox/deliveries/{id}', reads: true, summary: "Get a delivery" },
  sandboxGetFaults: { method: 'GET', path: '/sandbox/faults', reads: true, summary: "Get the API faults" },
  sandboxGetHealth: { method: 'GET', path: '/sandbox/health', reads: true, summary: "Get the health" },
  sandboxGetInbox: { method: 'GET', path: '/sandbox/inboxes/{name}', reads: true, summary: "Get an inbox" },
  sandboxGetInvoice: { method: 'GET', path: '/sandbox/invoices/{id}', reads: true, summary: "Get an invoice" },
  sandboxGetLibraryScenario: { method: 'GET', path: '/sandbox/scenarios/library/{name}', reads: true, summary: "Get a built-in scenario and its file" },
  sandboxGetListenSecret: { method: 'GET', path: '/sandbox/listen-secret', reads: true, summary: "Get the signing secret of svc-sandbox listen" },
  sandboxGetMerchant: { method: 'GET', path: '/sandbox/merchants/{id}', reads: true, summary: "Get a merchant" },
  sandboxGetMerchantLedger: { method: 'GET', path: '/sandbox/merchants/{id}/ledger', reads: true, summary: "Get the ledger of a merchant" },
  sandboxGetMerchantResellerIncome: { method: 'GET', path: '/sandbox/merchants/{id}/reseller-income', reads: true, summary: "Get the reseller income of a merchant" },
  sandboxGetRecording: { method: 'GET', path: '/sandbox/recording', reads: true, summary: "Whether a recording runs, and its steps so far" },
  sandboxGetRequestLogEntry: { method: 'GET', path: '/sandbox/request-log/{id}', reads: true, summary: "Get a request log entry" },
  sandboxGetScenarioSchema: { method: 'GET', path: '/sandbox/scenario.schema.json', reads: true, summary: "Get the JSON Schema of scenario files" },
  sandboxGetSettings: { method: 'GET', path: '/sandbox/settings', reads: true, summary: "Get the settings" },
  sandboxGetWebhookEndpoint: { method: 'GET', path: '/sandbox/webhook-endpoints/{id}', reads: true, summary: "Get a webhook endpoint" },
  sandboxGetWebhookEndpointHealth: { method: 'GET', path: '/sandbox/webhook-endpoints/{id}/health', reads: true, summary: "Health of a webhook endpoint" },
  sandboxGetWorkspace: { method: 'GET', path: '/sandbox/workspaces/{id}', reads: true, summary: "Get a workspace" },
  sandboxGetWorkspaceContents: { method: 'GET', path: '/sandbox/contents', reads: true, summary: "Count what the workspace holds" },
  sandboxImportWorkspace: { method: 'POST', path: '/sandbox/import', reads: false, summary: "Import a bundle file, replacing the workspace" },
  sandboxListCardTransactions: { method: 'GET', path: '/sandbox/cards/{id}/transactions', reads: true, summary: "List transactions of a card" },
  sandboxListCheckpoints: { method: 'GET', path: '/sandbox/checkpoints', reads: true, summary: "List the checkpoints of the workspace" },
  sandboxListDeliveries: { method: 'GET', path: '/sandbox/deliveries', reads: true, summary: "List deliveries" },
  sandboxListInboxes: { method: 'GET', path: '/sandbox/inboxes', reads: true, summary: "List inboxes" },
  sandboxListKeys: { method: 'GET', path: '/sandbox/keys', reads: true, summary: "List keys" },
  sandboxListLibraryScenarios: { method: 'GET', path: '/sandbox/scenarios/library', reads: true, summary: "List the built-in scenarios" },
  sandboxListMerchantApiKeys: { method: 'GET', path: '/sandbox/merchants/{id}/api-keys', reads: true, summary: "List API keys of a merchant" },
  sandboxListMerchantBalances: { method: 'GET', path: '/sandbox/merchants/{id}/balances', reads: true, summary: "List balances of a merchant" },
  sandboxListMerchantCardholders: { method: 'GET', path: '/sandbox/merchants/{id}/cardholders', reads: true, summary: "List cardholders of a merchant" },
  sandboxListMerchantCheckouts: { method: 'GET', path: '/sandbox/merchants/{id}/checkouts', reads: true, summary: "List checkouts of a merchant" },
  sandboxListMerchantCustomers: { method: 'GET', path: '/sandbox/merchants/{id}/customers', reads: true, summary: "List customers of a merchant" },
  sandboxListMerchantDeposits: { method: 'GET', path: '/sandbox/merchants/{id}/deposits', reads: true, summary: "List deposits of a merchant" },
  sandboxListMerchantEvents: { method: 'GET', path: '/sandbox/merchants/{id}/events', reads: true, summary: "List events of a merchant" },
  sandboxListMerchantInvoices: { method: 'GET', path: '/sandbox/merchants/{id}/invoices', reads: true, summary: "List invoices of a merchant" },
  sandboxListMerchantPayouts: { method: 'GET', path: '/sandbox/merchants/{id}/payouts', reads: true, summary: "List payouts of a merchant" },
  sandboxListMerchantResellerConnections: { method: 'GET', path: '/sandbox/merchants/{id}/reseller-connections', reads: true, summary: "List reseller connections of a merchant" },
  sandboxListMerchants: { method: 'GET', path: '/sandbox/merchants', reads: true, summary: "List merchants" },
  sandboxListMerchantStaticAddresses: { method: 'GET', path: '/sandbox/merchants/{id}/static-addresses', reads: true, summary: "List static addresses of a merchant" },
  sandboxListMerchantWebhookEndpoints: { method: 'GET', path: '/sandbox/merchants/{id}/webhook-endpoints', reads: true, summary: "List webhook endpoints of a merchant" },
  sandboxListRequestLog: { method: 'GET', path: '/sandbox/request-log', reads: true, summary: "List the request log (every /v1 request, newest first)" },
  sandboxListWebhookEndpointHealth: { method: 'GET', path: '/sandbox/merchants/{id}/webhook-endpoints/health', reads: true, summary: "Health of the webhook endpoints of a merchant" },
  sandboxListWorkspaces: { method: 'GET', path: '/sandbox/workspaces', reads: true, summary: "List workspaces" },
  sandboxPayCheckout: { method: 'POST', path: '/sandbox/checkouts/{id}/payments', reads: false, summary: "Simulate a payment to a checkout" },
  sandboxPinCard: { method: 'POST', path: '/sandbox/cards/{id}/pin', reads: false, summary: "Pin a card" },
  sandboxProvisionMerchant: { method: 'POST', path: '/sandbox/merchants/{id}/provision', reads: false, summary: "Provision a merchant as a reseller" },
  sandboxRecallCardholder: { method: 'POST', path: '/sandbox/cardholders/{id}/recall', reads: false, summary: "Recall a cardholder" },
  sandboxReceiveInboxWebhook: { method: 'POST', path: '/sandbox/inbox/{name}', reads: false, summary: "Receive a webhook into an inbox" },
  sandboxRefundCheckout: { method: 'POST', path: '/sandbox/checkouts/{id}/refund', reads: false, summary: "Refund a checkout" },
  sandboxResendDelivery: { method: 'POST', path: '/sandbox/deliveries/{id}/resend', reads: false, summary: "Resend a delivery to another endpoint" },
  sandboxReset: { method: 'POST', path: '/sandbox/reset', reads: false, summary: "Reset the workspace" },
  sandboxRestoreCheckpoint: { method: 'POST', path: '/sandbox/checkpoints/{name}/restore', reads: false, summary: "Restore the workspace to a checkpoint" },
  sandboxResumeClock: { method: 'POST', path: '/sandbox/clock/resume', reads: false, summary: "Resume the clock" },
  sandboxRetryDelivery: { method: 'POST', path: '/sandbox/deliveries/{id}/retry', reads: false, summary: "Retry a delivery" },
  sandboxReverseCardTransaction: { method: 'POST', path: '/sandbox/card-transactions/{id}/reverse', reads: false, summary: "Reverse a card transaction" },
  sandboxReviewCardApplication: { method: 'POST', path: '/sandbox/card-applications/{id}', reads: false, summary: "Review a card application" },
  sandboxReviewCardholderKyc: { method: 'POST', path: '/sandbox/cardholders/{id}/kyc', reads: false, summary: "Decide a cardholder’s KYC" },
  sandboxRevokeResellerConnection: { method: 'POST', path: '/sandbox/reseller-connections/{id}/revoke', reads: false, summary: "Revoke a reseller connection" },
  sandboxRunLibraryScenario: { method: 'POST', path: '/sandbox/scenarios/library/{name}/run', reads: false, summary: "Run a built-in scenario against this sandbox" },
  sandboxRunScenarios: { method: 'POST', path: '/sandbox/scenarios/run', reads: false, summary: "Run the scenarios" },
  sandboxSaveCheckpoint: { method: 'POST', path: '/sandbox/checkpoints', reads: false, summary: "Save a checkpoint of the workspace" },
  sandboxSetFaults: { method: 'PUT', path: '/sandbox/faults', reads: false, summary: "Set the API faults" },
  sandboxSettleCardTransaction: { method: 'POST', path: '/sandbox/card-transactions/{id}/settle', reads: false, summary: "Settle a card transaction" },
  sandboxStartRecording: { method: 'POST', path: '/sandbox/recording/start', reads: false, summary: "Start recording a scenario" },
  sandboxStopRecording: { method: 'POST', path: '/sandbox/recording/stop', reads: false, summary: "Stop recording; answers the scenario (YAML)" },
  sandboxStreamEvents: { method: 'GET', path: '/sandbox/events', reads: true, summary: "Stream events (server-sent events)" },
  sandboxTestWebhookEndpoint: { method: 'POST', path: '/sandbox/webhook-endpoints/{id}/test', reads: false, summary: "Test a webhook endpoint" },
  sandboxUpdateCard: { method: 'PATCH', path: '/sandbox/cards/{id}', reads: false, summary: "Update a card" },
  sandboxUpdateInbox: { method: 'PUT', path: '/sandbox/inboxes/{name}', reads: false, summary: "Update an inbox" },
  sandboxUpdateMerchant: { method: 'PATCH', path: '/sandbox/merchants/{id}', reads: false, summary: "Update a merchant" },
  sandboxUpdateResellerConnection: { method: 'PUT', path: '/sandbox/reseller-connections/{id}', reads: false, summary: "Update a reseller connection" },
  sandboxUpdateSettings: { method: 'PATCH', path: '/sandbox/settings', reads: false, summary: "Update the settings" },
  sandboxUpdateWebhookEndpoint: { method: 'PATCH', path: '/sandbox/webhook-endpoints/{id}', reads: false, summary: "Update a webhook endpoint" },
  sandboxVerifyRequests: { method: 'POST', path: '/sandbox/request-log/verify', reads: false, summary: "Verify the requests sent (with near misses)" },
  setCardPin: { method: 'PUT', path: '/v1/cardholders/{ch_id}/cards/{card_id}/pin', reads: false, summary: "Set a card’s PIN (encrypted)" },
  startCardholderKyc: { method: 'POST', path: '/v1/cardholders/{id}/kyc', reads: false, summary: "Start KYC for a cardholder" },
  updateCardholderCard: { method: 'PATCH', path: '/v1/cardholders/{ch_id}/cards/{card_id}', reads: false, summary: "Update a card of a cardholder" },
  updateCardLimits: { method: 'PUT', path: '/v1/cardholders/{ch_id}/cards/{card_id}/limits', reads: false, summary: "Update the limits of a card" },
  updateCustomer: { method: 'PUT', path: '/v1/customers/{id}', reads: false, summary: "Update a customer" },
  updateResellerConnection: { method: 'PUT', path: '/v1/reseller/connections/{connection_id}', reads: false, summary: "Update a reseller connection" },
} as const;

/** The contract types of each operation: path parameters, query, body, and its answer on success. */
export interface OperationTypes {
  activateInvoice: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: Static<typeof ActivateInvoiceBody>;
    answer: Static<typeof ActivatedInvoice>;
  };
  applyForCard: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: Static<typeof ApplyBody>;
    answer: Static<typeof CardApplication>;
  };
  createCardholder: {
    params: undefined;
    query: undefined;
    body: Static<typeof CreateCardholderBody>;
    answer: Static<typeof Cardholder>;
  };
  createCheckout: {
    params: undefined;
    query: undefined;
    body: Static<typeof CreateCheckoutBody>;
    answer: Static<typeof Checkout>;
  };
  createCustomer: {
    params: undefined;
    query: undefined;
    body: Static<typeof CreateCustomerBody>;
    answer: Static<typeof Customer>;
  };
  createInvoice: {
    params: undefined;
    query: undefined;
    body: Static<typeof CreateInvoiceBody>;
    answer: Static<typeof Invoice>;
  };
  createResellerConnection: {
    params: undefined;
    query: undefined;
    body: Static<typeof CreateConnectionBody>;
    answer: Static<typeof ResellerConnection>;
  };
  deleteCheckout: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: undefined;
  };
  deleteCustomer: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: undefined;
  };
  deleteInvoice: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: undefined;
  };
  deleteMerchantResellerConnection: {
    params: Static<typeof MerchantConnectionParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof ResellerConnection>;
  };
  deleteResellerConnection: {
    params: Static<typeof ConnectionParams>;
    query: undefined;
    body: undefined;
    answer: undefined;
  };
  fundCardholder: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: Static<typeof FundBody>;
    answer: undefined;
  };
  getCardholder: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof Cardholder>;
  };
  getCardholderCard: {
    params: Static<typeof CardParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof Card>;
  };
  getCardPin: {
    params: Static<typeof CardParams>;
    query: Static<typeof SessionQuery>;
    body: undefined;
    answer: Static<typeof PinResult>;
  };
  getCheckout: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof Checkout>;
  };
  getCustomer: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof Customer>;
  };
  getInvoice: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof Invoice>;
  };
  issueCard: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: Static<typeof IssueCardBody>;
    answer: Static<typeof Card>;
  };
  listCardholderCards: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof Card>[];
  };
  listCardholders: {
    params: undefined;
    query: Static<typeof ListQuery>;
    body: undefined;
    answer: Static<typeof Cardholder>[];
  };
  listCardTransactions: {
    params: Static<typeof CardParams>;
    query: Static<typeof CardTransactionListQuery>;
    body: undefined;
    answer: Static<typeof CardTransactionItem>[];
  };
  listCheckouts: {
    params: undefined;
    query: Static<typeof ListQuery>;
    body: undefined;
    answer: Static<typeof CheckoutBase>[];
  };
  listCustomers: {
    params: undefined;
    query: Static<typeof ListQuery>;
    body: undefined;
    answer: Static<typeof Customer>[];
  };
  listIncomingResellerConnections: {
    params: Static<typeof IdParams>;
    query: Static<typeof ListQuery>;
    body: undefined;
    answer: Static<typeof ResellerConnection>[];
  };
  listInvoices: {
    params: undefined;
    query: Static<typeof ListQuery>;
    body: undefined;
    answer: Static<typeof Invoice>[];
  };
  listResellerConnections: {
    params: undefined;
    query: Static<typeof ListQuery>;
    body: undefined;
    answer: Static<typeof ResellerConnection>[];
  };
  listStaticAddresses: {
    params: undefined;
    query: undefined;
    body: undefined;
    answer: Static<typeof StaticAddress>[];
  };
  listWithdrawChains: {
    params: undefined;
    query: undefined;
    body: undefined;
    answer: Static<typeof WithdrawChains>;
  };
  provisionMerchant: {
    params: undefined;
    query: undefined;
    body: Static<typeof ProvisionBody>;
    answer: Static<typeof ProvisionResult>;
  };
  recallCardholder: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: Static<typeof FundBody>;
    answer: undefined;
  };
  refundCheckout: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: Static<typeof RefundBody>;
    answer: Static<typeof RefundResult>;
  };
  revealCardSecrets: {
    params: Static<typeof CardParams>;
    query: Static<typeof SessionQuery>;
    body: Static<typeof SecretsBody>;
    answer: Static<typeof SecretsResult>;
  };
  sandboxActivateCard: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof Card>;
  };
  sandboxAddRecordingExpectation: {
    params: undefined;
    query: undefined;
    body: Static<typeof RecordingExpectBody>;
    answer: Static<typeof RecordingExpectResult>;
  };
  sandboxAdvanceClock: {
    params: undefined;
    query: undefined;
    body: Static<typeof AdvanceBody>;
    answer: Static<typeof AdvanceResult>;
  };
  sandboxCancelCard: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof Card>;
  };
  sandboxCancelCheckout: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof Checkout>;
  };
  sandboxCheckReceiver: {
    params: undefined;
    query: undefined;
    body: Static<typeof ReceiverCheckBody>;
    answer: Static<typeof ReceiverCheckResult>;
  };
  sandboxClearFaults: {
    params: undefined;
    query: undefined;
    body: undefined;
    answer: undefined;
  };
  sandboxClearInboxMessages: {
    params: Static<typeof InboxName>;
    query: undefined;
    body: undefined;
    answer: undefined;
  };
  sandboxCompleteCheckout: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof Checkout>;
  };
  sandboxCreateCardAuthorization: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: Static<typeof AuthorizationBody>;
    answer: Static<typeof CardTransaction>;
  };
  sandboxCreateCardDeposit: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: Static<typeof CardMoveBody>;
    answer: Static<typeof CardTransaction>;
  };
  sandboxCreateCardholderApplication: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: Static<typeof ApplyBody>;
    answer: Static<typeof CardApplication>;
  };
  sandboxCreateCardholderCard: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: Static<typeof IssueCardBody>;
    answer: Static<typeof Card>;
  };
  sandboxCreateCardRefund: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: Static<typeof CardMoveBody>;
    answer: Static<typeof CardTransaction>;
  };
  sandboxCreateCardSecret: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: Static<typeof SessionBody>;
    answer: Static<typeof SecretsResult>;
  };
  sandboxCreateCardWithdrawal: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: Static<typeof CardMoveBody>;
    answer: Static<typeof CardTransaction>;
  };
  sandboxCreateDeposit: {
    params: undefined;
    query: Static<typeof EnvQuery>;
    body: Static<typeof DepositBody>;
    answer: Static<typeof Deposit>;
  };
  sandboxCreateDepositBurst: {
    params: undefined;
    query: Static<typeof EnvQuery>;
    body: Static<typeof DepositBurstBody>;
    answer: Static<typeof DepositBurst>;
  };
  sandboxCreateListenSession: {
    params: undefined;
    query: Static<typeof EnvQuery>;
    body: Static<typeof ListenSessionBody>;
    answer: Static<typeof ListenSession>;
  };
  sandboxCreateMerchant: {
    params: undefined;
    query: undefined;
    body: Static<typeof CreateMerchantBody>;
    answer: Static<typeof CreatedMerchant>;
  };
  sandboxCreateMerchantApiKey: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: Static<typeof CreateApiKeyBody>;
    answer: Static<typeof ApiKey>;
  };
  sandboxCreateMerchantCardholder: {
    params: Static<typeof IdParams>;
    query: Static<typeof EnvQuery>;
    body: Static<typeof CreateCardholderBody>;
    answer: Static<typeof Cardholder>;
  };
  sandboxCreateMerchantCheckout: {
    params: Static<typeof IdParams>;
    query: Static<typeof EnvQuery>;
    body: Static<typeof CreateCheckoutBody>;
    answer: Static<typeof Checkout>;
  };
  sandboxCreateMerchantResellerConnection: {
    params: Static<typeof IdParams>;
    query: Static<typeof EnvQuery>;
    body: Static<typeof CreateConnectionBody>;
    answer: Static<typeof ResellerConnection>;
  };
  sandboxCreateMerchantWebhookEndpoint: {
    params: Static<typeof IdParams>;
    query: Static<typeof EnvQuery>;
    body: Static<typeof CreateEndpointBody>;
    answer: Static<typeof WebhookEndpoint>;
  };
  sandboxCreatePayout: {
    params: undefined;
    query: Static<typeof EnvQuery>;
    body: Static<typeof PayoutBody>;
    answer: Static<typeof Payout>;
  };
  sandboxCreateStaticAddressDeposit: {
    params: Static<typeof AddressParams>;
    query: undefined;
    body: Static<typeof AddressDepositBody>;
    answer: Static<typeof Deposit>;
  };
  sandboxCreateWorkspace: {
    params: undefined;
    query: undefined;
    body: Static<typeof CreateWorkspaceBody>;
    answer: Static<typeof Workspace>;
  };
  sandboxCreditMerchant: {
    params: Static<typeof IdParams>;
    query: Static<typeof EnvQuery>;
    body: Static<typeof CreditBody>;
    answer: Static<typeof Balance>[];
  };
  sandboxDeclineCardTransaction: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof CardTransaction>;
  };
  sandboxDeleteApiKey: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof ApiKey>;
  };
  sandboxDeleteCheckpoint: {
    params: Static<typeof CheckpointParams>;
    query: undefined;
    body: undefined;
    answer: undefined;
  };
  sandboxDeleteListenSession: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof ListenSessionClosed>;
  };
  sandboxDeleteResellerConnection: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: undefined;
  };
  sandboxDeleteWebhookEndpoint: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: undefined;
  };
  sandboxDeleteWorkspace: {
    params: Static<typeof WorkspaceParams>;
    query: undefined;
    body: undefined;
    answer: undefined;
  };
  sandboxExpireCheckout: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof Checkout>;
  };
  sandboxExportWorkspace: {
    params: undefined;
    query: Static<typeof ExportQuery>;
    body: undefined;
    answer: unknown;
  };
  sandboxFreezeClock: {
    params: undefined;
    query: undefined;
    body: undefined;
    answer: Static<typeof ClockState>;
  };
  sandboxFundCardholder: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: Static<typeof FundBody>;
    answer: undefined;
  };
  sandboxGetCardCatalogue: {
    params: undefined;
    query: Static<typeof KeysQuery>;
    body: undefined;
    answer: Static<typeof CardProduct>[];
  };
  sandboxGetCardholder: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof CardholderDetail>;
  };
  sandboxGetCardTransaction: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof CardTransaction>;
  };
  sandboxGetCheckout: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof CheckoutInspection>;
  };
  sandboxGetClock: {
    params: undefined;
    query: undefined;
    body: undefined;
    answer: Static<typeof ClockState>;
  };
  sandboxGetCoverage: {
    params: undefined;
    query: undefined;
    body: undefined;
    answer: Static<typeof Coverage>;
  };
  sandboxGetCustomer: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof CustomerDetail>;
  };
  sandboxGetDelivery: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof Delivery>;
  };
  sandboxGetFaults: {
    params: undefined;
    query: undefined;
    body: undefined;
    answer: Static<typeof Faults>;
  };
  sandboxGetHealth: {
    params: undefined;
    query: undefined;
    body: undefined;
    answer: Static<typeof Health>;
  };
  sandboxGetInbox: {
    params: Static<typeof InboxName>;
    query: Static<typeof InboxQuery>;
    body: undefined;
    answer: Static<typeof Inbox>;
  };
  sandboxGetInvoice: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof InvoiceDetail>;
  };
  sandboxGetLibraryScenario: {
    params: Static<typeof LibraryNameParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof LibraryScenarioDetail>;
  };
  sandboxGetListenSecret: {
    params: undefined;
    query: undefined;
    body: undefined;
    answer: Static<typeof ListenSecret>;
  };
  sandboxGetMerchant: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof Merchant>;
  };
  sandboxGetMerchantLedger: {
    params: Static<typeof IdParams>;
    query: Static<typeof EnvLimitQuery>;
    body: undefined;
    answer: Static<typeof LedgerTransaction>[];
  };
  sandboxGetMerchantResellerIncome: {
    params: Static<typeof IdParams>;
    query: Static<typeof EnvQuery>;
    body: undefined;
    answer: Static<typeof ResellerIncome>[];
  };
  sandboxGetRecording: {
    params: undefined;
    query: undefined;
    body: undefined;
    answer: Static<typeof RecordingState>;
  };
  sandboxGetRequestLogEntry: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof RequestLogEntry>;
  };
  sandboxGetScenarioSchema: {
    params: undefined;
    query: undefined;
    body: undefined;
    answer: Static<typeof ScenarioJsonSchema>;
  };
  sandboxGetSettings: {
    params: undefined;
    query: undefined;
    body: undefined;
    answer: Static<typeof Settings>;
  };
  sandboxGetWebhookEndpoint: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof WebhookEndpoint>;
  };
  sandboxGetWebhookEndpointHealth: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof EndpointHealth>;
  };
  sandboxGetWorkspace: {
    params: Static<typeof WorkspaceParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof Workspace>;
  };
  sandboxGetWorkspaceContents: {
    params: undefined;
    query: undefined;
    body: undefined;
    answer: Static<typeof WorkspaceContents>;
  };
  sandboxImportWorkspace: {
    params: undefined;
    query: undefined;
    body: unknown;
    answer: Static<typeof ImportResult>;
  };
  sandboxListCardTransactions: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof CardTransaction>[];
  };
  sandboxListCheckpoints: {
    params: undefined;
    query: undefined;
    body: undefined;
    answer: Static<typeof Checkpoint>[];
  };
  sandboxListDeliveries: {
    params: undefined;
    query: Static<typeof DeliveryQuery>;
    body: undefined;
    answer: Static<typeof Delivery>[];
  };
  sandboxListInboxes: {
    params: undefined;
    query: undefined;
    body: undefined;
    answer: Static<typeof InboxSummary>[];
  };
  sandboxListKeys: {
    params: undefined;
    query: Static<typeof KeysQuery>;
    body: undefined;
    answer: Static<typeof PublicKey>;
  };
  sandboxListLibraryScenarios: {
    params: undefined;
    query: undefined;
    body: undefined;
    answer: Static<typeof LibraryList>;
  };
  sandboxListMerchantApiKeys: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof ApiKey>[];
  };
  sandboxListMerchantBalances: {
    params: Static<typeof IdParams>;
    query: Static<typeof EnvQuery>;
    body: undefined;
    answer: Static<typeof Balance>[];
  };
  sandboxListMerchantCardholders: {
    params: Static<typeof IdParams>;
    query: Static<typeof EnvListQuery>;
    body: undefined;
    answer: Static<typeof Cardholder>[];
  };
  sandboxListMerchantCheckouts: {
    params: Static<typeof IdParams>;
    query: Static<typeof CheckoutListQuery>;
    body: undefined;
    answer: Static<typeof CheckoutBase>[];
  };
  sandboxListMerchantCustomers: {
    params: Static<typeof IdParams>;
    query: Static<typeof CustomerListQuery>;
    body: undefined;
    answer: Static<typeof Customer>[];
  };
  sandboxListMerchantDeposits: {
    params: Static<typeof IdParams>;
    query: Static<typeof EnvLimitQuery>;
    body: undefined;
    answer: Static<typeof Deposit>[];
  };
  sandboxListMerchantEvents: {
    params: Static<typeof IdParams>;
    query: Static<typeof EventListQuery>;
    body: undefined;
    answer: Static<typeof SandboxEvent>[];
  };
  sandboxListMerchantInvoices: {
    params: Static<typeof IdParams>;
    query: Static<typeof InvoiceListQuery>;
    body: undefined;
    answer: Static<typeof Invoice>[];
  };
  sandboxListMerchantPayouts: {
    params: Static<typeof IdParams>;
    query: Static<typeof EnvLimitQuery>;
    body: undefined;
    answer: Static<typeof Payout>[];
  };
  sandboxListMerchantResellerConnections: {
    params: Static<typeof IdParams>;
    query: Static<typeof EnvQuery>;
    body: undefined;
    answer: Static<typeof ResellerConnections>;
  };
  sandboxListMerchants: {
    params: undefined;
    query: undefined;
    body: undefined;
    answer: Static<typeof Merchant>[];
  };
  sandboxListMerchantStaticAddresses: {
    params: Static<typeof IdParams>;
    query: Static<typeof EnvQuery>;
    body: undefined;
    answer: Static<typeof StaticAddress>[];
  };
  sandboxListMerchantWebhookEndpoints: {
    params: Static<typeof IdParams>;
    query: Static<typeof EnvQuery>;
    body: undefined;
    answer: Static<typeof WebhookEndpoint>[];
  };
  sandboxListRequestLog: {
    params: undefined;
    query: Static<typeof RequestLogQuery>;
    body: undefined;
    answer: Static<typeof RequestLogEntry>[];
  };
  sandboxListWebhookEndpointHealth: {
    params: Static<typeof IdParams>;
    query: Static<typeof EnvQuery>;
    body: undefined;
    answer: Static<typeof EndpointHealth>[];
  };
  sandboxListWorkspaces: {
    params: undefined;
    query: undefined;
    body: undefined;
    answer: Static<typeof Workspace>[];
  };
  sandboxPayCheckout: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: Static<typeof SimulatePaymentBody>;
    answer: Static<typeof PaymentResult>;
  };
  sandboxPinCard: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: Static<typeof SessionBody>;
    answer: Static<typeof PinResult>;
  };
  sandboxProvisionMerchant: {
    params: Static<typeof IdParams>;
    query: Static<typeof EnvQuery>;
    body: Static<typeof ProvisionBody>;
    answer: Static<typeof ProvisionResult>;
  };
  sandboxRecallCardholder: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: Static<typeof FundBody>;
    answer: undefined;
  };
  sandboxReceiveInboxWebhook: {
    params: Static<typeof InboxName>;
    query: undefined;
    body: unknown;
    answer: undefined;
  };
  sandboxRefundCheckout: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: Static<typeof RefundBody>;
    answer: Static<typeof RefundResult>;
  };
  sandboxResendDelivery: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: Static<typeof ResendBody>;
    answer: Static<typeof Delivery>;
  };
  sandboxReset: {
    params: undefined;
    query: undefined;
    body: undefined;
    answer: Static<typeof ResetResult>;
  };
  sandboxRestoreCheckpoint: {
    params: Static<typeof CheckpointParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof RestoreResult>;
  };
  sandboxResumeClock: {
    params: undefined;
    query: undefined;
    body: undefined;
    answer: Static<typeof ClockState>;
  };
  sandboxRetryDelivery: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof Delivery>;
  };
  sandboxReverseCardTransaction: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof CardTransaction>;
  };
  sandboxReviewCardApplication: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: Static<typeof ReviewBody>;
    answer: Static<typeof CardApplication>;
  };
  sandboxReviewCardholderKyc: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: Static<typeof KycResultBody>;
    answer: Static<typeof KycState>;
  };
  sandboxRevokeResellerConnection: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof ResellerConnection>;
  };
  sandboxRunLibraryScenario: {
    params: Static<typeof LibraryNameParams>;
    query: undefined;
    body: Static<typeof LibraryRunBody>;
    answer: Static<typeof LibraryRun>;
  };
  sandboxRunScenarios: {
    params: undefined;
    query: undefined;
    body: Static<typeof ScenarioRunBody>;
    answer: Static<typeof ScenarioRun>;
  };
  sandboxSaveCheckpoint: {
    params: undefined;
    query: undefined;
    body: Static<typeof CreateCheckpointBody>;
    answer: Static<typeof Checkpoint>;
  };
  sandboxSetFaults: {
    params: undefined;
    query: undefined;
    body: Static<typeof FaultsInput>;
    answer: Static<typeof Faults>;
  };
  sandboxSettleCardTransaction: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof CardTransaction>;
  };
  sandboxStartRecording: {
    params: undefined;
    query: undefined;
    body: Static<typeof RecordingStartBody>;
    answer: Static<typeof RecordingState>;
  };
  sandboxStopRecording: {
    params: undefined;
    query: undefined;
    body: undefined;
    answer: Static<typeof RecordingStopped>;
  };
  sandboxStreamEvents: {
    params: undefined;
    query: Static<typeof StreamQuery>;
    body: undefined;
    answer: undefined;
  };
  sandboxTestWebhookEndpoint: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: Static<typeof TestEventBody>;
    answer: Static<typeof Delivery>;
  };
  sandboxUpdateCard: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: Static<typeof PatchCardBody>;
    answer: Static<typeof Card>;
  };
  sandboxUpdateInbox: {
    params: Static<typeof InboxName>;
    query: undefined;
    body: Static<typeof ConfigureInboxBody>;
    answer: Static<typeof Inbox>;
  };
  sandboxUpdateMerchant: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: Static<typeof PatchMerchantBody>;
    answer: Static<typeof Merchant>;
  };
  sandboxUpdateResellerConnection: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: Static<typeof UpdateConnectionBody>;
    answer: Static<typeof ResellerConnection>;
  };
  sandboxUpdateSettings: {
    params: undefined;
    query: undefined;
    body: Static<typeof SettingsPatch>;
    answer: Static<typeof Settings>;
  };
  sandboxUpdateWebhookEndpoint: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: Static<typeof UpdateEndpointBody>;
    answer: Static<typeof WebhookEndpoint>;
  };
  sandboxVerifyRequests: {
    params: undefined;
    query: undefined;
    body: Static<typeof VerifyRequestsBody>;
    answer: Static<typeof VerifyRequestsResult>;
  };
  setCardPin: {
    params: Static<typeof CardParams>;
    query: undefined;
    body: Static<typeof SetPinBody>;
    answer: Static<typeof EmptyObject>;
  };
  startCardholderKyc: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof KycToken>;
  };
  updateCardholderCard: {
    params: Static<typeof CardParams>;
    query: undefined;
    body: Static<typeof PatchCardBody>;
    answer: Static<typeof Card>;
  };
  updateCardLimits: {
    params: Static<typeof CardParams>;
    query: undefined;
    body: Static<typeof LimitsBody>;
    answer: Static<typeof Card>;
  };
  updateCustomer: {
    params: Static<typeof IdParams>;
    query: undefined;
    body: Static<typeof UpdateCustomerBody>;
    answer: Static<typeof Customer>;
  };
  updateResellerConnection: {
    params: Static<typeof ConnectionParams>;
    query: undefined;
    body: Static<typeof UpdateConnectionBody>;
    answer: Static<typeof ResellerConnection>;
  };
}
