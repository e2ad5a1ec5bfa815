import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Checkpoint, Workspace } from '../../../server/contract/workspaces.js';
import { CLI, ensureBuilt, ROOT, runCli, spawnCli } from '../../helpers/cli.js';
import { tempDir, testSandbox } from '../../helpers/sandbox.js';

// Workspaces through the built CLI (real child processes) against a sandbox in this process:
// workspaces and checkpoint commands, --workspace on client commands, trigger, run --url.
const EXIT_TIMEOUT_MS = 30_000;

beforeAll(
  () =>
    ensureBuilt(
      [CLI, join(ROOT, 'dist/server/scenarios/library')],
      ['npm', 'run', 'build:server', '--silent'],
    ),
  180_000,
);

interface Started {
  url: string;
  cli(args: string[], env?: Record<string, string>): ReturnType<typeof runCli>;
  /** a control call, in `workspace` when given */
  control<T>(method: string, path: string, workspace?: string, body?: unknown): Promise<T>;
  /** a workspace made through the CLI */
  create(...flags: string[]): Promise<Workspace>;
}

async function start(): Promise<Started> {
  const sandbox = await testSandbox({ sole: true });
  const { test: url } = await sandbox.listen();
  const cli = (args: string[], env: Record<string, string> = {}) =>
    runCli([...args, '--url', url], { env, timeoutMs: EXIT_TIMEOUT_MS });
  const control = async <T>(method: string, path: string, workspace?: string, body?: unknown) => {
    const headers: Record<string, string> = workspace === undefined ? {} : { 'x-svc-workspace': workspace };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${url}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    expect(res.ok, `${method} ${path}: ${res.status} ${text}`).toBe(true);
    return (text === '' ? undefined : JSON.parse(text)) as T;
  };
  const create = async (...flags: string[]) => {
    const res = await cli(['workspaces', 'create', ...flags, '--json']);
    expect(res.code, res.stderr).toBe(0);
    return JSON.parse(res.stdout) as Workspace;
  };
  return { url, cli, control, create };
}

const listOf = <T>(answer: unknown): T[] =>
  Array.isArray(answer)
    ? (answer as T[])
    : ((answer as { items?: T[]; data?: T[] }).items ?? (answer as { data: T[] }).data);

const merchantNames = async (s: Started, workspace?: string) =>
  (await s.control<{ name: string }[]>('GET', '/sandbox/merchants', workspace)).map((m) => m.name).sort();

const clockOf = (s: Started, workspace?: string) =>
  s.control<{ now: string; offset_ms: number; frozen: boolean }>('GET', '/sandbox/clock', workspace);

