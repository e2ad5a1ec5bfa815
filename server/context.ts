import { type Clock, SandboxClock } from './clock.js';
import { createCheckoutsRepo } from './db/checkouts.js';
import type { Db } from './db/connection.js';
import { createCustomersRepo } from './db/customers.js';
import { createEventsRepo } from './db/events.js';
import { createJobsRepo } from './db/jobs.js';
import { createKvRepo } from './db/kv.js';
import { createApiKeysRepo, createMerchantsRepo } from './db/merchants.js';
import { createStaticAddressesRepo } from './db/static-addresses.js';
import { CheckoutService, JOB_EXPIRE, JOB_SETTLE } from './domain/checkouts/service.js';
import { CustomerService } from './domain/customers/service.js';
import { EventRecorder } from './domain/events/recorder.js';
import { MerchantService } from './domain/merchants/service.js';
import { SettingsService } from './domain/settings/service.js';
import type { Env } from './domain/types.js';
import type { Ids } from './ids.js';
import { Scheduler, type SchedulerLogger } from './scheduler.js';

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
  };
  const settings = new SettingsService(kv);
  const events = new EventRecorder(db, repos.events, clock as Clock, ids);
  const transaction = <T>(fn: () => T): T => events.transaction(fn);
  const scheduler = new Scheduler(repos.jobs, clock, options.log, transaction);
  const getSettings = () => settings.get();

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
    baseUrl,
  });

  scheduler.register(JOB_EXPIRE, (job) => checkouts.onExpireDue(job.ref));
  scheduler.register(JOB_SETTLE, (job) => checkouts.onSettleDue(job.ref));

  return { db, ids, clock, repos, settings, events, scheduler, transaction, merchants, customers, checkouts, baseUrl };
}

export type SandboxContext = ReturnType<typeof createContext>;
