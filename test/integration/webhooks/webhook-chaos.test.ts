import { describe, expect, it } from 'vitest';
import type { ChaosEffect } from '../../../server/contract/webhooks.js';
import type { Sandbox } from '../../../server/sandbox.js';
import { REORDER_IDLE_MS } from '../../../server/webhooks/chaos.js';
import { verify } from '../../../server/webhooks/signing.js';
import { startReceiver } from '../../helpers/receiver.js';
import {
  type Actor,
  createMerchant,
  inFuture,
  ManualTime,
  tempDir,
  testSandbox,
} from '../../helpers/sandbox.js';

interface Endpoint {
  id: string;
  secret: string;
  chaos: Record<string, unknown> | null;
}

interface Attempt {
  number: number;
  response_status: number | null;
  error: string | null;
  request_headers: Record<string, string>;
  request_body: string;
  chaos: ChaosEffect[];
}

interface DeliveryView {
  id: string;
  status: string;
  attempt_count: number;
  next_attempt_at: string | null;
  attempts: Attempt[];
}

async function addEndpoint(sandbox: Sandbox, actor: Actor, url: string): Promise<Endpoint> {
  const res = await sandbox.apps.test.inject({
    method: 'POST',
    url: `/sandbox/merchants/${actor.merchantId}/webhook-endpoints`,
    payload: { url, events: ['checkout.created'] },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Endpoint;
}

const patch = (sandbox: Sandbox, id: string, payload: Record<string, unknown>) =>
  sandbox.apps.test.inject({ method: 'PATCH', url: `/sandbox/webhook-endpoints/${id}`, payload });

async function setChaos(sandbox: Sandbox, id: string, chaos: unknown): Promise<Endpoint> {
  const res = await patch(sandbox, id, { chaos });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Endpoint;
}

async function createCheckout(sandbox: Sandbox, actor: Actor, title = 'Order'): Promise<string> {
  const res = await sandbox.apps.test.inject({
    method: 'POST',
    url: '/v1/checkouts',
    headers: actor.auth,
    payload: { title, amount: 20_000_000, expires_at: inFuture(sandbox) },
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { id: string }).id;
}

/** Deliveries oldest first. */
async function deliveries(sandbox: Sandbox): Promise<DeliveryView[]> {
  await sandbox.ctx.dispatcher.idle();
  const res = await sandbox.apps.test.inject({ url: '/sandbox/deliveries' });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as DeliveryView[]).reverse();
}

const advance = (sandbox: Sandbox, seconds: number) =>
  sandbox.apps.test.inject({ method: 'POST', url: '/sandbox/clock/advance', payload: { seconds } });

async function setUp(options: { manual?: boolean } = {}) {
  const sandbox = await testSandbox(options.manual ? { realNow: new ManualTime().now } : {});
  const receiver = await startReceiver();
  const actor = await createMerchant(sandbox);
  const endpoint = await addEndpoint(sandbox, actor, receiver.url);
  return { sandbox, receiver, actor, endpoint };
}

describe('webhook chaos: settings', () => {
  it('PATCH sets, GET shows, null turns off; a seed is chosen when none is given', async () => {
    const { sandbox, endpoint } = await setUp();
    expect(endpoint.chaos).toBeNull();
    const set = await setChaos(sandbox, endpoint.id, { duplicate: 0.3, delay: { min_ms: 10, max_ms: 20 } });
    expect(set.chaos).toEqual({
      seed: expect.stringMatching(/^[A-Za-z0-9]{12}$/),
      duplicate: 0.3,
      reorder_window: 0,
      delay: { min_ms: 10, max_ms: 20 },
      drop: 0,
      bad_signature: 0,
    });
    const got = await sandbox.apps.test.inject({ url: `/sandbox/webhook-endpoints/${endpoint.id}` });
    expect(got.json().chaos).toEqual(set.chaos);
    // The settings are replaced whole; the seed stays unless given.
    const again = await setChaos(sandbox, endpoint.id, { drop: 0.5 });
    expect(again.chaos).toMatchObject({ seed: set.chaos!.seed, duplicate: 0, delay: null, drop: 0.5 });
    const seeded = await setChaos(sandbox, endpoint.id, { seed: 'abc', reorder_window: 5 });
    expect(seeded.chaos).toMatchObject({ seed: 'abc', reorder_window: 5, drop: 0 });
    const off = await setChaos(sandbox, endpoint.id, null);
    expect(off.chaos).toBeNull();
    const listed = await sandbox.apps.test.inject({
      url: `/sandbox/merchants/${(got.json() as { merchant_id: string }).merchant_id}/webhook-endpoints`,
    });
    expect(listed.json()[0].chaos).toBeNull();
  });

  it('refuses bad settings with 422 naming the field, and an unknown endpoint with 404', async () => {
    const { sandbox, endpoint } = await setUp();
    for (const [chaos, field] of [
      [{ duplicate: 1.5 }, 'chaos.duplicate'],
      [{ drop: -0.1 }, 'chaos.drop'],
      [{ bad_signature: 'x' }, 'chaos.bad_signature'],
      [{ reorder_window: 51 }, 'chaos.reorder_window'],
      [{ reorder_window: 2.5 }, 'chaos.reorder_window'],
      [{ delay: { min_ms: 10 } }, 'chaos.delay.max_ms'],
      [{ delay: { min_ms: 500, max_ms: 100 } }, 'chaos.delay'],
      [{ seed: '' }, 'chaos.seed'],
      [{ surprise: 1 }, 'chaos'],
    ] as const) {
      const res = await patch(sandbox, endpoint.id, { chaos });
      expect(res.statusCode, JSON.stringify(chaos)).toBe(422);
      expect((res.json() as { error: string }).error, JSON.stringify(chaos)).toContain(field);
    }
    const res = await patch(sandbox, '00000000-0000-4000-8000-000000000000', { chaos: { drop: 1 } });
    expect(res.statusCode).toBe(404);
    const unchanged = await sandbox.apps.test.inject({ url: `/sandbox/webhook-endpoints/${endpoint.id}` });
    expect(unchanged.json().chaos).toBeNull();
  });
});

describe('webhook chaos: a real receiver', () => {
  it('duplicate: the same delivery id, bytes and signature arrive twice; one attempt records it', async () => {
    const { sandbox, receiver, actor, endpoint } = await setUp();
    await setChaos(sandbox, endpoint.id, { duplicate: 1 });
    await createCheckout(sandbox, actor);
    await receiver.count(2);
    const [first, second] = receiver.received;
    expect(second!.raw.equals(first!.raw)).toBe(true);
    expect(second!.headers['x-svc-delivery-id']).toBe(first!.headers['x-svc-delivery-id']);
    expect(second!.headers['x-svc-signature']).toBe(first!.headers['x-svc-signature']);
    expect(verify(endpoint.secret, first!.raw, first!.headers['x-svc-signature'] as string)).toBe(true);
    const [delivery] = await deliveries(sandbox);
    expect(delivery!.status).toBe('delivered');
    expect(delivery!.attempts).toHaveLength(1);
    expect(delivery!.attempts[0]!.chaos).toEqual([{ kind: 'duplicated', response_status: 200, error: null }]);
    expect(receiver.received).toHaveLength(2);
  });

  it('reorder_window: five deliveries are held and arrive all, in a shuffled order', async () => {
    const { sandbox, receiver, actor, endpoint } = await setUp();
    // a seed whose shuffle of five is not the identity (the order is fixed by the seed)
    await setChaos(sandbox, endpoint.id, { seed: 'shuffle', reorder_window: 5 });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await createCheckout(sandbox, actor, `Order ${i}`));
    // nothing leaves before the window is full
    await receiver.count(5);
    const arrived = receiver.received.map((r) => (r.body.data as { id: string }).id);
    expect([...arrived].sort()).toEqual([...ids].sort());
    expect(arrived).not.toEqual(ids);
    const list = await deliveries(sandbox);
    const positions = list.map((d) => d.attempts[0]!.chaos);
    for (const chaos of positions)
      expect(chaos).toEqual([{ kind: 'reordered', position: expect.any(Number), of: 5 }]);
    // the recorded positions are the order of arrival
    const byPosition = list
      .map((d, i) => ({ id: ids[i], position: (d.attempts[0]!.chaos[0] as { position: number }).position }))
      .sort((a, b) => a.position - b.position)
      .map((d) => d.id);
    expect(byPosition).toEqual(arrived);
  });

  it('reorder_window: a window that does not fill is released once its queue is idle', async () => {
    const { sandbox, receiver, actor, endpoint } = await setUp();
    await setChaos(sandbox, endpoint.id, { reorder_window: 10 });
    await createCheckout(sandbox, actor);
    await createCheckout(sandbox, actor);
    const last = performance.now();
    await receiver.count(2, REORDER_IDLE_MS + 3000);
    expect(performance.now() - last).toBeGreaterThanOrEqual(REORDER_IDLE_MS - 100);
    const list = await deliveries(sandbox);
    expect(list.map((d) => d.attempts[0]!.chaos[0])).toEqual([
      { kind: 'reordered', position: expect.any(Number), of: 2 },
      { kind: 'reordered', position: expect.any(Number), of: 2 },
    ]);
  });

  it('delay: the send waits a time in the range, and the attempt says how long', async () => {
    const { sandbox, receiver, actor, endpoint } = await setUp();
    await setChaos(sandbox, endpoint.id, { delay: { min_ms: 200, max_ms: 250 } });
    const started = performance.now();
    await createCheckout(sandbox, actor);
    await receiver.count(1);
    expect(receiver.received[0]!.at - started).toBeGreaterThanOrEqual(200);
    const [delivery] = await deliveries(sandbox);
    const [effect] = delivery!.attempts[0]!.chaos;
    expect(effect).toMatchObject({ kind: 'delayed' });
    const ms = (effect as { ms: number }).ms;
    expect(ms).toBeGreaterThanOrEqual(200);
    expect(ms).toBeLessThanOrEqual(250);
  });

  it('drop: nothing is sent, a timeout is recorded and the retry follows the schedule', async () => {
    const { sandbox, receiver, actor, endpoint } = await setUp({ manual: true });
    await setChaos(sandbox, endpoint.id, { drop: 1 });
    await createCheckout(sandbox, actor);
    let [delivery] = await deliveries(sandbox);
    expect(receiver.received).toHaveLength(0);
    expect(delivery!.status).toBe('pending');
    expect(delivery!.attempts[0]).toMatchObject({
      number: 1,
      response_status: null,
      error: expect.stringMatching(/^timeout: no answer within \d+ ms$/),
      chaos: [{ kind: 'dropped' }],
    });
    expect(Date.parse(delivery!.next_attempt_at!) - sandbox.ctx.clock.now()).toBe(5 * 60_000);
    // the second attempt, 5 minutes later, is dropped too
    await advance(sandbox, 299);
    expect((await deliveries(sandbox))[0]!.attempt_count).toBe(1);
    await advance(sandbox, 1);
    [delivery] = await deliveries(sandbox);
    expect(delivery!.attempts.map((a) => a.chaos)).toEqual([[{ kind: 'dropped' }], [{ kind: 'dropped' }]]);
    expect(receiver.received).toHaveLength(0);
    // with chaos off, the third (30 minutes on) reaches the receiver
    await setChaos(sandbox, endpoint.id, null);
    await advance(sandbox, 1800);
    [delivery] = await deliveries(sandbox);
    expect(receiver.received).toHaveLength(1);
    expect(delivery!.status).toBe('delivered');
    expect(delivery!.attempts.map((a) => a.chaos)).toEqual([
      [{ kind: 'dropped' }],
      [{ kind: 'dropped' }],
      [],
    ]);
  });

  it('bad_signature: the signature does not verify with the secret, and the record shows the one sent', async () => {
    const { sandbox, receiver, actor, endpoint } = await setUp();
    receiver.respond = (r) => ({
      status: verify(endpoint.secret, r.raw, r.headers['x-svc-signature'] as string) ? 200 : 400,
      body: 'bad signature',
    });
    await setChaos(sandbox, endpoint.id, { bad_signature: 1 });
    await createCheckout(sandbox, actor);
    await receiver.count(1);
    const [got] = receiver.received;
    expect(got!.headers['x-svc-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(verify(endpoint.secret, got!.raw, got!.headers['x-svc-signature'] as string)).toBe(false);
    const [delivery] = await deliveries(sandbox);
    expect(delivery!.status).toBe('pending');
    expect(delivery!.attempts[0]).toMatchObject({ response_status: 400, chaos: [{ kind: 'bad_signature' }] });
    expect(delivery!.attempts[0]!.request_headers['x-svc-signature']).toBe(got!.headers['x-svc-signature']);
  });
});

describe('webhook chaos: determinism', () => {
  const settings = {
    seed: 'same-seed',
    duplicate: 0.4,
    drop: 0.3,
    bad_signature: 0.3,
    delay: { min_ms: 0, max_ms: 30 },
  };

  /** The effects on each delivery's first attempt, oldest first, after `n` checkouts. */
  async function run(sandbox: Sandbox, actor: Actor, n: number): Promise<ChaosEffect[][]> {
    for (let i = 0; i < n; i++) await createCheckout(sandbox, actor);
    const list = await deliveries(sandbox);
    return list.slice(-n).map((d) => d.attempts[0]!.chaos);
  }

  it('the same seed and the same events give the same decisions in a fresh sandbox; a seed set again restarts', async () => {
    const a = await setUp();
    const b = await setUp();
    await setChaos(a.sandbox, a.endpoint.id, settings);
    await setChaos(b.sandbox, b.endpoint.id, settings);
    const first = await run(a.sandbox, a.actor, 10);
    const second = await run(b.sandbox, b.actor, 10);
    expect(second).toEqual(first);
    // the decisions vary (the seed was not one that does nothing)
    const kinds = new Set(first.flat().map((e) => e.kind));
    expect(kinds.has('dropped')).toBe(true);
    expect(kinds.has('duplicated') || kinds.has('bad_signature')).toBe(true);
    // setting the seed again starts the sequence over
    await setChaos(a.sandbox, a.endpoint.id, settings);
    expect(await run(a.sandbox, a.actor, 10)).toEqual(first);
    // without a seed, the sequence goes on: the next ten differ from the first ten
    const other = { ...settings, seed: undefined };
    await setChaos(b.sandbox, b.endpoint.id, other);
    expect(await run(b.sandbox, b.actor, 10)).not.toEqual(first);
  });

  it('the sequence is stored: a restart on the same file goes on where it stopped', async () => {
    const receiver = await startReceiver();
    const whole = await testSandbox();
    const wholeActor = await createMerchant(whole);
    const wholeEndpoint = await addEndpoint(whole, wholeActor, receiver.url);
    await setChaos(whole, wholeEndpoint.id, settings);
    const expected = await run(whole, wholeActor, 12);

    const dbPath = `${tempDir()}/sandbox.db`;
    const first = await testSandbox({ dbPath });
    const actor = await createMerchant(first);
    const endpoint = await addEndpoint(first, actor, receiver.url);
    await setChaos(first, endpoint.id, settings);
    const before = await run(first, actor, 6);
    await first.close();
    const second = await testSandbox({ dbPath });
    const after = await run(second, actor, 6);
    expect([...before, ...after]).toEqual(expected);
  });

  it('chaos is per workspace: the same seed decides the same in two workspaces, and stays in its own', async () => {
    const sandbox = await testSandbox();
    const receiver = await startReceiver();
    const inWs = async (
      ws: string,
      method: 'GET' | 'POST' | 'PATCH',
      url: string,
      body?: object,
      key?: string,
    ) => {
      const headers: Record<string, string> = { 'x-svc-workspace': ws };
      if (key) headers.authorization = `Bearer ${key}`;
      const res = await sandbox.apps.test.inject({
        method,
        url,
        headers,
        ...(body ? { payload: body } : {}),
      });
      expect(res.statusCode, res.body).toBeLessThan(300);
      return res.json() as Record<string, unknown>;
    };
    const world = async (name: string, chaos: object | null) => {
      const ws = (await inWs('default', 'POST', '/sandbox/workspaces', { name })) as { id: string };
      const made = (await inWs(ws.id, 'POST', '/sandbox/merchants', { name: `${name} shop` })) as {
        merchant: { id: string };
        api_key: { key: string };
      };
      const endpoint = await inWs(ws.id, 'POST', `/sandbox/merchants/${made.merchant.id}/webhook-endpoints`, {
        url: receiver.url,
        events: ['checkout.created'],
      });
      if (chaos) await inWs(ws.id, 'PATCH', `/sandbox/webhook-endpoints/${endpoint.id}`, { chaos });
      return { ws: ws.id, key: made.api_key.key, endpoint: endpoint.id as string };
    };
    const a = await world('chaos a', settings);
    const b = await world('chaos b', settings);
    const c = await world('calm c', null);
    const decisions = async (w: { ws: string; key: string }) => {
      for (let i = 0; i < 8; i++) {
        const expiresAt = new Date(Date.now() + 30 * 86_400_000).toISOString();
        await inWs(
          w.ws,
          'POST',
          '/v1/checkouts',
          { title: 'Order', amount: 1_000_000, expires_at: expiresAt },
          w.key,
        );
      }
      await inWs(w.ws, 'POST', '/sandbox/clock/advance', { seconds: 0 });
      const list = (await inWs(w.ws, 'GET', '/sandbox/deliveries')) as unknown as { attempts: Attempt[] }[];
      return list.reverse().map((d) => d.attempts[0]!.chaos);
    };
    const fromA = await decisions(a);
    expect(await decisions(b)).toEqual(fromA);
    expect(fromA.flat().length).toBeGreaterThan(0);
    expect((await decisions(c)).flat()).toEqual([]);
    expect((await inWs(c.ws, 'GET', `/sandbox/webhook-endpoints/${c.endpoint}`)).chaos).toBeNull();
    // an endpoint of another workspace is not found here
    const res = await sandbox.apps.test.inject({
      method: 'PATCH',
      url: `/sandbox/webhook-endpoints/${a.endpoint}`,
      headers: { 'x-svc-workspace': c.ws },
      payload: { chaos: { drop: 1 } },
    });
    expect(res.statusCode).toBe(404);
  });
});
