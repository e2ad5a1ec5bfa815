import { describe, expect, it } from 'vitest';
import { createMerchant, inFuture, testSandbox } from '../../helpers/sandbox.js';

describe('merchant views for the dashboard', () => {
  it('lists a merchant’s checkouts, static addresses and cardholders without an API key', async () => {
    const sandbox = await testSandbox();
    const actor = await createMerchant(sandbox);
    await sandbox.apps.test.inject({
      method: 'POST',
      url: '/v1/checkouts',
      headers: actor.auth,
      payload: { title: 'Seen', amount: 20_000_000, expires_at: inFuture(sandbox) },
    });
    await sandbox.apps.test.inject({
      method: 'POST',
      url: '/v1/cardholders',
      headers: actor.auth,
      payload: { name: 'Holder' },
    });
    const base = `/sandbox/merchants/${actor.merchantId}`;
    const checkouts = (await sandbox.apps.test.inject({ url: `${base}/checkouts` })).json();
    expect(checkouts.map((c: { title: string }) => c.title)).toEqual(['Seen']);
    expect(checkouts[0]).not.toHaveProperty('crypto_chains');
    expect((await sandbox.apps.test.inject({ url: `${base}/checkouts?env=production` })).json()).toEqual([]);
    const addresses = (await sandbox.apps.test.inject({ url: `${base}/static-addresses` })).json();
    expect(addresses.map((a: { chain: string }) => a.chain)).toEqual([
      'ethereum',
      'tron',
      'bitcoin',
      'polygon',
      'bsc',
    ]);
    const prodAddresses = (
      await sandbox.apps.test.inject({ url: `${base}/static-addresses?env=production` })
    ).json();
    expect(prodAddresses[0].address).not.toBe(addresses[0].address);
    const holders = (await sandbox.apps.test.inject({ url: `${base}/cardholders` })).json();
    expect(holders.map((h: { name: string }) => h.name)).toEqual(['Holder']);
    const missing = await sandbox.apps.test.inject({
      url: '/sandbox/merchants/00000000-0000-4000-8000-000000000000/checkouts',
    });
    expect(missing.statusCode).toBe(404);
    expect((await sandbox.apps.test.inject({ url: `${base}/checkouts?env=staging` })).statusCode).toBe(422);
  });
});
