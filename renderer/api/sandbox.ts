import { request } from './client';
import type {
  AddressDepositBody,
  AdvanceBody,
  ApiKey,
  ApplyBody,
  AuthorizationInput,
  Balance,
  CardApplication,
  Cardholder,
  CardholderDetail,
  CardMoveBody,
  CardProduct,
  CardTransaction,
  Checkout,
  CheckoutDetail,
  CheckoutItem,
  CheckoutListQuery,
  ClockState,
  ConfigureInboxBody,
  CreateApiKeyInput,
  CreateCardholderBody,
  CreateCheckoutInput,
  CreateConnectionBody,
  CreatedMerchant,
  CreateEndpointBody,
  CreateMerchantInput,
  CreditBody,
  Customer,
  CustomerDetail,
  CustomerListQuery,
  Delivery,
  DeliveryStatus,
  Deposit,
  DepositBurst,
  DepositBurstBody,
  Env,
  EventListQuery,
  Fired,
  FundBody,
  Health,
  Inbox,
  Invoice,
  InvoiceDetail,
  InvoiceListQuery,
  IssueCardBody,
  KycResultBody,
  KycState,
  LedgerTransaction,
  Merchant,
  PatchCardBody,
  PatchMerchantInput,
  PaymentCard,
  PaymentResult,
  Payout,
  PayoutInput,
  PinResult,
  ProvisionBody,
  ProvisionResult,
  PublicKey,
  RefundInput,
  RefundResult,
  RequestLogEntry,
  ResellerConnection,
  ResellerConnections,
  ResellerIncome,
  ReviewBody,
  SandboxEvent,
  SecretsResult,
  SessionBody,
  Settings,
  SettingsPatch,
  SimulatePaymentInput,
  StaticAddress,
  TestEventBody,
  UpdateConnectionBody,
  UpdateEndpointBody,
  WebhookEndpoint,
} from './types';

const id = encodeURIComponent;
const query = (params: Record<string, string | number | undefined>) => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined) search.set(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
};

export const health = () => request<Health>('GET', '/sandbox/health');

export const listMerchants = () => request<Merchant[]>('GET', '/sandbox/merchants');
export const createMerchant = (input: CreateMerchantInput) =>
  request<CreatedMerchant>('POST', '/sandbox/merchants', input);

export const listApiKeys = (merchantId: string) =>
  request<ApiKey[]>('GET', `/sandbox/merchants/${id(merchantId)}/api-keys`);
export const createApiKey = (merchantId: string, input: CreateApiKeyInput) =>
  request<ApiKey>('POST', `/sandbox/merchants/${id(merchantId)}/api-keys`, input);
export const revokeApiKey = (keyId: string) => request<ApiKey>('DELETE', `/sandbox/api-keys/${id(keyId)}`);

export const getClock = () => request<ClockState>('GET', '/sandbox/clock');
/** The clock after it, and what fell due on the way in this workspace (events, delivery attempts, jobs). */
export const advanceClock = (seconds: number) =>
  request<ClockState & { fired: Fired }>('POST', '/sandbox/clock/advance', {
    seconds,
  } satisfies AdvanceBody);
export const freezeClock = () => request<ClockState>('POST', '/sandbox/clock/freeze');
export const resumeClock = () => request<ClockState>('POST', '/sandbox/clock/resume');

export const getSettings = () => request<Settings>('GET', '/sandbox/settings');
export const patchSettings = (patch: SettingsPatch) => request<Settings>('PATCH', '/sandbox/settings', patch);
export const resetWorkspace = () => request<{ reset: true }>('POST', '/sandbox/reset');
export const patchMerchant = (merchantId: string, patch: PatchMerchantInput) =>
  request<Merchant>('PATCH', `/sandbox/merchants/${id(merchantId)}`, patch);

// ---- Checkouts: the merchant's list, and the blockchain and settlement engine played by hand ----

/** A page of the merchant's checkouts: `status` and `q` (id, title or reference) filter it. */
export const listCheckouts = (merchantId: string, env: Env, filter: CheckoutListQuery = {}) =>
  request<CheckoutItem[]>(
    'GET',
    `/sandbox/merchants/${id(merchantId)}/checkouts${query({ ...filter, env })}`,
  );
