import { describe, expect, it } from 'vitest';
import { createMerchant, inFuture, testSandbox } from '../../helpers/sandbox.js';

describe('smoke', () => {
  it('creates a checkout and pays it', async () => {
    const sandbox = await testSandbox();
    const { auth } = await createMerchant(sandbox);
    const created = await sandbox.apps.test.inject({
      method: 'POST',
      url: '/v1/checkouts',
      headers: auth,
      payload: { title: 'Order 1', amount: 25_000_000, expires_at: inFuture(sandbox) },
    });
    expect(created.statusCode).toBe(200);
    const checkout = created.json();
    expect(checkout.status).toBe('active');
    const paid = await sandbox.apps.test.inject({
      method: 'POST',
      url: `/sandbox/checkouts/${checkout.id}/payments`,
    });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().checkout.status).toBe('paid');
    const del = await sandbox.apps.test.inject({
      method: 'DELETE',
      url: `/v1/checkouts/${checkout.id}`,
      headers: auth,
    });
    expect(del.statusCode).toBe(400);
    expect(del.json().error).toContain('paid');
  });
});
