import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyServerOptions } from 'fastify';
import { AddressPrefetcher } from './addresses/prefetcher.js';
import { buildApp, type Timeouts } from './app.js';
import type { ClockStart } from './clock.js';
import { createContext, type SandboxContext } from './context.js';
import { type Db, openDatabase } from './db/connection.js';
import { wipeData } from './db/workspace.js';
import type { Env } from './domain/types.js';
import { KeyLimiter } from './http/plugins/key-limiter.js';
import type { App } from './http/types.js';
import { createIds } from './ids.js';
import { requestLogDir } from './request-log/segments.js';
import { takeWorkspaceRequestLog } from './request-log/workspace-table.js';
import { ScenarioService } from './scenarios/service.js';
import { VERSION } from './version.js';
import { WorkspaceTransfer } from './workspace-transfer/service.js';

export interface SandboxOptions {
  /** SQLite file, or ':memory:' (default). */
  dbPath?: string;
  /** Interface to bind; loopback by default. */
  host?: string;
  /** Listener ports; 0 picks a free one. Defaults 4010 (test) and 4011 (production). */
  ports?: { test?: number; production?: number };
  /** Makes ids, keys and addresses deterministic. */
  seed?: string;
  /** Real-time source behind the sandbox clock (tests pass a controllable one). */
  realNow?: () => number;
  /**
   * Where the clock of a new workspace starts (a scenario replay: frozen at a fixed time, so
   * timestamps repeat). Ignored when the database file already holds a clock.
   */
  clock?: ClockStart;
  dashboardDir?: string;
  /** better-sqlite3 binary for another runtime (the Electron shell's). */
  nativeBinding?: string;
  logger?: FastifyServerOptions['logger'];
  /** How often the scheduler wakes to run due work while real time passes (ms). */
  tickMs?: number;
  /**
   * Serve the control API (no key needed) to other machines too. Off: only peers on this machine
   * reach /sandbox, whatever interface the sandbox listens on.
   */
  allowRemoteControl?: boolean;
  /** Header, request and keep-alive timeouts (defaults: 10 s, 30 s, 5 s). */
  timeouts?: Partial<Timeouts>;
  /** Request log rows kept, newest first (default 10,000). */
  requestLogLimit?: number;
  /**
   * PEM text (a bundle, or several) of certificates trusted for HTTPS webhook receivers besides
   * Node's roots and NODE_EXTRA_CA_CERTS: a local CA such as mkcert's, or a self-signed certificate.
   */
  webhookCa?: string | readonly string[];
}

export interface Urls {
  test: string;
  production: string;
  dashboard: string;
}

export interface Sandbox {
  ctx: SandboxContext;
  db: Db;
  apps: Record<Env, App>;
  /** Runs scenarios over this sandbox's own addresses (POST /sandbox/scenarios/run). */
  scenarios: ScenarioService;
  /** Binds both listeners, starts the scheduler; resolves with the live addresses. */
  listen(): Promise<Urls>;
  urls(): Urls;
  close(): Promise<void>;
}

function defaultDashboardDir(): string | undefined {
  for (const relative of ['../out/renderer', '../../out/renderer']) {
    const dir = fileURLToPath(new URL(relative, import.meta.url));
    if (existsSync(`${dir}/index.html`)) return dir;
  }
  return undefined;
}

const urlHost = (host: string) =>
  host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;