/** As the merchant's owner (the body and answer of POST /v1/checkouts), in either environment. */
export const createCheckout = (merchantId: string, env: Env, input: CreateCheckoutInput) =>
  request<Checkout>('POST', `/sandbox/merchants/${id(merchantId)}/checkouts${query({ env })}`, input);
/** As the merchant's owner, in the checkout's environment (POST /v1/checkouts/{id}/refund). */
export const refundCheckout = (checkoutId: string, input: RefundInput) =>
  request<RefundResult>('POST', `/sandbox/checkouts/${id(checkoutId)}/refund`, input);
export const getCheckout = (checkoutId: string) =>
  request<CheckoutDetail>('GET', `/sandbox/checkouts/${id(checkoutId)}`);
export const simulatePayment = (checkoutId: string, input: SimulatePaymentInput) =>
  request<PaymentResult>('POST', `/sandbox/checkouts/${id(checkoutId)}/payments`, input);
export const completeCheckout = (checkoutId: string) =>
  request<Checkout>('POST', `/sandbox/checkouts/${id(checkoutId)}/complete`);
export const expireCheckout = (checkoutId: string) =>
  request<Checkout>('POST', `/sandbox/checkouts/${id(checkoutId)}/expire`);
export const cancelCheckout = (checkoutId: string) =>
  request<Checkout>('POST', `/sandbox/checkouts/${id(checkoutId)}/cancel`);

// ---- Webhooks ----------------------------------------------------------------------------------

export const listEndpoints = (merchantId: string, env: Env) =>
  request<WebhookEndpoint[]>(
    'GET',
    `/sandbox/merchants/${id(merchantId)}/webhook-endpoints${query({ env })}`,
  );
export const createEndpoint = (merchantId: string, env: Env, input: CreateEndpointBody) =>
  request<WebhookEndpoint>(
    'POST',
    `/sandbox/merchants/${id(merchantId)}/webhook-endpoints${query({ env })}`,
    input,
  );
export const deleteEndpoint = (endpointId: string) =>
  request<void>('DELETE', `/sandbox/webhook-endpoints/${id(endpointId)}`);
export interface DeliveryListFilter {
  status?: DeliveryStatus | undefined;
  event?: string | undefined;
  limit?: number | undefined;
  starting_after?: string | undefined;
}
export const listDeliveries = (merchantId: string, env: Env, filter: DeliveryListFilter = {}) =>
  request<Delivery[]>('GET', `/sandbox/deliveries${query({ ...filter, merchant_id: merchantId, env })}`);
/** Changes an endpoint's URL, events or disabled flag (the secret stays). */
export const updateEndpoint = (endpointId: string, input: UpdateEndpointBody) =>
  request<WebhookEndpoint>('PATCH', `/sandbox/webhook-endpoints/${id(endpointId)}`, input);
/** A signed sample event to this endpoint alone; answers the delivery after its first attempt. */
export const sendTestEvent = (endpointId: string, input: TestEventBody = {}) =>
  request<Delivery>('POST', `/sandbox/webhook-endpoints/${id(endpointId)}/test`, input);
export const retryDelivery = (deliveryId: string) =>
  request<Delivery>('POST', `/sandbox/deliveries/${id(deliveryId)}/retry`);
export const getInbox = (name: string) => request<Inbox>('GET', `/sandbox/inboxes/${id(name)}`);
export const configureInbox = (name: string, responseStatus: number) =>
  request<Inbox>('PUT', `/sandbox/inboxes/${id(name)}`, {
    response_status: responseStatus,
  } satisfies ConfigureInboxBody);

// ---- Money -------------------------------------------------------------------------------------

export const listBalances = (merchantId: string, env: Env) =>
  request<Balance[]>('GET', `/sandbox/merchants/${id(merchantId)}/balances${query({ env })}`);
export const listLedger = (merchantId: string, env: Env) =>
  request<LedgerTransaction[]>('GET', `/sandbox/merchants/${id(merchantId)}/ledger${query({ env })}`);
export const listStaticAddresses = (merchantId: string, env: Env) =>
  request<StaticAddress[]>('GET', `/sandbox/merchants/${id(merchantId)}/static-addresses${query({ env })}`);
export const listPayouts = (merchantId: string, env: Env) =>
  request<Payout[]>('GET', `/sandbox/merchants/${id(merchantId)}/payouts${query({ env })}`);
