import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';

// `svc-sandbox serve --demo` (the built CLI): ready, then the demo workspace built over HTTP.
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = join(ROOT, 'dist/server/cli.js');
let child: ChildProcess | undefined;

afterEach(() => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
});

beforeAll(() => {
  if (!existsSync(CLI) || !existsSync(join(ROOT, 'dist/server/scenarios/library/demo.yaml')))
    execFileSync('npm', ['run', 'build:server', '--silent'], { cwd: ROOT, stdio: 'inherit' });
}, 180_000);

async function get<T>(url: string): Promise<T> {
  const res = await fetch(url);
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
        if (/svc-sandbox demo ready: \d+ steps/.test(out)) {
          clearTimeout(timer);
          resolve();
        }
      });
      child!.once('exit', (code) => reject(new Error(`exited ${code}: ${out} ${err}`)));
    });
    expect(err).toBe('');
    const base = /svc-sandbox ready test=(\S+)/.exec(out)![1]!;
    expect(out.indexOf('svc-sandbox ready')).toBeLessThan(out.indexOf('svc-sandbox demo ready'));

    const merchants = await get<{ id: string; name: string }[]>(`${base}/sandbox/merchants`);
    expect(merchants.map((m) => m.name).sort()).toEqual(['Lumen Studio', 'Marketly', 'Northwind Coffee']);
    const id = (name: string) => merchants.find((m) => m.name === name)!.id;

    const northwind = await get<{ id: string; status: string }[]>(
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

    const holders = await get<{ id: string }[]>(
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
        cardIds.map((c) => get<{ status: string }[]>(`${base}/sandbox/cards/${c}/transactions`)),
      )
    ).flat();
    expect(transactions.length).toBeGreaterThanOrEqual(7);
    for (const status of ['completed', 'declined', 'reversed'])
      expect(transactions.map((t) => t.status)).toContain(status);

    const income = await get<{ currency: string; pending: number }[]>(
      `${base}/sandbox/merchants/${id('Marketly')}/reseller-income?env=test`,
    );
    expect(income.find((i) => i.currency === 'USDC')?.pending).toBeGreaterThan(0);
    const payouts = await get<{ status: string }[]>(
      `${base}/sandbox/merchants/${id('Lumen Studio')}/payouts?env=test`,
    );
    expect(payouts.map((p) => p.status).sort()).toEqual(['completed', 'failed']);
  });
});
