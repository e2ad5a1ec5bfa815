import { describe, expect, it } from 'vitest';
import type { Delivery, EndpointHealth, WebhookEndpoint } from '../../../server/contract/webhooks.js';
import type { Sandbox } from '../../../server/sandbox.js';
import { verify } from '../../../server/webhooks/signing.js';
import { advance, call, createCheckout, expectError, ok, UNKNOWN_ID } from '../../helpers/api.js';
import { startReceiver } from '../../helpers/receiver.js';
import { type Actor, createMerchant, tempDir, testSandbox } from '../../helpers/sandbox.js';

// The webhook workbench's control API: a chosen secret and listen's marker on create, listen's
// stable secret, each endpoint's health, and resending a delivery to another endpoint.

const SECRET = 'whsec_0123456789abcdefABCDEF';

function addEndpoint(sandbox: Sandbox, actor: Actor, payload: Record<string, unknown>, env = 'test') {
  return call(sandbox, {
    method: 'POST',
    url: `/sandbox/merchants/${actor.merchantId}/webhook-endpoints?env=${env}`,
    payload,
  });
}

async function deliveriesOf(sandbox: Sandbox, endpointId: string): Promise<Delivery[]> {
  await sandbox.ctx.dispatcher.idle();
  return ok<Delivery[]>(await call(sandbox, { url: `/sandbox/deliveries?endpoint_id=${endpointId}` }));
}

describe('endpoint create: a chosen secret and forward_to', () => {
  it('signs with the chosen secret and marks listen endpoints by forward_to', async () => {
    const sandbox = await testSandbox();
    const actor = await createMerchant(sandbox);
    const receiver = await startReceiver();
    const endpoint = ok<WebhookEndpoint>(
      await addEndpoint(sandbox, actor, {
        url: receiver.url,
        secret: SECRET,
        forward_to: 'http://localhost:3000/webhooks',
      }),
    );
    expect(endpoint.secret).toBe(SECRET);
    expect(endpoint.forward_to).toBe('http://localhost:3000/webhooks');
    const plain = ok<WebhookEndpoint>(await addEndpoint(sandbox, actor, { url: 'http://127.0.0.1:9/x' }));
    expect(plain.forward_to).toBeNull();
    expect(plain.secret).not.toBe(SECRET);

    await createCheckout(sandbox, actor);
    await receiver.count(1);
    const got = receiver.received[0]!;
    expect(verify(SECRET, got.raw, got.headers['x-svc-signature'] as string)).toBe(true);
  });

  it('refuses a malformed secret or forward_to with 422 naming the field', async () => {
    const sandbox = await testSandbox();
    const actor = await createMerchant(sandbox);
    for (const secret of [
      'whsec_short',
      'sk_0123456789abcdefABCDEF',
      `whsec_${'a'.repeat(65)}`,
      'whsec_0123456789abcdef!',
    ])
      expectError(await addEndpoint(sandbox, actor, { url: 'http://127.0.0.1:9/x', secret }), 422, 'secret');
    expectError(
      await addEndpoint(sandbox, actor, { url: 'http://127.0.0.1:9/x', forward_to: 'ftp://x' }),
      422,
      'forward_to',
    );
    expectError(
      await addEndpoint(sandbox, actor, { url: 'http://127.0.0.1:9/x', forward_to: 'not a url' }),
      422,
      'forward_to',
    );
  });
});

describe('listen secret', () => {
  it('is made once and kept across reads, resets and restarts of the sandbox', async () => {
    const dbPath = `${tempDir()}/sandbox.db`;
    const first = await testSandbox({ dbPath });
    const { secret } = ok<{ secret: string }>(await call(first, { url: '/sandbox/listen-secret' }));
    expect(secret).toMatch(/^whsec_[A-Za-z0-9]{32}$/);
    expect(ok<{ secret: string }>(await call(first, { url: '/sandbox/listen-secret' })).secret).toBe(secret);
    ok(await call(first, { method: 'POST', url: '/sandbox/reset' }));
    expect(ok<{ secret: string }>(await call(first, { url: '/sandbox/listen-secret' })).secret).toBe(secret);
    await first.close();
    const again = await testSandbox({ dbPath });
    expect(ok<{ secret: string }>(await call(again, { url: '/sandbox/listen-secret' })).secret).toBe(secret);
    // Another sandbox (another workspace's database) has its own.
    const other = await testSandbox();
    expect(ok<{ secret: string }>(await call(other, { url: '/sandbox/listen-secret' })).secret).not.toBe(
      secret,
    );
  });
});

