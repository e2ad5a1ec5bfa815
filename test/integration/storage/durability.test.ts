import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMerchant, inFuture, ManualTime, tempDir, testSandbox } from '../../helpers/sandbox.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const CLI = join(ROOT, 'dist/server/cli.js');
const READY = /^svc-sandbox ready test=(\S+) production=\S+ dashboard=\S+$/;

const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
});

beforeAll(() => {
  if (!existsSync(CLI))
    execFileSync('npx', ['tsc', '-p', 'tsconfig.server.json'], { cwd: ROOT, stdio: 'inherit' });
}, 120_000);

/** `serve` on free ports; resolves with the process and its test URL on the ready line. */
function serve(dbPath: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--prod-port', '0', '--db', dbPath], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no ready line within 10 s')), 10_000);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`exited (${signal ?? code}) before ready`));
    });
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const match = READY.exec(line);
      if (!match) return;
      clearTimeout(timer);
      resolve({ child, url: match[1]! });
    });
  });
}

function exited(child: ChildProcess): Promise<NodeJS.Signals | number | null> {
  if (child.exitCode !== null || child.signalCode !== null)
    return Promise.resolve(child.signalCode ?? child.exitCode);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('process did not exit within 5 s')), 5_000);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve(signal ?? code);
    });
  });
}

