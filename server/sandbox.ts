import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyServerOptions } from 'fastify';
import { AddressPrefetcher } from './addresses/prefetcher.js';
import { buildApp, type Timeouts } from './app.js';
import type { ClockStart } from './clock.js';
import type { SandboxContext } from './context.js';
import { WORKSPACE_HEADER } from './contract/workspaces.js';
import type { Db } from './db/connection.js';
import type { Env } from './domain/types.js';
import type { DeclaredOperation } from './http/openapi.js';
import { KeyLimiter } from './http/plugins/key-limiter.js';
import type { SandboxInfo } from './http/sandbox/health-reset.js';
import type { App } from './http/types.js';
import { ScenarioService } from './scenarios/service.js';
import { VERSION } from './version.js';
import { WorkspaceHost } from './workspaces/host.js';

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
  /**
   * The addresses clients use, when not the listeners' own (a container's published ports, a
   * proxy): hosted_url, the dashboard's links and the OpenAPI servers name these. Their host names
   * are allowed in the Host header too.
   */
  publicUrls?: { test?: string | undefined; production?: string | undefined };
  /** Host names requests may name besides the loopback ones (and the public URLs' hosts). */
  allowedHosts?: readonly string[];
  /** A shared secret every control call must present (X-SVC-Control-Token). */
  controlToken?: string;
  /** Header, request and keep-alive timeouts (defaults: 10 s, 30 s, 5 s). */
  timeouts?: Partial<Timeouts>;
  /** Request log rows kept, newest first (default 10,000). */
  requestLogLimit?: number;
  /** Told every named route as its definition declares it, once (the operation table's generator). */
  onOperation?: (operation: DeclaredOperation) => void;
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
  /** the default workspace's context (what every client sees without naming a workspace) */
  readonly ctx: SandboxContext;
  /** the default workspace's database */
  readonly db: Db;
  /** every workspace: made, found, forked, checkpointed, deleted */
  workspaces: WorkspaceHost;
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
  const publicUrls = options.publicUrls ?? {};
  // The listeners' own addresses, and the ones clients are told (the public URLs, where given).
  const own: Record<Env, string> = {
    test: `http://${urlHost(host)}:${ports.test}`,
    production: `http://${urlHost(host)}:${ports.production}`,
  };
  const base: Record<Env, string> = {
    test: publicUrls.test ?? own.test,
    production: publicUrls.production ?? own.production,
  };
  const publicOrigins = Object.values(publicUrls).flatMap((url) => (url === undefined ? [] : [url]));
  const log = {
    error: (obj: object, msg: string) => {
      console.error(`svc-sandbox: ${msg}`, obj);
    },
  };
  // A thread of this sandbox's own, like its databases: built here, closed with it.
  const addressWorker = new AddressPrefetcher();
  let apps: Record<Env, App> | undefined;
  const workspaces = new WorkspaceHost({
    dbPath: options.dbPath ?? ':memory:',
    nativeBinding: options.nativeBinding,
    seed: options.seed,
    clockStart: options.clock,
    realNow: options.realNow,
    baseUrl: (env) => base[env],
    log,
    requestLogLimit: options.requestLogLimit,
    webhookCa: typeof options.webhookCa === 'string' ? [options.webhookCa] : options.webhookCa,
    addressWorker,
    appVersion: VERSION,
    // The recorder reads back what a recorded call made: a GET on the listener, in its workspace.
    onMount: (workspace) => {
      for (const env of ['test', 'production'] as const)
        workspace.ctx.recorder.attachReader(env, (url, key) => {
          if (!apps) throw new Error('the listeners are not built yet');
          return readThrough(apps[env], workspace.id, url, key);
        });
    },
  });
  const urls = (): Urls => ({ test: base.test, production: base.production, dashboard: `${base.test}/` });
  const sandboxInfo: SandboxInfo = {
    version: VERSION,
    urls,
    reset: (id: string) => workspaces.reset(workspaces.require(id)),
    startWorkspace: () => workspaces.startWorkspace,
  };
  // Scenarios run against this sandbox over its own addresses, like any integration: a client of
  // the listeners, so it is built here, beside them, not in the core context.
  // Over the listeners themselves: a public URL may only mean something on a container's host.
  const scenarios = new ScenarioService({
    urls: () => ({ test: own.test, production: own.production }),
    controlToken: options.controlToken,
  });
  const limiter = new KeyLimiter();
  const dashboardDir = options.dashboardDir ?? defaultDashboardDir();
  const appOptions = {
    dashboardDir,
    logger: options.logger,
    sandbox: sandboxInfo,
    host: workspaces,
    scenarios,
    limiter,
    allowRemoteControl: options.allowRemoteControl,
    allowedHosts: options.allowedHosts,
    publicOrigins,
    controlToken: options.controlToken,
    timeouts: options.timeouts,
  };
  const built: Record<Env, App> = {
    test: await buildApp({ env: 'test', ...appOptions, onOperation: options.onOperation }),
    production: await buildApp({ env: 'production', ...appOptions }),
  };
  apps = built;

  return {
    get ctx() {
      return workspaces.default.ctx;
    },
    get db() {
      return workspaces.default.db;
    },
    workspaces,
    apps: built,
    scenarios,
    urls,
    async listen() {
      for (const env of ['test', 'production'] as const) {
        await built[env].listen({ host, port: ports[env] });
        const address = built[env].server.address();
        if (address && typeof address === 'object') {
          own[env] = `http://${urlHost(host)}:${address.port}`;
          base[env] = publicUrls[env] ?? own[env];
        }
      }
      // Catch up on anything that fell due while the sandbox was not running, then follow time.
      await workspaces.start(options.tickMs);
      return urls();
    },
    async close() {
      await Promise.all(Object.values(built).map((app) => app.close()));
      await workspaces.close();
      await addressWorker.close();
    },
  };
}

/** A GET through `app` in workspace `id`, as the recorder reads what a call made. */
async function readThrough(app: App, id: string, url: string, key: string | null) {
  const headers: Record<string, string> = { host: 'localhost', [WORKSPACE_HEADER]: id };
  if (key) headers.authorization = `Bearer ${key}`;
  const response = await app.inject({ method: 'GET', url, headers });
  let body: unknown;
  try {
    body = response.json();
  } catch {
    body = undefined;
  }
  return { status: response.statusCode, body };
}
