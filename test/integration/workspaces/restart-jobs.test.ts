import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../server/sandbox.js';
import {
  type Actor,
  advance,
  type Checkout,
  control,
  createCheckout,
  createMerchant,
  eventsFor,
  getCheckout,
  ok,
  pay,
} from '../../helpers/api.js';
import { ManualTime, tempDir, testSandbox } from '../../helpers/sandbox.js';

const MINUTE = 60_000;

/** A file database with: an active checkout (expires in 10 min), a paid one and a partly paid one. */
async function seed(time: ManualTime) {
  const dbPath = join(tempDir(), 'sandbox.db');
  const first = await testSandbox({ dbPath, realNow: time.now });
  const actor = await createMerchant(first);
  const expiresAt = new Date(time.ms + 10 * MINUTE).toISOString();
  const active = await createCheckout(first, actor, { amount: 25_000_000, expires_at: expiresAt });
  const paid = await createCheckout(first, actor, { amount: 25_000_000, expires_at: expiresAt });
  ok(await pay(first, paid.id));
  const partial = await createCheckout(first, actor, { amount: 25_000_000, expires_at: expiresAt });
  ok(await pay(first, partial.id, { amount: 4_000_000 }));
  await first.close();
  return { dbPath, actor, active, paid, partial };
}

async function statuses(sandbox: Sandbox, actor: Actor, ...checkouts: Checkout[]) {
  return Promise.all(checkouts.map(async (c) => (await getCheckout(sandbox, actor, c.id)).status));
}

describe('restart with pending jobs (file database)', () => {
  it('after close and reopen, advancing runs the stored expiry and settlement jobs', async () => {
    const time = new ManualTime();
    const { dbPath, actor, active, paid, partial } = await seed(time);
    const second = await testSandbox({ dbPath, realNow: time.now });
    // the data and the key survived
    expect(await statuses(second, actor, active, paid, partial)).toEqual(['active', 'paid', 'active']);
    await advance(second, 60);
    expect(await statuses(second, actor, active, paid, partial)).toEqual(['active', 'completed', 'active']);
    await advance(second, 10 * 60);
    expect(await statuses(second, actor, active, paid, partial)).toEqual(['expired', 'completed', 'partial']);
    const partialNow = await getCheckout(second, actor, partial.id);
    expect(partialNow.paid_amount).toBe(4_000_000);
    // each job ran exactly once
    for (const [c, type] of [
      [active, 'checkout.expired'],
      [paid, 'checkout.completed'],
      [partial, 'checkout.partial'],
    ] as const) {
      expect(await eventsFor(second, actor.merchantId, c.id, type), type).toHaveLength(1);
    }
    await advance(second, 86_400);
    expect(await eventsFor(second, actor.merchantId, active.id, 'checkout.expired')).toHaveLength(1);
  });

  it('work that fell due while the sandbox was down runs when it listens again', async () => {
    const time = new ManualTime();
    const { dbPath, actor, active, paid, partial } = await seed(time);
    time.tick(60 * MINUTE); // the sandbox is down for an hour of real time
    const second = await testSandbox({ dbPath, realNow: time.now });
    await second.listen();
    expect(await statuses(second, actor, active, paid, partial)).toEqual(['expired', 'completed', 'partial']);
  });

  it('the clock offset survives the restart, so due times stay due times', async () => {
    const time = new ManualTime();
    const dbPath = join(tempDir(), 'sandbox.db');
    const first = await testSandbox({ dbPath, realNow: time.now });
    const actor = await createMerchant(first);
    await advance(first, 3600);
    const checkout = await createCheckout(first, actor, {
      expires_at: new Date(first.ctx.clock.now() + 10 * MINUTE).toISOString(),
    });
    await first.close();
    const second = await testSandbox({ dbPath, realNow: time.now });
    const clock = ok<{ offset_ms: number }>(await control(second, 'GET', '/sandbox/clock'));
    expect(clock.offset_ms).toBe(3600_000);
    await advance(second, 9 * 60);
    expect((await getCheckout(second, actor, checkout.id)).status).toBe('active');
    await advance(second, 60);
    expect((await getCheckout(second, actor, checkout.id)).status).toBe('expired');
  });
});