/** The sandbox as a library: the CLI, the Electron shell and the tests all start it through here. */
export async function createSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const host = options.host ?? '127.0.0.1';
  const ports: Record<Env, number> = {
    test: options.ports?.test ?? 4010,
    production: options.ports?.production ?? 4011,
  };
  const base: Record<Env, string> = {
    test: `http://${urlHost(host)}:${ports.test}`,
    production: `http://${urlHost(host)}:${ports.production}`,
  };
  const db = openDatabase(options.dbPath ?? ':memory:', { nativeBinding: options.nativeBinding });
  const log = {
    error: (obj: object, msg: string) => {
      console.error(`svc-sandbox: ${msg}`, obj);
    },
  };
  // A thread of this sandbox's own, like its database: built here, closed with it.
  const addressWorker = new AddressPrefetcher();
  const ctx = createContext({
    db,
    ids: createIds(options.seed, options.realNow),
    realNow: options.realNow,
    clockStart: options.clock,
    baseUrl: (env) => base[env],
    log,
    requestLogLimit: options.requestLogLimit,
    requestLogDir: requestLogDir(options.dbPath ?? ':memory:'),
    webhookCa: typeof options.webhookCa === 'string' ? [options.webhookCa] : options.webhookCa,
    addressWorker,
  });
  // A log kept in the workspace database (an older version's, an offline import's) moves over.
  const legacy = takeWorkspaceRequestLog(db);
  if (legacy.length > 0) ctx.repos.requestLog.replace(legacy);
  const urls = (): Urls => ({ test: base.test, production: base.production, dashboard: `${base.test}/` });
  const workspace = {
    version: VERSION,
    urls,
    reset: () => {
      ctx.repos.requestLog.clear();
      wipeData(db);
      ctx.merchants.clearCache();
      ctx.repos.checkouts.clearCache();
      ctx.clock.reset();
      // Says "everything is new": the wipe writes past the repositories, so this is its one notice.
      ctx.changes.note({ kind: 'workspace' });
    },
  };
  // Export/import (server/workspace-transfer): an import replaces every row, so afterwards every
  // in-memory copy of the data is dropped or read again, as after a reset.
  const transfer = new WorkspaceTransfer({
    db,
    nowIso: () => ctx.clock.nowIso(),
    appVersion: VERSION,
    quiesce: () => ctx.dispatcher.idle(),
    commitPending: () => ctx.batcher.commit(),
    requestLog: ctx.repos.requestLog,
    afterReplace: () => {
      // The bundle's request log arrived in the workspace's table: it replaces the log's store.
      ctx.repos.requestLog.replace(takeWorkspaceRequestLog(db));
      ctx.merchants.clearCache();
      ctx.repos.checkouts.clearCache();
      ctx.clock.reload();
      ctx.settings.reload();
      ctx.scheduler.wake();
      // Everything on any open dashboard is from the replaced workspace.
      ctx.changes.note({ kind: 'workspace' });
    },
  });
  // Scenarios run against this sandbox over its own addresses, like any integration: a client of
  // the listeners, so it is built here, beside them, not in the core context.
  const scenarios = new ScenarioService({ urls: () => ({ test: base.test, production: base.production }) });
  const limiter = new KeyLimiter();
  const dashboardDir = options.dashboardDir ?? defaultDashboardDir();
  const appOptions = {
    dashboardDir,
    logger: options.logger,
    workspace,
    transfer,
    scenarios,
    limiter,
    allowRemoteControl: options.allowRemoteControl,
    timeouts: options.timeouts,
  };
  const apps: Record<Env, App> = {
    test: await buildApp({ ctx, env: 'test', ...appOptions }),
    production: await buildApp({ ctx, env: 'production', ...appOptions }),
  };

  return {
    ctx,
    db,
    apps,
    scenarios,
    urls,
    async listen() {
      for (const env of ['test', 'production'] as const) {
        await apps[env].listen({ host, port: ports[env] });
        const address = apps[env].server.address();
        if (address && typeof address === 'object') base[env] = `http://${urlHost(host)}:${address.port}`;
      }
      // Catch up on anything that fell due while the sandbox was not running.
      await ctx.scheduler.runDue();
      ctx.scheduler.start(options.tickMs);
      return urls();
    },
    async close() {
      await ctx.scheduler.stop();
      await Promise.all(Object.values(apps).map((app) => app.close()));
      await ctx.dispatcher.close();
      await addressWorker.close();
      ctx.batcher.commit();
      ctx.repos.requestLog.close();
      db.close();
    },
  };
}
