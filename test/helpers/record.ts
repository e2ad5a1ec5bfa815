import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { afterEveryTest } from './cleanup.js';
import { CLI, cliEnv, ROOT } from './cli.js';
import { startReceiver } from './receiver.js';
import { tempDir, testSandbox } from './sandbox.js';

/**
 * `svc-sandbox record` as a real child process (the built CLI), stdin piped for notes, and a
 * session's HTTP: the integration through the proxy, the outside world on the upstream's control
 * API directly. Killed after the test if still running.
 */
export interface Recording {
  child: ChildProcess;
  /** the proxy's address: `${url}/v1/...`, `${url}/webhooks`, `${url}/__record/note` */
  url: string;
  stdout: () => string;
  stderr: () => string;
  /** resolves once stdout matches */
  waitFor: (pattern: RegExp, timeoutMs?: number) => Promise<RegExpExecArray>;
  /** SIGINT, then the exit code once it has written the file and exited */
  stop: () => Promise<number | null>;
}

const children: ChildProcess[] = [];
afterEveryTest(() => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

export function spawnRecord(args: string[], cwd = ROOT): Omit<Recording, 'url'> {
  const child = spawn(process.execPath, [CLI, 'record', ...args], {
    cwd,
    env: cliEnv(),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  const waiters: (() => void)[] = [];
  const wake = () => {
    for (const w of waiters.splice(0)) w();
  };
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    wake();
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    wake();
  });
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  child.once('close', wake);
  const waitFor = async (pattern: RegExp, timeoutMs = 15_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = pattern.exec(stdout);
      if (found) return found;
      if (child.exitCode !== null || Date.now() > deadline)
        throw new Error(`record: ${pattern} not seen\nstdout: ${stdout}\nstderr: ${stderr}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(1, deadline - Date.now()));
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  };
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    waitFor,
    stop: () => {
      child.kill('SIGINT');
      return exited;
    },
  };
}

/** Starts `record` on a free port and waits for its ready line. */
export async function startRecord(args: string[], cwd = ROOT): Promise<Recording> {
  const started = spawnRecord(['--port', '0', ...args], cwd);
  await started.waitFor(/Ctrl-C ends the recording/);
  const ready = await started.waitFor(/point your integration at (http:\/\/127\.0\.0\.1:\d+)/);
  return { ...started, url: ready[1]! };
}

export interface Answer {
  status: number;
  body: unknown;
}

/** A JSON request; the answer's status and parsed body (undefined when empty). */
export async function json(
  url: string,
  method = 'GET',
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const res = await fetch(url, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    // not JSON: the text itself
  }
  return { status: res.status, body: parsed };
}

/** A merchant of the upstream sandbox (its control API) with its key, and an endpoint at `hooks`. */
export async function upstreamMerchant(
  upstream: string,
  hooks?: string,
): Promise<{ id: string; key: string; secret?: string; auth: Record<string, string> }> {
  const made = (await json(`${upstream}/sandbox/merchants`, 'POST', { name: 'Acme', kyb_status: 'approved' }))
    .body as { merchant: { id: string }; api_key: { key: string } };
  const out = {
    id: made.merchant.id,
    key: made.api_key.key,
    auth: { authorization: `Bearer ${made.api_key.key}` },
  };
  if (hooks === undefined) return out;
  const endpoint = (
    await json(`${upstream}/sandbox/merchants/${made.merchant.id}/webhook-endpoints`, 'POST', { url: hooks })
  ).body as { secret: string };
  return { ...out, secret: endpoint.secret };
}

/** The upstream sandbox's time (its clock may have been moved): `ms` from now, as ISO. */
export async function upstreamTime(upstream: string, ms = 0): Promise<string> {
  const clock = (await json(`${upstream}/sandbox/clock`)).body as { now: string };
  return new Date(Date.parse(clock.now) + ms).toISOString();
}

/** Whether a delivery's X-SVC-Signature is the HMAC of its raw bytes under `secret`. */
export function signatureHolds(raw: Buffer, header: string | string[] | undefined, secret: string): boolean {
  return header === `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;
}

/**
 * A session's set-up: a second sandbox as the service, a receiver as the developer's endpoint,
 * `record` writing `<dir>/<out>` with --webhooks-to it, and the service's merchant, its webhook
 * endpoint the proxy's /webhooks.
 */
export async function recordAgainstSandbox(out = 's.yaml') {
  const upstream = (await (await testSandbox()).listen()).test;
  const receiver = await startReceiver();
  const dir = tempDir();
  const rec = await startRecord(['--upstream', upstream, '--out', out, '--webhooks-to', receiver.url], dir);
  const acme = await upstreamMerchant(upstream, `${rec.url}/webhooks`);
  return { upstream, receiver, dir, rec, acme };
}