describe('svc-sandbox workspaces', () => {
  it('create (every flag), list (the current one starred), delete (by id or name)', {
    timeout: 60_000,
  }, async () => {
    const s = await start();
    const one = await s.create(
      '--name',
      'CI one',
      '--seed',
      's1',
      '--ephemeral',
      '--frozen',
      '--start',
      '2026-02-01T00:00:00Z',
    );
    expect(one).toMatchObject({ name: 'CI one', seed: 's1', ephemeral: true, default: false });
    expect(one.id).toMatch(/^ws_[0-9A-Za-z]{16}$/);
    expect(one.clock).toMatchObject({ now: '2026-02-01T00:00:00.000Z', frozen: true });

    const two = await s.cli(['workspaces', 'create', '--name', 'Two']);
    expect(two.code, two.stderr).toBe(0);
    const twoId = /^workspace {2}(ws_[0-9A-Za-z]{16}) {2}Two(?: {2}\(ephemeral\))?$/m.exec(two.stdout)?.[1];
    expect(twoId, two.stdout).toBeDefined();
    expect(two.stdout).toContain(`use it:    --workspace ${twoId}`);

    const list = await s.cli(['workspaces', 'list']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/^\* default +\S+ +2026|^\* default /m);
    expect(list.stdout).toMatch(
      new RegExp(`^ {2}${one.id} +CI one +2026-02-01T00:00:00\\.000Z \\(.*frozen\\) +0 +ephemeral$`, 'm'),
    );
    expect(list.stdout).toMatch(new RegExp(`^ {2}${twoId} +Two `, 'm'));
    const starred = await s.cli(['workspaces', 'list'], { SVC_SANDBOX_WORKSPACE: 'ci ONE' });
    expect(starred.stdout).toMatch(new RegExp(`^\\* ${one.id} `, 'm'));
    expect(starred.stdout).not.toMatch(/^\* default/m);
    const asJson = JSON.parse((await s.cli(['workspaces', 'list', '--json'])).stdout) as Workspace[];
    expect(asJson.map((w) => w.name).sort()).toEqual(
      ['CI one', 'Two', asJson.find((w) => w.default)!.name].sort(),
    );

    const byName = await s.cli(['workspaces', 'delete', 'CI one']);
    expect(byName.code, byName.stderr).toBe(0);
    expect(byName.stdout.trim()).toBe(`deleted workspace ${one.id} (CI one)`);
    const byId = await s.cli(['workspaces', 'delete', twoId!, '--json']);
    expect(JSON.parse(byId.stdout)).toEqual({ deleted: twoId });
    const left = listOf<Workspace>(await s.control('GET', '/sandbox/workspaces'));
    expect(left.map((w) => w.default)).toEqual([true]);

    const gone = await s.cli(['workspaces', 'delete', 'CI one']);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain('no workspace "CI one"');
    const undeletable = await s.cli(['workspaces', 'delete', 'default']);
    expect(undeletable.code).toBe(2);
    expect(undeletable.stderr).toContain('the default workspace cannot be deleted');
  });

  it('refuses bad flags with exit 2 and sends nothing', async () => {
    const s = await start();
    for (const args of [
      ['workspaces', 'create', '--start', 'tomorrow'],
      ['workspaces', 'create', '--from', 'qa:'],
      ['workspaces', 'list', '--name', 'x'],
      ['workspaces', 'rename'],
      ['workspaces', 'delete'],
      ['checkpoint', 'save', 'no/slash'],
      ['checkpoint', 'restore'],
      ['checkpoint', 'save', 'x', '--restore-at', 'later'],
      ['checkpoint', 'restore', 'x', '--restore-at', 'now'],
      ['merchants', 'list', '--workspace', ''],
      ['export', '--out', 'x.svcbundle', '--db', 'x.db', '--workspace', 'qa'],
    ]) {
      const res = await runCli(args, { timeoutMs: EXIT_TIMEOUT_MS });
      expect(res.code, `${args.join(' ')}: ${res.stderr}`).toBe(2);
      expect(res.stderr).toMatch(/^svc-sandbox: /);
    }
    expect(listOf<Workspace>(await s.control('GET', '/sandbox/workspaces'))).toHaveLength(1);
  });
});

