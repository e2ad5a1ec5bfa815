import type { AddressPrefetcher } from './addresses/prefetcher.js';
import { AddressSource } from './addresses/source.js';
import { type Clock, type ClockStart, SandboxClock } from './clock.js';
import type { Env } from './contract/common.js';
import { createCardsRepo } from './db/cards.js';
import { ChangeFeed } from './db/changes.js';
import { createCheckoutsRepo } from './db/checkouts.js';
import type { Db } from './db/connection.js';
import { createCoverageRepo } from './db/coverage.js';
import { createCustomersRepo } from './db/customers.js';
import { createEventsRepo } from './db/events.js';
import { createFundsRepo } from './db/funds.js';
import { createInboxRepo } from './db/inbox.js';
import { createInvoicesRepo } from './db/invoices.js';
import { createJobsRepo } from './db/jobs.js';
import { createKvRepo } from './db/kv.js';
import { createLedgerRepo } from './db/ledger.js';
import { createApiKeysRepo, createMerchantsRepo } from './db/merchants.js';
import { createRefundsRepo } from './db/refunds.js';
import { createResellersRepo } from './db/resellers.js';
import { Statements } from './db/statements.js';
import { createStaticAddressesRepo } from './db/static-addresses.js';
import { UnitOfWork } from './db/unit-of-work.js';
import { createUsersRepo } from './db/users.js';
import { createViewsRepo } from './db/views.js';
import { createWebhooksRepo } from './db/webhooks.js';
import { MerchantAccess } from './domain/access.js';
import { CardSecrets } from './domain/cards/secrets.js';
import { CardService } from './domain/cards/service.js';
import { registerCheckoutJobs } from './domain/checkouts/jobs.js';
import { CheckoutLifecycle } from './domain/checkouts/lifecycle.js';
import { CheckoutService } from './domain/checkouts/service.js';
import { CoverageService } from './domain/coverage/service.js';
import { CustomerService } from './domain/customers/service.js';
import { EventRecorder } from './domain/events/recorder.js';
import { FundsService } from './domain/funds/service.js';
import { InvoiceService } from './domain/invoices/service.js';
import { Ledger } from './domain/ledger/service.js';
import { MerchantService } from './domain/merchants/service.js';
import { MerchantViews } from './domain/merchants/views.js';
import { RefundService } from './domain/refunds/service.js';
import { RequestLogService } from './domain/requests/service.js';
import { ResellerService } from './domain/resellers/service.js';
import { SettingsService } from './domain/settings/service.js';
import { DashboardViews } from './domain/views/service.js';
import type { Ids } from './ids.js';
import { ScenarioRecorder } from './recording/recorder.js';
import { RequestLog } from './request-log/log.js';
import { Scheduler, type SchedulerLogger } from './scheduler.js';
import { ApiFaults } from './simulate/api-faults.js';
import { CardNetwork, registerCardNetworkJobs } from './simulate/card-network.js';
import { ChainSimulator } from './simulate/chain.js';
import { IdentityProvider } from './simulate/identity.js';
import { PayoutRail } from './simulate/payouts.js';
import { WebhookDispatcher } from './webhooks/dispatcher.js';
import { InboxService } from './webhooks/inbox.js';
import { ReceiverCheck } from './webhooks/receiver-check.js';
import { WebhookService } from './webhooks/service.js';
import { WebhookTransport } from './webhooks/transport.js';
import { WebhookWorkbench } from './webhooks/workbench.js';

export interface ContextOptions {
  db: Db;
  ids: Ids;
  /** where API keys come from, when not from `ids` (keys must be unique across workspaces) */
  keyIds?: Ids | undefined;
  /** Real time source for the sandbox clock; tests pass a controllable one. */
  realNow?: (() => number) | undefined;
  /** where a new workspace's clock starts (ignored when the database already has a clock) */
  clockStart?: ClockStart | undefined;
  baseUrl: (env: Env) => string;
  log: SchedulerLogger;
  /** request log rows kept (default 10,000) */
  requestLogLimit?: number | undefined;
  /** the request log's directory (default: in memory); see server/request-log/ */
  requestLogDir?: string | undefined;
  /** PEM certificates HTTPS webhook receivers may chain to, besides Node's own roots */
  webhookCa?: readonly string[] | undefined;
  /** derives unseeded addresses off the request thread; without it they are derived on it */
  addressWorker?: AddressPrefetcher | undefined;
}

