// One function per control-API operation the dashboard uses, each a `call` by operationId
// (server/contract/operations.ts): the method and path come from the table, the answer's type from
// the contract (OperationAnswer), so no path or answer shape is spelled here.
import { call } from './client';
import type {
  AddressDepositBody,
  AdvanceBody,
  ApplyBody,
  AuthorizationInput,
  CardMoveBody,
  CheckoutListQuery,
  ConfigureInboxBody,
  CreateApiKeyInput,
  CreateCardholderBody,
  CreateCheckoutInput,
  CreateConnectionBody,
  CreateEndpointBody,
  CreateMerchantInput,
  CreditBody,
  CustomerListQuery,
  DeliveryStatus,
  DepositBurstBody,
  Env,
  EventListQuery,
  FundBody,
  InvoiceListQuery,
  IssueCardBody,
  KycResultBody,
  PatchCardBody,
  PatchMerchantInput,
  PayoutInput,
  ProvisionBody,
  RefundInput,
  ReviewBody,
  SessionBody,
  SettingsPatch,
  SimulatePaymentInput,
  TestEventBody,
  UpdateConnectionBody,
  UpdateEndpointBody,
} from './types';

export const health = () => call('sandboxGetHealth');

export const listMerchants = () => call('sandboxListMerchants');
export const createMerchant = (input: CreateMerchantInput) => call('sandboxCreateMerchant', { body: input });

export const listApiKeys = (merchantId: string) =>
  call('sandboxListMerchantApiKeys', { params: { id: merchantId } });
export const createApiKey = (merchantId: string, input: CreateApiKeyInput) =>
  call('sandboxCreateMerchantApiKey', { params: { id: merchantId }, body: input });
export const revokeApiKey = (keyId: string) => call('sandboxDeleteApiKey', { params: { id: keyId } });

export const getClock = () => call('sandboxGetClock');
/** The clock after it, and what fell due on the way in this workspace (events, delivery attempts, jobs). */
export const advanceClock = (seconds: number) =>
  call('sandboxAdvanceClock', { body: { seconds } satisfies AdvanceBody });
export const freezeClock = () => call('sandboxFreezeClock');
export const resumeClock = () => call('sandboxResumeClock');

export const getSettings = () => call('sandboxGetSettings');
export const patchSettings = (patch: SettingsPatch) => call('sandboxUpdateSettings', { body: patch });
export const resetWorkspace = () => call('sandboxReset');
export const patchMerchant = (merchantId: string, patch: PatchMerchantInput) =>
  call('sandboxUpdateMerchant', { params: { id: merchantId }, body: patch });

// ---- Checkouts: the merchant's list, and the blockchain and settlement engine played by hand ----

/** A page of the merchant's checkouts: `status` and `q` (id, title or reference) filter it. */
export const listCheckouts = (merchantId: string, env: Env, filter: CheckoutListQuery = {}) =>
  call('sandboxListMerchantCheckouts', { params: { id: merchantId }, query: { ...filter, env } });
/** As the merchant's owner (the body and answer of POST /v1/checkouts), in either environment. */
export const createCheckout = (merchantId: string, env: Env, input: CreateCheckoutInput) =>
  call('sandboxCreateMerchantCheckout', { params: { id: merchantId }, query: { env }, body: input });
/** As the merchant's owner, in the checkout's environment (POST /v1/checkouts/{id}/refund). */
export const refundCheckout = (checkoutId: string, input: RefundInput) =>
  call('sandboxRefundCheckout', { params: { id: checkoutId }, body: input });
export const getCheckout = (checkoutId: string) => call('sandboxGetCheckout', { params: { id: checkoutId } });
export const simulatePayment = (checkoutId: string, input: SimulatePaymentInput) =>
  call('sandboxPayCheckout', { params: { id: checkoutId }, body: input });
export const completeCheckout = (checkoutId: string) =>
  call('sandboxCompleteCheckout', { params: { id: checkoutId } });
export const expireCheckout = (checkoutId: string) =>
  call('sandboxExpireCheckout', { params: { id: checkoutId } });
export const cancelCheckout = (checkoutId: string) =>
  call('sandboxCancelCheckout', { params: { id: checkoutId } });

// ---- Webhooks ----------------------------------------------------------------------------------

export const listEndpoints = (merchantId: string, env: Env) =>
  call('sandboxListMerchantWebhookEndpoints', { params: { id: merchantId }, query: { env } });
export const createEndpoint = (merchantId: string, env: Env, input: CreateEndpointBody) =>
  call('sandboxCreateMerchantWebhookEndpoint', { params: { id: merchantId }, query: { env }, body: input });
export const deleteEndpoint = (endpointId: string) =>
  call('sandboxDeleteWebhookEndpoint', { params: { id: endpointId } });
