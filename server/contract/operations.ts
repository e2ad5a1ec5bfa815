// The operation table: every operation of the API by its operationId, made from the route
// definitions (server/http/operation-table.ts). Do not edit: change the route, then run
// `npm run operations`; a test fails while this file is behind the routes.
//
// `operations` holds what a client needs at run time, and no more (the renderer bundles it): each
// operation's `METHOD /path`, read through `operation(id)` (./call.ts);
// `OperationTypes` each one's summary and the contract's types of its parameters, query, body and
// answer.

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
import type { ParityBody, ParityReport } from './parity.js';
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

/** Each operation's method and path (`{name}` for each parameter), one string: `operation(id)` splits it. */
export const operations = {
  activateInvoice: 'POST /v1/invoices/{id}/activate',
  applyForCard: 'POST /v1/cardholders/{id}/cards/apply',
  createCardholder: 'POST /v1/cardholders',
  createCheckout: 'POST /v1/checkouts',
  createCustomer: 'POST /v1/customers',
  createInvoice: 'POST /v1/invoices',
  createResellerConnection: 'POST /v1/reseller/connections',
  deleteCheckout: 'DELETE /v1/checkouts/{id}',
  deleteCustomer: 'DELETE /v1/customers/{id}',
  deleteInvoice: 'DELETE /v1/invoices/{id}',
  deleteMerchantResellerConnection: 'DELETE /v1/merchants/{id}/reseller-connections/{connection_id}',
  deleteResellerConnection: 'DELETE /v1/reseller/connections/{connection_id}',
  fundCardholder: 'POST /v1/cardholders/{id}/fund',
  getCardholder: 'GET /v1/cardholders/{id}',
  getCardholderCard: 'GET /v1/cardholders/{ch_id}/cards/{card_id}',
  getCardPin: 'GET /v1/cardholders/{ch_id}/cards/{card_id}/pin',
  getCheckout: 'GET /v1/checkouts/{id}',
  getCustomer: 'GET /v1/customers/{id}',
  getInvoice: 'GET /v1/invoices/{id}',
  issueCard: 'POST /v1/cardholders/{id}/cards',
  listCardholderCards: 'GET /v1/cardholders/{id}/cards',
  listCardholders: 'GET /v1/cardholders',
  listCardTransactions: 'GET /v1/cardholders/{ch_id}/cards/{card_id}/transactions',
  listCheckouts: 'GET /v1/checkouts',
  listCustomers: 'GET /v1/customers',
  listIncomingResellerConnections: 'GET /v1/merchants/{id}/reseller-connections/incoming',
  listInvoices: 'GET /v1/invoices',
  listResellerConnections: 'GET /v1/reseller/connections',
  listStaticAddresses: 'GET /v1/static-addresses',
  listWithdrawChains: 'GET /v1/withdraw/chains',
  provisionMerchant: 'POST /v1/reseller/provision',
  recallCardholder: 'POST /v1/cardholders/{id}/recall',
  refundCheckout: 'POST /v1/checkouts/{id}/refund',
  revealCardSecrets: 'POST /v1/cardholders/{ch_id}/cards/{card_id}/secrets',
  sandboxActivateCard: 'POST /sandbox/cards/{id}/activate',
  sandboxAddRecordingExpectation: 'POST /sandbox/recording/expect',
  sandboxAdvanceClock: 'POST /sandbox/clock/advance',
  sandboxCancelCard: 'POST /sandbox/cards/{id}/cancel',
  sandboxCancelCheckout: 'POST /sandbox/checkouts/{id}/cancel',
  sandboxCheckParity: 'POST /sandbox/parity',
  sandboxCheckReceiver: 'POST /sandbox/receiver-checks',
  sandboxClearFaults: 'DELETE /sandbox/faults',
  sandboxClearInboxMessages: 'DELETE /sandbox/inboxes/{name}/messages',
  sandboxCompleteCheckout: 'POST /sandbox/checkouts/{id}/complete',
  sandboxCreateCardAuthorization: 'POST /sandbox/cards/{id}/authorizations',
  sandboxCreateCardDeposit: 'POST /sandbox/cards/{id}/deposits',
  sandboxCreateCardholderApplication: 'POST /sandbox/cardholders/{id}/applications',
  sandboxCreateCardholderCard: 'POST /sandbox/cardholders/{id}/cards',
  sandboxCreateCardRefund: 'POST /sandbox/cards/{id}/refunds',
  sandboxCreateCardSecret: 'POST /sandbox/cards/{id}/secrets',
  sandboxCreateCardWithdrawal: 'POST /sandbox/cards/{id}/withdrawals',
  sandboxCreateDeposit: 'POST /sandbox/deposits',
  sandboxCreateDepositBurst: 'POST /sandbox/deposits/bursts',
  sandboxCreateListenSession: 'POST /sandbox/listen-sessions',
  sandboxCreateMerchant: 'POST /sandbox/merchants',
  sandboxCreateMerchantApiKey: 'POST /sandbox/merchants/{id}/api-keys',
  sandboxCreateMerchantCardholder: 'POST /sandbox/merchants/{id}/cardholders',
  sandboxCreateMerchantCheckout: 'POST /sandbox/merchants/{id}/checkouts',
  sandboxCreateMerchantResellerConnection: 'POST /sandbox/merchants/{id}/reseller-connections',
  sandboxCreateMerchantWebhookEndpoint: 'POST /sandbox/merchants/{id}/webhook-endpoints',
  sandboxCreatePayout: 'POST /sandbox/payouts',
  sandboxCreateStaticAddressDeposit: 'POST /sandbox/static-addresses/{address}/deposits',
  sandboxCreateWorkspace: 'POST /sandbox/workspaces',
  sandboxCreditMerchant: 'POST /sandbox/merchants/{id}/credit',
  sandboxDeclineCardTransaction: 'POST /sandbox/card-transactions/{id}/decline',
  sandboxDeleteApiKey: 'DELETE /sandbox/api-keys/{id}',
  sandboxDeleteCheckpoint: 'DELETE /sandbox/checkpoints/{name}',
  sandboxDeleteListenSession: 'DELETE /sandbox/listen-sessions/{id}',
  sandboxDeleteResellerConnection: 'DELETE /sandbox/reseller-connections/{id}',
  sandboxDeleteWebhookEndpoint: 'DELETE /sandbox/webhook-endpoints/{id}',
  sandboxDeleteWorkspace: 'DELETE /sandbox/workspaces/{id}',
  sandboxExpireCheckout: 'POST /sandbox/checkouts/{id}/expire',
  sandboxExportWorkspace: 'GET /sandbox/export',
  sandboxFreezeClock: 'POST /sandbox/clock/freeze',
  sandboxFundCardholder: 'POST /sandbox/cardholders/{id}/fund',
  sandboxGetCardCatalogue: 'GET /sandbox/card-catalogue',
  sandboxGetCardholder: 'GET /sandbox/cardholders/{id}',
  sandboxGetCardTransaction: 'GET /sandbox/card-transactions/{id}',
  sandboxGetCheckout: 'GET /sandbox/checkouts/{id}',
  sandboxGetClock: 'GET /sandbox/clock',
  sandboxGetCoverage: 'GET /sandbox/coverage',
  sandboxGetCustomer: 'GET /sandbox/customers/{id}',
  sandboxGetDelivery: 'GET /sandbox/deliveries/{id}',
  sandboxGetFaults: 'GET /sandbox/faults',
  sandboxGetHealth: 'GET /sandbox/health',
  sandboxGetInbox: 'GET /sandbox/inboxes/{name}',
  sandboxGetInvoice: 'GET /sandbox/invoices/{id}',
  sandboxGetLibraryScenario: 'GET /sandbox/scenarios/library/{name}',
  sandboxGetListenSecret: 'GET /sandbox/listen-secret',
  sandboxGetMerchant: 'GET /sandbox/merchants/{id}',
  sandboxGetMerchantLedger: 'GET /sandbox/merchants/{id}/ledger',
  sandboxGetMerchantResellerIncome: 'GET /sandbox/merchants/{id}/reseller-income',
  sandboxGetRecording: 'GET /sandbox/recording',
  sandboxGetRequestLogEntry: 'GET /sandbox/request-log/{id}',
  sandboxGetScenarioSchema: 'GET /sandbox/scenario.schema.json',
  sandboxGetSettings: 'GET /sandbox/settings',
  sandboxGetWebhookEndpoint: 'GET /sandbox/webhook-endpoints/{id}',
  sandboxGetWebhookEndpointHealth: 'GET /sandbox/webhook-endpoints/{id}/health',
  sandboxGetWorkspace: 'GET /sandbox/workspaces/{id}',
  sandboxGetWorkspaceContents: 'GET /sandbox/contents',
  sandboxImportWorkspace: 'POST /sandbox/import',
  sandboxListCardTransactions: 'GET /sandbox/cards/{id}/transactions',
  sandboxListCheckpoints: 'GET /sandbox/checkpoints',
  sandboxListDeliveries: 'GET /sandbox/deliveries',
  sandboxListInboxes: 'GET /sandbox/inboxes',
  sandboxListKeys: 'GET /sandbox/keys',
  sandboxListLibraryScenarios: 'GET /sandbox/scenarios/library',
  sandboxListMerchantApiKeys: 'GET /sandbox/merchants/{id}/api-keys',
  sandboxListMerchantBalances: 'GET /sandbox/merchants/{id}/balances',
  sandboxListMerchantCardholders: 'GET /sandbox/merchants/{id}/cardholders',
  sandboxListMerchantCheckouts: 'GET /sandbox/merchants/{id}/checkouts',
  sandboxListMerchantCustomers: 'GET /sandbox/merchants/{id}/customers',
  sandboxListMerchantDeposits: 'GET /sandbox/merchants/{id}/deposits',
  sandboxListMerchantEvents: 'GET /sandbox/merchants/{id}/events',
  sandboxListMerchantInvoices: 'GET /sandbox/merchants/{id}/invoices',
  sandboxListMerchantPayouts: 'GET /sandbox/merchants/{id}/payouts',
  sandboxListMerchantResellerConnections: 'GET /sandbox/merchants/{id}/reseller-connections',
  sandboxListMerchants: 'GET /sandbox/merchants',
  sandboxListMerchantStaticAddresses: 'GET /sandbox/merchants/{id}/static-addresses',
  sandboxListMerchantWebhookEndpoints: 'GET /sandbox/merchants/{id}/webhook-endpoints',
  sandboxListRequestLog: 'GET /sandbox/request-log',
  sandboxListWebhookEndpointHealth: 'GET /sandbox/merchants/{id}/webhook-endpoints/health',
  sandboxListWorkspaces: 'GET /sandbox/workspaces',
  sandboxPayCheckout: 'POST /sandbox/checkouts/{id}/payments',
  sandboxPinCard: 'POST /sandbox/cards/{id}/pin',
  sandboxProvisionMerchant: 'POST /sandbox/merchants/{id}/provision',
  sandboxRecallCardholder: 'POST /sandbox/cardholders/{id}/recall',
  sandboxReceiveInboxWebhook: 'POST /sandbox/inbox/{name}',
  sandboxRefundCheckout: 'POST /sandbox/checkouts/{id}/refund',
  sandboxResendDelivery: 'POST /sandbox/deliveries/{id}/resend',
  sandboxReset: 'POST /sandbox/reset',
  sandboxRestoreCheckpoint: 'POST /sandbox/checkpoints/{name}/restore',
  sandboxResumeClock: 'POST /sandbox/clock/resume',
  sandboxRetryDelivery: 'POST /sandbox/deliveries/{id}/retry',
  sandboxReverseCardTransaction: 'POST /sandbox/card-transactions/{id}/reverse',
  sandboxReviewCardApplication: 'POST /sandbox/card-applications/{id}',
  sandboxReviewCardholderKyc: 'POST /sandbox/cardholders/{id}/kyc',
  sandboxRevokeResellerConnection: 'POST /sandbox/reseller-connections/{id}/revoke',
  sandboxRunLibraryScenario: 'POST /sandbox/scenarios/library/{name}/run',
  sandboxRunScenarios: 'POST /sandbox/scenarios/run',
  sandboxSaveCheckpoint: 'POST /sandbox/checkpoints',
  sandboxSetFaults: 'PUT /sandbox/faults',
  sandboxSettleCardTransaction: 'POST /sandbox/card-transactions/{id}/settle',
  sandboxStartRecording: 'POST /sandbox/recording/start',
  sandboxStopRecording: 'POST /sandbox/recording/stop',
  sandboxStreamEvents: 'GET /sandbox/events',
  sandboxTestWebhookEndpoint: 'POST /sandbox/webhook-endpoints/{id}/test',
  sandboxUpdateCard: 'PATCH /sandbox/cards/{id}',
  sandboxUpdateInbox: 'PUT /sandbox/inboxes/{name}',
  sandboxUpdateMerchant: 'PATCH /sandbox/merchants/{id}',
  sandboxUpdateResellerConnection: 'PUT /sandbox/reseller-connections/{id}',
  sandboxUpdateSettings: 'PATCH /sandbox/settings',
  sandboxUpdateWebhookEndpoint: 'PATCH /sandbox/webhook-endpoints/{id}',
  sandboxVerifyRequests: 'POST /sandbox/request-log/verify',
  setCardPin: 'PUT /v1/cardholders/{ch_id}/cards/{card_id}/pin',
  startCardholderKyc: 'POST /v1/cardholders/{id}/kyc',
  updateCardholderCard: 'PATCH /v1/cardholders/{ch_id}/cards/{card_id}',
  updateCardLimits: 'PUT /v1/cardholders/{ch_id}/cards/{card_id}/limits',
  updateCustomer: 'PUT /v1/customers/{id}',
  updateResellerConnection: 'PUT /v1/reseller/connections/{connection_id}',
} as const;

