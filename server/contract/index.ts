/**
 * The named schemas of the contract, as the OpenAPI document's `components.schemas` lists them.
 * Everything here is also importable from its own file; this list only gives generators names.
 */
import * as cards from './cards.js';
import * as checkouts from './checkouts.js';
import { ErrorBody, NoBody } from './common.js';
import * as customers from './customers.js';
import * as events from './events.js';
import * as funds from './funds.js';
import * as invoices from './invoices.js';
import * as merchants from './merchants.js';
import * as parity from './parity.js';
import * as refunds from './refunds.js';
import * as requests from './requests.js';
import * as resellers from './resellers.js';
import * as workspace from './sandbox-state.js';
import * as library from './scenario-library.js';
import * as scenarios from './scenarios.js';
import * as settings from './settings.js';
import * as addresses from './static-addresses.js';
import * as transfer from './transfer.js';
import * as views from './views.js';
import * as webhooks from './webhooks.js';

export const namedSchemas = {
  Error: ErrorBody,
  NoBody,
  Checkout: checkouts.Checkout,
  CheckoutListItem: checkouts.CheckoutBase,
  CheckoutStatus: checkouts.CheckoutStatus,
  CryptoChain: checkouts.CryptoChain,
  CheckoutPayment: checkouts.CheckoutPayment,
  CheckoutInspection: checkouts.CheckoutInspection,
  CreateCheckoutBody: checkouts.CreateCheckoutBody,
  SimulatePaymentBody: checkouts.SimulatePaymentBody,
  RefundBody: refunds.RefundBody,
  RefundResult: refunds.RefundResult,
  RefundRecord: refunds.RefundRecord,
  Customer: customers.Customer,
  CreateCustomerBody: customers.CreateCustomerBody,
  Invoice: invoices.Invoice,
  CreateInvoiceBody: invoices.CreateInvoiceBody,
  StaticAddress: addresses.StaticAddress,
  Cardholder: cards.Cardholder,
  CardholderDetail: cards.CardholderDetail,
  CardApplication: cards.CardApplication,
  Card: cards.Card,
  CardTransaction: cards.CardTransaction,
  CardTransactionItem: cards.CardTransactionItem,
  EncryptedData: cards.EncryptedData,
  ResellerConnection: resellers.ResellerConnection,
  ResellerConnectionStatus: resellers.ResellerConnectionStatus,
  CreateConnectionBody: resellers.CreateConnectionBody,
  UpdateConnectionBody: resellers.UpdateConnectionBody,
  ProvisionBody: resellers.ProvisionBody,
  ProvisionResult: resellers.ProvisionResult,
  ProvisionedMerchant: resellers.ProvisionedMerchant,
  ResellerConnections: resellers.ResellerConnections,
  ResellerIncome: resellers.ResellerIncome,
  Merchant: merchants.Merchant,
  ApiKey: merchants.ApiKey,
  WebhookEndpoint: webhooks.WebhookEndpoint,
  UpdateEndpointBody: webhooks.UpdateEndpointBody,
  CustomerDetail: views.CustomerDetail,
  InvoiceDetail: views.InvoiceDetail,
  Delivery: webhooks.Delivery,
  Inbox: webhooks.Inbox,
  Deposit: funds.Deposit,
  Payout: funds.Payout,
  Balance: funds.Balance,
  LedgerTransaction: funds.LedgerTransaction,
  Settings: settings.Settings,
  ChainConfig: settings.ChainConfig,
  ClockState: workspace.ClockState,
  Health: workspace.Health,
  SandboxEvent: workspace.SandboxEvent,
  ChangeNotice: workspace.ChangeNotice,
  Change: workspace.Change,
  RequestLogEntry: requests.RequestLogEntry,
  ImportResult: transfer.ImportResult,
  LibraryScenario: library.LibraryScenario,
  LibraryScenarioDetail: library.LibraryScenarioDetail,
  CheckoutCreatedData: events.CheckoutCreatedData,
  CheckoutPaidData: events.CheckoutPaidData,
  CheckoutCompletedData: events.CheckoutCompletedData,
  CheckoutRefundedData: events.CheckoutRefundedData,
  CardCreatedData: events.CardCreatedData,
  CardTransactionData: events.CardTransactionData,
  DepositReceivedData: events.DepositReceivedData,
  ScenarioRunBody: scenarios.ScenarioRunBody,
  ScenarioRun: scenarios.ScenarioRun,
  ScenarioStepResult: scenarios.ScenarioStepResult,
  ScenarioProgress: scenarios.ScenarioProgress,
  ParityBody: parity.ParityBody,
  ParityReport: parity.ParityReport,
  ParityDifference: parity.ParityDifference,
  ParityStep: parity.ParityStep,
};
