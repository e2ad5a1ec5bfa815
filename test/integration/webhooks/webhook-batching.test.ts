import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Sandbox } from '../../../server/sandbox.js';
import { startReceiver } from '../../helpers/receiver.js';
import { createMerchant, inFuture, ManualTime, testSandbox } from '../../helpers/sandbox.js';

/**
 * The dispatcher records the answers that arrive in one event-loop turn in one transaction, and
 * sends a new delivery straight after its event commits (not through the scheduler). These pin
 * what that must not change: one attempt per send on record, a failing row costing only itself,
 * and the lease of a new delivery committed with it.
 */

async function addEndpoint(sandbox: Sandbox, merchantId: string, url: string) {
  const res = await sandbox.apps.test.inject({
    method: 'POST',
    url: `/sandbox/merchants/${merchantId}/webhook-endpoints`,
    payload: { url, events: ['checkout.created'] },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { id: string };
}

async function createCheckout(sandbox: Sandbox, auth: { authorization: string }) {
  const res = await sandbox.apps.test.inject({
    method: 'POST',
    url: '/v1/checkouts',
    headers: auth,
    payload: { title: 'Order', amount: 20_000_000, expires_at: inFuture(sandbox) },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { id: string };
}

const rows = (sandbox: Sandbox) =>
  sandbox.db
    .prepare('SELECT id, endpoint_id, status, attempt_count FROM webhook_deliveries ORDER BY rowid')
    .all() as { id: string; endpoint_id: string; status: string; attempt_count: number }[];

afterEach(() => {
  vi.restoreAllMocks();
});

describe('batched attempt records', () => {
  it('many answers at once: every send has exactly one attempt on record and its delivery is delivered', async () => {
    const sandbox = await testSandbox();
    const receiver = await startReceiver();
    const actor = await createMerchant(sandbox);
    for (let i = 0; i < 6; i++) await addEndpoint(sandbox, actor.merchantId, `${receiver.url}?e=${i}`);
    await Promise.all(Array.from({ length: 10 }, () => createCheckout(sandbox, actor.auth)));
    await receiver.count(60);
    await sandbox.ctx.dispatcher.idle();
    const deliveries = rows(sandbox);
    expect(deliveries).toHaveLength(60);
    expect(deliveries.filter((d) => d.status !== 'delivered' || d.attempt_count !== 1)).toEqual([]);
    const attempts = sandbox.db
      .prepare('SELECT delivery_id, COUNT(*) AS n FROM webhook_attempts GROUP BY delivery_id')
      .all() as { delivery_id: string; n: number }[];
    expect(attempts).toHaveLength(60);
    expect(attempts.every((a) => a.n === 1)).toBe(true);
    // Delivered: no lease or retry left behind.
    expect(sandbox.db.prepare("SELECT COUNT(*) AS n FROM jobs WHERE kind LIKE 'webhook.%'").get()).toEqual({
      n: 0,
    });
  });

  it('one answer of a batch cannot be recorded (its delivery was deleted meanwhile, as by a reset): the others are recorded all the same, and the gone one is no error', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const sandbox = await testSandbox();
    const receiver = await startReceiver();
    // Both answers leave together, after the test has removed one delivery's row.
    receiver.respond = () => ({ status: 200, delayMs: 300 });
    const actor = await createMerchant(sandbox);
    const gone = await addEndpoint(sandbox, actor.merchantId, `${receiver.url}?e=gone`);
    await addEndpoint(sandbox, actor.merchantId, `${receiver.url}?e=kept`);
    await createCheckout(sandbox, actor.auth);
    await receiver.count(2);
    const [first, second] = rows(sandbox);
    const doomed = first!.endpoint_id === gone.id ? first! : second!;
    const kept = doomed === first ? second! : first!;
    // Behind the service's back: the attempt insert of that delivery now breaks its foreign key.
    sandbox.db.prepare('DELETE FROM webhook_deliveries WHERE id = ?').run(doomed.id);
    await sandbox.ctx.dispatcher.idle();
    const after = rows(sandbox);
    expect(after).toEqual([{ ...kept, status: 'delivered', attempt_count: 1 }]);
    expect(
      sandbox.db.prepare('SELECT COUNT(*) AS n FROM webhook_attempts WHERE delivery_id = ?').get(kept.id),
    ).toEqual({ n: 1 });
    // Nothing to record for a delivery that no longer exists: no error in the user's terminal.
    expect(
      errors.mock.calls.some((call) => String(call[0]).includes('could not record a webhook attempt')),
    ).toBe(false);
  });

  it('the deliveries of an event share one lease, committed with them and removed with the record of the last send', async () => {
    const sandbox = await testSandbox();
    const receiver = await startReceiver();
    // One endpoint answers at once, the other later: the lease outlives the first record.
    receiver.respond = (_request, index) => ({ status: 200, delayMs: index === 0 ? 0 : 400 });
    const actor = await createMerchant(sandbox);
    await addEndpoint(sandbox, actor.merchantId, `${receiver.url}?e=1`);
    await addEndpoint(sandbox, actor.merchantId, `${receiver.url}?e=2`);
    const before = sandbox.ctx.clock.now();
    await createCheckout(sandbox, actor.auth);
    await receiver.count(2);
    const lease = () =>
      sandbox.db
        .prepare("SELECT ref, due_at, payload FROM jobs WHERE kind = 'webhook.fanout-lease'")
        .all() as {
        ref: string;
        due_at: number;
        payload: string;
      }[];
    const event = sandbox.db
      .prepare("SELECT id FROM events WHERE type = 'checkout.created' ORDER BY rowid DESC LIMIT 1")
      .get() as { id: string };
    const held = lease();
    expect(held, 'one lease for the event while its sends are in flight').toHaveLength(1);
    expect(held[0]!.ref).toBe(event.id);
    expect(held[0]!.due_at).toBeGreaterThan(before + sandbox.ctx.settings.get().webhook_timeout_ms);
    expect((JSON.parse(held[0]!.payload) as string[]).sort()).toEqual(
      rows(sandbox)
        .map((d) => d.id)
        .sort(),
    );
    // No per-delivery job for a first send.
    expect(sandbox.db.prepare("SELECT COUNT(*) AS n FROM jobs WHERE kind = 'webhook.deliver'").get()).toEqual(
      {
        n: 0,
      },
    );
    await sandbox.ctx.dispatcher.idle();
    expect(rows(sandbox).map((d) => d.status)).toEqual(['delivered', 'delivered']);
    expect(lease()).toEqual([]);
  });

  it('a fan-out lease whose record failed falls due and sends that delivery again (the others not)', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const sandbox = await testSandbox({ realNow: new ManualTime().now });
    const receiver = await startReceiver();
    const actor = await createMerchant(sandbox);
    await addEndpoint(sandbox, actor.merchantId, `${receiver.url}?e=1`);
    await addEndpoint(sandbox, actor.merchantId, `${receiver.url}?e=2`);
    // The attempts of the first endpoint's delivery are refused (as a full disk would): its
    // record fails, the other one's does not.
    sandbox.db.exec(`CREATE TRIGGER refuse_first_attempt BEFORE INSERT ON webhook_attempts
      WHEN (SELECT url FROM webhook_deliveries WHERE id = NEW.delivery_id) LIKE '%e=1'
      BEGIN
        SELECT RAISE(ABORT, 'disk full (test)');
      END`);
    await createCheckout(sandbox, actor.auth);
    await receiver.count(2);
    await sandbox.ctx.dispatcher.idle();
    const pending = rows(sandbox).filter((d) => d.status === 'pending');
    expect(pending, 'setup: one record failed').toHaveLength(1);
    expect(pending[0]!.attempt_count).toBe(0);
    sandbox.db.exec('DROP TRIGGER refuse_first_attempt');
    // The lease runs out (timeout + 60 s of sandbox time): that one delivery goes again.
    const res = await sandbox.apps.test.inject({
      method: 'POST',
      url: '/sandbox/clock/advance',
      payload: { seconds: 120 },
    });
    expect(res.statusCode, res.body).toBe(200);
    await sandbox.ctx.dispatcher.idle();
    expect(receiver.received).toHaveLength(3);
    expect(receiver.received[2]!.body.id).toBe(pending[0]!.id);
    expect(rows(sandbox).map((d) => [d.status, d.attempt_count])).toEqual([
      ['delivered', 1],
      ['delivered', 1],
    ]);
    expect(sandbox.db.prepare("SELECT COUNT(*) AS n FROM jobs WHERE kind LIKE 'webhook.%'").get()).toEqual({
      n: 0,
    });
  });
});
