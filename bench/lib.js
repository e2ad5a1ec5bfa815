// Helpers shared by the bench sections: child processes (tracked and always killed), the ready
// line, the load generator (autocannon in its own process), temp files and small statistics.
import { fork, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const CLI = process.env.BENCH_CLI ?? join(ROOT, 'dist/server/cli.js');
const LOAD_WORKER = fileURLToPath(new URL('./load-worker.js', import.meta.url));
const BASELINE_SERVER = fileURLToPath(new URL('./baseline-server.js', import.meta.url));
const WRITE_FLOOR_SERVER = fileURLToPath(new URL('./write-floor-server.js', import.meta.url));
const DELIVERY_FLOOR_SERVER = fileURLToPath(new URL('./delivery-floor-server.js', import.meta.url));

/** Every child process the bench started; all are SIGKILLed if the bench exits early. */
const children = new Set();
const tempDirs = [];

export function killAll() {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  children.clear();
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export function track(child) {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/**
 * Installs the safety net: children die with the bench (normal exit, error, Ctrl-C), and a
 * watchdog ends a run that overruns its budget.
 */
export function installCleanup(budgetMs) {
  process.once('exit', killAll);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.once(signal, () => {
      process.stderr.write(`\nbench: ${signal}, stopping\n`);
      killAll();
      process.exit(130);
    });
  }
  const watchdog = setTimeout(() => {
    process.stderr.write(`bench: over its ${budgetMs / 1000} s budget, stopping\n`);
    killAll();
    process.exit(1);
  }, budgetMs);
  watchdog.unref();
}

export function tempDir() {
  const dir = mkdtempSync(join(tmpdir(), 'svc-sandbox-bench-'));
  tempDirs.push(dir);
  return dir;
}

/**
 * Resolves with the first stdout line matching `pattern` (its match), rejects if the process
 * exits first or nothing matches within `timeoutMs`. Event-driven: no polling.
 */
export function waitForLine(child, pattern, timeoutMs, what = 'process') {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    let stderr = '';
    const onStderr = (chunk) => {
      stderr += chunk;
    };
    child.stderr?.on('data', onStderr);
    const done = (fn, value) => {
      clearTimeout(timer);
      lines.off('line', onLine);
      child.off('exit', onExit);
      child.stderr?.off('data', onStderr);
      fn(value);
    };
    const onLine = (line) => {
      const match = pattern.exec(line);
      if (match) done(resolve, match);
    };
    const onExit = (code, signal) =>
      done(reject, new Error(`${what} exited (${signal ?? code}) before it was ready\n${stderr}`));
    const timer = setTimeout(
      () => done(reject, new Error(`${what} not ready within ${timeoutMs} ms\n${stderr}`)),
      timeoutMs,
    );
    lines.on('line', onLine);
    child.once('exit', onExit);
  });
}

/** Stops a child: SIGTERM, then SIGKILL if it has not exited after `graceMs`. */
export function stop(child, graceMs = 3000) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

const READY = /^svc-sandbox ready test=(\S+) production=(\S+) dashboard=(\S+)$/;

/**
 * Spawns the built CLI (`serve --port 0 --prod-port 0 --db <dbPath>`) and waits for its ready
 * line. `readyMs` is from just before spawn to the line arriving here.
 */
export async function startSandbox({ dbPath, extraArgs = [], nodeArgs = [], timeoutMs = 10_000 }) {
  const started = performance.now();
  const child = track(
    spawn(
      process.execPath,
      [...nodeArgs, CLI, 'serve', '--port', '0', '--prod-port', '0', '--db', dbPath, ...extraArgs],
      {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    ),
  );
  const match = await waitForLine(child, READY, timeoutMs, 'svc-sandbox');
  const readyMs = performance.now() - started;
  // Keep draining the pipes so a chatty server can never block on a full pipe.
  child.stdout.resume();
  child.stderr.resume();
  return { child, readyMs, urls: { test: match[1], production: match[2], dashboard: match[3] } };
}

/** The bare Fastify hello-world baseline, in its own process. */
export async function startBaseline({ timeoutMs = 10_000 } = {}) {
  const child = track(
    spawn(process.execPath, [BASELINE_SERVER], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] }),
  );
  const match = await waitForLine(child, /^baseline ready url=(\S+)$/, timeoutMs, 'baseline server');
  child.stdout.resume();
  child.stderr.resume();
  return { child, url: match[1] };
}