describe('endpoint health', () => {
  it('counts a failure streak and deliveries given up; a success ends the streak', async () => {
    const sandbox = await testSandbox();
    const actor = await createMerchant(sandbox);
    const receiver = await startReceiver();
    receiver.respond = () => ({ status: 500, body: 'down' });
    const endpoint = ok<WebhookEndpoint>(
      await addEndpoint(sandbox, actor, { url: receiver.url, events: ['checkout.created'] }),
    );
    const quiet = ok<WebhookEndpoint>(
      await addEndpoint(sandbox, actor, { url: 'http://127.0.0.1:9/x', events: ['invoice.paid'] }),
    );
    const health = async () =>
      ok<EndpointHealth[]>(
        await call(sandbox, { url: `/sandbox/merchants/${actor.merchantId}/webhook-endpoints/health` }),
      );

    expect((await health()).map((h) => [h.endpoint_id, h.state])).toEqual([
      [quiet.id, 'idle'],
      [endpoint.id, 'idle'],
    ]);

    await createCheckout(sandbox, actor);
    await deliveriesOf(sandbox, endpoint.id);
    let mine = (await health()).find((h) => h.endpoint_id === endpoint.id)!;
    expect(mine).toMatchObject({
      state: 'failing',
      failure_streak: 1,
      given_up: 0,
      pending: 1,
      delivered: 0,
    });
    expect(mine.last_success_at).toBeNull();
    expect(mine.last_failure_at).not.toBeNull();

    // The retries (5 m, 30 m, 2 h, 5 h) all fail: the delivery is given up.
    for (const seconds of [300, 1800, 7200, 18_000]) {
      await advance(sandbox, seconds);
      await sandbox.ctx.dispatcher.idle();
    }
    mine = ok<EndpointHealth>(
      await call(sandbox, { url: `/sandbox/webhook-endpoints/${endpoint.id}/health` }),
    );
    expect(mine).toMatchObject({ state: 'down', failure_streak: 5, given_up: 1, pending: 0, delivered: 0 });

    // A success ends the streak; the delivery given up stays counted.
    receiver.respond = () => ({ status: 200, body: 'ok' });
    await createCheckout(sandbox, actor);
    await deliveriesOf(sandbox, endpoint.id);
    mine = ok<EndpointHealth>(
      await call(sandbox, { url: `/sandbox/webhook-endpoints/${endpoint.id}/health` }),
    );
    expect(mine).toMatchObject({ state: 'healthy', failure_streak: 0, given_up: 1, delivered: 1 });
    expect(mine.last_success_at).not.toBeNull();
  });

  it('404 for an unknown endpoint or merchant, 422 for a bad id or env', async () => {
    const sandbox = await testSandbox();
    expectError(await call(sandbox, { url: `/sandbox/webhook-endpoints/${UNKNOWN_ID}/health` }), 404);
    expectError(
      await call(sandbox, { url: `/sandbox/merchants/${UNKNOWN_ID}/webhook-endpoints/health` }),
      404,
    );
    expectError(await call(sandbox, { url: '/sandbox/webhook-endpoints/nope/health' }), 422, 'id');
    const actor = await createMerchant(sandbox);
    expectError(
      await call(sandbox, { url: `/sandbox/merchants/${actor.merchantId}/webhook-endpoints/health?env=x` }),
      422,
      'env',
    );
  });
});