describe('--workspace on client commands', () => {
  it('merchants, clock, reset and export act only in the workspace named (flag or variable)', {
    timeout: 60_000,
  }, async () => {
    const s = await start();
    const a = await s.create('--name', 'alpha');
    await s.cli(['merchants', 'create', 'Stays']);
    const created = await s.cli(['merchants', 'create', 'Acme', '--workspace', 'alpha', '--json']);
    expect(created.code, created.stderr).toBe(0);
    const key = (JSON.parse(created.stdout) as { api_key: { key: string } }).api_key.key;
    expect(await merchantNames(s)).toEqual(['Stays']);
    expect(await merchantNames(s, a.id)).toEqual(['Acme']);
    const listed = await s.cli(['merchants', 'list'], { SVC_SANDBOX_WORKSPACE: a.id });
    expect(listed.stdout).toContain('Acme');
    expect(listed.stdout).not.toContain('Stays');
    // The key made in the workspace works on /v1 with no header: the key names its workspace.
    const v1 = await fetch(`${s.url}/v1/checkouts`, { headers: { authorization: `Bearer ${key}` } });
    expect(v1.status).toBe(200);

    const before = await clockOf(s);
    const advanced = await s.cli(['clock', 'advance', '3h', '--workspace', 'alpha']);
    expect(advanced.code, advanced.stderr).toBe(0);
    expect(advanced.stdout).toMatch(/ workspace=alpha$/m);
    expect(advanced.stdout).toMatch(/^fired: \d+ events?, \d+ webhook delivery attempts?, \d+ jobs?$/m);
    expect((await clockOf(s, a.id)).offset_ms).toBeGreaterThanOrEqual(3 * 3600_000 - 1000);
    expect(Math.abs((await clockOf(s)).offset_ms - before.offset_ms)).toBeLessThan(1000);

    const bundle = join(tempDir(), 'alpha.svcbundle');
    const exported = await s.cli(['export', '--out', bundle, '--workspace', 'alpha']);
    expect(exported.code, exported.stderr).toBe(0);
    const reset = await s.cli(['reset', '--yes', '--workspace', 'alpha']);
    expect(reset.code, reset.stderr).toBe(0);
    expect(await merchantNames(s, a.id)).toEqual([]);
    expect(await merchantNames(s)).toEqual(['Stays']);
    const imported = await s.cli(['import', bundle, '--workspace', 'alpha']);
    expect(imported.code, imported.stderr).toBe(0);
    expect(await merchantNames(s, a.id)).toEqual(['Acme']);
    expect(await merchantNames(s)).toEqual(['Stays']);

    // A new workspace filled from the bundle in one command; a bad bundle leaves none behind.
    const copy = await s.create('--name', 'from bundle', '--import', bundle);
    expect(await merchantNames(s, copy.id)).toEqual(['Acme']);
    expect(copy.clock.offset_ms).toBeGreaterThanOrEqual(3 * 3600_000 - 1000);
    const junk = join(tempDir(), 'junk.svcbundle');
    writeFileSync(junk, 'not a bundle');
    const refused = await s.cli(['workspaces', 'create', '--name', 'junk', '--import', junk]);
    expect(refused.code).toBe(1);
    expect(listOf<Workspace>(await s.control('GET', '/sandbox/workspaces')).map((w) => w.name)).not.toContain(
      'junk',
    );
  });

  it('an unknown workspace is exit 1 with the server’s 404 and a hint; names beyond ASCII work', async () => {
    const s = await start();
    const res = await s.cli(['merchants', 'list', '--workspace', 'nope']);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/404 .*\(svc-sandbox workspaces list shows them\)/);
    // A name a header cannot carry is looked up to its id first.
    const cafe = await s.create('--name', 'Café ☕');
    const made = await s.cli(['merchants', 'create', 'Espresso', '--workspace', 'CAFÉ ☕']);
    expect(made.code, made.stderr).toBe(0);
    expect(await merchantNames(s, cafe.id)).toEqual(['Espresso']);
    const unknown = await s.cli(['merchants', 'list', '--workspace', 'Thé']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no workspace "Thé"');
  });

  it('clock advance says what fired: the events by type and the resource each is about, deliveries, jobs', {
    timeout: 30_000,
  }, async () => {
    const s = await start();
    const w = await s.create('--frozen', '--start', '2026-01-01T00:00:00Z');
    const made = await s.control<{ api_key: { key: string } }>('POST', '/sandbox/merchants', w.id, {
      name: 'Shop',
      kyb_status: 'approved',
    });
    const res = await fetch(`${s.url}/v1/checkouts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${made.api_key.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        title: 'Order',
        amount: 5000000,
        currency: 'USDC',
        expires_at: '2026-01-01T01:00:00Z',
      }),
    });
    expect(res.status, await res.clone().text()).toBeLessThan(300);
    const asJson = await s.cli(['clock', 'advance', '30m', '--workspace', w.id, '--json']);
    const quiet = JSON.parse(asJson.stdout) as { now: string; fired: { events: unknown[]; jobs: number } };
    expect(quiet.now).toBe('2026-01-01T00:30:00.000Z');
    expect(quiet.fired.events).toEqual([]);
    const human = await s.cli(['clock', 'advance', '1h', '--workspace', w.id]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout.split('\n')[0]).toBe('advanced by 1h');
    expect(human.stdout).toMatch(/^now=2026-01-01T01:30:00\.000Z .* frozen=true/m);
    expect(human.stdout).toMatch(/^fired: 1 event, \d+ webhook delivery attempts?, [1-9]\d* jobs?$/m);
    // The checkout's id (what a user looks for), not the event's.
    const checkout = (await res.json()) as { id: string };
    expect(human.stdout).toMatch(new RegExp(`^ {2}checkout\\.expired {2}${checkout.id}$`, 'm'));
  });
});

/** The stdout of a long-running command until `pattern` shows (or rejects after `ms`). */
function until(child: ReturnType<typeof spawnCli>, pattern: RegExp, ms = 15_000): Promise<string> {
  let text = '';
  let err = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk;
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${pattern}: ${text} ${err}`)), ms);
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      text += chunk;
      if (pattern.test(text)) {
        clearTimeout(timer);
        resolve(text);
      }
    });
  });
}

