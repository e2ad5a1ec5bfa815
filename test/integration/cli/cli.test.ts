import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { beforeAll, describe, expect, it } from 'vitest';
import { VERSION } from '../../../server/version.js';
import { ensureBuilt, runCli, spawnCli } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/sandbox.js';

// The built CLI as users run it: `node dist/server/cli.js serve ...`, a real process on 127.0.0.1.
const READY = /^svc-sandbox ready test=(\S+) production=(\S+) dashboard=(\S+)$/;
const READY_TIMEOUT_MS = 10_000;
const EXIT_TIMEOUT_MS = 5_000;

interface Running {
  child: ChildProcess;
  urls: { test: string; production: string; dashboard: string };
  stdout: string[];
  stderr: () => string;
}

beforeAll(() => ensureBuilt(), 120_000);

function tempDb(): string {
  return join(tempDir(), 'sandbox.db');
}

/** Resolves with the exit code and signal; rejects if the process has not exited within `ms`. */
function exited(
  child: ChildProcess,
  ms = EXIT_TIMEOUT_MS,
): Promise<{ code: number | null; signal: string | null }> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  }
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`process still running after ${ms} ms`)), ms);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal });
    });
  });
}

/** Starts `serve` on free ports and resolves on its ready line (rejects on early exit or timeout). */
function serve(dbPath: string, extra: string[] = []): Promise<Running> {
  const child = spawnCli(['serve', '--port', '0', '--prod-port', '0', '--db', dbPath, ...extra]);
  const stdout: string[] = [];
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(
        new Error(
          `no ready line within ${READY_TIMEOUT_MS} ms\nstdout: ${stdout.join('\n')}\nstderr: ${stderr}`,
        ),
      );
    }, READY_TIMEOUT_MS);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`exited (${signal ?? code}) before ready\nstderr: ${stderr}`));
    });
    createInterface({ input: child.stdout! }).on('line', (line) => {
      stdout.push(line);
      const match = READY.exec(line);
      if (!match) return;
      clearTimeout(timer);
      resolve({
        child,
        urls: { test: match[1]!, production: match[2]!, dashboard: match[3]! },
        stdout,
        stderr: () => stderr,
      });
    });
  });
}

/** Runs the CLI to completion (for the flag errors and --help). */
const run = (args: string[]) => runCli(args, { timeoutMs: EXIT_TIMEOUT_MS });