async function call(url: string, method: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('durability: WAL + synchronous=NORMAL', () => {
  it('keeps every acknowledged write when the process is SIGKILLed mid-load', async () => {
    const dbPath = join(tempDir(), 'sandbox.db');
    const { child, url } = await serve(dbPath);
    const limitsOff = await call(`${url}/sandbox/settings`, 'PATCH', {
      rate_limit_per_minute: 0,
      concurrency_limit: 0,
    });
    expect(limitsOff.status).toBe(200);
    const merchant = await call(`${url}/sandbox/merchants`, 'POST', { name: 'Durable' });
    expect(merchant.status).toBe(200);
    const auth = { authorization: `Bearer ${(merchant.body.api_key as { key: string }).key}` };
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();

    // Writers loop until the server dies; a write counts only once its 200 and body have arrived.
    const acked: string[] = [];
    let inFlight = 0;
    let inFlightAtKill = -1;
    const KILL_AFTER = 300;
    let killed!: () => void;
    const killSignal = new Promise<void>((resolve) => {
      killed = resolve;
    });
    const writer = async (w: number) => {
      for (let i = 0; ; i++) {
        inFlight++;
        try {
          const res = await call(
            `${url}/v1/checkouts`,
            'POST',
            { title: `w${w}-${i}`, amount: 5_000_000, expires_at: expiresAt },
            auth,
          );
          if (res.status !== 200) throw new Error(`unexpected ${res.status}: ${JSON.stringify(res.body)}`);
          acked.push(res.body.id as string);
        } catch (error) {
          if (child.signalCode === 'SIGKILL' || inFlightAtKill >= 0) return; // the kill cut it off
          throw error;
        } finally {
          inFlight--;
        }
        if (acked.length >= KILL_AFTER && inFlightAtKill < 0) {
          // Kill while the other writers' requests are on the wire.
          inFlightAtKill = inFlight;
          child.kill('SIGKILL');
          killed();
        }
      }
    };
    const writers = Array.from({ length: 8 }, (_, w) => writer(w));
    // A writer that fails before the kill (a non-200) ends the race with its error.
    await Promise.race([killSignal, Promise.all(writers)]);
    expect(await exited(child)).toBe('SIGKILL');
    await Promise.all(writers);
    expect(inFlightAtKill).toBeGreaterThan(0);
    expect(acked.length).toBeGreaterThanOrEqual(KILL_AFTER);
    // The process died without closing the database: recovery has to come from the WAL.
    expect(existsSync(`${dbPath}-wal`)).toBe(true);

    const db = new Database(dbPath);
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(db.pragma('foreign_key_check')).toEqual([]);
      const stored = new Set(
        db
          .prepare<[], { id: string }>('SELECT id FROM checkouts')
          .all()
          .map((r) => r.id),
      );
      const missing = acked.filter((id) => !stored.has(id));
      expect(missing).toEqual([]);
      // Each acknowledged checkout committed with its expiry job and its event.
      const jobs = db
        .prepare<[], { n: number }>("SELECT count(*) AS n FROM jobs WHERE kind = 'checkout.expire'")
        .get()!;
      expect(jobs.n).toBe(stored.size);
      const events = db
        .prepare<[], { n: number }>("SELECT count(*) AS n FROM events WHERE type = 'checkout.created'")
        .get()!;
      expect(events.n).toBe(stored.size);
    } finally {
      db.close();
    }
  });

  it('carries merchants, keys, customers, the clock and due work across a restart', async () => {
    const dbPath = join(tempDir(), 'sandbox.db');
    const time = new ManualTime();

    const first = await testSandbox({ dbPath, realNow: time.now });
    // Sandbox time runs a day ahead of real time: the offset must survive the restart too.
    const moved = await first.apps.test.inject({
      method: 'POST',
      url: '/sandbox/clock/advance',
      payload: { seconds: 86_400 },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const { merchantId, key, auth } = await createMerchant(first, 'Restart Co');
    const customer = await first.apps.test.inject({
      method: 'POST',
      url: '/v1/customers',
      headers: auth,
      payload: { name: 'Ada Lovelace', email: 'ada@example.com' },
    });
    expect(customer.statusCode, customer.body).toBe(200);
    const customerId = customer.json().id as string;

    const create = async (title: string, expiresInMs: number) => {
      const res = await first.apps.test.inject({
        method: 'POST',
        url: '/v1/checkouts',
        headers: auth,
        payload: {
          title,
          amount: 5_000_000,
          expires_at: inFuture(first, expiresInMs),
          customer_id: customerId,
        },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().id as string;
    };
    const expiring = await create('Expires in an hour', 3600_000);
    const settling = await create('Paid, settles in 60 s', 2 * 3600_000);
    const paid = await first.apps.test.inject({
      method: 'POST',
      url: `/sandbox/checkouts/${settling}/payments`,
      payload: {},
    });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().checkout.status).toBe('paid');
    const clockBefore = (await first.apps.test.inject({ method: 'GET', url: '/sandbox/clock' })).json();
    await first.close();

    const second = await testSandbox({ dbPath, realNow: time.now });
    const get = (id: string) =>
      second.apps.test.inject({ method: 'GET', url: `/v1/checkouts/${id}`, headers: auth });
    expect((await second.apps.test.inject({ method: 'GET', url: '/sandbox/clock' })).json()).toEqual(
      clockBefore,
    );
    // Nothing is due yet: reopening alone changes nothing.
    expect((await get(expiring)).json().status).toBe('active');
    expect((await get(settling)).json().status).toBe('paid');

    const advanced = await second.apps.test.inject({
      method: 'POST',
      url: '/sandbox/clock/advance',
      payload: { seconds: 3700 },
    });
    expect(advanced.statusCode, advanced.body).toBe(200);
    expect(advanced.json().ran).toBeGreaterThanOrEqual(2);
    const expired = await get(expiring);
    expect(expired.statusCode, expired.body).toBe(200);
    expect(expired.json().status).toBe('expired');
    expect((await get(settling)).json().status).toBe('completed');

    const merchant = await second.apps.test.inject({
      method: 'GET',
      url: `/sandbox/merchants/${merchantId}`,
    });
    expect(merchant.statusCode).toBe(200);
    expect(merchant.json().name).toBe('Restart Co');
    const keys = await second.apps.test.inject({
      method: 'GET',
      url: `/sandbox/merchants/${merchantId}/api-keys`,
    });
    expect(keys.json().map((k: { key: string }) => k.key)).toContain(key);
    const customers = await second.apps.test.inject({ method: 'GET', url: '/v1/customers', headers: auth });
    expect(customers.statusCode).toBe(200);
    expect(customers.json()).toEqual([
      expect.objectContaining({ id: customerId, name: 'Ada Lovelace', email: 'ada@example.com' }),
    ]);

    const events = await second.apps.test.inject({
      method: 'GET',
      url: `/sandbox/merchants/${merchantId}/events`,
    });
    const types = events.json().map((e: { type: string }) => e.type);
    expect(types).toEqual(
      expect.arrayContaining(['checkout.created', 'checkout.paid', 'checkout.expired', 'checkout.completed']),
    );
  });
});