export const sendToAddress = (address: string, input: AddressDepositBody) =>
  request<Deposit>('POST', `/sandbox/static-addresses/${id(address)}/deposits`, input);
/** Many transfers to one static address in the same block, each with its own deposit.received. */
export const depositBurst = (input: DepositBurstBody) =>
  request<DepositBurst>('POST', '/sandbox/deposits/bursts', input);
export const createPayout = (input: PayoutInput) => request<Payout>('POST', '/sandbox/payouts', input);
export const creditMerchant = (merchantId: string, input: CreditBody) =>
  request<Balance[]>('POST', `/sandbox/merchants/${id(merchantId)}/credit`, input);

// ---- Cards: the identity provider and the card network --------------------------------------------

export const listCardholders = (merchantId: string, env: Env) =>
  request<Cardholder[]>('GET', `/sandbox/merchants/${id(merchantId)}/cardholders${query({ env })}`);
export const getCardholder = (cardholderId: string) =>
  request<CardholderDetail>('GET', `/sandbox/cardholders/${id(cardholderId)}`);

// What the merchant's integration does through /v1, done as the merchant's owner from the control
// API: same bodies and answers, in either environment (the cardholder's or card's own, or `env`).

export const createCardholder = (merchantId: string, env: Env, input: CreateCardholderBody) =>
  request<Cardholder>('POST', `/sandbox/merchants/${id(merchantId)}/cardholders${query({ env })}`, input);
/** Applies for a card product. The form's questions get fixed, plausible answers: the sandbox only checks their shape. */
export const applyForCard = (cardholderId: string, catalogue: string) =>
  request<CardApplication>('POST', `/sandbox/cardholders/${id(cardholderId)}/applications`, {
    catalogue,
    account_purpose: 'Business expenses',
    occupation: 'Software engineer',
    annual_salary: '50000_100000',
    expected_monthly_volume: '1000_5000',
  } satisfies ApplyBody);
export const issueCard = (cardholderId: string, input: IssueCardBody) =>
  request<PaymentCard>('POST', `/sandbox/cardholders/${id(cardholderId)}/cards`, input);
/** Moves money from the merchant's business wallet to the cardholder. */
export const fundCardholder = (cardholderId: string, input: FundBody) =>
  request<void>('POST', `/sandbox/cardholders/${id(cardholderId)}/fund`, input);
/** Lock or unlock a card: the cardholder's own switch. */
export const setCardStatus = (cardId: string, status: PatchCardBody['status']) =>
  request<PaymentCard>('PATCH', `/sandbox/cards/${id(cardId)}`, { status } satisfies PatchCardBody);
export const kycResult = (cardholderId: string, result: KycResultBody['result']) =>
  request<KycState>('POST', `/sandbox/cardholders/${id(cardholderId)}/kyc`, {
    result,
  } satisfies KycResultBody);
export const reviewApplication = (applicationId: string, status: ReviewBody['status']) =>
  request<CardApplication>('POST', `/sandbox/card-applications/${id(applicationId)}`, {
    status,
  } satisfies ReviewBody);
export const activateCard = (cardId: string) =>
  request<PaymentCard>('POST', `/sandbox/cards/${id(cardId)}/activate`);
export const cancelCard = (cardId: string) =>
  request<PaymentCard>('POST', `/sandbox/cards/${id(cardId)}/cancel`);
export const authorizeCard = (cardId: string, input: AuthorizationInput) =>
  request<CardTransaction>('POST', `/sandbox/cards/${id(cardId)}/authorizations`, input);
export const listCardTransactions = (cardId: string) =>
  request<CardTransaction[]>('GET', `/sandbox/cards/${id(cardId)}/transactions`);
export const decideCardTransaction = (transactionId: string, action: 'settle' | 'decline' | 'reverse') =>
  request<CardTransaction>('POST', `/sandbox/card-transactions/${id(transactionId)}/${action}`);
export const moveCardFunds = (
  cardId: string,
  kind: 'refunds' | 'deposits' | 'withdrawals',
  input: CardMoveBody,
) => request<CardTransaction>('POST', `/sandbox/cards/${id(cardId)}/${kind}`, input);
/** The card secrets exchange, as the card's merchant's owner: PAN and CVC under the session's key. */
export const readCardSecrets = (cardId: string, session: string) =>
  request<SecretsResult>('POST', `/sandbox/cards/${id(cardId)}/secrets`, { session } satisfies SessionBody);
