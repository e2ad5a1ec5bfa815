/**
 * `svc-sandbox/testing`: one sandbox for a whole test run, a workspace of its own for each test.
 *
 * ```ts
 * // global setup (once per run)
 * import { startSandbox } from 'svc-sandbox/testing';
 * const sandbox = await startSandbox(); // sets SVC_SANDBOX_URL for the test workers
 * // … and at the end: await sandbox.close();
 *
 * // in a test (any worker)
 * import { workspace } from 'svc-sandbox/testing';
 * await using ws = await workspace();
 * await ws.api('POST', '/v1/checkouts', { body: { title: 'Order', amount: 25_000_000 } });
 * await ws.clock.advance('2h'); // moves this workspace's time only
 * ```
 *
 * Everything goes over HTTP to 127.0.0.1, as any client of the sandbox would: the same code
 * serves a sandbox started here, a child process, or one already running (a CI service).
 * @packageDocumentation
 */

import { writeFileSync } from 'node:fs';
import { CONTROL_TOKEN_ENV } from '../cli/common.js';
import { resolveCall } from '../contract/call.js';
import { startChild } from './child.js';
import { COVERAGE_DIR_ENV, coverageDir, coverageMarkdown, readCoverage } from './coverage.js';
import { requestJson } from './http.js';
import type { CoverageReport, StartOptions, TestSandbox, TestWorkspace, WorkspaceOptions } from './types.js';
import { openWorkspace, type WorkspaceHost } from './workspace.js';

export { SandboxRequestError, SandboxUnreachableError } from './http.js';
export type * from './types.js';
export { RequestVerificationError } from './workspace.js';

/** The variable that names the shared sandbox: {@link workspace} reads it, {@link startSandbox} sets it. */
export const SANDBOX_URL_ENV = 'SVC_SANDBOX_URL';
/** The variable that holds the sandbox's control token, when it has one. */
export const SANDBOX_CONTROL_TOKEN_ENV: string = CONTROL_TOKEN_ENV;

interface Health {
  urls: { test: string; production: string; dashboard: string };
}

/** The shared part of every kind of sandbox: workspaces made, tracked, and deleted on close. */
function handle(
  mode: TestSandbox['mode'],
  urls: TestSandbox['urls'],
  controlToken: string | undefined,
  stop: () => Promise<void>,
  coverage?: string,
): TestSandbox {
  const open = new Map<string, TestWorkspace>();
  const baseHeaders: Record<string, string> =
    controlToken === undefined ? {} : { 'x-svc-control-token': controlToken };
  const host: WorkspaceHost = { urls, baseHeaders, forget: (id) => open.delete(id) };
  let closing: Promise<void> | undefined;
  const sandbox: TestSandbox = {
    mode,
    urls,
    env: {
      [SANDBOX_URL_ENV]: urls.test,
      ...(controlToken === undefined ? {} : { [SANDBOX_CONTROL_TOKEN_ENV]: controlToken }),
      ...(coverage === undefined ? {} : { [COVERAGE_DIR_ENV]: coverage }),
    },
    async workspace(options) {
      if (closing) throw new Error('svc-sandbox/testing: this sandbox is closed');
      const ws = await openWorkspace(host, options);
      open.set(ws.id, ws);
      return ws;
    },
    close() {
      closing ??= (async () => {
        // A sandbox started here is in memory: stopping it takes its workspaces along. A remote
        // one keeps running, so what was made in it is deleted.
        if (mode === 'remote') await Promise.all([...open.values()].map((ws) => ws.close()));
        open.clear();
        await stop();
      })();
      return closing;
    },
    [Symbol.asyncDispose]: () => sandbox.close(),
  };
  return sandbox;
}