describe('resend a delivery to another endpoint', () => {
  it("sends the same event and data, signed with the target's secret, as a new delivery", async () => {
    const sandbox = await testSandbox();
    const actor = await createMerchant(sandbox);
    const first = await startReceiver();
    const second = await startReceiver();
    const source = ok<WebhookEndpoint>(await addEndpoint(sandbox, actor, { url: first.url }));
    await createCheckout(sandbox, actor);
    await first.count(1);
    const [original] = await deliveriesOf(sandbox, source.id);
    const target = ok<WebhookEndpoint>(await addEndpoint(sandbox, actor, { url: second.url }));

    const resent = ok<Delivery>(
      await call(sandbox, {
        method: 'POST',
        url: `/sandbox/deliveries/${original!.id}/resend`,
        payload: { endpoint_id: target.id },
      }),
    );
    expect(resent).toMatchObject({
      endpoint_id: target.id,
      event_id: original!.event_id,
      event: 'checkout.created',
      url: second.url,
      status: 'delivered',
      attempt_count: 1,
    });
    expect(resent.id).not.toBe(original!.id);
    await second.count(1);
    const got = second.received[0]!;
    expect(got.body.id).toBe(resent.id);
    expect(got.body.data).toEqual(first.received[0]!.body.data);
    expect(verify(target.secret, got.raw, got.headers['x-svc-signature'] as string)).toBe(true);
    expect(verify(source.secret, got.raw, got.headers['x-svc-signature'] as string)).toBe(false);
    // The first endpoint got nothing more.
    expect(first.received).toHaveLength(1);
    expect((await deliveriesOf(sandbox, target.id)).map((d) => d.id)).toEqual([resent.id]);
  });

  it('needs the control token where the sandbox has one', async () => {
    const sandbox = await testSandbox({ controlToken: 'secret-token' });
    const url = `/sandbox/deliveries/${UNKNOWN_ID}/resend`;
    const payload = { endpoint_id: UNKNOWN_ID };
    expectError(await call(sandbox, { method: 'POST', url, payload }), 401, 'control token');
    const authorised = { 'x-svc-control-token': 'secret-token' };
    expectError(await call(sandbox, { method: 'POST', url, payload, headers: authorised }), 404);
    expectError(await call(sandbox, { url: '/sandbox/listen-secret' }), 401, 'control token');
  });

  it('validation and not-found', async () => {
    const sandbox = await testSandbox();
    const headers = {};
    const actor = await createMerchant(sandbox);
    const other = await createMerchant(sandbox, 'Other');
    const receiver = await startReceiver();
    const source = ok<WebhookEndpoint>(
      await call(sandbox, {
        method: 'POST',
        url: `/sandbox/merchants/${actor.merchantId}/webhook-endpoints`,
        headers,
        payload: { url: receiver.url },
      }),
    );
    await createCheckout(sandbox, actor);
    await receiver.count(1);
    await sandbox.ctx.dispatcher.idle();
    const [delivery] = ok<Delivery[]>(
      await call(sandbox, { url: `/sandbox/deliveries?endpoint_id=${source.id}`, headers }),
    );
    const foreign = ok<WebhookEndpoint>(
      await call(sandbox, {
        method: 'POST',
        url: `/sandbox/merchants/${other.merchantId}/webhook-endpoints`,
        headers,
        payload: { url: receiver.url },
      }),
    );
    const resend = (id: string, payload: Record<string, unknown>) =>
      call(sandbox, { method: 'POST', url: `/sandbox/deliveries/${id}/resend`, payload });
    expectError(await resend(UNKNOWN_ID, { endpoint_id: source.id }), 404, UNKNOWN_ID);
    expectError(await resend(delivery!.id, { endpoint_id: UNKNOWN_ID }), 422, 'endpoint_id');
    expectError(await resend(delivery!.id, { endpoint_id: foreign.id }), 422, 'endpoint_id');
    expectError(await resend(delivery!.id, {}), 422, 'endpoint_id');
    expectError(await resend(delivery!.id, { endpoint_id: 'nope' }), 422, 'endpoint_id');
    expectError(await resend('nope', { endpoint_id: source.id }), 422, 'id');
    ok(
      await call(sandbox, {
        method: 'PATCH',
        url: `/sandbox/webhook-endpoints/${source.id}`,
        headers,
        payload: { disabled: true },
      }),
    );
    expectError(await resend(delivery!.id, { endpoint_id: source.id }), 400, 'disabled');
  });
});
