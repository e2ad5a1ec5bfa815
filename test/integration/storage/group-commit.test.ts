import { describe, expect, it } from 'vitest';
import { createMerchant, inFuture, testSandbox } from '../../helpers/sandbox.js';

/**
 * Concurrent writes share one commit per event-loop turn (CommitBatcher): each request still
 * succeeds or fails alone, replies only after the commit, and events are published only for work
 * that committed.
 */
describe('group commit', () => {
  it('concurrent creates commit together; a failing request rolls back alone', async () => {
    const sandbox = await testSandbox();
    const urls = await sandbox.listen();
    const actor = await createMerchant(sandbox);
    await sandbox.apps.test.inject({
      method: 'PATCH',
      url: '/sandbox/settings',
      payload: { rate_limit_per_minute: 0, concurrency_limit: 0 },
    });
    const published: string[] = [];
    sandbox.ctx.events.on((event) => published.push(event.resource_id ?? ''));
    // The same reference twice in each pair: one of the two must fail with the spec's 400.
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        fetch(`${urls.test}/v1/checkouts`, {
          method: 'POST',
          headers: { ...actor.auth, 'content-type': 'application/json' },
          body: JSON.stringify({
            title: `Order ${i}`,
            amount: 20_000_000,
            expires_at: inFuture(sandbox),
            reference: `ref-${Math.floor(i / 2)}`,
          }),
        }).then(async (res) => ({
          status: res.status,
          body: (await res.json()) as { id?: string; error?: string },
        })),
      ),
    );
    const created = responses.filter((r) => r.status === 200);
    const refused = responses.filter((r) => r.status === 400);
    expect(created).toHaveLength(10);
    expect(refused).toHaveLength(10);
    for (const r of refused) expect(r.body.error).toMatch(/^Duplicate reference/);

    // Every acknowledged checkout is committed (readable from a fresh connection's point of view:
    // no transaction is left open) and had its event published; the refused ones left nothing.
    expect(sandbox.db.inTransaction).toBe(false);
    const stored = sandbox.db
      .prepare<[string], { id: string }>('SELECT id FROM checkouts WHERE merchant_id = ?')
      .all(actor.merchantId)
      .map((row) => row.id)
      .sort();
    expect(stored).toEqual(created.map((r) => r.body.id!).sort());
    expect(published.sort()).toEqual(stored);
    const events = sandbox.db
      .prepare('SELECT COUNT(*) AS n FROM events WHERE type = ?')
      .get('checkout.created') as {
      n: number;
    };
    expect(events.n).toBe(10);
  });
});

describe('inline customers', () => {
  it('attach an existing customer by email whatever its case', async () => {
    const sandbox = await testSandbox();
    const actor = await createMerchant(sandbox);
    const post = (payload: object) =>
      sandbox.apps.test.inject({ method: 'POST', url: '/v1/checkouts', headers: actor.auth, payload });
    const first = (
      await post({
        title: 'a',
        amount: 20_000_000,
        expires_at: inFuture(sandbox),
        customer_name: 'Bob',
        customer_email: 'Bob@Example.com',
      })
    ).json();
    const second = (
      await post({
        title: 'b',
        amount: 20_000_000,
        expires_at: inFuture(sandbox),
        customer_email: 'bob@example.COM',
      })
    ).json();
    expect(second.customer_id).toBe(first.customer_id);
    const customers = (await sandbox.apps.test.inject({ url: '/v1/customers', headers: actor.auth })).json();
    expect(customers).toHaveLength(1);
  });
});
