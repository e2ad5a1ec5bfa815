import { type Clock, SandboxClock } from './clock.js';
import { CommitBatcher } from './db/batch.js';
import { createCardsRepo } from './db/cards.js';
import { createCheckoutsRepo } from './db/checkouts.js';
import type { Db } from './db/connection.js';
import { createCustomersRepo } from './db/customers.js';
import { createEventsRepo } from './db/events.js';
import { createInvoicesRepo } from './db/invoices.js';
import { createJobsRepo } from './db/jobs.js';
import { createKvRepo } from './db/kv.js';
import { createApiKeysRepo, createMerchantsRepo } from './db/merchants.js';
import { createFundsRepo } from './db/funds.js';
import { createInboxRepo } from './db/inbox.js';
import { createLedgerRepo } from './db/ledger.js';
import { createRefundsRepo } from './db/refunds.js';
import { createStaticAddressesRepo } from './db/static-addresses.js';
import { createWebhooksRepo } from './db/webhooks.js';
import { CardNetwork } from './domain/cards/network.js';
import { CardSecrets } from './domain/cards/secrets.js';
import { CardService } from './domain/cards/service.js';
import { CheckoutService, JOB_EXPIRE, JOB_RELEASE_FEES, JOB_SETTLE } from './domain/checkouts/service.js';
import { CustomerService } from './domain/customers/service.js';
import { EventRecorder } from './domain/events/recorder.js';
import { FundsService } from './domain/funds/service.js';
import { InvoiceService } from './domain/invoices/service.js';
import { Ledger } from './domain/ledger/service.js';
import { RefundService } from './domain/refunds/service.js';
import { MerchantService } from './domain/merchants/service.js';
import { SettingsService } from './domain/settings/service.js';
import type { Env } from './domain/types.js';
import type { Ids } from './ids.js';
import { Scheduler, type SchedulerLogger } from './scheduler.js';
import { JOB_DELIVER, WebhookDispatcher } from './webhooks/dispatcher.js';
import { InboxService } from './webhooks/inbox.js';
import { WebhookService } from './webhooks/service.js';

export interface ContextOptions {
  db: Db;
  ids: Ids;
  /** Real time source for the sandbox clock; tests pass a controllable one. */
  realNow?: () => number;
  baseUrl: (env: Env) => string;
  log: SchedulerLogger;
}

/**
 * The one wiring point: repositories, then services, each given only what it needs. Both
 * listeners (test and production) and every face (CLI, Electron, tests) share one context.
 */
export function createContext(options: ContextOptions) {
  const { db, ids, baseUrl } = options;
  const kv = createKvRepo(db);
  const clock = new SandboxClock(
    { load: () => kv.get('clock'), save: (state) => kv.set('clock', state) },
    options.realNow,
  );
  const repos = {
    kv,
    merchants: createMerchantsRepo(db),
    apiKeys: createApiKeysRepo(db),
    addresses: createStaticAddressesRepo(db),
    customers: createCustomersRepo(db),
    checkouts: createCheckoutsRepo(db),
    events: createEventsRepo(db),
    jobs: createJobsRepo(db),
    webhooks: createWebhooksRepo(db),
    ledger: createLedgerRepo(db),
    funds: createFundsRepo(db),
    inbox: createInboxRepo(db),
    refunds: createRefundsRepo(db),
    cards: createCardsRepo(db),
    invoices: createInvoicesRepo(db),
  };
  const settings = new SettingsService(kv);
  const events = new EventRecorder(db, repos.events, clock as Clock, ids);
  const transaction = <T>(fn: () => T): T => events.transaction(fn);
  const batcher = new CommitBatcher(db, events);
  const scheduler = new Scheduler(repos.jobs, clock, options.log, transaction);
  const getSettings = () => settings.get();
  const ledger = new Ledger(repos.ledger, clock, ids);

  const merchants = new MerchantService({
    merchants: repos.merchants,
    apiKeys: repos.apiKeys,
    addresses: repos.addresses,
    clock,
    ids,
    settings: getSettings,
    transaction,
  });
  const customers = new CustomerService({ customers: repos.customers, clock, ids });
  const checkouts = new CheckoutService({
    checkouts: repos.checkouts,
    merchants: repos.merchants,
    customers,
    clock,
    ids,
    settings: getSettings,
    events,
    scheduler,
    ledger,
    baseUrl,
  });
  const invoices = new InvoiceService({
    invoices: repos.invoices,
    customers,
    checkouts,
    clock,
    ids,
    events,
  });
  checkouts.onPaid((row) => invoices.onCheckoutPaid(row));
  const refunds = new RefundService({
    checkouts,
    repo: repos.refunds,
    ledger,
    events,
    clock,
    ids,
    settings: getSettings,
  });
  const funds = new FundsService({
    repo: repos.funds,
    merchants: repos.merchants,
    addresses: repos.addresses,
    ledger,
    events,
    clock,
    ids,
    settings: getSettings,
  });
  const cards = new CardService({
    repo: repos.cards,
    ledger,
    events,
    clock,
    ids,
    settings: getSettings,
    baseUrl,
  });
  const network = new CardNetwork({ repo: repos.cards, cards, ledger, events, clock, ids });
  const secrets = new CardSecrets({ repo: repos.cards, cards, clock });
  const dispatcher = new WebhookDispatcher({
    repo: repos.webhooks,
    clock,
    scheduler,
    transaction,
    timeoutMs: () => settings.get().webhook_timeout_ms,
  });
  const webhooks = new WebhookService({ repo: repos.webhooks, clock, ids, scheduler, dispatcher });
  const inbox = new InboxService({ repo: repos.inbox, webhooks: repos.webhooks, clock });

  scheduler.register(JOB_EXPIRE, (job) => checkouts.onExpireDue(job.ref));
  scheduler.register(JOB_SETTLE, (job) => checkouts.onSettleDue(job.ref));
  scheduler.register(JOB_RELEASE_FEES, (job) => checkouts.onReleaseFeesDue(job.ref));
  scheduler.register(JOB_DELIVER, (job) => dispatcher.onDue(job.ref));
  // New deliveries are due at once: wake the scheduler after the commit rather than at its next
  // tick (only when an event produced deliveries; most requests have nothing due).
  let deliveriesDue = false;
  events.onRecord((event) => {
    if (webhooks.fanOut(event) > 0) deliveriesDue = true;
  });
  let waking = false;
  events.on(() => {
    if (!deliveriesDue || waking) return;
    waking = true;
    setImmediate(() => {
      waking = false;
      deliveriesDue = false;
      void scheduler.runDue();
    });
  });

  /** Advances the sandbox clock, running due work at its due time (see Scheduler.advance). */
  const advance = (ms: number): Promise<number> => scheduler.advance(ms, () => dispatcher.idle());

  /** Runs what is due now and waits for the webhook sends that started. */
  const settle = async (): Promise<number> => {
    const ran = await scheduler.runDue();
    await dispatcher.idle();
    return ran;
  };

  return {
    db,
    ids,
    clock,
    repos,
    settings,
    events,
    scheduler,
    transaction,
    batcher,
    ledger,
    merchants,
    customers,
    checkouts,
    invoices,
    refunds,
    funds,
    cards,
    network,
    secrets,
    dispatcher,
    webhooks,
    inbox,
    settle,
    advance,
    baseUrl,
  };
}

export type SandboxContext = ReturnType<typeof createContext>;
