import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Checkout } from '../../../server/contract/checkouts.js';
import {
  closeWorkspaces,
  connectSandbox,
  SANDBOX_URL_ENV,
  SandboxRequestError,
  SandboxUnreachableError,
  startSandbox,
  type TestSandbox,
  workspace,
} from '../../../server/testing/index.js';
import { ensureBuilt } from '../../helpers/cli.js';

const open: TestSandbox[] = [];
afterEach(async () => {
  await closeWorkspaces();
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function started(options: Parameters<typeof startSandbox>[0] = {}): Promise<TestSandbox> {
  const sandbox = await startSandbox(options);
  open.push(sandbox);
  return sandbox;
}

const status = async (url: string, headers: Record<string, string> = {}) =>
  (await fetch(url, { headers })).status;

const hourFrom = (date: Date) => new Date(date.getTime() + 3600_000).toISOString();

describe('svc-sandbox/testing, in process', () => {
  it('hands each test a workspace with its own merchant, key, clock and URLs, and deletes it on close', async () => {
    const sandbox = await started();
    expect(process.env[SANDBOX_URL_ENV]).toBe(sandbox.urls.test);
    const a = await workspace();
    const b = await workspace({ clock: { start: '2031-05-01T10:00:00.000Z', frozen: true } });
    expect(a.id).toMatch(/^ws_[0-9A-Za-z]{16}$/);
    expect(a.id).not.toBe(b.id);
    expect(a.apiKey).not.toBe(b.apiKey);
    expect(a.controlHeaders['x-svc-workspace']).toBe(a.id);
    expect(a.urls.control).toBe(`${sandbox.urls.test}/sandbox`);
    expect(new URL(a.urls.dashboard).searchParams.get('workspace')).toBe(a.id);

    // The key works on both listeners, each in its own environment.
    const now = await a.clock.now();
    const made = await a.api<Checkout>('POST', '/v1/checkouts', {
      body: { title: 'Order', amount: 5_000_000, expires_at: hourFrom(now) },
    });
    expect(await a.api<Checkout[]>('GET', '/v1/checkouts')).toHaveLength(1);
    expect(await a.api<Checkout[]>('GET', '/v1/checkouts', { env: 'production' })).toHaveLength(0);
    // b's key sees none of a's data.
    expect(await b.api<Checkout[]>('GET', '/v1/checkouts')).toHaveLength(0);
    const crossed = await b.api('GET', `/v1/checkouts/${made.id}`).catch((error: unknown) => error);
    expect(crossed).toBeInstanceOf(SandboxRequestError);
    expect((crossed as SandboxRequestError).status).toBe(404);

    // Clocks: b's is frozen at its start; advancing a moves a only.
    expect((await b.clock.now()).toISOString()).toBe('2031-05-01T10:00:00.000Z');
    const moved = await a.clock.advance('2h');
    expect(Date.parse(moved.now) - now.getTime()).toBeGreaterThanOrEqual(2 * 3600_000);
    expect(moved.fired.events.map((e) => e.type)).toContain('checkout.expired');
    expect((await b.clock.now()).toISOString()).toBe('2031-05-01T10:00:00.000Z');
    expect((await a.api<Checkout>('GET', `/v1/checkouts/${made.id}`)).status).toBe('expired');

    await a.close();
    await a.close();
    expect(await status(`${a.urls.control}/workspaces/${a.id}`)).toBe(404);
    expect(await status(`${sandbox.urls.test}/v1/checkouts`, a.headers)).toBe(401);

    // closing the sandbox stops it (its workspaces with it) and puts the variable back
    await sandbox.close();
    expect(process.env[SANDBOX_URL_ENV]).toBeUndefined();
    await expect(fetch(`${sandbox.urls.test}/sandbox/health`)).rejects.toThrow();
  });

  it('saves and restores a checkpoint, and forks a workspace from one with its merchant', async () => {
    const sandbox = await started({ setEnv: false });
    const ws = await sandbox.workspace({ clock: { start: '2031-01-01T00:00:00.000Z', frozen: true } });
    const made = await ws.api<Checkout>('POST', '/v1/checkouts', {
      body: { title: 'Saved', amount: 1_000_000, expires_at: '2031-01-01T01:00:00.000Z' },
    });
    const saved = await ws.checkpoints.save('before expiry');
    expect(saved).toMatchObject({ name: 'before expiry', at: '2031-01-01T00:00:00.000Z' });
    await ws.clock.advance(7200);
    expect((await ws.api<Checkout>('GET', `/v1/checkouts/${made.id}`)).status).toBe('expired');
    const restored = await ws.checkpoints.restore('before expiry');
    expect(restored.clock.now).toBe('2031-01-01T00:00:00.000Z');
    expect((await ws.api<Checkout>('GET', `/v1/checkouts/${made.id}`)).status).toBe('active');
    expect((await ws.checkpoints.list()).map((c) => c.name)).toEqual(['before expiry']);

    const fork = await sandbox.workspace({ from: { workspace_id: ws.id, checkpoint: 'before expiry' } });
    expect(fork.info.from).toEqual({ workspace_id: ws.id, checkpoint: 'before expiry' });
    expect(fork.merchant.id).toBe(ws.merchant.id);
    expect((await fork.api<Checkout[]>('GET', '/v1/checkouts')).map((c) => c.id)).toEqual([made.id]);
    // From here the two part: the fork's key acts in the fork, the original's in the original.
    const forked = await fork.api<Checkout>('POST', '/v1/checkouts', {
      body: { title: 'Only in the fork', amount: 3_000_000, expires_at: '2031-01-01T02:00:00.000Z' },
    });
    expect((await fork.api<Checkout[]>('GET', '/v1/checkouts')).map((c) => c.id).sort()).toEqual(
      [made.id, forked.id].sort(),
    );
    expect((await ws.api<Checkout[]>('GET', '/v1/checkouts')).map((c) => c.id)).toEqual([made.id]);
    await ws.checkpoints.delete('before expiry');
    expect(await ws.checkpoints.list()).toEqual([]);
  });

  it('receives its webhooks in an inbox of its own, and says what arrived when one does not', async () => {
    const sandbox = await started({ setEnv: false });
    const ws = await sandbox.workspace();
    const other = await sandbox.workspace();
    const inbox = await ws.inbox();
    const otherInbox = await other.inbox();
    expect(new URL(inbox.url).pathname).toBe(`/w/${ws.id}/sandbox/inbox/test`);
    const made = await ws.api<Checkout>('POST', '/v1/checkouts', {
      body: { title: 'Hook', amount: 2_000_000, expires_at: hourFrom(await ws.clock.now()) },
    });
    const created = await inbox.waitFor('checkout.created');
    expect(created.event.data.id).toBe(made.id);
    expect(created.signature_valid).toBe(true);
    expect(await otherInbox.messages()).toEqual([]);
    await expect(otherInbox.waitFor('checkout.created', { timeoutMs: 100 })).rejects.toThrow(
      /no matching webhook within 100 ms; received nothing/,
    );
    // The default wait ends before the runner's 5 s test timeout, with what did arrive.
    const waitedFrom = performance.now();
    await expect(inbox.waitFor('checkout.paid')).rejects.toThrow(
      /no matching webhook within 4000 ms; received checkout\.created/,
    );
    expect(performance.now() - waitedFrom).toBeLessThan(4900);
    await inbox.clear();
    expect(await inbox.messages()).toEqual([]);
  });

  it('names what went wrong: no sandbox, a refused call, a closed sandbox', async () => {
    const saved = process.env[SANDBOX_URL_ENV];
    delete process.env[SANDBOX_URL_ENV];
    try {
      await expect(workspace()).rejects.toThrow(/startSandbox\(\).*SVC_SANDBOX_URL/);
    } finally {
      if (saved !== undefined) process.env[SANDBOX_URL_ENV] = saved;
    }
    const sandbox = await started({ setEnv: false });
    const ws = await sandbox.workspace();
    const refused = await ws.api('POST', '/v1/checkouts', { body: { title: 'x' } }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(SandboxRequestError);
    expect((refused as SandboxRequestError).status).toBe(422);
    expect((refused as SandboxRequestError).error).toMatch(/amount|expires_at/);
    await expect(ws.clock.advance('soon')).rejects.toThrow(/not a duration/);
    await expect(sandbox.workspace({ name: ws.name })).rejects.toThrow(SandboxRequestError);
    await sandbox.close();
    await expect(sandbox.workspace()).rejects.toThrow(/closed/);
  });

  it('sends the control token of a sandbox that requires one', async () => {
    const sandbox = await started({ controlToken: 'tok-123' });
    expect(sandbox.env).toEqual({ SVC_SANDBOX_URL: sandbox.urls.test, SVC_SANDBOX_CONTROL_TOKEN: 'tok-123' });
    expect(await status(`${sandbox.urls.test}/sandbox/workspaces`)).toBe(401);
    const ws = await workspace();
    expect(ws.controlHeaders['x-svc-control-token']).toBe('tok-123');
    expect((await ws.clock.advance(60)).fired.jobs).toBeGreaterThanOrEqual(0);
  });
});

describe('svc-sandbox/testing, by URL', () => {
  it('connects to a running sandbox and leaves it running when closed', async () => {
    const running = await started({ setEnv: false });
    const remote = await connectSandbox(`${running.urls.test}/`);
    expect(remote.mode).toBe('remote');
    expect(remote.urls.test).toBe(running.urls.test);
    expect(remote.urls.production).toBe(running.urls.production);
    const ws = await remote.workspace();
    await remote.close();
    expect(await status(`${running.urls.test}/sandbox/workspaces/${ws.id}`)).toBe(404);
    expect(await status(`${running.urls.test}/sandbox/health`)).toBe(200);
    await expect(connectSandbox('http://127.0.0.1:9/')).rejects.toThrow(SandboxUnreachableError);
  });
});

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../..', import.meta.url));
const TSC_FLAGS = [
  '--noEmit',
  '--strict',
  '--module',
  'nodenext',
  '--target',
  'es2023',
  '--types',
  'node',
  '--skipLibCheck',
];
const CONSUMER = `import { startSandbox, workspace, type TestWorkspace, type ClockAdvance } from 'svc-sandbox/testing';
const sandbox = await startSandbox({ mode: 'child' });
const ws: TestWorkspace = await workspace({ clock: { start: new Date(), frozen: true } });
const moved: ClockAdvance = await ws.clock.advance('1h');
const events: { type: string; id: string }[] = moved.fired.events;
const key: string = ws.apiKey;
const control: string = ws.controlHeaders['x-svc-workspace'] ?? '';
await ws.close();
await sandbox.close();
export { events, key, control };
`;

const builtCli = fileURLToPath(new URL('../../../dist/server/cli.js', import.meta.url));
const builtTesting = fileURLToPath(new URL('../../../dist/server/testing.js', import.meta.url));

describe('svc-sandbox/testing, child process (needs the build)', () => {
  // Built here when missing (a bare `vitest run`), never skipped: `npm test` builds first.
  beforeAll(() => ensureBuilt([builtCli, builtTesting], ['npm', 'run', 'build:server', '--silent']), 180_000);

  it('starts `serve` on free ports, reads its addresses, and stops it', async () => {
    const sandbox = await started({ mode: 'child', setEnv: false });
    expect(sandbox.mode).toBe('child');
    expect(sandbox.urls.test).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const ws = await sandbox.workspace();
    expect((await ws.clock.advance('1m')).fired).toEqual(
      expect.objectContaining({ jobs: expect.any(Number) }),
    );
    await sandbox.close();
    await expect(fetch(`${sandbox.urls.test}/sandbox/health`)).rejects.toThrow();
  });

  it('is what the package exports as svc-sandbox/testing, and its declarations type a consumer', async () => {
    // Node's own resolution of the package's `exports`, from a module inside the package.
    const { stdout } = await run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "console.log(JSON.stringify(Object.keys(await import('svc-sandbox/testing'))))",
      ],
      { cwd: root },
    );
    expect((JSON.parse(stdout) as string[]).sort()).toEqual(
      [
        'RequestVerificationError',
        'SANDBOX_CONTROL_TOKEN_ENV',
        'SANDBOX_URL_ENV',
        'SandboxRequestError',
        'SandboxUnreachableError',
        'closeWorkspaces',
        'connectSandbox',
        'coverageReport',
        'startSandbox',
        'workspace',
      ].sort(),
    );
    // A consumer's code, type-checked against the published declarations: a wrong use is an error.
    const dir = join(root, '.tmp', `testing-consumer-${process.pid}`);
    mkdirSync(dir, { recursive: true });
    try {
      writeFileSync(join(dir, 'good.ts'), CONSUMER);
      writeFileSync(join(dir, 'bad.ts'), `${CONSUMER}\nconst wrong: number = (await workspace()).apiKey;\n`);
      // One compiler run for both files: only the bad one has an error.
      const output = await run(
        process.execPath,
        [
          join(root, 'node_modules/typescript/bin/tsc'),
          ...TSC_FLAGS,
          join(dir, 'good.ts'),
          join(dir, 'bad.ts'),
        ],
        { cwd: root },
      ).then(
        () => '',
        (error: { stdout: string }) => error.stdout,
      );
      expect(output).toMatch(
        /bad\.ts\(\d+,\d+\): error TS2322: Type 'string' is not assignable to type 'number'/,
      );
      expect(output.trim().split('\n')).toHaveLength(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
