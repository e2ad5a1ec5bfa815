import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Sandbox } from '../../server/sandbox.js';
import { startReceiver } from '../helpers/receiver.js';
import { createMerchant, inFuture, testSandbox } from '../helpers/sandbox.js';

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
    expect(sandbox.db.prepare("SELECT COUNT(*) AS n FROM jobs WHERE kind = 'webhook.deliver'").get()).toEqual(
      {
        n: 0,
      },
    );
  });

  it('one answer of a batch cannot be recorded (its delivery was deleted meanwhile): the others are recorded all the same', async () => {
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
    expect(
      errors.mock.calls.some((call) => String(call[0]).includes('could not record a webhook attempt')),
    ).toBe(true);
  });

  it("a new delivery's lease commits with it: before its send finishes the job stands, leased past the timeout", async () => {
    const sandbox = await testSandbox();
    const receiver = await startReceiver();
    receiver.respond = () => ({ status: 200, delayMs: 200 });
    const actor = await createMerchant(sandbox);
    await addEndpoint(sandbox, actor.merchantId, receiver.url);
    const before = sandbox.ctx.clock.now();
    await createCheckout(sandbox, actor.auth);
    await receiver.count(1);
    const [delivery] = rows(sandbox);
    const job = sandbox.db
      .prepare("SELECT due_at FROM jobs WHERE kind = 'webhook.deliver' AND ref = ?")
      .get(delivery!.id) as { due_at: number } | undefined;
    expect(job, 'the lease is on record while the send is in flight').toBeDefined();
    expect(job!.due_at).toBeGreaterThan(before + sandbox.ctx.settings.get().webhook_timeout_ms);
    await sandbox.ctx.dispatcher.idle();
    expect(rows(sandbox)[0]!.status).toBe('delivered');
  });
});