/**
 * A floor server in its own process (FLOOR_NODE_ARGS: node options for it, e.g. to profile it):
 * `{ child, url, key }` once it prints `<name> ready url=… key=…`.
 */
async function startFloor(script, name, timeoutMs) {
  const child = track(
    spawn(process.execPath, [...(process.env.FLOOR_NODE_ARGS?.split(' ') ?? []), script], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  const [, url, key] = await waitForLine(
    child,
    new RegExp(`^${name} ready url=(\\S+) key=(\\S+)$`),
    timeoutMs,
    name,
  );
  child.stdout.resume();
  child.stderr.resume();
  return { child, url, key };
}

/**
 * The floor of a checkout create (`write-floor-server.js`: Fastify and the sandbox's own writes,
 * nothing else), in its own process, with one checkout made: `headers` authorize its routes.
 */
export async function startWriteFloor({ timeoutMs = 10_000 } = {}) {
  const { child, url, key } = await startFloor(WRITE_FLOOR_SERVER, 'floor', timeoutMs);
  const headers = { authorization: `Bearer ${key}` };
  const checkout = await api(url, 'POST', '/v1/checkouts', {
    headers,
    body: { title: 'Floor', amount: 5_000_000, expires_at: weekFromNow() },
  });
  return { child, url, headers, checkoutId: checkout.id };
}

/**
 * The floor of a webhook delivery (`delivery-floor-server.js`: the deposit, its event and its
 * deliveries stored, each signed, sent and its answer recorded, nothing else), in its own process,
 * each of `urls` subscribed: `deposit(txid)` stores one (its sends follow).
 */
export async function startDeliveryFloor(urls, { timeoutMs = 10_000 } = {}) {
  const { child, url } = await startFloor(DELIVERY_FLOOR_SERVER, 'delivery floor', timeoutMs);
  for (const endpoint of urls) await api(url, 'POST', '/endpoints', { body: { url: endpoint } });
  const deposit = (txid) =>
    api(url, 'POST', '/deposits', { body: { amount: 1_000_000, currency: 'USDT', txid } });
  return { child, url, deposit };
}

/** CPU seconds (user + system) a process has used so far, from /proc; null where there is no /proc. */
export function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): state is [0], utime [11], stime [12].
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return null;
  }
}
const CLOCK_TICKS = 100; // USER_HZ on Linux

/**
 * Runs autocannon in a separate process (so the load generator never shares an event loop with
 * the server) and resolves with a summary. `spec` is plain data (sent over IPC): autocannon
 * options (url, method, headers, body, connections, duration, warmup, requests...) plus
 * `bodyTemplate`, a body in which every `{{seq}}` becomes a per-process sequence number.
 * With `serverPid`, the summary adds the server's CPU time per request (warmup included on both
 * sides): unlike req/s, it barely moves when something else on the machine competes for the CPU.
 */
export async function load(spec, { timeoutMs, serverPid } = {}) {
  const cpuBefore = serverPid === undefined ? null : cpuSeconds(serverPid);
  const result = await runLoadWorker(spec, timeoutMs);
  const cpuAfter = serverPid === undefined ? null : cpuSeconds(serverPid);
  if (cpuBefore !== null && cpuAfter !== null) {
    const requests = result.total + (result.warmup_total ?? 0);
    result.server_cpu_s = cpuAfter - cpuBefore;
    result.server_cpu_us_per_req = requests > 0 ? (1e6 * result.server_cpu_s) / requests : null;
  }
  return result;
}

function runLoadWorker(spec, timeoutMs) {
  const limit = timeoutMs ?? ((spec.duration ?? 5) + (spec.warmup?.duration ?? 0) + 15) * 1000;
  const child = track(fork(LOAD_WORKER, [], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`load generator did not finish within ${limit} ms`));
    }, limit);
    child.once('message', (message) => {
      clearTimeout(timer);
      child.disconnect();
      if (message.error) reject(new Error(`load generator: ${message.error}`));
      else resolve(message.result);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`load generator exited (${signal ?? code}) without a result`));
    });
    child.send(spec);
  });
}

/** JSON over HTTP to 127.0.0.1, throwing on a non-2xx answer. */
export async function api(base, method, path, { body, headers = {} } = {}) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Renders rows (arrays of strings) as an aligned plain-text table. */
export function table(header, rows) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) =>
    cells
      .map((c, i) => String(c).padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** Resident set size of a process in MB (from /proc), null where there is none. */
export function rssMb(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/^VmRSS:\s+(\d+)\s+kB$/m.exec(status)?.[1]);
    return Number.isFinite(kb) ? kb / 1024 : null;
  } catch {
    return null;
  }
}

