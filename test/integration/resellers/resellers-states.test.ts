import { beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../server/sandbox.js';
import { type Actor, createMerchant, expectError, ok } from '../../helpers/api.js';
import { connect, type ResellerConnection, v1 } from '../../helpers/resellers.js';
import { useSharedSandbox } from '../../helpers/suite.js';

// spec: States and transitions, Reseller connection — every row of the table over HTTP, and every
// move it refuses (400, the connection left exactly as it was, seen from both sides).

describe('reseller connection state table over HTTP', () => {
  const shared = useSharedSandbox();
  let sandbox: Sandbox;
  let reseller: Actor;
  let target: Actor;

  beforeEach(async () => {
    sandbox = shared();
    reseller = await createMerchant(sandbox, 'Reseller');
    target = await createMerchant(sandbox, 'Target');
  });

  const views = async () => ({
    outgoing: ok<ResellerConnection[]>(await v1(sandbox, reseller, 'GET', '/v1/reseller/connections')),
    incoming: ok<ResellerConnection[]>(
      await v1(sandbox, target, 'GET', `/v1/merchants/${target.merchantId}/reseller-connections/incoming`),
    ),
  });
  const create = (rate: number) =>
    v1(sandbox, reseller, 'POST', '/v1/reseller/connections', { merchant_id: target.merchantId, rate });
  const update = (id: string, rate: number) =>
    v1(sandbox, reseller, 'PUT', `/v1/reseller/connections/${id}`, { rate });
  const revoke = (id: string) =>
    v1(sandbox, target, 'DELETE', `/v1/merchants/${target.merchantId}/reseller-connections/${id}`);
  const remove = (id: string) => v1(sandbox, reseller, 'DELETE', `/v1/reseller/connections/${id}`);

  it('(none) → active (POST); active → active (PUT, POST); active → revoked (merchant DELETE); revoked → active (POST)', async () => {
    const created = ok<ResellerConnection>(await create(1));
    expect(created.status).toBe('active');
    expect(ok<ResellerConnection>(await update(created.id, 2))).toMatchObject({ status: 'active', rate: 2 });
    expect(ok<ResellerConnection>(await create(3))).toMatchObject({
      id: created.id,
      status: 'active',
      rate: 3,
    });
    expect(ok<ResellerConnection>(await revoke(created.id))).toMatchObject({ status: 'revoked', rate: 3 });
    expect(ok<ResellerConnection>(await create(4))).toMatchObject({
      id: created.id,
      status: 'active',
      rate: 4,
    });
    const { outgoing, incoming } = await views();
    expect(outgoing).toEqual(incoming);
    expect(outgoing).toEqual([expect.objectContaining({ id: created.id, status: 'active', rate: 4 })]);
  });

  it('refused: revoked → revoked (revoke again) and revoked → active by PUT; nothing changes', async () => {
    const c = await connect(sandbox, reseller, target.merchantId, { rate: 10 });
    ok(await revoke(c.id));
    const before = await views();
    expectError(await revoke(c.id), 400, 'status revoked');
    expectError(await update(c.id, 20), 400, 'status revoked');
    expect(await views()).toEqual(before);
  });

  it('any → removed (reseller DELETE), from active and from revoked', async () => {
    const active = await connect(sandbox, reseller, target.merchantId);
    expect((await remove(active.id)).statusCode).toBe(204);
    const again = await connect(sandbox, reseller, target.merchantId);
    ok(await revoke(again.id));
    expect((await remove(again.id)).statusCode).toBe(204);
    expect(await views()).toEqual({ outgoing: [], incoming: [] });
  });
});