/** Each operation's summary, and its contract types: path parameters, query, body, its answer on success. */
export interface OperationTypes {
  activateInvoice: {
    summary: "Activate an invoice";
    params: Static<typeof IdParams>;
    query: undefined;
    body: Static<typeof ActivateInvoiceBody>;
    answer: Static<typeof ActivatedInvoice>;
  };
  applyForCard: {
    summary: "Apply for a card for a cardholder";
    params: Static<typeof IdParams>;
    query: undefined;
    body: Static<typeof ApplyBody>;
    answer: Static<typeof CardApplication>;
  };
  createCardholder: {
    summary: "Create a cardholder";
    params: undefined;
    query: undefined;
    body: Static<typeof CreateCardholderBody>;
    answer: Static<typeof Cardholder>;
  };
  createCheckout: {
    summary: "Create a checkout";
    params: undefined;
    query: undefined;
    body: Static<typeof CreateCheckoutBody>;
    answer: Static<typeof Checkout>;
  };
  createCustomer: {
    summary: "Create a customer";
    params: undefined;
    query: undefined;
    body: Static<typeof CreateCustomerBody>;
    answer: Static<typeof Customer>;
  };
  createInvoice: {
    summary: "Create an invoice";
    params: undefined;
    query: undefined;
    body: Static<typeof CreateInvoiceBody>;
    answer: Static<typeof Invoice>;
  };
  createResellerConnection: {
    summary: "Create a reseller connection";
    params: undefined;
    query: undefined;
    body: Static<typeof CreateConnectionBody>;
    answer: Static<typeof ResellerConnection>;
  };
  deleteCheckout: {
    summary: "Delete a checkout";
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: undefined;
  };
  deleteCustomer: {
    summary: "Delete a customer";
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: undefined;
  };
  deleteInvoice: {
    summary: "Delete an invoice";
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: undefined;
  };
  deleteMerchantResellerConnection: {
    summary: "Delete a reseller connection of a merchant";
    params: Static<typeof MerchantConnectionParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof ResellerConnection>;
  };
  deleteResellerConnection: {
    summary: "Delete a reseller connection";
    params: Static<typeof ConnectionParams>;
    query: undefined;
    body: undefined;
    answer: undefined;
  };
  fundCardholder: {
    summary: "Fund a cardholder";
    params: Static<typeof IdParams>;
    query: undefined;
    body: Static<typeof FundBody>;
    answer: undefined;
  };
  getCardholder: {
    summary: "Get a cardholder";
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof Cardholder>;
  };
  getCardholderCard: {
    summary: "Get a card of a cardholder";
    params: Static<typeof CardParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof Card>;
  };
  getCardPin: {
    summary: "Read a card’s PIN (encrypted)";
    params: Static<typeof CardParams>;
    query: Static<typeof SessionQuery>;
    body: undefined;
    answer: Static<typeof PinResult>;
  };
  getCheckout: {
    summary: "Get a checkout";
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof Checkout>;
  };
  getCustomer: {
    summary: "Get a customer";
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof Customer>;
  };
  getInvoice: {
    summary: "Get an invoice";
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof Invoice>;
  };
  issueCard: {
    summary: "Issue a card to a cardholder";
    params: Static<typeof IdParams>;
    query: undefined;
    body: Static<typeof IssueCardBody>;
    answer: Static<typeof Card>;
  };
  listCardholderCards: {
    summary: "List cards of a cardholder";
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof Card>[];
  };
  listCardholders: {
    summary: "List cardholders";
    params: undefined;
    query: Static<typeof ListQuery>;
    body: undefined;
    answer: Static<typeof Cardholder>[];
  };
  listCardTransactions: {
    summary: "List transactions of a card";
    params: Static<typeof CardParams>;
    query: Static<typeof CardTransactionListQuery>;
    body: undefined;
    answer: Static<typeof CardTransactionItem>[];
  };
  listCheckouts: {
    summary: "List checkouts";
    params: undefined;
    query: Static<typeof ListQuery>;
    body: undefined;
    answer: Static<typeof CheckoutBase>[];
  };
  listCustomers: {
    summary: "List customers";
    params: undefined;
    query: Static<typeof ListQuery>;
    body: undefined;
    answer: Static<typeof Customer>[];
  };
  listIncomingResellerConnections: {
    summary: "List reseller connections made to a merchant";
    params: Static<typeof IdParams>;
    query: Static<typeof ListQuery>;
    body: undefined;
    answer: Static<typeof ResellerConnection>[];
  };
  listInvoices: {
    summary: "List invoices";
    params: undefined;
    query: Static<typeof ListQuery>;
    body: undefined;
    answer: Static<typeof Invoice>[];
  };
  listResellerConnections: {
    summary: "List reseller connections";
    params: undefined;
    query: Static<typeof ListQuery>;
    body: undefined;
    answer: Static<typeof ResellerConnection>[];
  };
  listStaticAddresses: {
    summary: "List static addresses";
    params: undefined;
    query: undefined;
    body: undefined;
    answer: Static<typeof StaticAddress>[];
  };
  listWithdrawChains: {
    summary: "List withdraw chains";
    params: undefined;
    query: undefined;
    body: undefined;
    answer: Static<typeof WithdrawChains>;
  };
  provisionMerchant: {
    summary: "Provision a merchant";
    params: undefined;
    query: undefined;
    body: Static<typeof ProvisionBody>;
    answer: Static<typeof ProvisionResult>;
  };
  recallCardholder: {
    summary: "Recall a cardholder";
    params: Static<typeof IdParams>;
    query: undefined;
    body: Static<typeof FundBody>;
    answer: undefined;
  };
  refundCheckout: {
    summary: "Refund a checkout";
    params: Static<typeof IdParams>;
    query: undefined;
    body: Static<typeof RefundBody>;
    answer: Static<typeof RefundResult>;
  };
  revealCardSecrets: {
    summary: "Read a card’s PAN and CVC (encrypted)";
    params: Static<typeof CardParams>;
    query: Static<typeof SessionQuery>;
    body: Static<typeof SecretsBody>;
    answer: Static<typeof SecretsResult>;
  };
  sandboxActivateCard: {
    summary: "Activate a card";
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof Card>;
  };
  sandboxAddRecordingExpectation: {
    summary: "Add an expectation from the current state of a resource to the recording";
    params: undefined;
    query: undefined;
    body: Static<typeof RecordingExpectBody>;
    answer: Static<typeof RecordingExpectResult>;
  };
  sandboxAdvanceClock: {
    summary: "Advance the clock";
    params: undefined;
    query: undefined;
    body: Static<typeof AdvanceBody>;
    answer: Static<typeof AdvanceResult>;
  };
  sandboxCancelCard: {
    summary: "Cancel a card";
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof Card>;
  };
  sandboxCancelCheckout: {
    summary: "Cancel a checkout";
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof Checkout>;
  };
  sandboxCheckParity: {
    summary: "Replay a recorded session and report where the sandbox differs";
    params: undefined;
    query: undefined;
    body: Static<typeof ParityBody>;
    answer: Static<typeof ParityReport>;
  };
  sandboxCheckReceiver: {
    summary: "Grade a webhook receiver";
    params: undefined;
    query: undefined;
    body: Static<typeof ReceiverCheckBody>;
    answer: Static<typeof ReceiverCheckResult>;
  };
  sandboxClearFaults: {
    summary: "Clear the API faults";
    params: undefined;
    query: undefined;
    body: undefined;
    answer: undefined;
  };
  sandboxClearInboxMessages: {
    summary: "Clear the messages of an inbox";
    params: Static<typeof InboxName>;
    query: undefined;
    body: undefined;
    answer: undefined;
  };
  sandboxCompleteCheckout: {
    summary: "Complete a checkout";
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof Checkout>;
  };
  sandboxCreateCardAuthorization: {
    summary: "Create an authorization of a card";
    params: Static<typeof IdParams>;
    query: undefined;
    body: Static<typeof AuthorizationBody>;
    answer: Static<typeof CardTransaction>;
  };
  sandboxCreateCardDeposit: {
    summary: "Create a deposit of a card";
    params: Static<typeof IdParams>;
    query: undefined;
    body: Static<typeof CardMoveBody>;
    answer: Static<typeof CardTransaction>;
  };
  sandboxCreateCardholderApplication: {
    summary: "Create an application of a cardholder";
    params: Static<typeof IdParams>;
    query: undefined;
    body: Static<typeof ApplyBody>;
    answer: Static<typeof CardApplication>;
  };
  sandboxCreateCardholderCard: {
    summary: "Create a card of a cardholder";
    params: Static<typeof IdParams>;
    query: undefined;
    body: Static<typeof IssueCardBody>;
    answer: Static<typeof Card>;
  };
  sandboxCreateCardRefund: {
    summary: "Create a refund of a card";
    params: Static<typeof IdParams>;
    query: undefined;
    body: Static<typeof CardMoveBody>;
    answer: Static<typeof CardTransaction>;
  };
  sandboxCreateCardSecret: {
    summary: "Create a secret of a card";
    params: Static<typeof IdParams>;
    query: undefined;
    body: Static<typeof SessionBody>;
    answer: Static<typeof SecretsResult>;
  };
  sandboxCreateCardWithdrawal: {
    summary: "Create a withdrawal of a card";
    params: Static<typeof IdParams>;
    query: undefined;
    body: Static<typeof CardMoveBody>;
    answer: Static<typeof CardTransaction>;
  };
  sandboxCreateDeposit: {
    summary: "Create a deposit";
    params: undefined;
    query: Static<typeof EnvQuery>;
    body: Static<typeof DepositBody>;
    answer: Static<typeof Deposit>;
  };
  sandboxCreateDepositBurst: {
    summary: "Create a burst of deposits";
    params: undefined;
    query: Static<typeof EnvQuery>;
    body: Static<typeof DepositBurstBody>;
    answer: Static<typeof DepositBurst>;
  };
  sandboxCreateListenSession: {
    summary: "Start forwarding every merchant’s webhooks to svc-sandbox listen";
    params: undefined;
    query: Static<typeof EnvQuery>;
    body: Static<typeof ListenSessionBody>;
    answer: Static<typeof ListenSession>;
  };
  sandboxCreateMerchant: {
    summary: "Create a merchant";
    params: undefined;
    query: undefined;
    body: Static<typeof CreateMerchantBody>;
    answer: Static<typeof CreatedMerchant>;
  };
  sandboxCreateMerchantApiKey: {
    summary: "Create an API key of a merchant";
    params: Static<typeof IdParams>;
    query: undefined;
    body: Static<typeof CreateApiKeyBody>;
    answer: Static<typeof ApiKey>;
  };
  sandboxCreateMerchantCardholder: {
    summary: "Create a cardholder of a merchant";
    params: Static<typeof IdParams>;
    query: Static<typeof EnvQuery>;
    body: Static<typeof CreateCardholderBody>;
    answer: Static<typeof Cardholder>;
  };
  sandboxCreateMerchantCheckout: {
    summary: "Create a checkout of a merchant";
    params: Static<typeof IdParams>;
    query: Static<typeof EnvQuery>;
    body: Static<typeof CreateCheckoutBody>;
    answer: Static<typeof Checkout>;
  };
  sandboxCreateMerchantResellerConnection: {
    summary: "Create a reseller connection of a merchant";
    params: Static<typeof IdParams>;
    query: Static<typeof EnvQuery>;
    body: Static<typeof CreateConnectionBody>;
    answer: Static<typeof ResellerConnection>;
  };
  sandboxCreateMerchantWebhookEndpoint: {
    summary: "Create a webhook endpoint of a merchant";
    params: Static<typeof IdParams>;
    query: Static<typeof EnvQuery>;
    body: Static<typeof CreateEndpointBody>;
    answer: Static<typeof WebhookEndpoint>;
  };
  sandboxCreatePayout: {
    summary: "Create a payout";
    params: undefined;
    query: Static<typeof EnvQuery>;
    body: Static<typeof PayoutBody>;
    answer: Static<typeof Payout>;
  };
  sandboxCreateStaticAddressDeposit: {
    summary: "Create a deposit of a static address";
    params: Static<typeof AddressParams>;
    query: undefined;
    body: Static<typeof AddressDepositBody>;
    answer: Static<typeof Deposit>;
  };
  sandboxCreateWorkspace: {
    summary: "Create a workspace";
    params: undefined;
    query: undefined;
    body: Static<typeof CreateWorkspaceBody>;
    answer: Static<typeof Workspace>;
  };
  sandboxCreditMerchant: {
    summary: "Credit a merchant";
    params: Static<typeof IdParams>;
    query: Static<typeof EnvQuery>;
    body: Static<typeof CreditBody>;
    answer: Static<typeof Balance>[];
  };
  sandboxDeclineCardTransaction: {
    summary: "Decline a card transaction";
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof CardTransaction>;
  };
  sandboxDeleteApiKey: {
    summary: "Delete an API key";
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof ApiKey>;
  };
  sandboxDeleteCheckpoint: {
    summary: "Delete a checkpoint";
    params: Static<typeof CheckpointParams>;
    query: undefined;
    body: undefined;
    answer: undefined;
  };
  sandboxDeleteListenSession: {
    summary: "Stop a listen session and remove its endpoints";
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof ListenSessionClosed>;
  };
  sandboxDeleteResellerConnection: {
    summary: "Delete a reseller connection";
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: undefined;
  };
  sandboxDeleteWebhookEndpoint: {
    summary: "Delete a webhook endpoint";
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: undefined;
  };
  sandboxDeleteWorkspace: {
    summary: "Delete a workspace";
    params: Static<typeof WorkspaceParams>;
    query: undefined;
    body: undefined;
    answer: undefined;
  };
  sandboxExpireCheckout: {
    summary: "Expire a checkout";
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof Checkout>;
  };
  sandboxExportWorkspace: {
    summary: "Export the workspace (or one merchant) as a bundle file";
    params: undefined;
    query: Static<typeof ExportQuery>;
    body: undefined;
    answer: unknown;
  };
  sandboxFreezeClock: {
    summary: "Freeze the clock";
    params: undefined;
    query: undefined;
    body: undefined;
    answer: Static<typeof ClockState>;
  };
  sandboxFundCardholder: {
    summary: "Fund a cardholder";
    params: Static<typeof IdParams>;
    query: undefined;
    body: Static<typeof FundBody>;
    answer: undefined;
  };
  sandboxGetCardCatalogue: {
    summary: "Get the card catalogue";
    params: undefined;
    query: Static<typeof KeysQuery>;
    body: undefined;
    answer: Static<typeof CardProduct>[];
  };
  sandboxGetCardholder: {
    summary: "Get a cardholder";
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof CardholderDetail>;
  };
  sandboxGetCardTransaction: {
    summary: "Get a card transaction";
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof CardTransaction>;
  };
  sandboxGetCheckout: {
    summary: "Get a checkout";
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof CheckoutInspection>;
  };
  sandboxGetClock: {
    summary: "Get the clock";
    params: undefined;
    query: undefined;
    body: undefined;
    answer: Static<typeof ClockState>;
  };
  sandboxGetCoverage: {
    summary: "Events and state transitions reached";
    params: undefined;
    query: undefined;
    body: undefined;
    answer: Static<typeof Coverage>;
  };
  sandboxGetCustomer: {
    summary: "Get a customer";
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof CustomerDetail>;
  };
  sandboxGetDelivery: {
    summary: "Get a delivery";
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof Delivery>;
  };
  sandboxGetFaults: {
    summary: "Get the API faults";
    params: undefined;
    query: undefined;
    body: undefined;
    answer: Static<typeof Faults>;
  };
  sandboxGetHealth: {
    summary: "Get the health";
    params: undefined;
    query: undefined;
    body: undefined;
    answer: Static<typeof Health>;
  };
  sandboxGetInbox: {
    summary: "Get an inbox";
    params: Static<typeof InboxName>;
    query: Static<typeof InboxQuery>;
    body: undefined;
    answer: Static<typeof Inbox>;
  };
  sandboxGetInvoice: {
    summary: "Get an invoice";
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof InvoiceDetail>;
  };
  sandboxGetLibraryScenario: {
    summary: "Get a built-in scenario and its file";
    params: Static<typeof LibraryNameParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof LibraryScenarioDetail>;
  };
  sandboxGetListenSecret: {
    summary: "Get the signing secret of svc-sandbox listen";
    params: undefined;
    query: undefined;
    body: undefined;
    answer: Static<typeof ListenSecret>;
  };
  sandboxGetMerchant: {
    summary: "Get a merchant";
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof Merchant>;
  };
  sandboxGetMerchantLedger: {
    summary: "Get the ledger of a merchant";
    params: Static<typeof IdParams>;
    query: Static<typeof EnvLimitQuery>;
    body: undefined;
    answer: Static<typeof LedgerTransaction>[];
  };
  sandboxGetMerchantResellerIncome: {
    summary: "Get the reseller income of a merchant";
    params: Static<typeof IdParams>;
    query: Static<typeof EnvQuery>;
    body: undefined;
    answer: Static<typeof ResellerIncome>[];
  };
  sandboxGetRecording: {
    summary: "Whether a recording runs, and its steps so far";
    params: undefined;
    query: undefined;
    body: undefined;
    answer: Static<typeof RecordingState>;
  };
  sandboxGetRequestLogEntry: {
    summary: "Get a request log entry";
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof RequestLogEntry>;
  };
  sandboxGetScenarioSchema: {
    summary: "Get the JSON Schema of scenario files";
    params: undefined;
    query: undefined;
    body: undefined;
    answer: Static<typeof ScenarioJsonSchema>;
  };
  sandboxGetSettings: {
    summary: "Get the settings";
    params: undefined;
    query: undefined;
    body: undefined;
    answer: Static<typeof Settings>;
  };
  sandboxGetWebhookEndpoint: {
    summary: "Get a webhook endpoint";
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof WebhookEndpoint>;
  };
  sandboxGetWebhookEndpointHealth: {
    summary: "Health of a webhook endpoint";
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof EndpointHealth>;
  };
  sandboxGetWorkspace: {
    summary: "Get a workspace";
    params: Static<typeof WorkspaceParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof Workspace>;
  };
  sandboxGetWorkspaceContents: {
    summary: "Count what the workspace holds";
    params: undefined;
    query: undefined;
    body: undefined;
    answer: Static<typeof WorkspaceContents>;
  };
  sandboxImportWorkspace: {
    summary: "Import a bundle file, replacing the workspace";
    params: undefined;
    query: undefined;
    body: unknown;
    answer: Static<typeof ImportResult>;
  };
  sandboxListCardTransactions: {
    summary: "List transactions of a card";
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof CardTransaction>[];
  };
  sandboxListCheckpoints: {
    summary: "List the checkpoints of the workspace";
    params: undefined;
    query: undefined;
    body: undefined;
    answer: Static<typeof Checkpoint>[];
  };
  sandboxListDeliveries: {
    summary: "List deliveries";
    params: undefined;
    query: Static<typeof DeliveryQuery>;
    body: undefined;
    answer: Static<typeof Delivery>[];
  };
  sandboxListInboxes: {
    summary: "List inboxes";
    params: undefined;
    query: undefined;
    body: undefined;
    answer: Static<typeof InboxSummary>[];
  };
  sandboxListKeys: {
    summary: "List keys";
    params: undefined;
    query: Static<typeof KeysQuery>;
    body: undefined;
    answer: Static<typeof PublicKey>;
  };
  sandboxListLibraryScenarios: {
    summary: "List the built-in scenarios";
    params: undefined;
    query: undefined;
    body: undefined;
    answer: Static<typeof LibraryList>;
  };
  sandboxListMerchantApiKeys: {
    summary: "List API keys of a merchant";
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof ApiKey>[];
  };
  sandboxListMerchantBalances: {
    summary: "List balances of a merchant";
    params: Static<typeof IdParams>;
    query: Static<typeof EnvQuery>;
    body: undefined;
    answer: Static<typeof Balance>[];
  };
  sandboxListMerchantCardholders: {
    summary: "List cardholders of a merchant";
    params: Static<typeof IdParams>;
    query: Static<typeof EnvListQuery>;
    body: undefined;
    answer: Static<typeof Cardholder>[];
  };
  sandboxListMerchantCheckouts: {
    summary: "List checkouts of a merchant";
    params: Static<typeof IdParams>;
    query: Static<typeof CheckoutListQuery>;
    body: undefined;
    answer: Static<typeof CheckoutBase>[];
  };
  sandboxListMerchantCustomers: {
    summary: "List customers of a merchant";
    params: Static<typeof IdParams>;
    query: Static<typeof CustomerListQuery>;
    body: undefined;
    answer: Static<typeof Customer>[];
  };
  sandboxListMerchantDeposits: {
    summary: "List deposits of a merchant";
    params: Static<typeof IdParams>;
    query: Static<typeof EnvLimitQuery>;
    body: undefined;
    answer: Static<typeof Deposit>[];
  };
  sandboxListMerchantEvents: {
    summary: "List events of a merchant";
    params: Static<typeof IdParams>;
    query: Static<typeof EventListQuery>;
    body: undefined;
    answer: Static<typeof SandboxEvent>[];
  };
  sandboxListMerchantInvoices: {
    summary: "List invoices of a merchant";
    params: Static<typeof IdParams>;
    query: Static<typeof InvoiceListQuery>;
    body: undefined;
    answer: Static<typeof Invoice>[];
  };
  sandboxListMerchantPayouts: {
    summary: "List payouts of a merchant";
    params: Static<typeof IdParams>;
    query: Static<typeof EnvLimitQuery>;
    body: undefined;
    answer: Static<typeof Payout>[];
  };
  sandboxListMerchantResellerConnections: {
    summary: "List reseller connections of a merchant";
    params: Static<typeof IdParams>;
    query: Static<typeof EnvQuery>;
    body: undefined;
    answer: Static<typeof ResellerConnections>;
  };
  sandboxListMerchants: {
    summary: "List merchants";
    params: undefined;
    query: undefined;
    body: undefined;
    answer: Static<typeof Merchant>[];
  };
  sandboxListMerchantStaticAddresses: {
    summary: "List static addresses of a merchant";
    params: Static<typeof IdParams>;
    query: Static<typeof EnvQuery>;
    body: undefined;
    answer: Static<typeof StaticAddress>[];
  };
  sandboxListMerchantWebhookEndpoints: {
    summary: "List webhook endpoints of a merchant";
    params: Static<typeof IdParams>;
    query: Static<typeof EnvQuery>;
    body: undefined;
    answer: Static<typeof WebhookEndpoint>[];
  };
  sandboxListRequestLog: {
    summary: "List the request log (every /v1 request, newest first)";
    params: undefined;
    query: Static<typeof RequestLogQuery>;
    body: undefined;
    answer: Static<typeof RequestLogEntry>[];
  };
  sandboxListWebhookEndpointHealth: {
    summary: "Health of the webhook endpoints of a merchant";
    params: Static<typeof IdParams>;
    query: Static<typeof EnvQuery>;
    body: undefined;
    answer: Static<typeof EndpointHealth>[];
  };
  sandboxListWorkspaces: {
    summary: "List workspaces";
    params: undefined;
    query: undefined;
    body: undefined;
    answer: Static<typeof Workspace>[];
  };
  sandboxPayCheckout: {
    summary: "Simulate a payment to a checkout";
    params: Static<typeof IdParams>;
    query: undefined;
    body: Static<typeof SimulatePaymentBody>;
    answer: Static<typeof PaymentResult>;
  };
  sandboxPinCard: {
    summary: "Pin a card";
    params: Static<typeof IdParams>;
    query: undefined;
    body: Static<typeof SessionBody>;
    answer: Static<typeof PinResult>;
  };
  sandboxProvisionMerchant: {
    summary: "Provision a merchant as a reseller";
    params: Static<typeof IdParams>;
    query: Static<typeof EnvQuery>;
    body: Static<typeof ProvisionBody>;
    answer: Static<typeof ProvisionResult>;
  };
  sandboxRecallCardholder: {
    summary: "Recall a cardholder";
    params: Static<typeof IdParams>;
    query: undefined;
    body: Static<typeof FundBody>;
    answer: undefined;
  };
  sandboxReceiveInboxWebhook: {
    summary: "Receive a webhook into an inbox";
    params: Static<typeof InboxName>;
    query: undefined;
    body: unknown;
    answer: undefined;
  };
  sandboxRefundCheckout: {
    summary: "Refund a checkout";
    params: Static<typeof IdParams>;
    query: undefined;
    body: Static<typeof RefundBody>;
    answer: Static<typeof RefundResult>;
  };
  sandboxResendDelivery: {
    summary: "Resend a delivery to another endpoint";
    params: Static<typeof IdParams>;
    query: undefined;
    body: Static<typeof ResendBody>;
    answer: Static<typeof Delivery>;
  };
  sandboxReset: {
    summary: "Reset the workspace";
    params: undefined;
    query: undefined;
    body: undefined;
    answer: Static<typeof ResetResult>;
  };
  sandboxRestoreCheckpoint: {
    summary: "Restore the workspace to a checkpoint";
    params: Static<typeof CheckpointParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof RestoreResult>;
  };
  sandboxResumeClock: {
    summary: "Resume the clock";
    params: undefined;
    query: undefined;
    body: undefined;
    answer: Static<typeof ClockState>;
  };
  sandboxRetryDelivery: {
    summary: "Retry a delivery";
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof Delivery>;
  };
  sandboxReverseCardTransaction: {
    summary: "Reverse a card transaction";
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof CardTransaction>;
  };
  sandboxReviewCardApplication: {
    summary: "Review a card application";
    params: Static<typeof IdParams>;
    query: undefined;
    body: Static<typeof ReviewBody>;
    answer: Static<typeof CardApplication>;
  };
  sandboxReviewCardholderKyc: {
    summary: "Decide a cardholder’s KYC";
    params: Static<typeof IdParams>;
    query: undefined;
    body: Static<typeof KycResultBody>;
    answer: Static<typeof KycState>;
  };
  sandboxRevokeResellerConnection: {
    summary: "Revoke a reseller connection";
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof ResellerConnection>;
  };
  sandboxRunLibraryScenario: {
    summary: "Run a built-in scenario against this sandbox";
    params: Static<typeof LibraryNameParams>;
    query: undefined;
    body: Static<typeof LibraryRunBody>;
    answer: Static<typeof LibraryRun>;
  };
  sandboxRunScenarios: {
    summary: "Run the scenarios";
    params: undefined;
    query: undefined;
    body: Static<typeof ScenarioRunBody>;
    answer: Static<typeof ScenarioRun>;
  };
  sandboxSaveCheckpoint: {
    summary: "Save a checkpoint of the workspace";
    params: undefined;
    query: undefined;
    body: Static<typeof CreateCheckpointBody>;
    answer: Static<typeof Checkpoint>;
  };
  sandboxSetFaults: {
    summary: "Set the API faults";
    params: undefined;
    query: undefined;
    body: Static<typeof FaultsInput>;
    answer: Static<typeof Faults>;
  };
  sandboxSettleCardTransaction: {
    summary: "Settle a card transaction";
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof CardTransaction>;
  };
  sandboxStartRecording: {
    summary: "Start recording a scenario";
    params: undefined;
    query: undefined;
    body: Static<typeof RecordingStartBody>;
    answer: Static<typeof RecordingState>;
  };
  sandboxStopRecording: {
    summary: "Stop recording; answers the scenario (YAML)";
    params: undefined;
    query: undefined;
    body: undefined;
    answer: Static<typeof RecordingStopped>;
  };
  sandboxStreamEvents: {
    summary: "Stream events (server-sent events)";
    params: undefined;
    query: Static<typeof StreamQuery>;
    body: undefined;
    answer: undefined;
  };
  sandboxTestWebhookEndpoint: {
    summary: "Test a webhook endpoint";
    params: Static<typeof IdParams>;
    query: undefined;
    body: Static<typeof TestEventBody>;
    answer: Static<typeof Delivery>;
  };
  sandboxUpdateCard: {
    summary: "Update a card";
    params: Static<typeof IdParams>;
    query: undefined;
    body: Static<typeof PatchCardBody>;
    answer: Static<typeof Card>;
  };
  sandboxUpdateInbox: {
    summary: "Update an inbox";
    params: Static<typeof InboxName>;
    query: undefined;
    body: Static<typeof ConfigureInboxBody>;
    answer: Static<typeof Inbox>;
  };
  sandboxUpdateMerchant: {
    summary: "Update a merchant";
    params: Static<typeof IdParams>;
    query: undefined;
    body: Static<typeof PatchMerchantBody>;
    answer: Static<typeof Merchant>;
  };
  sandboxUpdateResellerConnection: {
    summary: "Update a reseller connection";
    params: Static<typeof IdParams>;
    query: undefined;
    body: Static<typeof UpdateConnectionBody>;
    answer: Static<typeof ResellerConnection>;
  };
  sandboxUpdateSettings: {
    summary: "Update the settings";
    params: undefined;
    query: undefined;
    body: Static<typeof SettingsPatch>;
    answer: Static<typeof Settings>;
  };
  sandboxUpdateWebhookEndpoint: {
    summary: "Update a webhook endpoint";
    params: Static<typeof IdParams>;
    query: undefined;
    body: Static<typeof UpdateEndpointBody>;
    answer: Static<typeof WebhookEndpoint>;
  };
  sandboxVerifyRequests: {
    summary: "Verify the requests sent (with near misses)";
    params: undefined;
    query: undefined;
    body: Static<typeof VerifyRequestsBody>;
    answer: Static<typeof VerifyRequestsResult>;
  };
  setCardPin: {
    summary: "Set a card’s PIN (encrypted)";
    params: Static<typeof CardParams>;
    query: undefined;
    body: Static<typeof SetPinBody>;
    answer: Static<typeof EmptyObject>;
  };
  startCardholderKyc: {
    summary: "Start KYC for a cardholder";
    params: Static<typeof IdParams>;
    query: undefined;
    body: undefined;
    answer: Static<typeof KycToken>;
  };
  updateCardholderCard: {
    summary: "Update a card of a cardholder";
    params: Static<typeof CardParams>;
    query: undefined;
    body: Static<typeof PatchCardBody>;
    answer: Static<typeof Card>;
  };
  updateCardLimits: {
    summary: "Update the limits of a card";
    params: Static<typeof CardParams>;
    query: undefined;
    body: Static<typeof LimitsBody>;
    answer: Static<typeof Card>;
  };
  updateCustomer: {
    summary: "Update a customer";
    params: Static<typeof IdParams>;
    query: undefined;
    body: Static<typeof UpdateCustomerBody>;
    answer: Static<typeof Customer>;
  };
  updateResellerConnection: {
    summary: "Update a reseller connection";
    params: Static<typeof ConnectionParams>;
    query: undefined;
    body: Static<typeof UpdateConnectionBody>;
    answer: Static<typeof ResellerConnection>;
  };
}