export interface DeliveryListFilter {
  status?: DeliveryStatus | undefined;
  event?: string | undefined;
  limit?: number | undefined;
  starting_after?: string | undefined;
}
export const listDeliveries = (merchantId: string, env: Env, filter: DeliveryListFilter = {}) =>
  call('sandboxListDeliveries', { query: { ...filter, merchant_id: merchantId, env } });
/** Changes an endpoint's URL, events or disabled flag (the secret stays). */
export const updateEndpoint = (endpointId: string, input: UpdateEndpointBody) =>
  call('sandboxUpdateWebhookEndpoint', { params: { id: endpointId }, body: input });
/** A signed sample event to this endpoint alone; answers the delivery after its first attempt. */
export const sendTestEvent = (endpointId: string, input: TestEventBody = {}) =>
  call('sandboxTestWebhookEndpoint', { params: { id: endpointId }, body: input });
export const retryDelivery = (deliveryId: string) =>
  call('sandboxRetryDelivery', { params: { id: deliveryId } });
export const getInbox = (name: string) => call('sandboxGetInbox', { params: { name } });
export const configureInbox = (name: string, responseStatus: number) =>
  call('sandboxUpdateInbox', {
    params: { name },
    body: { response_status: responseStatus } satisfies ConfigureInboxBody,
  });

// ---- Money -------------------------------------------------------------------------------------

export const listBalances = (merchantId: string, env: Env) =>
  call('sandboxListMerchantBalances', { params: { id: merchantId }, query: { env } });
export const listLedger = (merchantId: string, env: Env) =>
  call('sandboxGetMerchantLedger', { params: { id: merchantId }, query: { env } });
export const listStaticAddresses = (merchantId: string, env: Env) =>
  call('sandboxListMerchantStaticAddresses', { params: { id: merchantId }, query: { env } });
export const listPayouts = (merchantId: string, env: Env) =>
  call('sandboxListMerchantPayouts', { params: { id: merchantId }, query: { env } });
export const sendToAddress = (address: string, input: AddressDepositBody) =>
  call('sandboxCreateStaticAddressDeposit', { params: { address }, body: input });
/** Many transfers to one static address in the same block, each with its own deposit.received. */
export const depositBurst = (input: DepositBurstBody) => call('sandboxCreateDepositBurst', { body: input });
export const createPayout = (input: PayoutInput) => call('sandboxCreatePayout', { body: input });
export const creditMerchant = (merchantId: string, input: CreditBody) =>
  call('sandboxCreditMerchant', { params: { id: merchantId }, body: input });

// ---- Cards: the identity provider and the card network --------------------------------------------

export const listCardholders = (merchantId: string, env: Env) =>
  call('sandboxListMerchantCardholders', { params: { id: merchantId }, query: { env } });
export const getCardholder = (cardholderId: string) =>
  call('sandboxGetCardholder', { params: { id: cardholderId } });

// What the merchant's integration does through /v1, done as the merchant's owner from the control
// API: same bodies and answers, in either environment (the cardholder's or card's own, or `env`).

export const createCardholder = (merchantId: string, env: Env, input: CreateCardholderBody) =>
  call('sandboxCreateMerchantCardholder', { params: { id: merchantId }, query: { env }, body: input });
/** Applies for a card product. The form's questions get fixed, plausible answers: the sandbox only checks their shape. */
export const applyForCard = (cardholderId: string, catalogue: string) =>
  call('sandboxCreateCardholderApplication', {
    params: { id: cardholderId },
    body: {
      catalogue,
      account_purpose: 'Business expenses',
      occupation: 'Software engineer',
      annual_salary: '50000_100000',
      expected_monthly_volume: '1000_5000',
    } satisfies ApplyBody,
  });
export const issueCard = (cardholderId: string, input: IssueCardBody) =>
  call('sandboxCreateCardholderCard', { params: { id: cardholderId }, body: input });
/** Moves money from the merchant's business wallet to the cardholder. */
export const fundCardholder = (cardholderId: string, input: FundBody) =>
  call('sandboxFundCardholder', { params: { id: cardholderId }, body: input });
/** Lock or unlock a card: the cardholder's own switch. */
export const setCardStatus = (cardId: string, status: PatchCardBody['status']) =>
  call('sandboxUpdateCard', { params: { id: cardId }, body: { status } satisfies PatchCardBody });
export const kycResult = (cardholderId: string, result: KycResultBody['result']) =>
  call('sandboxReviewCardholderKyc', {
    params: { id: cardholderId },
    body: { result } satisfies KycResultBody,
  });
export const reviewApplication = (applicationId: string, status: ReviewBody['status']) =>
  call('sandboxReviewCardApplication', {
    params: { id: applicationId },
    body: { status } satisfies ReviewBody,
  });
export const activateCard = (cardId: string) => call('sandboxActivateCard', { params: { id: cardId } });
export const cancelCard = (cardId: string) => call('sandboxCancelCard', { params: { id: cardId } });
export const authorizeCard = (cardId: string, input: AuthorizationInput) =>
  call('sandboxCreateCardAuthorization', { params: { id: cardId }, body: input });
