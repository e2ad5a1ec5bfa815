import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Sandbox } from '../../server/sandbox.js';
import {
  type Actor,
  type Checkout,
  call,
  control,
  createCheckout,
  createMerchant,
  expectError,
  getCheckout,
  inFuture,
  ok,
  pay,
} from '../helpers/api.js';
import { fillDisk, giveSpaceBack } from '../helpers/faults.js';
import { startReceiver } from '../helpers/receiver.js';
import { tempDir, testSandbox } from '../helpers/sandbox.js';

/**
 * The database disk fills up (a real SQLITE_FULL, no root needed) and
 * then has room again. Scheduled work is never lost, a failure to record a failure never kills
 * the process, and a request answers 507 while full and succeeds once space is back.
 */

const JOB_SETTLE = 'checkout.settle';

function jobOf(sandbox: Sandbox, kind: string, ref: string) {
  return sandbox.db.prepare('SELECT * FROM jobs WHERE kind = ? AND ref = ?').get(kind, ref) as
    | { id: number; due_at: number; failed_at: string | null; last_error: string | null }
    | undefined;
}

/** Polls `read` until `done` holds, for at most `timeoutMs` (the retry backoff is real time). */
async function until<T>(read: () => Promise<T> | T, done: (value: T) => boolean, timeoutMs = 6000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function addEndpoint(sandbox: Sandbox, actor: Actor, url: string, events: string[]) {
  ok(
    await control(sandbox, 'POST', `/sandbox/merchants/${actor.merchantId}/webhook-endpoints`, {
      url,
      events,
    }),
  );
}

async function balances(sandbox: Sandbox, actor: Actor) {
  return ok<{ currency: string; available: number; held: number }[]>(
    await control(sandbox, 'GET', `/sandbox/merchants/${actor.merchantId}/balances`),
  );
}

/**
 * Moves the sandbox clock past the settlement while the disk is full. The control call may itself
 * answer 507 (it writes the clock); then the scheduler is driven directly, and may throw.
 */
async function advancePastSettlement(sandbox: Sandbox, paidAt: string): Promise<void> {
  const due = Date.parse(paidAt) + 60_000;
  const res = await control(sandbox, 'POST', '/sandbox/clock/advance', { seconds: 120 });
  if (res.statusCode !== 200) expectError(res, 507, 'Insufficient storage');
  if (sandbox.ctx.clock.now() < due) {
    await sandbox.ctx.scheduler.advance(due - sandbox.ctx.clock.now() + 60_000).catch(() => {});
  }
  expect(sandbox.ctx.clock.now()).toBeGreaterThanOrEqual(due);
}

/** A merchant with a paid checkout (settles 60 s later) and a receiver for checkout.completed. */
async function paidCheckout(sandbox: Sandbox) {
  const receiver = await startReceiver();
  const actor = await createMerchant(sandbox);
  await addEndpoint(sandbox, actor, receiver.url, ['checkout.completed']);
  const checkout = await createCheckout(sandbox, actor);
  const paid = ok<{ checkout: Checkout }>(await pay(sandbox, checkout.id)).checkout;
  expect(paid.status).toBe('paid');
  expect(await balances(sandbox, actor)).toEqual([
    { currency: paid.currency, available: 0, held: paid.paid_amount },
  ]);
  return { receiver, actor, checkout: paid };
}

async function expectSettled(sandbox: Sandbox, actor: Actor, paid: Checkout) {
  const settled = await getCheckout(sandbox, actor, paid.id);
  expect(settled.status).toBe('completed');
  expect(await balances(sandbox, actor)).toEqual([
    {
      currency: paid.currency,
      available: paid.paid_amount! - settled.platform_fee - settled.platform_gas_fee,
      held: 0,
    },
  ]);
}

describe('disk full (a real SQLITE_FULL on a file database)', () => {
  beforeEach(() => {
    // The scheduler logs each failed attempt; the assertions below are about what it does.
    vi.spyOn(console, 'error').mockImplementation(() => {});
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  describe('a job that fails on a full disk is kept and retried, never failed for good', () => {
    it('the settlement stays in the jobs table with its last error; when space returns it is retried (real-time backoff) and the checkout completes, funds available, webhook sent', async () => {
      const sandbox = await testSandbox({ dbPath: join(tempDir(), 'db.sqlite') });
      await sandbox.listen();
      const { receiver, actor, checkout } = await paidCheckout(sandbox);

      fillDisk(sandbox.db);
      await advancePastSettlement(sandbox, checkout.paid_at!);

      const kept = jobOf(sandbox, JOB_SETTLE, checkout.id);
      expect(kept, 'the settlement job is still in the jobs table').toBeDefined();
      expect(kept!.last_error).toMatch(/full/i);
      expect(kept!.failed_at).not.toBeNull();
      expect((await getCheckout(sandbox, actor, checkout.id)).status).toBe('paid');
      expect(receiver.received).toEqual([]);

      giveSpaceBack(sandbox.db);
      const started = Date.now();
      const status = await until(
        async () => (await getCheckout(sandbox, actor, checkout.id)).status,
        (s) => s === 'completed',
      );
      expect(status, 'completed within a few seconds of space returning').toBe('completed');
      expect(Date.now() - started).toBeLessThan(6000);
      await expectSettled(sandbox, actor, checkout);
      expect(jobOf(sandbox, JOB_SETTLE, checkout.id)).toBeUndefined();

      await receiver.waitFor((r) => r.some((m) => m.body.data.id === checkout.id), 3000);
      const completed = receiver.received.filter((m) => m.body.data.id === checkout.id);
      expect(completed.map((m) => m.body.event)).toEqual(['checkout.completed']);
      expect(completed[0]!.body.data.status).toBe('completed');
    }, 15_000);

    it('restart: closed while the disk is full, reopened on the same file with space, listen() runs the kept settlement at once', async () => {
      const dbPath = join(tempDir(), 'db.sqlite');
      const first = await testSandbox({ dbPath, tickMs: 50 });
      await first.listen();
      // Settlement falls due a second after payment in real time: no clock move is involved.
      ok(await control(first, 'PATCH', '/sandbox/settings', { settlement_delay_seconds: 1 }));
      const { actor, checkout } = await paidCheckout(first);

      fillDisk(first.db);
      const failed = await until(
        () => jobOf(first, JOB_SETTLE, checkout.id),
        (job) => typeof job?.last_error === 'string',
        4000,
      );
      expect(failed, 'the settlement ran, failed on the full disk, and is kept').toBeDefined();
      expect(failed!.last_error).toMatch(/full/i);
      expect((await getCheckout(first, actor, checkout.id)).status).toBe('paid');
      await first.close();

      const second = await testSandbox({ dbPath });
      // Due because it is in the table, not because of a retry timer of the first process.
      expect(jobOf(second, JOB_SETTLE, checkout.id)).toBeDefined();
      await second.listen();
      await expectSettled(second, actor, checkout);
      expect(jobOf(second, JOB_SETTLE, checkout.id)).toBeUndefined();
    }, 15_000);
  });

  describe('a failure to record a job failure (the disk still full) is caught', () => {
    it('the ticker runs the due job on a full disk: no unhandled rejection, logged, the server keeps answering, the scheduler keeps retrying and settles once space returns', async () => {
      const unhandled = vi.fn();
      process.on('unhandledRejection', unhandled);
      try {
        const sandbox = await testSandbox({ dbPath: join(tempDir(), 'db.sqlite'), tickMs: 50 });
        const urls = await sandbox.listen();
        // Settlement falls due a second after payment in real time: the ticker runs it, as in
        // production (no HTTP request around it to catch what it throws).
        ok(await control(sandbox, 'PATCH', '/sandbox/settings', { settlement_delay_seconds: 1 }));
        const { actor, checkout } = await paidCheckout(sandbox);

        fillDisk(sandbox.db, { jobs: true });
        // The job row cannot even grow by an error message: recording the failure fails too.
        const recordFailure = () =>
          sandbox.db.transaction(() => {
            sandbox.db
              .prepare('UPDATE jobs SET failed_at = ?, last_error = ? WHERE kind = ? AND ref = ?')
              .run(
                new Date().toISOString(),
                'SqliteError: database or disk is full',
                JOB_SETTLE,
                checkout.id,
              );
            throw new Error('setup: the job row could still grow');
          })();
        expect(recordFailure).toThrow(/database or disk is full/);

        // Due at paid_at + 1 s; then the first retry 1 s later fails the same way (disk still full).
        const wait = Date.parse(checkout.paid_at!) + 2500 - sandbox.ctx.clock.now();
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, wait)));
        expect(unhandled).not.toHaveBeenCalled();
        expect(console.error, 'the failure is logged').toHaveBeenCalled();
        const health = await fetch(`${urls.test}/sandbox/health`);
        expect(health.status).toBe(200);
        expect(jobOf(sandbox, JOB_SETTLE, checkout.id), 'the job is not lost').toBeDefined();
        expect((await getCheckout(sandbox, actor, checkout.id)).status).toBe('paid');

        giveSpaceBack(sandbox.db);
        const status = await until(
          async () => (await getCheckout(sandbox, actor, checkout.id)).status,
          (s) => s === 'completed',
        );
        expect(status, 'the scheduler is still running: the kept job settles').toBe('completed');
        await expectSettled(sandbox, actor, checkout);
        expect(unhandled).not.toHaveBeenCalled();
      } finally {
        process.off('unhandledRejection', unhandled);
      }
    }, 20_000);
  });

  describe('a request while the disk is full', () => {
    it('POST /v1/checkouts → 507 {error: "Insufficient storage: the database disk is full ..."}; reads still work; the same request → 200 once space returns, no restart', async () => {
      const sandbox = await testSandbox({ dbPath: join(tempDir(), 'db.sqlite') });
      const actor = await createMerchant(sandbox);
      const request = {
        method: 'POST' as const,
        url: '/v1/checkouts',
        headers: actor.auth,
        payload: { title: 'While full', amount: 5_000_000, expires_at: inFuture(sandbox) },
      };
      const before = ok<Checkout>(await call(sandbox, request));

      fillDisk(sandbox.db);
      const full = await call(sandbox, request);
      expectError(full, 507, /^Insufficient storage: the database disk is full/);
      // A control write that records an event: the same answer.
      expectError(await pay(sandbox, before.id), 507, /^Insufficient storage: the database disk is full/);
      // Reads need no space, and nothing of the refused writes is visible.
      const list = ok<{ id: string }[]>(
        await call(sandbox, { method: 'GET', url: '/v1/checkouts', headers: actor.auth }),
      );
      expect(list.map((c) => c.id)).toEqual([before.id]);
      expect((await getCheckout(sandbox, actor, before.id)).status).toBe('active');

      giveSpaceBack(sandbox.db);
      const again = ok<Checkout>(await call(sandbox, request));
      expect(again.title).toBe('While full');
      expect(ok<{ checkout: Checkout }>(await pay(sandbox, before.id)).checkout.status).toBe('paid');
      const after = ok<{ id: string }[]>(
        await call(sandbox, { method: 'GET', url: '/v1/checkouts', headers: actor.auth }),
      );
      expect(after.map((c) => c.id).sort()).toEqual([before.id, again.id].sort());
    });
  });
});
