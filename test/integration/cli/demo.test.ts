import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/sandbox.js';

// `svc-sandbox serve --demo` (the built CLI): ready, then the demo workspace built over HTTP.
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const CLI = join(ROOT, 'dist/server/cli.js');
let child: ChildProcess | undefined;

afterEach(() => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
});

beforeAll(() => {
  if (!existsSync(CLI) || !existsSync(join(ROOT, 'dist/server/scenarios/library/demo.yaml')))
    execFileSync('npm', ['run', 'build:server', '--silent'], { cwd: ROOT, stdio: 'inherit' });
}, 180_000);

/** A control GET, in the Demo workspace unless another is named (null: the default one). */
async function get<T>(url: string, workspace: string | null = 'Demo'): Promise<T> {
  const res = await fetch(url, { headers: workspace === null ? {} : { 'x-svc-workspace': workspace } });
  expect(res.status, url).toBe(200);
  return (await res.json()) as T;
}

describe('svc-sandbox serve --demo', () => {
  it('serves, then fills the workspace with the demo', { timeout: 90_000 }, async () => {
    child = spawn(
      process.execPath,
      [CLI, 'serve', '--port', '0', '--prod-port', '0', '--db', ':memory:', '--demo'],
      {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stderr!.setEncoding('utf8').on('data', (c: string) => {
      err += c;
    });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no demo line: ${out} ${err}`)), 80_000);
      child!.stdout!.setEncoding('utf8').on('data', (c: string) => {
        out += c;
        if (
          /svc-sandbox demo ready in workspace Demo \(ws_\w+\): \d+ steps[\s\S]*demo dashboard=\S+\n/.test(
            out,
          )
        ) {
          clearTimeout(timer);
          resolve();
        }
      });
      child!.once('exit', (code) => reject(new Error(`exited ${code}: ${out} ${err}`)));
    });
    expect(err).toBe('');
    const base = /svc-sandbox ready test=(\S+)/.exec(out)![1]!;
    expect(out.indexOf('svc-sandbox ready')).toBeLessThan(out.indexOf('svc-sandbox demo ready'));
    // The demo has a workspace of its own: the default one stays empty, and the printed dashboard
    // address opens on the demo.
    const demoId = /demo ready in workspace Demo \((ws_\w+)\)/.exec(out)![1]!;
    expect(demoId).toMatch(/^ws_/);
    expect(out).toMatch(/svc-sandbox demo dashboard=http:\/\/\S+\/\?workspace=Demo\n/);
    // and a dashboard opened at `/` with nothing in mind opens on it too
    const health = await get<{ start_workspace: string | null }>(`${base}/sandbox/health`, null);
    expect(health.start_workspace).toBe(demoId);
    expect(await get<unknown[]>(`${base}/sandbox/merchants`, null)).toEqual([]);
    const saved = await get<{ name: string }[] | { items: { name: string }[] }>(
      `${base}/sandbox/checkpoints`,
    );
    expect((Array.isArray(saved) ? saved : saved.items).map((c) => c.name)).toEqual(['demo']);

    const merchants = await get<{ id: string; name: string }[]>(`${base}/sandbox/merchants`);
    expect(merchants.map((m) => m.name).sort()).toEqual([
      'Kite Coffee',
      'Lumen Studio',
      'Marketly',
      'Northwind Coffee',
    ]);
    const id = (name: string) => merchants.find((m) => m.name === name)!.id;

    const northwind = await get<{ id: string; status: string; created_at: string }[]>(
      `${base}/sandbox/merchants/${id('Northwind Coffee')}/checkouts?env=test&limit=100`,
    );
    const states = new Set(northwind.map((c) => c.status));
    for (const state of ['active', 'completed', 'partial', 'expired', 'cancelled', 'partially_refunded'])
      expect(states, state).toContain(state);
    const inspected = await Promise.all(
      northwind.map((c) =>
        get<{ payments: { chain: string | null }[] }>(`${base}/sandbox/checkouts/${c.id}`),
      ),
    );
    const chains = new Set(inspected.flatMap((i) => i.payments.map((p) => p.chain)));
    for (const chain of ['ethereum', 'tron', 'polygon']) expect(chains, chain).toContain(chain);

    const deliveries = await get<{ status: string; attempts: unknown[] }[]>(
      `${base}/sandbox/deliveries?limit=1000`,
    );
    expect(
      deliveries.some((d) => d.status === 'delivered' && d.attempts.length > 1),
      'delivered after retries',
    ).toBe(true);
    expect(
      deliveries.some((d) => d.status === 'failed' && d.attempts.length === 5),
      'retries exhausted',
    ).toBe(true);
    expect(
      deliveries.some((d) => d.status === 'delivered' && d.attempts.length === 1),
      'delivered at once',
    ).toBe(true);

    const holders = await get<{ id: string; name: string; username: string }[]>(
      `${base}/sandbox/merchants/${id('Northwind Coffee')}/cardholders?env=test&limit=100`,
    );
    expect(holders.length).toBe(3);
    const cardIds = (
      await Promise.all(
        holders.map((h) => get<{ cards: { id: string }[] }>(`${base}/sandbox/cardholders/${h.id}`)),
      )
    ).flatMap((d) => d.cards.map((c) => c.id));
    expect(cardIds.length).toBe(2);
    const transactions = (
      await Promise.all(
        cardIds.map((c) =>
          get<{ status: string; created_at: string }[]>(`${base}/sandbox/cards/${c}/transactions`),
        ),
      )
    ).flat();
    expect(transactions.length).toBe(10);
    for (const status of ['completed', 'declined', 'reversed'])
      expect(transactions.map((t) => t.status)).toContain(status);

    // Activity over days, at different hours: not all in one minute.
    const days = new Set([...northwind, ...transactions].map((row) => row.created_at.slice(0, 10)));
    expect(days.size, [...days].join(' ')).toBeGreaterThanOrEqual(3);
    // ...and over the whole month, not bunched at its start: Northwind sells and spends in every
    // week of the 30 days the demo covers.
    const times = [...northwind, ...transactions].map((row) => Date.parse(row.created_at));
    const start = Math.min(...times);
    const weeks = new Set(times.map((t) => Math.min(3, Math.floor((t - start) / (7 * 24 * 3600_000)))));
    expect([...weeks].sort()).toEqual([0, 1, 2, 3]);
    expect(Math.max(...times) - start).toBeGreaterThan(27 * 24 * 3600_000);
    const sales = northwind.filter((c) => c.status === 'completed').map((c) => Date.parse(c.created_at));
    expect(
      sales.filter((t) => t - start > 15 * 24 * 3600_000).length,
      'sales in the second half',
    ).toBeGreaterThanOrEqual(3);

    // The Resellers page has something on the merchant it opens on: Northwind resells for Kite
    // Coffee (with fee income) and Marketly resells for Northwind.
    const connections = await get<{
      outgoing: { merchant_id: string }[];
      incoming: { reseller_id: string }[];
    }>(`${base}/sandbox/merchants/${id('Northwind Coffee')}/reseller-connections?env=test`);
    expect(connections.outgoing.map((c) => c.merchant_id)).toEqual([id('Kite Coffee')]);
    expect(connections.incoming.map((c) => c.reseller_id)).toEqual([id('Marketly')]);
    const northwindIncome = await get<{ currency: string; earned: number; pending: number }[]>(
      `${base}/sandbox/merchants/${id('Northwind Coffee')}/reseller-income?env=test`,
    );
    // The seeded demo's fees, exactly: a change to the demo or to the fee rules shows here.
    expect(northwindIncome).toEqual([{ currency: 'USDC', earned: 1_260_000, pending: 2_400_000 }]);

    // Names read as a business: states are badges, never part of a name.
    const named = JSON.stringify([
      merchants,
      northwind,
      holders,
      ...(await Promise.all(
        merchants.map((m) => get<unknown[]>(`${base}/sandbox/merchants/${m.id}/invoices?env=test&limit=100`)),
      )),
    ]);
    expect(named).not.toMatch(/\((?:[^)]*\b(?:kyc|pending|draft|approved|rejected)\b[^)]*)\)/i);
    expect(named).not.toMatch(/"username":"[^"]*\b(?:kyc|pending|draft|approved|rejected)\b/i);
    expect(named).toContain('Lea Fischer');
    expect(named).toContain('Coffee club, 3 months'); // a title with a comma stays whole

    const income = await get<{ currency: string; earned: number; pending: number }[]>(
      `${base}/sandbox/merchants/${id('Marketly')}/reseller-income?env=test`,
    );
    // Fees from weeks ago are released; the latest sale's is still held.
    expect(income).toEqual([{ currency: 'USDC', earned: 13_550_000, pending: 2_880_000 }]);
    const payouts = await get<{ status: string }[]>(
      `${base}/sandbox/merchants/${id('Lumen Studio')}/payouts?env=test`,
    );
    expect(payouts.map((p) => p.status).sort()).toEqual(['completed', 'failed']);
  });
});

/** `serve --demo` on `db` until its demo line; stopped (SIGTERM, waited for) before it resolves. */
async function demoRun(
  db: string,
  extra: string[] = [],
): Promise<{ out: string; merchants: string[]; now: number; workspace: string }> {
  child = spawn(
    process.execPath,
    [CLI, 'serve', '--port', '0', '--prod-port', '0', '--db', db, '--demo', ...extra],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const running = child;
  let out = '';
  let err = '';
  running.stderr!.setEncoding('utf8').on('data', (c: string) => {
    err += c;
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no demo line: ${out} ${err}`)), 80_000);
    running.stdout!.setEncoding('utf8').on('data', (c: string) => {
      out += c;
      if (/svc-sandbox demo dashboard=.*\n/.test(out)) {
        clearTimeout(timer);
        resolve();
      }
    });
    running.once('exit', (code) => reject(new Error(`exited ${code}: ${out} ${err}`)));
  });
  expect(err).toBe('');
  const base = /svc-sandbox ready test=(\S+)/.exec(out)![1]!;
  const merchants = (await get<{ id: string }[]>(`${base}/sandbox/merchants`)).map((m) => m.id).sort();
  const now = Date.parse((await get<{ now: string }>(`${base}/sandbox/clock`)).now);
  const workspace = /demo ready in workspace Demo \((ws_\w+)\)/.exec(out)![1]!;
  // Nothing of the demo in the default workspace, however often it runs.
  expect(await get<unknown[]>(`${base}/sandbox/merchants`, null)).toEqual([]);
  const exited = new Promise((resolve) => running.once('exit', resolve));
  running.kill('SIGTERM');
  await exited;
  return { out, merchants, now, workspace };
}

