import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Sandbox } from '../../server/sandbox.js';
import { type Actor, type Checkout, call, control, createCheckout, ok } from '../helpers/api.js';
import { type Received, startReceiver } from '../helpers/receiver.js';
import { createMerchant, tempDir, testSandbox } from '../helpers/sandbox.js';

/**
 * A webhook leaves only once the transaction that created or leased its
 * delivery has committed (no phantom webhooks), and the deliveries of one resource to one endpoint
 * leave in event order.
 */

const VIRTUAL = '6f1c2a8e-3b4d-4c5e-9f60-7a8b9c0d1e21';
const APPLY = {
  account_purpose: 'business expenses',
  occupation: 'engineer',
  annual_salary: '50000_100000',
  expected_monthly_volume: '1000_5000',
};

async function addEndpoint(sandbox: Sandbox, actor: Actor, url: string, events: string[]) {
  return ok<{ id: string }>(
    await control(sandbox, 'POST', `/sandbox/merchants/${actor.merchantId}/webhook-endpoints`, {
      url,
      events,
    }),
  );
}

const deliveryRow = (sandbox: Sandbox, id: string) =>
  sandbox.db.prepare('SELECT id, status FROM webhook_deliveries WHERE id = ?').get(id) as
    | { id: string; status: string }
    | undefined;

/** Every webhook the receiver got is a delivery that exists in the database, with its attempt. */
function expectNoPhantoms(sandbox: Sandbox, received: Received[]) {
  for (const message of received) {
    expect(deliveryRow(sandbox, message.body.id), `received delivery ${message.body.id}`).toBeDefined();
  }
}