/** The PIN block, under the session's key. */
export const readCardPin = (cardId: string, session: string) =>
  request<PinResult>('POST', `/sandbox/cards/${id(cardId)}/pin`, { session } satisfies SessionBody);
export const getPublicKey = (env: Env) => request<PublicKey>('GET', `/sandbox/keys${query({ env })}`);
export const getCardCatalogue = () => request<CardProduct[]>('GET', '/sandbox/card-catalogue');

// ---- Resellers: as the owner of the merchant concerned (the reseller, or the target for revoke) ----

/** The merchant's connections in one environment: outgoing (it resells), incoming (it is resold). */
export const listResellerConnections = (merchantId: string, env: Env) =>
  request<ResellerConnections>(
    'GET',
    `/sandbox/merchants/${id(merchantId)}/reseller-connections${query({ env })}`,
  );
/** Creates a connection, or updates and reactivates the one of the same pair. */
export const createResellerConnection = (merchantId: string, env: Env, input: CreateConnectionBody) =>
  request<ResellerConnection>(
    'POST',
    `/sandbox/merchants/${id(merchantId)}/reseller-connections${query({ env })}`,
    input,
  );
export const updateResellerConnection = (connectionId: string, input: UpdateConnectionBody) =>
  request<ResellerConnection>('PUT', `/sandbox/reseller-connections/${id(connectionId)}`, input);
/** As the target merchant: active → revoked, the record kept. */
export const revokeResellerConnection = (connectionId: string) =>
  request<ResellerConnection>('POST', `/sandbox/reseller-connections/${id(connectionId)}/revoke`);
/** As the reseller: the record removed, whatever its status. */
export const deleteResellerConnection = (connectionId: string) =>
  request<void>('DELETE', `/sandbox/reseller-connections/${id(connectionId)}`);
/** A new merchant, its user and an active connection to it; production only. */
export const provisionMerchant = (merchantId: string, env: Env, input: ProvisionBody) =>
  request<ProvisionResult>('POST', `/sandbox/merchants/${id(merchantId)}/provision${query({ env })}`, input);
export const getResellerIncome = (merchantId: string, env: Env) =>
  request<ResellerIncome[]>('GET', `/sandbox/merchants/${id(merchantId)}/reseller-income${query({ env })}`);

// ---- the request log ----
/** Status filter: a class (`4xx`) or none. */
export type RequestStatusClass = '2xx' | '4xx' | '5xx';
/** One merchant's requests (of a status class), or those no merchant's key matched. */
export type RequestLogScope = { merchantId: string; status?: RequestStatusClass } | { unauthenticated: true };
export const listRequestLog = (scope: RequestLogScope, env: Env) =>
  request<RequestLogEntry[]>(
    'GET',
    `/sandbox/request-log${query(
      'unauthenticated' in scope
        ? { unauthenticated: 'true', env, limit: '200' }
        : { merchant_id: scope.merchantId, env, status: scope.status, limit: '200' },
    )}`,
  );
export const getRequestLogEntry = (entryId: string) =>
  request<RequestLogEntry>('GET', `/sandbox/request-log/${id(entryId)}`);

// ---- Customers, invoices and the event log (read-only views) ----

export const listCustomers = (merchantId: string, env: Env, filter: CustomerListQuery = {}) =>
  request<Customer[]>('GET', `/sandbox/merchants/${id(merchantId)}/customers${query({ ...filter, env })}`);
export const getCustomer = (customerId: string) =>
  request<CustomerDetail>('GET', `/sandbox/customers/${id(customerId)}`);
export const listInvoices = (merchantId: string, env: Env, filter: InvoiceListQuery = {}) =>
  request<Invoice[]>('GET', `/sandbox/merchants/${id(merchantId)}/invoices${query({ ...filter, env })}`);
export const getInvoice = (invoiceId: string) =>
  request<InvoiceDetail>('GET', `/sandbox/invoices/${id(invoiceId)}`);
export const listEvents = (merchantId: string, env: Env, filter: EventListQuery = {}) =>
  request<SandboxEvent[]>('GET', `/sandbox/merchants/${id(merchantId)}/events${query({ ...filter, env })}`);