describe('the streaming commands with --workspace', () => {
  it('logs tail shows only that workspace; listen serves only its merchants', {
    timeout: 60_000,
  }, async () => {
    const s = await start();
    const w = await s.create('--name', 'tail');
    const key = async (workspace?: string) =>
      (
        await s.control<{ api_key: { key: string } }>('POST', '/sandbox/merchants', workspace, {
          name: workspace === undefined ? 'Elsewhere' : 'Here',
        })
      ).api_key.key;
    const [here, elsewhere] = [await key(w.id), await key()];
    const checkout = async (apiKey: string, title: string) => {
      const res = await fetch(`${s.url}/v1/checkouts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          title,
          amount: 5000000,
          currency: 'USDC',
          expires_at: new Date(Date.now() + 7200_000).toISOString(),
        }),
      });
      expect(res.status).toBeLessThan(300);
      return ((await res.json()) as { id: string }).id;
    };

    const tail = spawnCli(['logs', 'tail', '--url', s.url, '--workspace', 'tail']);
    const opened = new Promise<void>((resolve) => tail.stderr!.once('data', () => resolve()));
    await opened;
    const other = await checkout(elsewhere, 'Not here');
    const mine = await checkout(here, 'Here');
    const seen = await until(tail, new RegExp(`checkout\\.created ${mine}`));
    expect(seen).not.toContain(other);
    tail.kill('SIGINT');

    const listen = spawnCli([
      'listen',
      '--forward-to',
      'http://127.0.0.1:9/hooks',
      '--url',
      s.url,
      '--workspace',
      w.id,
    ]);
    // one secret for every endpoint, then a line per merchant it forwards for: only this workspace's
    const ready = await until(listen, /forwarding Here \(/);
    expect(ready).toMatch(/Ready! Your webhook signing secret is whsec_\S+/);
    expect(ready).not.toContain('Elsewhere');
    listen.kill('SIGINT');
  });
});

describe('svc-sandbox checkpoint', () => {
  it('save, list, restore (data and clock come back), fork from one, delete', {
    timeout: 60_000,
  }, async () => {
    const s = await start();
    const w = await s.create('--name', 'qa', '--frozen', '--start', '2026-01-01T00:00:00Z');
    const inQa = (...args: string[]) => s.cli([...args, '--workspace', 'qa']);
    await inQa('merchants', 'create', 'First');
    const saved = await inQa('checkpoint', 'save', 'paid');
    expect(saved.code, saved.stderr).toBe(0);
    expect(saved.stdout).toMatch(
      /^saved checkpoint paid of workspace qa at sandbox time 2026-01-01T00:00:00\.000Z \(/m,
    );
    await inQa('merchants', 'create', 'Second');
    await inQa('clock', 'advance', '2h');
    expect(await merchantNames(s, w.id)).toEqual(['First', 'Second']);

    const list = await inQa('checkpoint', 'list');
    expect(list.stdout).toMatch(/^paid +2026-01-01T00:00:00\.000Z +\S+ +\d/m);
    const listed = JSON.parse((await inQa('checkpoint', 'list', '--json')).stdout) as Checkpoint[];
    expect(listed.map((c) => c.name)).toEqual(['paid']);

    const restored = await inQa('checkpoint', 'restore', 'paid');
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout.trim()).toBe(
      'restored checkpoint paid in workspace qa: clock 2026-01-01T00:00:00.000Z (frozen)',
    );
    expect(await merchantNames(s, w.id)).toEqual(['First']);
    expect((await clockOf(s, w.id)).now).toBe('2026-01-01T00:00:00.000Z');

    // Without a checkpoint, a fork is of the workspace as it is now.
    await inQa('merchants', 'create', 'Later');
    const now = await s.create('--from', 'qa', '--name', 'present');
    expect(now.from).toEqual({ workspace_id: w.id, checkpoint: null });
    expect(await merchantNames(s, now.id)).toEqual(['First', 'Later']);
    const fork = await s.create('--from', 'qa:paid', '--name', 'branch');
    expect(fork.from).toEqual({ workspace_id: w.id, checkpoint: 'paid' });
    expect(await merchantNames(s, fork.id)).toEqual(['First']);
    await s.cli(['merchants', 'create', 'Only in branch', '--workspace', 'branch']);
    expect(await merchantNames(s, w.id)).toEqual(['First', 'Later']);

    const deleted = await inQa('checkpoint', 'delete', 'paid');
    expect(deleted.stdout.trim()).toBe('deleted checkpoint paid of workspace qa');
    expect((await inQa('checkpoint', 'list')).stdout).toMatch(/^no checkpoints in workspace qa/m);
    const missing = await inQa('checkpoint', 'restore', 'paid');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/404/);

    // One saved with --restore-at now comes back at the real current time, not the saved one.
    expect((await inQa('checkpoint', 'save', 'today', '--restore-at', 'now')).code).toBe(0);
    const before = Date.now();
    expect((await inQa('checkpoint', 'restore', 'today')).code).toBe(0);
    expect(Date.parse((await clockOf(s, w.id)).now)).toBeGreaterThanOrEqual(before - 1000);
  });
});

describe('trigger --workspace', () => {
  it('runs the built-in scenario in that workspace only: its merchants, its clock', {
    timeout: 60_000,
  }, async () => {
    const s = await start();
    const w = await s.create('--name', 'triggers');
    const before = await clockOf(s);
    const res = await s.cli(['trigger', 'checkout.expired', '--workspace', 'triggers']);
    expect(res.code, `${res.stdout}\n${res.stderr}`).toBe(0);
    expect(res.stdout).toContain('passed: 5 of 5 steps held');
    expect(await merchantNames(s, w.id)).toEqual(['Demo Coffee Roasters']);
    expect((await clockOf(s, w.id)).offset_ms).toBeGreaterThanOrEqual(2 * 3600_000 - 1000);
    expect(await merchantNames(s)).toEqual([]);
    expect(Math.abs((await clockOf(s)).offset_ms - before.offset_ms)).toBeLessThan(1000);
  });
});

/** Advances its clock by `advance` from the shared start and expects to see exactly that. */
const clockFile = (name: string, advance: string, expected: string) => `name: ${name}
clock: { start: "2026-01-01T00:00:00Z", frozen: true }
steps:
  - merchant: shop
    body: { name: ${name} shop }
  - clock: { advance: ${advance} }
  - expect: { get: /sandbox/clock, body: { now: "${expected}" } }
`;

describe('svc-sandbox run --url', () => {
  it('runs each file in its own ephemeral workspace, clocks apart, and deletes them', {
    timeout: 90_000,
  }, async () => {
    const s = await start();
    const dir = tempDir();
    writeFileSync(join(dir, 'hour.yaml'), clockFile('hour', '1h', '2026-01-01T01:00:00.000Z'));
    writeFileSync(join(dir, 'days.yaml'), clockFile('days', '2d', '2026-01-03T00:00:00.000Z'));
    const before = await clockOf(s);
    const res = await s.cli(['run', join(dir, 'hour.yaml'), join(dir, 'days.yaml')]);
    expect(res.code, `${res.stdout}\n${res.stderr}`).toBe(0);
    const used = [
      ...res.stdout.matchAll(/^ {2}in workspace (ws_[0-9A-Za-z]{16}) \(ephemeral, deleted afterwards\)$/gm),
    ].map((m) => m[1]);
    expect(used).toHaveLength(2);
    expect(new Set(used).size).toBe(2);
    expect(res.stdout).toContain('2 scenarios: 2 passed, 0 failed');
    // Gone afterwards; the default workspace saw nothing and its clock did not move.
    expect(listOf<Workspace>(await s.control('GET', '/sandbox/workspaces')).map((w) => w.id)).toEqual([
      'default',
    ]);
    expect(await merchantNames(s)).toEqual([]);
    expect(Math.abs((await clockOf(s)).offset_ms - before.offset_ms)).toBeLessThan(1000);

    // Two processes at once against the one sandbox: each file still sees only its own clock.
    const [x, y] = await Promise.all([
      s.cli(['run', join(dir, 'days.yaml'), '--json']),
      s.cli(['run', join(dir, 'hour.yaml'), '--json']),
    ]);
    for (const r of [x, y]) {
      expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ ok: true, workspace: expect.stringMatching(/^ws_/) });
    }
  });

  it('--keep keeps each workspace; --workspace runs in a named one; a failing file still cleans up', {
    timeout: 90_000,
  }, async () => {
    const s = await start();
    const dir = tempDir();
    writeFileSync(join(dir, 'hour.yaml'), clockFile('hour', '1h', '2026-01-01T01:00:00.000Z'));
    writeFileSync(join(dir, 'wrong.yaml'), clockFile('wrong', '1h', '2030-01-01T00:00:00.000Z'));

    const kept = await s.cli(['run', join(dir, 'hour.yaml'), '--keep']);
    expect(kept.code, kept.stderr).toBe(0);
    const keptId = /in workspace (ws_[0-9A-Za-z]{16}) \(kept: --workspace \1\)/.exec(kept.stdout)?.[1];
    expect(keptId, kept.stdout).toBeDefined();
    expect(await merchantNames(s, keptId)).toEqual(['hour shop']);
    expect((await clockOf(s, keptId)).now).toBe('2026-01-01T01:00:00.000Z');

    const named = await s.create('--name', 'mine', '--frozen', '--start', '2026-01-01T00:00:00Z');
    const inNamed = await s.cli(['run', join(dir, 'hour.yaml'), '--workspace', 'mine']);
    expect(inNamed.code, inNamed.stdout).toBe(0);
    expect(inNamed.stdout).toContain(`in workspace ${named.id} (mine)`);
    expect(await merchantNames(s, named.id)).toEqual(['hour shop']);

    const failing = await s.cli(['run', join(dir, 'wrong.yaml')]);
    expect(failing.code).toBe(1);
    const ids = listOf<Workspace>(await s.control('GET', '/sandbox/workspaces')).map((w) => w.id);
    expect(ids.sort()).toEqual(['default', keptId, named.id].sort());

    const usage = await runCli(['run', join(dir, 'hour.yaml'), '--keep'], { timeoutMs: EXIT_TIMEOUT_MS });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--keep goes with --url');
  });
});

describe('svc-sandbox run --url, interrupted', () => {
  it('deletes the workspace of the file it was running and exits 130 on SIGINT', {
    timeout: 60_000,
  }, async () => {
    const s = await start();
    const dir = tempDir();
    // A wrong expectation keeps looking for a few seconds: time to interrupt the run mid-file.
    writeFileSync(join(dir, 'slow.yaml'), clockFile('slow', '1h', '2030-01-01T00:00:00.000Z'));
    const child = spawnCli(['run', join(dir, 'slow.yaml'), '--url', s.url]);
    let out = '';
    const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
    const id = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no workspace line: ${out}`)), 20_000);
      child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk;
        const found = /in workspace (ws_[0-9A-Za-z]{16})/.exec(out)?.[1];
        if (found) {
          clearTimeout(timer);
          resolve(found);
        }
      });
    });
    expect(listOf<Workspace>(await s.control('GET', '/sandbox/workspaces')).map((w) => w.id)).toContain(id);
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(listOf<Workspace>(await s.control('GET', '/sandbox/workspaces')).map((w) => w.id)).toEqual([
      'default',
    ]);
  });
});

