import { beforeEach, describe, expect, it } from 'vitest';
import type { ResellerConnections } from '../../../server/contract/resellers.js';
import type { Sandbox } from '../../../server/sandbox.js';
import {
  type Actor,
  call,
  createMerchant,
  expectError,
  type Json,
  ok,
  UNKNOWN_ID,
} from '../../helpers/api.js';
import { connect, income, postCheckout, type ResellerConnection } from '../../helpers/resellers.js';
import { testSandbox } from '../../helpers/sandbox.js';
import { useSharedSandbox } from '../../helpers/suite.js';

// The control API's reseller routes (README: control API), which the dashboard uses: the same rules
// as /v1, acting as the owner of the merchant concerned, in the environment named (or the connection's).

describe('reseller control API', () => {
  const shared = useSharedSandbox();
  let sandbox: Sandbox;
  let reseller: Actor;
  let target: Actor;

  beforeEach(async () => {
    sandbox = shared();
    reseller = await createMerchant(sandbox, 'Reseller');
    target = await createMerchant(sandbox, 'Target');
  });

  const send = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: Json) =>
    call(sandbox, { method, url, ...(payload === undefined ? {} : { payload }) });
  const both = async (id: string, env = 'test') =>
    ok<ResellerConnections>(await send('GET', `/sandbox/merchants/${id}/reseller-connections?env=${env}`));

  it('POST /sandbox/merchants/{id}/reseller-connections creates as reseller {id}; GET shows both directions', async () => {
    const created = ok<ResellerConnection>(
      await send('POST', `/sandbox/merchants/${reseller.merchantId}/reseller-connections?env=test`, {
        merchant_id: target.merchantId,
        rate: 150,
        max_fee: 2_000_000,
      }),
    );
    expect(created).toMatchObject({
      reseller_id: reseller.merchantId,
      merchant_id: target.merchantId,
      status: 'active',
      rate: 150,
      min_fee: null,
      max_fee: 2_000_000,
    });
    const back = await connect(sandbox, target, reseller.merchantId, { rate: 1 });
    expect(await both(reseller.merchantId)).toEqual({ outgoing: [created], incoming: [back] });
    expect(await both(target.merchantId)).toEqual({ outgoing: [back], incoming: [created] });
    // env defaults to test; production is its own.
    expect(
      ok<ResellerConnections>(
        await send('GET', `/sandbox/merchants/${reseller.merchantId}/reseller-connections`),
      ),
    ).toEqual({ outgoing: [created], incoming: [back] });
    expect(await both(reseller.merchantId, 'production')).toEqual({ outgoing: [], incoming: [] });
    const prod = ok<ResellerConnection>(
      await send('POST', `/sandbox/merchants/${reseller.merchantId}/reseller-connections?env=production`, {
        merchant_id: target.merchantId,
        rate: 9,
      }),
    );
    expect(await both(target.merchantId, 'production')).toEqual({ outgoing: [], incoming: [prod] });
  });

  it('create: the same errors as /v1 (422 per field, 404 unknown merchants)', async () => {
    const url = `/sandbox/merchants/${reseller.merchantId}/reseller-connections?env=test`;
    expectError(await send('POST', url, { merchant_id: target.merchantId, rate: 10_001 }), 422, /^rate:/);
    expectError(await send('POST', url, { rate: 1 }), 422, /^merchant_id:/);
    expectError(
      await send('POST', url, { merchant_id: target.merchantId, rate: 1, min_fee: 2, max_fee: 1 }),
      422,
      /^min_fee:/,
    );
    expectError(await send('POST', url, { merchant_id: reseller.merchantId, rate: 1 }), 422, /^merchant_id:/);
    expectError(await send('POST', url, { merchant_id: UNKNOWN_ID, rate: 1 }), 404, UNKNOWN_ID);
    expectError(
      await send('POST', `/sandbox/merchants/${UNKNOWN_ID}/reseller-connections`, {
        merchant_id: target.merchantId,
        rate: 1,
      }),
      404,
      UNKNOWN_ID,
    );
    expectError(await send('GET', `/sandbox/merchants/${UNKNOWN_ID}/reseller-connections`), 404);
    expectError(
      await send('GET', `/sandbox/merchants/${reseller.merchantId}/reseller-connections?env=x`),
      422,
      'env',
    );
    expect(await both(reseller.merchantId)).toEqual({ outgoing: [], incoming: [] });
  });

  it('PUT /sandbox/reseller-connections/{id} updates as its reseller, in its own environment', async () => {
    const prod = await connect(sandbox, reseller, target.merchantId, { rate: 100, min_fee: 5 }, 'production');
    const updated = ok<ResellerConnection>(
      await send('PUT', `/sandbox/reseller-connections/${prod.id}`, { rate: 300 }),
    );
    expect(updated).toMatchObject({ id: prod.id, rate: 300, min_fee: 5, status: 'active' });
    expect((await both(reseller.merchantId, 'production')).outgoing).toEqual([updated]);
    expectError(await send('PUT', `/sandbox/reseller-connections/${prod.id}`, { rate: -1 }), 422, /^rate:/);
    expectError(await send('PUT', `/sandbox/reseller-connections/${UNKNOWN_ID}`, { rate: 1 }), 404);
  });

  it('POST /sandbox/reseller-connections/{id}/revoke revokes as its target merchant (once)', async () => {
    const c = await connect(sandbox, reseller, target.merchantId);
    const revoked = ok<ResellerConnection>(
      await send('POST', `/sandbox/reseller-connections/${c.id}/revoke`),
    );
    expect(revoked).toMatchObject({ id: c.id, status: 'revoked' });
    expectError(await postCheckout(sandbox, reseller, { merchant_id: target.merchantId }), 403);
    expectError(await send('POST', `/sandbox/reseller-connections/${c.id}/revoke`), 400, 'revoked');
    expectError(await send('PUT', `/sandbox/reseller-connections/${c.id}`, { rate: 1 }), 400, 'revoked');
    expectError(await send('POST', `/sandbox/reseller-connections/${UNKNOWN_ID}/revoke`), 404);
  });

  it('DELETE /sandbox/reseller-connections/{id} removes it as its reseller: 204', async () => {
    const c = await connect(sandbox, reseller, target.merchantId);
    const res = await send('DELETE', `/sandbox/reseller-connections/${c.id}`);
    expect(res.statusCode, res.body).toBe(204);
    expect(await both(reseller.merchantId)).toEqual({ outgoing: [], incoming: [] });
    expectError(await send('DELETE', `/sandbox/reseller-connections/${c.id}`), 404);
  });

  it('GET /sandbox/merchants/{id}/reseller-income: [] without income; 404 unknown; 422 bad env', async () => {
    expect(await income(sandbox, reseller.merchantId)).toEqual([]);
    expectError(await send('GET', `/sandbox/merchants/${UNKNOWN_ID}/reseller-income`), 404);
    expectError(
      await send('GET', `/sandbox/merchants/${reseller.merchantId}/reseller-income?env=live`),
      422,
      'env',
    );
  });

  it('POST /sandbox/reset removes connections and users', async () => {
    const own = await testSandbox();
    const a = await createMerchant(own, 'A');
    const b = await createMerchant(own, 'B');
    await connect(own, a, b.merchantId);
    ok(
      await call(
        own,
        {
          method: 'POST',
          url: '/v1/reseller/provision',
          headers: a.auth,
          payload: {
            email: 'reset@shop.example',
            password: 'secret6',
            merchant_name: 'S',
            legal_name: 'S Ltd',
            country: 'FR',
            rate: 1,
          },
        },
        'production',
      ),
    );
    ok(await call(own, { method: 'POST', url: '/sandbox/reset' }));
    for (const table of ['reseller_connections', 'users', 'merchants']) {
      expect(own.db.prepare<[], { n: number }>(`SELECT COUNT(*) AS n FROM ${table}`).get()!.n, table).toBe(0);
    }
  });
});