async function getJson(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function postJson(url: string, body: unknown) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('svc-sandbox serve (the CLI process)', () => {
  it('prints one ready line, answers on both addresses and the dashboard, and exits 0 on SIGTERM', async () => {
    const { child, urls, stdout } = await serve(tempDb());
    for (const url of [urls.test, urls.production]) expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(urls.test).not.toBe(urls.production);
    expect(urls.dashboard).toBe(`${urls.test}/`);

    for (const [env, url] of Object.entries({ test: urls.test, production: urls.production })) {
      const health = await getJson(`${url}/sandbox/health`);
      expect(health.status, env).toBe(200);
      expect(health.body.status).toBe('ok');
      expect(health.body.urls).toEqual(urls);
    }
    const dashboard = await fetch(urls.dashboard);
    expect(dashboard.status).toBe(200);
    expect(dashboard.headers.get('content-type')).toMatch(/^text\/html/);
    await dashboard.arrayBuffer();
    expect(stdout.filter((line) => line.startsWith('svc-sandbox ready'))).toHaveLength(1);

    child.kill('SIGTERM');
    expect(await exited(child)).toEqual({ code: 0, signal: null });
  });

  it('exits 0 on SIGINT', async () => {
    const { child, urls, stderr } = await serve(tempDb());
    expect((await getJson(`${urls.test}/sandbox/health`)).status).toBe(200);
    child.kill('SIGINT');
    expect(await exited(child)).toEqual({ code: 0, signal: null });
    expect(stderr()).toBe('');
  });

  it('exits 0 on SIGTERM with an event stream open, ending the stream', async () => {
    const { child, urls } = await serve(tempDb());
    const stream = await fetch(`${urls.test}/sandbox/events`);
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    expect((await reader.read()).done).toBe(false); // ": connected"
    child.kill('SIGTERM');
    expect(await exited(child)).toEqual({ code: 0, signal: null });
    // The server ended the response rather than leaving the client hanging.
    let done = false;
    while (!done) done = (await reader.read()).done;
  });

  it('exits 1 with a message when a port is taken', async () => {
    const first = await serve(tempDb());
    const taken = new URL(first.urls.production).port;
    const { code, stdout, stderr } = await run([
      'serve',
      '--port',
      '0',
      '--prod-port',
      taken,
      '--db',
      tempDb(),
    ]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/cannot listen: .*EADDRINUSE/);
    expect(stdout).not.toContain('svc-sandbox ready');
    // The first server is unaffected.
    expect((await getJson(`${first.urls.production}/sandbox/health`)).status).toBe(200);
  });

  it('refuses a database file another sandbox is using, with exit 1 and the reason', async () => {
    const db = tempDb();
    const first = await serve(db);
    const { code, stdout, stderr } = await run(['serve', '--port', '0', '--prod-port', '0', '--db', db]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/cannot open .*locked \(is another svc-sandbox using this file\?\)/);
    expect(stdout).not.toContain('svc-sandbox ready');
    expect((await getJson(`${first.urls.test}/sandbox/health`)).status).toBe(200);
  });

  it.each([
    ['a port that is not a number', ['serve', '--port', 'abc'], /--port must be a port number/],
    ['a port out of range', ['serve', '--prod-port', '70000'], /--prod-port must be a port number/],
    ['an unknown flag', ['serve', '--bogus'], /--bogus/],
    ['no command', [], /missing command/],
    ['an unknown command', ['start'], /unknown command: start/],
  ])('rejects %s with usage on stderr and exit code 2', async (_name, args, message) => {
    const { code, stdout, stderr } = await run(args);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(stderr).toContain('Usage: svc-sandbox serve [options]');
    expect(stdout).toBe('');
  });

  it('prints usage and exits 0 on --help', async () => {
    for (const flag of ['--help', '-h']) {
      const { code, stdout, stderr } = await run([flag]);
      expect(code).toBe(0);
      expect(stdout).toContain('Usage: svc-sandbox serve [options]');
      expect(stdout).toContain('--prod-port');
      expect(stderr).toBe('');
    }
  });

  it('prints its version and exits 0 on --version and -v', async () => {
    for (const flag of ['--version', '-v']) {
      const { code, stdout, stderr } = await run([flag]);
      expect(code).toBe(0);
      expect(stdout).toBe(`svc-sandbox ${VERSION}\n`);
      expect(stderr).toBe('');
    }
  });

  it('keeps data written by one run for the next run on the same --db file', async () => {
    const db = tempDb();
    const first = await serve(db);
    const created = await postJson(`${first.urls.test}/sandbox/merchants`, { name: 'Persisted Ltd' });
    expect(created.status).toBe(200);
    const merchant = created.body.merchant as { id: string; name: string };
    const key = (created.body.api_key as { key: string }).key;
    first.child.kill('SIGTERM');
    expect(await exited(first.child)).toEqual({ code: 0, signal: null });

    const second = await serve(db);
    // The ports are new (0 = any free port); the data is not.
    const fetched = await getJson(`${second.urls.test}/sandbox/merchants/${merchant.id}`);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toMatchObject({ id: merchant.id, name: 'Persisted Ltd' });
    // The key still authenticates, on both addresses.
    for (const url of [second.urls.test, second.urls.production]) {
      const list = await fetch(`${url}/v1/checkouts`, { headers: { authorization: `Bearer ${key}` } });
      expect(list.status).toBe(200);
      expect(await list.json()).toEqual([]);
    }
    second.child.kill('SIGTERM');
    expect(await exited(second.child)).toEqual({ code: 0, signal: null });
  });
});
