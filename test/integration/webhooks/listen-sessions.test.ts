import { describe, expect, it } from 'vitest';
import type { ListenSession, WebhookEndpoint } from '../../../server/contract/webhooks.js';
import type { Sandbox } from '../../../server/sandbox.js';
import { verify } from '../../../server/webhooks/signing.js';
import { call, createCheckout, expectError, ok, UNKNOWN_ID } from '../../helpers/api.js';
import { startReceiver } from '../../helpers/receiver.js';
import { createMerchant, testSandbox } from '../../helpers/sandbox.js';

// listen's session (POST/DELETE /sandbox/listen-sessions): an endpoint for every merchant now, and
// for a merchant made later at its first event, inside that event's transaction, so nothing from
// the session's start on goes unforwarded.

const open = (sandbox: Sandbox, payload: Record<string, unknown>, env = 'test') =>
  call(sandbox, { method: 'POST', url: `/sandbox/listen-sessions?env=${env}`, payload });

const endpointsOf = async (sandbox: Sandbox, merchantId: string) =>
  ok<WebhookEndpoint[]>(await call(sandbox, { url: `/sandbox/merchants/${merchantId}/webhook-endpoints` }));

describe('listen sessions', () => {
  it('covers the merchants there now and one made later from its very first event, then removes them all', async () => {
    const sandbox = await testSandbox();
    const early = await createMerchant(sandbox, 'Early');
    const receiver = await startReceiver();
    const session = ok<ListenSession>(
      await open(sandbox, { url: receiver.url, forward_to: 'http://localhost:3000/hooks' }),
    );
    expect(session.endpoints.map((e) => e.merchant_id)).toEqual([early.merchantId]);
    const secret = ok<{ secret: string }>(await call(sandbox, { url: '/sandbox/listen-secret' })).secret;
    expect(session.endpoints[0]).toMatchObject({
      url: `${receiver.url.replace(/\/+$/, '')}/${early.merchantId}`,
      secret,
      forward_to: 'http://localhost:3000/hooks',
    });

    // Made after the session began: its first event is delivered too.
    const late = await createMerchant(sandbox, 'Late');
    expect(await endpointsOf(sandbox, late.merchantId)).toEqual([]);
    const checkout = (await createCheckout(sandbox, late)) as { id: string };
    await receiver.count(1);
    const got = receiver.received[0]!;
    expect(got.body).toMatchObject({ event: 'checkout.created', data: { id: checkout.id } });
    expect(verify(secret, got.raw, got.headers['x-svc-signature'] as string)).toBe(true);
    const lateEndpoints = await endpointsOf(sandbox, late.merchantId);
    expect(lateEndpoints.map((e) => new URL(e.url).pathname)).toEqual([
      `${new URL(receiver.url).pathname.replace(/\/+$/, '')}/${late.merchantId}`,
    ]);
    // One endpoint per merchant however many events follow.
    await createCheckout(sandbox, late);
    await receiver.count(2);
    expect(await endpointsOf(sandbox, late.merchantId)).toHaveLength(1);

    const closed = ok<{ removed: number }>(
      await call(sandbox, { method: 'DELETE', url: `/sandbox/listen-sessions/${session.id}` }),
    );
    expect(closed.removed).toBe(2);
    expect(await endpointsOf(sandbox, early.merchantId)).toEqual([]);
    expect(await endpointsOf(sandbox, late.merchantId)).toEqual([]);
    // Closed: a new merchant gets nothing.
    const after = await createMerchant(sandbox, 'After');
    await createCheckout(sandbox, after);
    expect(await endpointsOf(sandbox, after.merchantId)).toEqual([]);
    expectError(
      await call(sandbox, { method: 'DELETE', url: `/sandbox/listen-sessions/${session.id}` }),
      404,
    );
  });

  it('with merchant_id covers that merchant only, in the environment asked for', async () => {
    const sandbox = await testSandbox();
    const one = await createMerchant(sandbox, 'One');
    const other = await createMerchant(sandbox, 'Other');
    const receiver = await startReceiver();
    const session = ok<ListenSession>(
      await open(
        sandbox,
        { url: receiver.url, forward_to: receiver.url, merchant_id: one.merchantId },
        'production',
      ),
    );
    expect(session.env).toBe('production');
    expect(session.endpoints.map((e) => [e.merchant_id, e.env])).toEqual([[one.merchantId, 'production']]);
    await createCheckout(sandbox, other);
    expect(await endpointsOf(sandbox, other.merchantId)).toEqual([]);
  });

  it('refuses bad input naming the field, unknown merchants and sessions, and needs the control token', async () => {
    const sandbox = await testSandbox();
    expectError(await open(sandbox, { forward_to: 'http://localhost:3000' }), 422, 'url');
    expectError(await open(sandbox, { url: 'http://127.0.0.1:9' }), 422, 'forward_to');
    expectError(await open(sandbox, { url: 'not a url', forward_to: 'http://localhost:3000' }), 422, 'url');
    expectError(
      await open(sandbox, { url: 'http://127.0.0.1:9', forward_to: 'http://localhost:3000', extra: 1 }),
      422,
    );
    expectError(
      await open(sandbox, {
        url: 'http://127.0.0.1:9',
        forward_to: 'http://localhost:3000',
        merchant_id: UNKNOWN_ID,
      }),
      404,
    );
    expectError(
      await call(sandbox, { method: 'DELETE', url: `/sandbox/listen-sessions/${UNKNOWN_ID}` }),
      404,
    );
    expectError(await call(sandbox, { method: 'DELETE', url: '/sandbox/listen-sessions/nope' }), 422, 'id');

    const guarded = await testSandbox({ controlToken: 'secret-token' });
    expectError(
      await call(guarded, {
        method: 'POST',
        url: '/sandbox/listen-sessions',
        payload: { url: 'http://127.0.0.1:9', forward_to: 'http://localhost:3000' },
      }),
      401,
      'control token',
    );
  });
});