/**
 * The one wiring point: repositories, then services, each given only what it needs, and every
 * subscription between them (constructors neither subscribe nor write). No behaviour lives here.
 * One context per workspace (and a new one when a restore or reset replaces its database), shared
 * by both listeners (test and production); each request is bound to one (server/workspaces/). Roles: `domain/` serves the merchant API, `simulate/` plays the outside world, jobs
 * register with the scheduler, and `webhooks/` turns events into signed deliveries.
 */
export function createContext(options: ContextOptions) {
  const { db, ids, baseUrl } = options;
  // Transactions, and what waits for their commit; the repositories' writes report to the change feed.
  const unit = new UnitOfWork(db);
  const changes = new ChangeFeed(unit);
  const sql = new Statements(db, changes);
  const kv = createKvRepo(sql);
  const clock = new SandboxClock(
    { load: () => kv.get('clock'), save: (state) => kv.set('clock', state) },
    options.realNow,
    options.clockStart,
  );
  const repos = {
    kv,
    merchants: createMerchantsRepo(sql),
    apiKeys: createApiKeysRepo(sql),
    addresses: createStaticAddressesRepo(sql),
    customers: createCustomersRepo(sql),
    checkouts: createCheckoutsRepo(sql),
    events: createEventsRepo(sql),
    jobs: createJobsRepo(sql),
    webhooks: createWebhooksRepo(sql),
    ledger: createLedgerRepo(sql),
    funds: createFundsRepo(sql),
    inbox: createInboxRepo(sql),
    refunds: createRefundsRepo(sql),
    cards: createCardsRepo(sql),
    invoices: createInvoicesRepo(sql),
    resellers: createResellersRepo(sql),
    users: createUsersRepo(sql),
    views: createViewsRepo(sql),
    requestLog: new RequestLog({
      dir: options.requestLogDir,
      limit: options.requestLogLimit,
      // Diagnostics only: a failed log write (a full disk) drops its entries and is reported once
      // per run of failures; requests never see it.
      onError: (error, dropped) => {
        options.log.error({ err: error, dropped }, 'request log write failed; entries dropped');
      },
    }),
  };
  const settingsService = new SettingsService(kv);
  const settings = () => settingsService.get();
  const events = new EventRecorder(repos.events, clock as Clock, ids, unit);
  const atomically = <T>(fn: () => T): T => unit.atomically(fn);
  const scheduler = new Scheduler(repos.jobs, clock, options.log, atomically);
  const ledger = new Ledger(repos.ledger, clock, ids);
  const addressSource = new AddressSource(ids, options.addressWorker);

  // ---- the merchant API (domain) -----------------------------------------------------------------
  const merchants = new MerchantService({
    merchants: repos.merchants,
    apiKeys: repos.apiKeys,
    addresses: repos.addresses,
    addressSource,
    clock,
    ids,
    keyIds: options.keyIds,
    settings,
    atomically,
  });
  // Who may act for whom: a reseller's active connection lets it create for the target merchant.
  const access = new MerchantAccess(repos.resellers);
  const customers = new CustomerService({ customers: repos.customers, access, clock, ids });
  const lifecycle = new CheckoutLifecycle({
    checkouts: repos.checkouts,
    merchants: repos.merchants,
    clock,
    ids,
    settings,
    events,
    unit,
    scheduler,
    ledger,
    baseUrl,
  });
  const checkouts = new CheckoutService({
    checkouts: repos.checkouts,
    refunds: repos.refunds,
    lifecycle,
    customers,
    access,
    clock,
    ids,
    addressSource,
    settings,
    events,
    unit,
    scheduler,
    baseUrl,
  });
  const invoices = new InvoiceService({
    invoices: repos.invoices,
    customers,
    checkouts,
    lifecycle,
    access,
    clock,
    ids,
    events,
    unit,
  });
  lifecycle.onPaid((row) => invoices.onCheckoutPaid(row));
  const refunds = new RefundService({
    checkouts,
    lifecycle,
    repo: repos.refunds,
    ledger,
    events,
    unit,
    clock,
    ids,
    settings,
  });
  const resellers = new ResellerService({
    connections: repos.resellers,
    users: repos.users,
    merchants: repos.merchants,
    merchantService: merchants,
    checkouts: repos.checkouts,
    ledger,
    clock,
    ids,
    atomically,
  });
  const funds = new FundsService({ repo: repos.funds, merchants: repos.merchants, ledger, unit });
  const cards = new CardService({ repo: repos.cards, ledger, events, unit, clock, ids, settings, baseUrl });
  const secrets = new CardSecrets({ repo: repos.cards, cards, clock });
  const requests = new RequestLogService({ repo: repos.requestLog, clock });
  const views = new MerchantViews({ addresses: repos.addresses, merchants });
  const dashboard = new DashboardViews({ repo: repos.views, merchants, baseUrl });

  // ---- the outside world (simulate) -------------------------------------------------------------
  const chain = new ChainSimulator({
    lifecycle,
    funds,
    fundsRepo: repos.funds,
    addresses: repos.addresses,
    ledger,
    events,
    unit,
    clock,
    ids,
    addressSource,
    settings,
  });
  const payouts = new PayoutRail({ funds, repo: repos.funds, ledger, events, unit, clock, ids });
  const network = new CardNetwork({ repo: repos.cards, cards, ledger, events, unit, clock, ids, scheduler });
  const identity = new IdentityProvider({ repo: repos.cards, cards, clock });
  // The API misbehaving on purpose for this workspace's /v1 requests (the HTTP edge applies it).
  const faults = new ApiFaults({ kv, ids, atomically });

  // ---- scheduled work and webhooks ---------------------------------------------------------------
  registerCheckoutJobs(scheduler, lifecycle);
  registerCardNetworkJobs(scheduler, network);
  const dispatcher = new WebhookDispatcher({
    repo: repos.webhooks,
    clock,
    scheduler,
    atomically,
    afterCommit: (run, dropped) => unit.afterCommit(run, dropped),
    log: options.log,
    transport: new WebhookTransport({
      timeoutMs: () => settingsService.get().webhook_timeout_ms,
      ca: options.webhookCa,
    }),
    timeoutMs: () => settingsService.get().webhook_timeout_ms,
  });
  dispatcher.registerJobs();
  const webhooks = new WebhookService({ repo: repos.webhooks, clock, ids, scheduler, dispatcher, unit });
  // Every recorded event fans out into deliveries in its own transaction; the dispatcher sends
  // them once it has committed.
  events.onRecord((event) => webhooks.fanOut(event));
  const inbox = new InboxService({ repo: repos.inbox, webhooks: repos.webhooks, clock });
  const webhookWorkbench = new WebhookWorkbench({
    repo: repos.webhooks,
    kv,
    clock,
    ids,
    dispatcher,
    atomically,
  });
  // Testing the integration: what the workspace reached (counted by storage), and the grading of
  // the developer's receiver (its own transport: its sends are no deliveries of the workspace).
  const coverage = new CoverageService({ repo: createCoverageRepo(sql) });
  const receiverCheck = new ReceiverCheck({
    timeoutMs: () => settingsService.get().webhook_timeout_ms,
    transport: (timeoutMs) => new WebhookTransport({ timeoutMs: () => timeoutMs, ca: options.webhookCa }),
  });
  // Recording a scenario: one recorder shared by both listeners (server/recording/).
  const recorder = new ScenarioRecorder({
    clock,
    merchants,
    ledger,
    events,
    baseUrl,
    checkouts: lifecycle,
    ownDelivery: (id) => repos.webhooks.findDelivery(id) !== undefined,
  });

  return {
    db,
    ids,
    clock,
    repos,
    changes,
    settings: settingsService,
    events,
    unit,
    scheduler,
    atomically,
    /** the group commit (server/db/batch.ts), which the HTTP edge drives */
    batcher: unit.groupCommit,
    ledger,
    merchants,
    customers,
    lifecycle,
    checkouts,
    invoices,
    refunds,
    resellers,
    funds,
    cards,
    secrets,
    views,
    dashboard,
    requests,
    chain,
    payouts,
    network,
    identity,
    faults,
    dispatcher,
    webhooks,
    webhookWorkbench,
    inbox,
    addressSource,
    baseUrl,
    recorder,
    coverage,
    receiverCheck,
  };
}

export type SandboxContext = ReturnType<typeof createContext>;