describe('svc-sandbox serve --demo on a database file', () => {
  it('builds the demo once: a second run reuses it, --fresh rebuilds it', { timeout: 240_000 }, async () => {
    const db = join(tempDir(), 'demo.db');

    const first = await demoRun(db);
    expect(first.out).toMatch(/svc-sandbox demo ready in workspace Demo \(ws_\w+\): \d+ steps/);
    expect(first.merchants).toHaveLength(4);
    // The month of history ends at the real current time (within the minute the test takes).
    expect(Math.abs(first.now - Date.now())).toBeLessThan(60_000);

    const second = await demoRun(db);
    expect(second.out).toMatch(
      /svc-sandbox demo ready in workspace Demo \(ws_\w+\): the demo built .* \(--demo --fresh rebuilds it\)/,
    );
    expect(second.workspace).toBe(first.workspace);
    expect(second.merchants).toEqual(first.merchants);
    // Not moved again: only real time has passed since.
    expect(second.now - first.now).toBeLessThan(60_000);

    const fresh = await demoRun(db, ['--fresh']);
    expect(fresh.out).toMatch(/svc-sandbox demo ready in workspace Demo \(ws_\w+\): \d+ steps/);
    expect(fresh.workspace).not.toBe(first.workspace);
    expect(fresh.merchants).toHaveLength(4);
    expect(fresh.merchants.filter((id) => first.merchants.includes(id))).toEqual([]);
    expect(Math.abs(fresh.now - Date.now())).toBeLessThan(60_000);
  });

  it('refuses --fresh without --demo', async () => {
    const result = await new Promise<{ code: number | null; err: string }>((resolve) => {
      const run = spawn(process.execPath, [CLI, 'serve', '--fresh'], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let err = '';
      run.stderr!.setEncoding('utf8').on('data', (c: string) => {
        err += c;
      });
      run.once('close', (code) => resolve({ code, err }));
    });
    expect(result.code).not.toBe(0);
    expect(result.err).toContain('--fresh rebuilds the demo: use it with --demo');
  });
});