describe('no phantom webhooks', () => {
  beforeEach(() => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /**
   * One write turn of the group commit: an event is recorded (its delivery fans out, due at once),
   * the scheduler runs due work while that transaction is still open and leases the delivery, then
   * `breakCommit` makes the turn's transaction fail. Returns the delivery that never existed.
   */
  async function leaseThenFail(sandbox: Sandbox, actor: Actor, breakCommit: () => void) {
    const { batcher, events, unit, scheduler, db } = sandbox.ctx;
    batcher.join();
    expect(db.inTransaction).toBe(true);
    const phantomResource = '11111111-2222-4333-8444-555555555555';
    const event = unit.atomically(() =>
      events.record('test', actor.merchantId, 'checkout.created', {
        id: phantomResource,
        merchant_id: actor.merchantId,
        hosted_url: `http://127.0.0.1/pay/${phantomResource}`,
        amount: 1_000_000,
        currency: 'USDC',
        method: 'crypto',
        reference: null,
        customer_id: null,
        reseller_id: null,
        expires_at: null,
        status: 'active',
        crypto_chains: [],
        fiat: null,
      }),
    );
    const phantom = db.prepare('SELECT id FROM webhook_deliveries WHERE event_id = ?').get(event.id) as
      | { id: string }
      | undefined;
    expect(phantom, 'setup: the event fanned out to a delivery').toBeDefined();
    // The scheduler (its ticker, or a wake-up queued before this turn's commit) runs due work now.
    const ran = scheduler.runDue();
    breakCommit();
    batcher.commit();
    await ran.catch(() => {});
    expect(db.inTransaction).toBe(false);
    expect(deliveryRow(sandbox, phantom!.id), 'setup: the delivery was rolled back').toBeUndefined();
    expect(db.prepare('SELECT id FROM events WHERE id = ?').get(event.id)).toBeUndefined();
    await scheduler.settle().catch(() => {});
    await sandbox.ctx.dispatcher.idle();
    return { phantomId: phantom!.id, phantomResource };
  }

  /** After the failed turn, a real write's webhook arrives — and it is the only one. */
  async function expectOnlyTheRealOne(
    sandbox: Sandbox,
    actor: Actor,
    receiver: Awaited<ReturnType<typeof startReceiver>>,
    phantom: { phantomId: string; phantomResource: string },
  ) {
    const real = await createCheckout(sandbox, actor);
    await receiver.waitFor((r) => r.some((m) => m.body.data.id === real.id), 5000);
    await sandbox.ctx.dispatcher.idle();
    expect(receiver.received.map((m) => m.body.id)).not.toContain(phantom.phantomId);
    expect(receiver.received.map((m) => m.body.data.id)).toEqual([real.id]);
    expectNoPhantoms(sandbox, receiver.received);
    expect(deliveryRow(sandbox, receiver.received[0]!.body.id)?.status).toBe('delivered');
  }

  it('the COMMIT itself fails (a deferred foreign-key violation) after the scheduler leased a new delivery: the receiver gets nothing for it', async () => {
    const sandbox = await testSandbox();
    const receiver = await startReceiver();
    const actor = await createMerchant(sandbox);
    await addEndpoint(sandbox, actor, receiver.url, ['checkout.created']);

    const phantom = await leaseThenFail(sandbox, actor, () => {
      sandbox.db.pragma('defer_foreign_keys = ON');
      sandbox.db
        .prepare(
          `INSERT INTO webhook_attempts (delivery_id, number, at, signature, duration_ms)
           VALUES ('no-such-delivery', 1, '2000-01-01T00:00:00.000Z', '', 0)`,
        )
        .run();
    });
    expect(receiver.received).toEqual([]);
    await expectOnlyTheRealOne(sandbox, actor, receiver, phantom);
  });

  it('the disk fills up in the same turn (SQLITE_FULL rolls the whole group commit back) after the scheduler leased a new delivery: the receiver gets nothing for it', async () => {
    const sandbox = await testSandbox({ dbPath: join(tempDir(), 'db.sqlite') });
    const receiver = await startReceiver();
    const actor = await createMerchant(sandbox);
    await addEndpoint(sandbox, actor, receiver.url, ['checkout.created']);

    const phantom = await leaseThenFail(sandbox, actor, () => {
      // Another write of the same turn needs a page the full disk cannot give.
      const db = sandbox.db;
      db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true })}`);
      // (kv: a table no coverage trigger counts, so the full disk is met by this write itself)
      const filler = db.prepare('INSERT INTO kv (key, value) VALUES (?, ?)');
      let full = false;
      for (let i = 0; i < 10_000 && !full; i++) {
        try {
          filler.run(`zzzzzzzz-filler-${i}`, 'x'.repeat(3000));
        } catch (error) {
          if ((error as { code?: string }).code !== 'SQLITE_FULL') throw error;
          full = true;
        }
      }
      expect(full, 'setup: the disk filled up').toBe(true);
    });
    expect(receiver.received).toEqual([]);
    sandbox.db.pragma('max_page_count = 1073741823');
    await expectOnlyTheRealOne(sandbox, actor, receiver, phantom);
  });

  it('a write that commits is still delivered once, right after its commit (control)', async () => {
    const sandbox = await testSandbox();
    const receiver = await startReceiver();
    const actor = await createMerchant(sandbox);
    await addEndpoint(sandbox, actor, receiver.url, ['checkout.created', 'checkout.paid']);
    const checkout = await createCheckout(sandbox, actor);
    const paid = ok<{ checkout: Checkout }>(
      await call(sandbox, { method: 'POST', url: `/sandbox/checkouts/${checkout.id}/payments`, payload: {} }),
    );
    expect(paid.checkout.status).toBe('paid');
    await receiver.count(2);
    await sandbox.ctx.dispatcher.idle();
    expect(receiver.received.map((m) => m.body.event)).toEqual(['checkout.created', 'checkout.paid']);
    expectNoPhantoms(sandbox, receiver.received);
  });
});

describe('deliveries of one resource to one endpoint leave in event order', () => {
  it('200 authorizations declined at once: for every data.id the receiver sees card.transaction requested before declined', async () => {
    const sandbox = await testSandbox();
    const receiver = await startReceiver();
    const actor = await createMerchant(sandbox);
    await addEndpoint(sandbox, actor, receiver.url, ['card.transaction']);

    // A verified cardholder with an active virtual card and no funds: every authorization is declined.
    const v1 = async (method: 'POST', url: string, payload: object) =>
      ok<{ id: string; status: string }>(await call(sandbox, { method, url, headers: actor.auth, payload }));
    const holder = await v1('POST', '/v1/cardholders', { name: 'Jane Doe', email: 'jane@example.com' });
    ok(await control(sandbox, 'POST', `/sandbox/cardholders/${holder.id}/kyc`, { result: 'approved' }));
    expect(
      (await v1('POST', `/v1/cardholders/${holder.id}/cards/apply`, { catalogue: VIRTUAL, ...APPLY })).status,
    ).toBe('approved');
    const card = await v1('POST', `/v1/cardholders/${holder.id}/cards`, {
      catalogue: VIRTUAL,
      type: 'virtual',
    });

    const N = 200;
    const ids: string[] = [];
    for (let wave = 0; wave < N / 20; wave++) {
      const replies = await Promise.all(
        Array.from({ length: 20 }, () =>
          control(sandbox, 'POST', `/sandbox/cards/${card.id}/authorizations`, { amount: 1_000_000 }),
        ),
      );
      for (const reply of replies) {
        const tx = ok<{ id: string; status: string }>(reply);
        expect(tx.status).toBe('declined');
        ids.push(tx.id);
      }
    }
    await receiver.count(2 * N, 15_000);
    await sandbox.ctx.dispatcher.idle();

    const seen = new Map<string, string[]>();
    for (const message of receiver.received) {
      expect(message.body.event).toBe('card.transaction');
      const id = message.body.data.id as string;
      seen.set(id, [...(seen.get(id) ?? []), message.body.data.status as string]);
    }
    expect(seen.size).toBe(N);
    const outOfOrder = ids.filter((id) => JSON.stringify(seen.get(id)) !== '["requested","declined"]');
    expect(outOfOrder.map((id) => `${id}: ${seen.get(id)?.join(' → ')}`)).toEqual([]);
    expectNoPhantoms(sandbox, receiver.received);
  }, 30_000);
});