/** Points this process's {@link workspace} at the sandbox until it closes; the old values come back then. */
function exportEnv(sandbox: TestSandbox): () => void {
  const previous = Object.keys(sandbox.env).map((name) => [name, process.env[name]] as const);
  Object.assign(process.env, sandbox.env);
  return () => {
    for (const [name, value] of previous) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
}

/**
 * Starts a sandbox for a test run: in memory, on free loopback ports, in this process (default)
 * or as a child process (`mode: 'child'`). Close it at the end of the run; its workspaces go with it.
 */
export async function startSandbox(options: StartOptions = {}): Promise<TestSandbox> {
  let sandbox: TestSandbox;
  const coverage = options.coverage ? coverageDir() : undefined;
  if (options.mode === 'child') {
    const child = await startChild(options);
    sandbox = handle('child', child.urls, options.controlToken, child.stop, coverage);
  } else {
    // Loaded only here: a test that only connects never loads the server.
    const { createSandbox } = await import('../sandbox.js');
    const inner = await createSandbox({
      dbPath: ':memory:',
      ports: { test: 0, production: 0 },
      ...(options.seed === undefined ? {} : { seed: options.seed }),
      ...(options.controlToken === undefined ? {} : { controlToken: options.controlToken }),
    });
    let urls: TestSandbox['urls'];
    try {
      urls = await inner.listen();
    } catch (error) {
      await inner.close();
      throw error;
    }
    sandbox = handle('in-process', urls, options.controlToken, () => inner.close(), coverage);
  }
  if (options.setEnv === false) return sandbox;
  const restore = exportEnv(sandbox);
  const close = sandbox.close;
  return Object.assign(sandbox, {
    close: () => close().finally(restore),
    [Symbol.asyncDispose]: () => sandbox.close(),
  });
}

/**
 * A sandbox already running (`svc-sandbox serve`, a CI service container), by its test URL.
 * Checks that it answers. `close()` deletes the workspaces made through it and leaves it running.
 */
export async function connectSandbox(
  url: string,
  options: { controlToken?: string } = {},
): Promise<TestSandbox> {
  const base = url.replace(/\/+$/, '');
  const controlToken = options.controlToken;
  const headers: Record<string, string> =
    controlToken === undefined ? {} : { 'x-svc-control-token': controlToken };
  const health = await requestJson<Health>('GET', `${base}${resolveCall('sandboxGetHealth').path}`, headers);
  // The listener's own production address; a URL given through a proxy keeps its own test base.
  const urls = { ...health.urls, test: base, dashboard: `${base}/` };
  return handle('remote', urls, controlToken, async () => {});
}

let shared: Promise<TestSandbox> | undefined;
let sharedUrl: string | undefined;

/** The sandbox `SVC_SANDBOX_URL` names, connected once per process. */
function sharedSandbox(): Promise<TestSandbox> {
  const url = process.env[SANDBOX_URL_ENV];
  if (url === undefined || url === '') {
    throw new Error(
      `svc-sandbox/testing: no sandbox: start one in your global setup with startSandbox() (it sets ${SANDBOX_URL_ENV}), or set ${SANDBOX_URL_ENV} to a running one`,
    );
  }
  if (shared === undefined || sharedUrl !== url) {
    const token = process.env[SANDBOX_CONTROL_TOKEN_ENV];
    sharedUrl = url;
    shared = connectSandbox(url, token ? { controlToken: token } : {});
    // A failed connection is tried again by the next call, not remembered.
    shared.catch(() => {
      shared = undefined;
    });
  }
  return shared;
}

/**
 * A workspace of its own for one test, in the sandbox `SVC_SANDBOX_URL` names (what
 * {@link startSandbox} set in the global setup): its own data, merchant and key, clock and
 * webhook queue. Ephemeral unless asked otherwise. Close it when the test ends
 * (`await using`, `afterEach`), or call {@link closeWorkspaces} once per file.
 */
export async function workspace(options?: WorkspaceOptions): Promise<TestWorkspace> {
  return (await sharedSandbox()).workspace(options);
}

/** Deletes every workspace {@link workspace} made in this process and not closed yet. */
export async function closeWorkspaces(): Promise<void> {
  if (shared === undefined) return;
  const sandbox = await shared.catch(() => undefined);
  shared = undefined;
  await sandbox?.close();
}

/**
 * The coverage of the whole test run: every workspace closed since `startSandbox({ coverage: true })`
 * (in any worker), added up. Writes it as JSON and as a Markdown table (unreached entries in bold)
 * and returns it. Call it in the global teardown, before the sandbox closes.
 */
export function coverageReport(
  options: { json?: string; markdown?: string; dir?: string } = {},
): CoverageReport {
  const dir = options.dir ?? process.env[COVERAGE_DIR_ENV];
  if (!dir)
    throw new Error(
      `svc-sandbox/testing: no coverage collected: start the sandbox with startSandbox({ coverage: true }) (it sets ${COVERAGE_DIR_ENV})`,
    );
  const { coverage, workspaces } = readCoverage(dir);
  writeFileSync(options.json ?? 'svc-sandbox-coverage.json', `${JSON.stringify(coverage, null, 2)}\n`);
  writeFileSync(options.markdown ?? 'svc-sandbox-coverage.md', coverageMarkdown(coverage, workspaces));
  return { ...coverage, workspaces };
}
