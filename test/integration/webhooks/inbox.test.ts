import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../server/sandbox.js';
import { createMerchant, testSandbox } from '../../helpers/sandbox.js';

async function post(sandbox: Sandbox, url: string, payload: unknown) {
  return sandbox.apps.test.inject({ method: 'POST', url, payload: payload as Record<string, unknown> });
}

describe('built-in inbox', () => {
  it('an inbox answers the status set for it, to rehearse failures', async () => {
    const sandbox = await testSandbox();
    const urls = await sandbox.listen();
    const actor = await createMerchant(sandbox);
    const put = await sandbox.apps.test.inject({
      method: 'PUT',
      url: '/sandbox/inboxes/flaky',
      payload: { response_status: 503 },
    });
    expect(put.json().response_status).toBe(503);
    await post(sandbox, `/sandbox/merchants/${actor.merchantId}/webhook-endpoints`, {
      url: `${urls.test}/sandbox/inbox/flaky`,
      events: ['deposit.received'],
    });
    await post(sandbox, '/sandbox/deposits', {
      merchant_id: actor.merchantId,
      chain: 'tron',
      currency: 'USDT',
      amount: 5_000_000,
    });
    await sandbox.ctx.scheduler.settle();
    const [delivery] = (await sandbox.apps.test.inject({ url: '/sandbox/deliveries' })).json();
    expect(delivery.status).toBe('pending');
    expect(delivery.attempts[0].response_status).toBe(503);
    const bad = await sandbox.apps.test.inject({
      method: 'PUT',
      url: '/sandbox/inboxes/flaky',
      payload: { response_status: 99 },
    });
    expect(bad.statusCode).toBe(422);
    const badName = await sandbox.apps.test.inject({ url: '/sandbox/inboxes/has%20space' });
    expect(badName.statusCode).toBe(422);
  });
});
