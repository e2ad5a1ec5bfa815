import { createHmac, timingSafeEqual } from 'node:crypto';
import { verify as octokitVerify } from '@octokit/webhooks-methods';
import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../server/sandbox.js';
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
  url: string;
  events: string[];
}

async function addEndpoint(sandbox: Sandbox, actor: Actor, url: string, events?: string[], env = 'test') {
  const res = await sandbox.apps.test.inject({
    method: 'POST',
    url: `/sandbox/merchants/${actor.merchantId}/webhook-endpoints?env=${env}`,
    payload: events ? { url, events } : { url },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Endpoint;
}

async function createCheckout(sandbox: Sandbox, actor: Actor, app: 'test' | 'production' = 'test') {
  const res = await sandbox.apps[app].inject({
    method: 'POST',
    url: '/v1/checkouts',
    headers: actor.auth,
    payload: { title: 'Order', amount: 20_000_000, expires_at: inFuture(sandbox) },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { id: string };
}

async function deliveries(sandbox: Sandbox, query = '') {
  const res = await sandbox.apps.test.inject({ url: `/sandbox/deliveries${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as {
    id: string;
    status: string;
    event: string;
    attempt_count: number;
    next_attempt_at: string | null;
    attempts: {
      number: number;
      response_status: number | null;
      error: string | null;
      request_body: string;
    }[];
  }[];
}

const advance = (sandbox: Sandbox, seconds: number) =>
  sandbox.apps.test.inject({ method: 'POST', url: '/sandbox/clock/advance', payload: { seconds } });

describe('webhook endpoints', () => {
  it('creates with a whsec_ secret viewable later, lists and deletes', async () => {
    const sandbox = await testSandbox();
    const actor = await createMerchant(sandbox);
    const endpoint = await addEndpoint(sandbox, actor, 'https://example.test/hooks', ['checkout.paid']);
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9]{32}$/);
    expect(endpoint.events).toEqual(['checkout.paid']);
    const again = await sandbox.apps.test.inject({ url: `/sandbox/webhook-endpoints/${endpoint.id}` });
    expect(again.json().secret).toBe(endpoint.secret);
    const list = await sandbox.apps.test.inject({
      url: `/sandbox/merchants/${actor.merchantId}/webhook-endpoints`,
    });
    expect(list.json()).toHaveLength(1);
    const all = await addEndpoint(sandbox, actor, 'http://127.0.0.1:9/x');
    expect(all.events).toEqual(['*']);
    const third = await addEndpoint(sandbox, actor, 'http://127.0.0.1:9/y');
    // Newest first.
    const listed = await sandbox.apps.test.inject({
      url: `/sandbox/merchants/${actor.merchantId}/webhook-endpoints`,
    });
    expect((listed.json() as Endpoint[]).map((e) => e.id)).toEqual([third.id, all.id, endpoint.id]);
    const del = await sandbox.apps.test.inject({
      method: 'DELETE',
      url: `/sandbox/webhook-endpoints/${endpoint.id}`,
    });
    expect(del.statusCode).toBe(204);
    const gone = await sandbox.apps.test.inject({ url: `/sandbox/webhook-endpoints/${endpoint.id}` });
    expect(gone.statusCode).toBe(404);
  });

  it('rejects non-http(s) URLs and unknown events with 422, unknown merchants with 404', async () => {
    const sandbox = await testSandbox();
    const actor = await createMerchant(sandbox);
    for (const [payload, field] of [
      [{ url: 'ftp://example.com/x' }, 'url'],
      [{ url: 'not a url' }, 'url'],
      [{ url: 'javascript:alert(1)' }, 'url'],
      [{ url: 'https://example.com', events: ['checkout.nope'] }, 'events[0]'],
      [{}, 'url'],
    ] as const) {
      const res = await sandbox.apps.test.inject({
        method: 'POST',
        url: `/sandbox/merchants/${actor.merchantId}/webhook-endpoints`,
        payload,
      });
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(res.json().error).toContain(field);
    }
    const missing = await sandbox.apps.test.inject({
      method: 'POST',
      url: '/sandbox/merchants/00000000-0000-4000-8000-000000000000/webhook-endpoints',
      payload: { url: 'https://example.com' },
    });
    expect(missing.statusCode).toBe(404);
  });
});

describe('delivery', () => {
  it('signs the exact bytes sent; headers and envelope follow the spec', async () => {
    const sandbox = await testSandbox();
    const receiver = await startReceiver();
    const actor = await createMerchant(sandbox);
    const endpoint = await addEndpoint(sandbox, actor, receiver.url);
    const checkout = await createCheckout(sandbox, actor);
    await receiver.count(1);
    const [got] = receiver.received;
    expect(got!.headers['content-type']).toBe('application/json');
    expect(got!.headers['x-svc-event']).toBe('checkout.created');
    expect(got!.headers['x-svc-delivery-id']).toBe(got!.body.id);
    expect(got!.body.event).toBe('checkout.created');
    expect(got!.body.data.id).toBe(checkout.id);
    expect(got!.body.id).not.toBe(checkout.id);

    const signature = got!.headers['x-svc-signature'] as string;
    expect(signature).toMatch(/^sha256=[0-9a-f]{64}$/);
    // An independent verifier of the same sha256= HMAC scheme...
    expect(await octokitVerify(endpoint.secret, got!.raw.toString('utf8'), signature)).toBe(true);
    expect(await octokitVerify('whsec_wrong', got!.raw.toString('utf8'), signature)).toBe(false);
    // ...and node:crypto over the raw bytes, compared in constant time.
    const expected = Buffer.from(
      `sha256=${createHmac('sha256', endpoint.secret).update(got!.raw).digest('hex')}`,
    );
    expect(timingSafeEqual(expected, Buffer.from(signature))).toBe(true);

    await sandbox.ctx.dispatcher.idle();
    const [delivery] = await deliveries(sandbox);
    expect(delivery!.status).toBe('delivered');
    expect(delivery!.attempts).toHaveLength(1);
    expect(delivery!.attempts[0]!.response_status).toBe(200);
    expect(delivery!.attempts[0]!.request_body).toBe(got!.raw.toString('utf8'));
  });

  it('retries at +5 m, +30 m, +2 h, +5 h on the sandbox clock: 500 ×4 then 200 → delivered on attempt 5', async () => {
    const time = new ManualTime();
    const sandbox = await testSandbox({ realNow: time.now });
    const receiver = await startReceiver();
    receiver.respond = (_r, i) => ({ status: i < 4 ? 500 : 200, body: i < 4 ? 'boom' : 'ok' });
    const actor = await createMerchant(sandbox);
    await addEndpoint(sandbox, actor, receiver.url, ['checkout.created']);
    await createCheckout(sandbox, actor);
    await receiver.count(1);
    await sandbox.ctx.dispatcher.idle();

    let [delivery] = await deliveries(sandbox);
    expect(delivery!.status).toBe('pending');
    expect(Date.parse(delivery!.next_attempt_at!) - sandbox.ctx.clock.now()).toBe(5 * 60_000);

    // Just short of each delay nothing fires; at the delay the next attempt goes out.
    for (const [n, seconds] of [
      [2, 300],
      [3, 1800],
      [4, 7200],
      [5, 18000],
    ] as const) {
      await advance(sandbox, seconds - 1);
      expect(receiver.received).toHaveLength(n - 1);
      await advance(sandbox, 1);
      expect(receiver.received).toHaveLength(n);
    }
    [delivery] = await deliveries(sandbox);
    expect(delivery!.status).toBe('delivered');
    expect(delivery!.attempts.map((a) => a.response_status)).toEqual([500, 500, 500, 500, 200]);
    expect(new Set(receiver.received.map((r) => r.body.id)).size).toBe(1);
  });

  it('500 ×5 → failed after 5 attempts and no more retries', async () => {
    const sandbox = await testSandbox({ realNow: new ManualTime().now });
    const receiver = await startReceiver();
    receiver.respond = () => ({ status: 500, body: 'down' });
    const actor = await createMerchant(sandbox);
    await addEndpoint(sandbox, actor, receiver.url, ['checkout.created']);
    await createCheckout(sandbox, actor);
    await receiver.count(1);
    await sandbox.ctx.dispatcher.idle();
    for (const seconds of [300, 1800, 7200, 18000]) await advance(sandbox, seconds);
    const [delivery] = await deliveries(sandbox);
    expect(delivery!.status).toBe('failed');
    expect(delivery!.attempts).toHaveLength(5);
    expect(delivery!.next_attempt_at).toBeNull();
    await advance(sandbox, 30 * 86400);
    expect(receiver.received).toHaveLength(5);
    const failed = await deliveries(sandbox, '?status=failed');
    expect(failed).toHaveLength(1);
  });

  it('no answer within the timeout is a failed attempt; a connection error too', async () => {
    const sandbox = await testSandbox();
    await sandbox.apps.test.inject({
      method: 'PATCH',
      url: '/sandbox/settings',
      payload: { webhook_timeout_ms: 150 },
    });
    const receiver = await startReceiver();
    receiver.respond = () => ({ status: 200, delayMs: 2000 });
    const actor = await createMerchant(sandbox);
    await addEndpoint(sandbox, actor, receiver.url, ['checkout.created']);
    await addEndpoint(sandbox, actor, 'http://127.0.0.1:1/refused', ['checkout.created']);
    await createCheckout(sandbox, actor);
    await receiver.count(1);
    await sandbox.ctx.dispatcher.idle();
    const list = await deliveries(sandbox);
    expect(list).toHaveLength(2);
    for (const delivery of list) {
      expect(delivery.status).toBe('pending');
      expect(delivery.attempts).toHaveLength(1);
      expect(delivery.attempts[0]!.response_status).toBeNull();
      expect(delivery.attempts[0]!.error).toBeTruthy();
    }
    expect(list.map((d) => d.attempts[0]!.error).join(' ')).toMatch(/timeout/);
    expect(list.map((d) => d.attempts[0]!.error).join(' ')).toMatch(/ECONNREFUSED/);
  });

  it('manual retry makes a new attempt with the same delivery id', async () => {
    const sandbox = await testSandbox({ realNow: new ManualTime().now });
    const receiver = await startReceiver();
    receiver.respond = (_r, i) => ({ status: i === 0 ? 503 : 200 });
    const actor = await createMerchant(sandbox);
    await addEndpoint(sandbox, actor, receiver.url, ['checkout.created']);
    await createCheckout(sandbox, actor);
    await receiver.count(1);
    await sandbox.ctx.dispatcher.idle();
    const [pending] = await deliveries(sandbox);
    const retried = await sandbox.apps.test.inject({
      method: 'POST',
      url: `/sandbox/deliveries/${pending!.id}/retry`,
    });
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json().status).toBe('delivered');
    expect(retried.json().attempts.map((a: { number: number }) => a.number)).toEqual([1, 2]);
    expect(receiver.received.map((r) => r.body.id)).toEqual([pending!.id, pending!.id]);
    // Delivered: the scheduled retry is gone.
    await advance(sandbox, 3600);
    expect(receiver.received).toHaveLength(2);
    const unknown = await sandbox.apps.test.inject({
      method: 'POST',
      url: '/sandbox/deliveries/00000000-0000-4000-8000-000000000000/retry',
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('a delivery pending at shutdown fires after a restart on the same file', async () => {
    const dir = tempDir();
    const dbPath = `${dir}/sandbox.db`;
    const time = new ManualTime();
    const receiver = await startReceiver();
    receiver.respond = (_r, i) => ({ status: i === 0 ? 500 : 200 });
    const first = await testSandbox({ dbPath, realNow: time.now });
    const actor = await createMerchant(first);
    await addEndpoint(first, actor, receiver.url, ['checkout.created']);
    await createCheckout(first, actor);
    await receiver.count(1);
    await first.close();

    const second = await testSandbox({ dbPath, realNow: time.now });
    const [pending] = await deliveries(second);
    expect(pending!.status).toBe('pending');
    await advance(second, 300);
    expect(receiver.received).toHaveLength(2);
    const [after] = await deliveries(second);
    expect(after!.status).toBe('delivered');
    expect(after!.attempts).toHaveLength(2);
  });

  it('fans out only to subscribed endpoints of that merchant and environment', async () => {
    const sandbox = await testSandbox();
    const receiver = await startReceiver();
    const actor = await createMerchant(sandbox, 'One');
    const other = await createMerchant(sandbox, 'Two');
    await addEndpoint(sandbox, actor, `${receiver.url}?sub=paid`, ['checkout.paid']);
    await addEndpoint(sandbox, actor, `${receiver.url}?sub=all`);
    await addEndpoint(sandbox, actor, `${receiver.url}?sub=prod`, undefined, 'production');
    await addEndpoint(sandbox, other, `${receiver.url}?sub=other`);

    const checkout = await createCheckout(sandbox, actor);
    await sandbox.apps.test.inject({ method: 'POST', url: `/sandbox/checkouts/${checkout.id}/payments` });
    await receiver.count(3);
    await sandbox.ctx.dispatcher.idle();
    const seen = await deliveries(sandbox, `?merchant_id=${actor.merchantId}`);
    const byEvent = (event: string) => seen.filter((d) => d.event === event).length;
    expect(byEvent('checkout.created')).toBe(1);
    expect(byEvent('checkout.paid')).toBe(2);
    expect(await deliveries(sandbox, `?merchant_id=${other.merchantId}`)).toHaveLength(0);
    expect(await deliveries(sandbox, '?env=production')).toHaveLength(0);

    // A production checkout reaches only the production endpoint.
    await createCheckout(sandbox, actor, 'production');
    await receiver.count(4);
    await sandbox.ctx.dispatcher.idle();
    const prod = await deliveries(sandbox, '?env=production');
    expect(prod).toHaveLength(1);
    expect(receiver.received.at(-1)!.body.event).toBe('checkout.created');
    expect(await deliveries(sandbox, '?event=checkout.paid')).toHaveLength(2);
  });

  it('a slow endpoint does not hold up the others', async () => {
    const sandbox = await testSandbox();
    const slow = await startReceiver();
    slow.respond = () => ({ status: 200, delayMs: 1500 });
    const fast = await startReceiver();
    const actor = await createMerchant(sandbox);
    await addEndpoint(sandbox, actor, slow.url, ['checkout.created']);
    await addEndpoint(sandbox, actor, fast.url, ['checkout.created']);
    const started = performance.now();
    for (let i = 0; i < 3; i++) await createCheckout(sandbox, actor);
    await fast.count(3);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(slow.received.length).toBeGreaterThanOrEqual(1);
  });
});

describe('clock advances run due work at its due time', () => {
  it('stamps settlement at paid + 60 s even when the clock jumps further', async () => {
    const sandbox = await testSandbox({ realNow: new ManualTime().now });
    const actor = await createMerchant(sandbox);
    const checkout = await createCheckout(sandbox, actor);
    const paid = await sandbox.apps.test.inject({
      method: 'POST',
      url: `/sandbox/checkouts/${checkout.id}/payments`,
    });
    const paidAt = Date.parse(paid.json().checkout.paid_at);
    await advance(sandbox, 400);
    const events = (
      await sandbox.apps.test.inject({ url: `/sandbox/merchants/${actor.merchantId}/events` })
    ).json();
    const completed = events.find((e: { type: string }) => e.type === 'checkout.completed');
    expect(Date.parse(completed.created_at) - paidAt).toBe(60_000);
    expect(sandbox.ctx.clock.now() - paidAt).toBe(400_000);
  });

  it('one 8-hour jump runs every retry that falls inside it, each at its own time', async () => {
    const sandbox = await testSandbox({ realNow: new ManualTime().now });
    const receiver = await startReceiver();
    receiver.respond = () => ({ status: 500 });
    const actor = await createMerchant(sandbox);
    await addEndpoint(sandbox, actor, receiver.url, ['checkout.created']);
    await createCheckout(sandbox, actor);
    await receiver.count(1);
    await sandbox.ctx.dispatcher.idle();
    await advance(sandbox, 8 * 3600);
    const [delivery] = await deliveries(sandbox);
    expect(delivery!.status).toBe('failed');
    expect(delivery!.attempts).toHaveLength(5);
    const full = (await sandbox.apps.test.inject({ url: `/sandbox/deliveries/${delivery!.id}` })).json();
    const times = full.attempts.map((a: { at: string }) => Date.parse(a.at));
    const gaps = times.slice(1).map((t: number, i: number) => t - times[i]);
    expect(gaps).toEqual([5 * 60_000, 30 * 60_000, 2 * 3600_000, 5 * 3600_000]);
  });
});