export const listCardTransactions = (cardId: string) =>
  call('sandboxListCardTransactions', { params: { id: cardId } });
const decisions = {
  settle: 'sandboxSettleCardTransaction',
  decline: 'sandboxDeclineCardTransaction',
  reverse: 'sandboxReverseCardTransaction',
} as const;
export const decideCardTransaction = (transactionId: string, action: keyof typeof decisions) =>
  call(decisions[action], { params: { id: transactionId } });
const moves = {
  refunds: 'sandboxCreateCardRefund',
  deposits: 'sandboxCreateCardDeposit',
  withdrawals: 'sandboxCreateCardWithdrawal',
} as const;
export const moveCardFunds = (cardId: string, kind: keyof typeof moves, input: CardMoveBody) =>
  call(moves[kind], { params: { id: cardId }, body: input });
/** The card secrets exchange, as the card's merchant's owner: PAN and CVC under the session's key. */
export const readCardSecrets = (cardId: string, session: string) =>
  call('sandboxCreateCardSecret', { params: { id: cardId }, body: { session } satisfies SessionBody });
/** The PIN block, under the session's key. */
export const readCardPin = (cardId: string, session: string) =>
  call('sandboxPinCard', { params: { id: cardId }, body: { session } satisfies SessionBody });
export const getPublicKey = (env: Env) => call('sandboxListKeys', { query: { env } });
export const getCardCatalogue = () => call('sandboxGetCardCatalogue');

// ---- Resellers: as the owner of the merchant concerned (the reseller, or the target for revoke) ----

/** The merchant's connections in one environment: outgoing (it resells), incoming (it is resold). */
export const listResellerConnections = (merchantId: string, env: Env) =>
  call('sandboxListMerchantResellerConnections', { params: { id: merchantId }, query: { env } });
/** Creates a connection, or updates and reactivates the one of the same pair. */
export const createResellerConnection = (merchantId: string, env: Env, input: CreateConnectionBody) =>
  call('sandboxCreateMerchantResellerConnection', {
    params: { id: merchantId },
    query: { env },
    body: input,
  });
export const updateResellerConnection = (connectionId: string, input: UpdateConnectionBody) =>
  call('sandboxUpdateResellerConnection', { params: { id: connectionId }, body: input });
/** As the target merchant: active → revoked, the record kept. */
export const revokeResellerConnection = (connectionId: string) =>
  call('sandboxRevokeResellerConnection', { params: { id: connectionId } });
/** As the reseller: the record removed, whatever its status. */
export const deleteResellerConnection = (connectionId: string) =>
  call('sandboxDeleteResellerConnection', { params: { id: connectionId } });
/** A new merchant, its user and an active connection to it; production only. */
export const provisionMerchant = (merchantId: string, env: Env, input: ProvisionBody) =>
  call('sandboxProvisionMerchant', { params: { id: merchantId }, query: { env }, body: input });
export const getResellerIncome = (merchantId: string, env: Env) =>
  call('sandboxGetMerchantResellerIncome', { params: { id: merchantId }, query: { env } });

// ---- the request log ----
/** Status filter: a class (`4xx`) or none. */
export type RequestStatusClass = '2xx' | '4xx' | '5xx';
/** One merchant's requests (of a status class), or those no merchant's key matched. */
export type RequestLogScope = { merchantId: string; status?: RequestStatusClass } | { unauthenticated: true };
export const listRequestLog = (scope: RequestLogScope, env: Env) =>
  call('sandboxListRequestLog', {
    query:
      'unauthenticated' in scope
        ? { unauthenticated: true, env, limit: 200 }
        : { merchant_id: scope.merchantId, env, status: scope.status, limit: 200 },
  });
export const getRequestLogEntry = (entryId: string) =>
  call('sandboxGetRequestLogEntry', { params: { id: entryId } });

// ---- Customers, invoices and the event log (read-only views) ----

export const listCustomers = (merchantId: string, env: Env, filter: CustomerListQuery = {}) =>
  call('sandboxListMerchantCustomers', { params: { id: merchantId }, query: { ...filter, env } });
export const getCustomer = (customerId: string) => call('sandboxGetCustomer', { params: { id: customerId } });
export const listInvoices = (merchantId: string, env: Env, filter: InvoiceListQuery = {}) =>
  call('sandboxListMerchantInvoices', { params: { id: merchantId }, query: { ...filter, env } });
export const getInvoice = (invoiceId: string) => call('sandboxGetInvoice', { params: { id: invoiceId } });
export const listEvents = (merchantId: string, env: Env, filter: EventListQuery = {}) =>
  call('sandboxListMerchantEvents', { params: { id: merchantId }, query: { ...filter, env } });