describe('POST /sandbox/scenarios/run in a workspace', () => {
  it('runs in the workspace the request names, and its progress stays there', {
    timeout: 30_000,
  }, async () => {
    const s = await start();
    const w = await s.create('--name', 'api runs', '--frozen', '--start', '2026-01-01T00:00:00Z');
    const inWorkspace = scenarioMessages(`${s.url}/sandbox/events?workspace=${w.id}`);
    const inDefault = scenarioMessages(`${s.url}/sandbox/events`);
    await Promise.all([inWorkspace.open, inDefault.open]);
    const run = await s.control<{ ok: boolean }>('POST', '/sandbox/scenarios/run', 'api runs', {
      scenario: clockFile('api', '1h', '2026-01-01T01:00:00.000Z'),
    });
    expect(run.ok).toBe(true);
    expect(await merchantNames(s, w.id)).toEqual(['api shop']);
    expect(await merchantNames(s)).toEqual([]);
    // Progress went to the workspace's stream (named by id; the run by name), not the default's.
    await expect.poll(() => inWorkspace.messages.length, { timeout: 5_000 }).toBe(3);
    expect(inWorkspace.messages.at(-1)).toMatchObject({ name: 'api', done: true });
    expect(inDefault.messages).toEqual([]);
    inWorkspace.close();
    inDefault.close();
  });
});

/** The `event: scenario` messages of an event stream, as they come. */
function scenarioMessages(url: string) {
  const controller = new AbortController();
  const messages: unknown[] = [];
  const open = fetch(url, { signal: controller.signal }).then((res) => {
    expect(res.status).toBe(200);
    void (async () => {
      let buffer = '';
      try {
        for await (const chunk of res.body!.pipeThrough(
          new TextDecoderStream(),
        ) as unknown as AsyncIterable<string>) {
          buffer += chunk;
          for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            if (!block.includes('event: scenario\n')) continue;
            messages.push(JSON.parse(/^data: (.*)$/m.exec(block)![1]!));
          }
        }
      } catch {
        // aborted at the end of the test
      }
    })();
  });
  return { open, messages, close: () => controller.abort() };
}