/** The p-th percentile (0-100) of numbers (sorted here). */
export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Milliseconds `fn` took, each of `count` calls in turn (one at a time). */
export async function timeEach(count, fn) {
  const samples = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await fn(i);
    samples.push(performance.now() - started);
  }
  return samples;
}

/**
 * A figure of the report: what was measured, its baseline from the same run and the ratio of the
 * two, the target and whether it is met (undefined: information only). `data` keeps the raw numbers.
 */
export function figure({ name, measured, baseline = '', ratio = null, target = '', pass, data = {} }) {
  return { name, measured, baseline, ratio, target, pass, data };
}

/**
 * A throughput target: at least `ratio` of the baseline measured in the same run, and at most
 * `cpuUs` µs of the server's CPU per operation. The ratio follows the machine (a busy one slows
 * both sides); the CPU bound does not move with a noisy baseline, so a regression cannot hide
 * behind one. `{ text, pass(ratio, cpu) }`; a CPU figure that could not be read fails.
 */
export function throughputTarget({ ratio, cpuUs }) {
  return {
    text: `>= ${ratio.toFixed(2)}, <= ${cpuUs} µs CPU`,
    pass: (measuredRatio, cpu) =>
      measuredRatio >= ratio && typeof cpu === 'number' && Number.isFinite(cpu) && cpu <= cpuUs,
  };
}

export const fmt = (n, digits = 0) =>
  n === undefined || n === null || Number.isNaN(n)
    ? '-'
    : n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** Turns the limits off so load measures the routes, not the rate limiter. */
export async function limitsOff(base) {
  const settings = await api(base, 'PATCH', '/sandbox/settings', {
    body: { rate_limit_per_minute: 0, concurrency_limit: 0 },
  });
  if (settings.rate_limit_per_minute !== 0 || settings.concurrency_limit !== 0) {
    throw new Error('PATCH /sandbox/settings did not turn the limits off');
  }
}

/**
 * An A/B section's set-up: the bare Fastify baseline and a sandbox on a fresh database file
 * (`bench-<name>.db`) with the limits off; `fn({ bare, sandbox, base })` runs between them and both
 * are stopped afterwards, whatever happens.
 */
export async function withSandboxAndBaseline({ name, nodeArgs = [] }, fn) {
  const bare = await startBaseline();
  const sandbox = await startSandbox({ dbPath: join(tempDir(), `bench-${name}.db`), nodeArgs });
  try {
    const base = sandbox.urls.test;
    await limitsOff(base);
    return await fn({ bare, sandbox, base });
  } finally {
    await stop(sandbox.child, 10_000);
    await stop(bare.child);
  }
}

/** The load spec of the bare baseline's GET /, with the section's load options. */
export function bareSpec(bare, options) {
  return [{ url: `${bare.url}/`, ...options }, { serverPid: bare.child.pid }];
}

/** A merchant made through the control API: the authorization header of its owner key. */
export async function merchantHeaders(base, name) {
  const { api_key } = await api(base, 'POST', '/sandbox/merchants', { body: { name } });
  return { authorization: `Bearer ${api_key.key}` };
}

/** An `expires_at` a week from now, for checkouts that must stay open through a run. */
export function weekFromNow() {
  return new Date(Date.now() + 7 * 86_400_000).toISOString();
}

/**
 * The tools' set-up for one route's load: the limits off, a merchant with one checkout, and the
 * GET of that checkout and the POST of new ones as load specs (10 connections, 1 s of warm-up).
 */
export async function checkoutLoads(base, { name, duration }) {
  await limitsOff(base);
  const { api_key, merchant } = await api(base, 'POST', '/sandbox/merchants', { body: { name } });
  const headers = { authorization: `Bearer ${api_key.key}` };
  const expires_at = weekFromNow();
  const checkout = await api(base, 'POST', '/v1/checkouts', {
    headers,
    body: { title: name, amount: 5_000_000, expires_at },
  });
  const common = { connections: 10, duration, warmup: { connections: 10, duration: 1 } };
  const specs = {
    get: { url: `${base}/v1/checkouts/${checkout.id}`, headers, ...common },
    post: {
      url: `${base}/v1/checkouts`,
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      bodyTemplate: JSON.stringify({ title: `${name} {{seq}}`, amount: 5_000_000, expires_at }),
      ...common,
    },
  };
  return { merchant, specs, common };
}
