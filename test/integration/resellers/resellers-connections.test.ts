import { beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../server/sandbox.js';
import {
  type Actor,
  type Checkout,
  call,
  createMerchant,
  events,
  expectError,
  inFuture,
  ok,
  UNKNOWN_ID,
} from '../../helpers/api.js';
import {
  connect,
  createCustomerOf,
  postCheckout,
  type ResellerConnection,
  v1,
} from '../../helpers/resellers.js';
import { useSharedSandbox } from '../../helpers/suite.js';

// spec: Reseller connection (fields, States and transitions) and Endpoints, Reseller; Authentication
// 4 and 6. One sandbox for the file; every test makes its own merchants.

describe('reseller connections', () => {
  const shared = useSharedSandbox();
  let sandbox: Sandbox;
  let reseller: Actor;
  let target: Actor;
  let other: Actor;

  beforeEach(async () => {
    sandbox = shared();
    reseller = await createMerchant(sandbox, 'Reseller');
    target = await createMerchant(sandbox, 'Target');
    other = await createMerchant(sandbox, 'Other');
  });

  const CONNECTION_KEYS = [
    'created_at',
    'id',
    'max_fee',
    'merchant_id',
    'min_fee',
    'rate',
    'reseller_id',
    'status',
    'updated_at',
  ];

  const outgoing = async (actor: Actor, query = '', env: 'test' | 'production' = 'test') =>
    ok<ResellerConnection[]>(
      await v1(sandbox, actor, 'GET', `/v1/reseller/connections${query}`, undefined, env),
    );
  const incoming = async (actor: Actor, env: 'test' | 'production' = 'test') =>
    ok<ResellerConnection[]>(
      await v1(
        sandbox,
        actor,
        'GET',
        `/v1/merchants/${actor.merchantId}/reseller-connections/incoming`,
        undefined,
        env,
      ),
    );
  const revoke = (
    actor: Actor,
    merchantId: string,
    connectionId: string,
    env: 'test' | 'production' = 'test',
  ) =>
    v1(
      sandbox,
      actor,
      'DELETE',
      `/v1/merchants/${merchantId}/reseller-connections/${connectionId}`,
      undefined,
      env,
    );
  const put = (actor: Actor, id: string, body: unknown, env: 'test' | 'production' = 'test') =>
    v1(sandbox, actor, 'PUT', `/v1/reseller/connections/${id}`, body, env);
  const remove = (actor: Actor, id: string, env: 'test' | 'production' = 'test') =>
    v1(sandbox, actor, 'DELETE', `/v1/reseller/connections/${id}`, undefined, env);

  describe('POST /v1/reseller/connections', () => {
    it('creates an active connection, effective at once: 200 with the connection object', async () => {
      const res = await v1(sandbox, reseller, 'POST', '/v1/reseller/connections', {
        merchant_id: target.merchantId,
        rate: 250,
        min_fee: 1_000_000,
        max_fee: 5_000_000,
      });
      const connection = ok<ResellerConnection>(res);
      expect(Object.keys(connection).sort()).toEqual(CONNECTION_KEYS);
      expect(connection).toMatchObject({
        reseller_id: reseller.merchantId,
        merchant_id: target.merchantId,
        status: 'active',
        rate: 250,
        min_fee: 1_000_000,
        max_fee: 5_000_000,
      });
      expect(connection.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(connection.created_at).toBe(connection.updated_at);
      // No approval step: the reseller may act for the merchant right away.
      const checkout = ok<Checkout>(
        await postCheckout(sandbox, reseller, { merchant_id: target.merchantId }),
      );
      expect(checkout).toMatchObject({ merchant_id: target.merchantId, reseller_id: reseller.merchantId });
    });

    it('caps are optional: absent or null is no cap; 0 and equal caps are valid', async () => {
      expect(await connect(sandbox, reseller, target.merchantId, { rate: 0 })).toMatchObject({
        rate: 0,
        min_fee: null,
        max_fee: null,
      });
      expect(
        await connect(sandbox, reseller, other.merchantId, { rate: 10_000, min_fee: 0, max_fee: 0 }),
      ).toMatchObject({ rate: 10_000, min_fee: 0, max_fee: 0 });
      const third = await createMerchant(sandbox, 'Third');
      expect(
        await connect(sandbox, reseller, third.merchantId, { rate: 1, min_fee: 7, max_fee: 7 }),
      ).toMatchObject({ min_fee: 7, max_fee: 7 });
      const fourth = await createMerchant(sandbox, 'Fourth');
      expect(
        await connect(sandbox, reseller, fourth.merchantId, { rate: 1, min_fee: null, max_fee: null }),
      ).toMatchObject({ min_fee: null, max_fee: null });
    });

    it('re-creating to the same merchant updates rate and caps in place (same id): active → active', async () => {
      const first = await connect(sandbox, reseller, target.merchantId, {
        rate: 100,
        min_fee: 5,
        max_fee: 50,
      });
      const again = await connect(sandbox, reseller, target.merchantId, { rate: 300, max_fee: 90 });
      // The body is the whole terms: the floor left out is no floor.
      expect(again).toMatchObject({ id: first.id, status: 'active', rate: 300, min_fee: null, max_fee: 90 });
      expect(again.created_at).toBe(first.created_at);
      expect(await outgoing(reseller)).toHaveLength(1);
    });

    it('re-creating a revoked connection reactivates it (revoked → active), same id, new terms', async () => {
      const first = await connect(sandbox, reseller, target.merchantId, { rate: 100 });
      ok(await revoke(target, target.merchantId, first.id));
      expectError(
        await postCheckout(sandbox, reseller, { merchant_id: target.merchantId }),
        403,
        'merchant_id',
      );
      const again = await connect(sandbox, reseller, target.merchantId, { rate: 700, min_fee: 1 });
      expect(again).toMatchObject({ id: first.id, status: 'active', rate: 700, min_fee: 1, max_fee: null });
      ok(await postCheckout(sandbox, reseller, { merchant_id: target.merchantId }));
      expect((await incoming(target)).map((c) => c.status)).toEqual(['active']);
    });

    it.each([
      ['merchant_id missing', { rate: 1 }, 'merchant_id'],
      ['merchant_id not a uuid', { merchant_id: 'nope', rate: 1 }, 'merchant_id'],
      ['rate missing', {}, 'rate'],
      ['rate negative', { rate: -1 }, 'rate'],
      ['rate above 10000', { rate: 10_001 }, 'rate'],
      ['rate fractional', { rate: 1.5 }, 'rate'],
      ['rate a string', { rate: '100' }, 'rate'],
      ['min_fee negative', { rate: 1, min_fee: -1 }, 'min_fee'],
      ['min_fee fractional', { rate: 1, min_fee: 0.5 }, 'min_fee'],
      ['min_fee a string', { rate: 1, min_fee: '5' }, 'min_fee'],
      ['max_fee negative', { rate: 1, max_fee: -1 }, 'max_fee'],
      ['max_fee fractional', { rate: 1, max_fee: 2.5 }, 'max_fee'],
      ['min_fee above max_fee', { rate: 1, min_fee: 10, max_fee: 9 }, 'min_fee'],
    ])('%s → 422 naming the field', async (_label, body, field) => {
      const payload = { merchant_id: target.merchantId, ...body };
      if (field === 'merchant_id' && !('merchant_id' in body))
        delete (payload as { merchant_id?: string }).merchant_id;
      const message = expectError(
        await v1(sandbox, reseller, 'POST', '/v1/reseller/connections', payload),
        422,
      );
      expect(message.startsWith(`${field}:`), message).toBe(true);
      expect(await outgoing(reseller)).toEqual([]);
    });

    it('a connection to yourself → 422 on merchant_id; an unknown merchant → 404; no key → 401', async () => {
      expectError(
        await v1(sandbox, reseller, 'POST', '/v1/reseller/connections', {
          merchant_id: reseller.merchantId,
          rate: 1,
        }),
        422,
        /^merchant_id: a merchant cannot connect to itself/,
      );
      expectError(
        await v1(sandbox, reseller, 'POST', '/v1/reseller/connections', { merchant_id: UNKNOWN_ID, rate: 1 }),
        404,
        UNKNOWN_ID,
      );
      expectError(
        await v1(sandbox, null, 'POST', '/v1/reseller/connections', {
          merchant_id: target.merchantId,
          rate: 1,
        }),
        401,
      );
      expect(await outgoing(reseller)).toEqual([]);
    });
  });

  describe('PUT /v1/reseller/connections/{id}', () => {
    it('updates the rate; a cap left out keeps its value; null removes it (active → active)', async () => {
      const c = await connect(sandbox, reseller, target.merchantId, { rate: 100, min_fee: 10, max_fee: 100 });
      const kept = ok<ResellerConnection>(await put(reseller, c.id, { rate: 200 }));
      expect(kept).toMatchObject({ id: c.id, status: 'active', rate: 200, min_fee: 10, max_fee: 100 });
      const floorless = ok<ResellerConnection>(await put(reseller, c.id, { rate: 300, min_fee: null }));
      expect(floorless).toMatchObject({ rate: 300, min_fee: null, max_fee: 100 });
      const changed = ok<ResellerConnection>(
        await put(reseller, c.id, { rate: 0, min_fee: 5, max_fee: null }),
      );
      expect(changed).toMatchObject({ rate: 0, min_fee: 5, max_fee: null });
      expect(await outgoing(reseller)).toEqual([changed]);
    });

    it.each([
      ['rate missing', { min_fee: 1 }, 'rate'],
      ['rate above 10000', { rate: 10_001 }, 'rate'],
      ['rate negative', { rate: -5 }, 'rate'],
      ['min_fee negative', { rate: 1, min_fee: -1 }, 'min_fee'],
      ['max_fee fractional', { rate: 1, max_fee: 1.5 }, 'max_fee'],
      ['min_fee above max_fee', { rate: 1, min_fee: 11, max_fee: 10 }, 'min_fee'],
      // The caps as they would be: the kept ceiling (100) is below the new floor.
      ['min_fee above the kept max_fee', { rate: 1, min_fee: 101 }, 'min_fee'],
      ['max_fee below the kept min_fee', { rate: 1, max_fee: 9 }, 'min_fee'],
    ])('%s → 422 naming the field, nothing changed', async (_label, body, field) => {
      const c = await connect(sandbox, reseller, target.merchantId, { rate: 100, min_fee: 10, max_fee: 100 });
      const message = expectError(await put(reseller, c.id, body), 422);
      expect(message.startsWith(`${field}:`), message).toBe(true);
      expect(await outgoing(reseller)).toEqual([c]);
    });

    it('only its reseller: the target merchant and others get 403; unknown id 404; no key 401', async () => {
      const c = await connect(sandbox, reseller, target.merchantId);
      expectError(await put(target, c.id, { rate: 1 }), 403, 'reseller');
      expectError(await put(other, c.id, { rate: 1 }), 403, 'reseller');
      expectError(await put(reseller, UNKNOWN_ID, { rate: 1 }), 404, UNKNOWN_ID);
      expectError(await put(reseller, 'not-a-uuid', { rate: 1 }), 422, 'connection_id');
      expectError(
        await put({ ...reseller, auth: { authorization: 'Bearer svcb_nope' } }, c.id, { rate: 1 }),
        401,
      );
      expectError(await v1(sandbox, null, 'PUT', `/v1/reseller/connections/${c.id}`, { rate: 1 }), 401);
      expect((await outgoing(reseller))[0]).toEqual(c);
    });

    it('a revoked connection cannot be updated (400): it is re-created with POST', async () => {
      const c = await connect(sandbox, reseller, target.merchantId, { rate: 100 });
      ok(await revoke(target, target.merchantId, c.id));
      expectError(
        await put(reseller, c.id, { rate: 200 }),
        400,
        /^Cannot update a reseller connection with status revoked/,
      );
      expect((await outgoing(reseller))[0]).toMatchObject({ status: 'revoked', rate: 100 });
    });
  });

  describe('GET /v1/reseller/connections', () => {
    it("the caller's outgoing connections, every status, newest first, paged", async () => {
      const a = await connect(sandbox, reseller, target.merchantId, { rate: 1 });
      const b = await connect(sandbox, reseller, other.merchantId, { rate: 2 });
      const third = await createMerchant(sandbox, 'Third');
      const c = await connect(sandbox, reseller, third.merchantId, { rate: 3 });
      ok(await revoke(other, other.merchantId, b.id));
      // An incoming connection is not outgoing.
      await connect(sandbox, target, reseller.merchantId);

      const all = await outgoing(reseller);
      expect(all.map((x) => x.id)).toEqual([c.id, b.id, a.id]);
      expect(all.map((x) => x.status)).toEqual(['active', 'revoked', 'active']);
      expect((await outgoing(reseller, '?limit=2')).map((x) => x.id)).toEqual([c.id, b.id]);
      expect((await outgoing(reseller, `?limit=2&starting_after=${b.id}`)).map((x) => x.id)).toEqual([a.id]);
      expectError(await v1(sandbox, reseller, 'GET', '/v1/reseller/connections?limit=0'), 422, 'limit');
      expectError(
        await v1(sandbox, reseller, 'GET', `/v1/reseller/connections?starting_after=${UNKNOWN_ID}`),
        422,
        'starting_after',
      );
      expect(await outgoing(other)).toEqual([]);
      expectError(await v1(sandbox, null, 'GET', '/v1/reseller/connections'), 401);
    });
  });

  describe('DELETE /v1/reseller/connections/{id}', () => {
    it('204: the record is gone for both sides, access with it; re-creating makes a new connection', async () => {
      const c = await connect(sandbox, reseller, target.merchantId);
      const res = await remove(reseller, c.id);
      expect(res.statusCode, res.body).toBe(204);
      expect(res.body).toBe('');
      expect(await outgoing(reseller)).toEqual([]);
      expect(await incoming(target)).toEqual([]);
      expectError(
        await postCheckout(sandbox, reseller, { merchant_id: target.merchantId }),
        403,
        'merchant_id',
      );
      expectError(await remove(reseller, c.id), 404, c.id);
      expectError(await put(reseller, c.id, { rate: 1 }), 404);
      const fresh = await connect(sandbox, reseller, target.merchantId);
      expect(fresh.id).not.toBe(c.id);
    });

    it('removes a revoked connection too (any status)', async () => {
      const c = await connect(sandbox, reseller, target.merchantId);
      ok(await revoke(target, target.merchantId, c.id));
      expect((await remove(reseller, c.id)).statusCode).toBe(204);
      expect(await incoming(target)).toEqual([]);
    });

    it('the reseller only: the target merchant and others get 403; unknown 404; no key 401', async () => {
      const c = await connect(sandbox, reseller, target.merchantId);
      expectError(await remove(target, c.id), 403);
      expectError(await remove(other, c.id), 403);
      expectError(await remove(reseller, UNKNOWN_ID), 404);
      expectError(await v1(sandbox, null, 'DELETE', `/v1/reseller/connections/${c.id}`), 401);
      expect(await outgoing(reseller)).toEqual([c]);
    });
  });

  describe('GET /v1/merchants/{id}/reseller-connections/incoming', () => {
    it('connections targeting the caller, active and revoked, newest first', async () => {
      const a = await connect(sandbox, reseller, target.merchantId, { rate: 1 });
      const b = await connect(sandbox, other, target.merchantId, { rate: 2 });
      ok(await revoke(target, target.merchantId, a.id));
      await connect(sandbox, target, other.merchantId); // outgoing: not listed
      const list = await incoming(target);
      expect(list.map((c) => [c.id, c.status])).toEqual([
        [b.id, 'active'],
        [a.id, 'revoked'],
      ]);
      const url = `/v1/merchants/${target.merchantId}/reseller-connections/incoming`;
      expect(
        ok<ResellerConnection[]>(await v1(sandbox, target, 'GET', `${url}?limit=1`)).map((c) => c.id),
      ).toEqual([b.id]);
      expect(
        ok<ResellerConnection[]>(await v1(sandbox, target, 'GET', `${url}?starting_after=${b.id}`)).map(
          (c) => c.id,
        ),
      ).toEqual([a.id]);
    });

    it("{id} must be the caller's own merchant: another's 403, unknown 404, malformed 422, no key 401", async () => {
      await connect(sandbox, reseller, target.merchantId);
      const url = (id: string) => `/v1/merchants/${id}/reseller-connections/incoming`;
      expectError(await v1(sandbox, reseller, 'GET', url(target.merchantId)), 403, target.merchantId);
      expectError(await v1(sandbox, other, 'GET', url(target.merchantId)), 403);
      expectError(await v1(sandbox, target, 'GET', url(UNKNOWN_ID)), 404, UNKNOWN_ID);
      expectError(await v1(sandbox, target, 'GET', url('nope')), 422, 'id');
      expectError(await v1(sandbox, null, 'GET', url(target.merchantId)), 401);
    });
  });

  describe('DELETE /v1/merchants/{id}/reseller-connections/{connection_id} (revoke)', () => {
    it('200 with the revoked connection (record kept); the reseller loses access at once', async () => {
      const c = await connect(sandbox, reseller, target.merchantId, { rate: 300 });
      ok(await postCheckout(sandbox, reseller, { merchant_id: target.merchantId }));
      const revoked = ok<ResellerConnection>(await revoke(target, target.merchantId, c.id));
      expect(revoked).toMatchObject({
        id: c.id,
        status: 'revoked',
        rate: 300,
        reseller_id: reseller.merchantId,
      });
      expect(await incoming(target)).toEqual([revoked]);
      expect(await outgoing(reseller)).toEqual([revoked]);

      // The very next on-behalf create of each kind is refused.
      expectError(
        await postCheckout(sandbox, reseller, { merchant_id: target.merchantId }),
        403,
        'merchant_id',
      );
      expectError(
        await v1(sandbox, reseller, 'POST', '/v1/invoices', {
          title: 'T',
          customer_name: 'A',
          amount: 1,
          merchant_id: target.merchantId,
        }),
        403,
        'merchant_id',
      );
      expectError(
        await v1(sandbox, reseller, 'POST', '/v1/customers', { name: 'C', merchant_id: target.merchantId }),
        403,
        'merchant_id',
      );
    });

    it('revoking twice → 400 (revoked → revoked is not a move)', async () => {
      const c = await connect(sandbox, reseller, target.merchantId);
      ok(await revoke(target, target.merchantId, c.id));
      expectError(
        await revoke(target, target.merchantId, c.id),
        400,
        /^Cannot revoke a reseller connection with status revoked/,
      );
    });

    it('the caller must be merchant {id} and the connection must target it (403); unknown 404; no key 401', async () => {
      const c = await connect(sandbox, reseller, target.merchantId);
      const own = await connect(sandbox, target, other.merchantId); // target's outgoing one
      // The reseller cannot revoke in the target's name, nor in its own (it is not the target).
      expectError(await revoke(reseller, target.merchantId, c.id), 403);
      expectError(await revoke(reseller, reseller.merchantId, c.id), 403, 'does not target');
      expectError(await revoke(other, target.merchantId, c.id), 403);
      // A merchant cannot revoke its own outgoing connection through the incoming route.
      expectError(await revoke(target, target.merchantId, own.id), 403, 'does not target');
      expectError(await revoke(target, target.merchantId, UNKNOWN_ID), 404, UNKNOWN_ID);
      expectError(await revoke(target, UNKNOWN_ID, c.id), 404, UNKNOWN_ID);
      expectError(await revoke(target, target.merchantId, 'nope'), 422, 'connection_id');
      expectError(
        await v1(sandbox, null, 'DELETE', `/v1/merchants/${target.merchantId}/reseller-connections/${c.id}`),
        401,
      );
      expect((await incoming(target))[0]).toMatchObject({ id: c.id, status: 'active' });
    });
  });

  describe('acting for a connected merchant (merchant_id on create)', () => {
    it('checkout: created under the target merchant, carrying reseller_id; the target sees it, the reseller does not', async () => {
      await connect(sandbox, reseller, target.merchantId);
      const checkout = ok<Checkout>(
        await postCheckout(sandbox, reseller, { merchant_id: target.merchantId, reference: 'r-1' }),
      );
      expect(checkout).toMatchObject({
        merchant_id: target.merchantId,
        reseller_id: reseller.merchantId,
        reseller_fee: 0,
        platform_fee: 0,
      });
      const targetList = ok<Checkout[]>(await v1(sandbox, target, 'GET', '/v1/checkouts'));
      expect(targetList.map((c) => c.id)).toEqual([checkout.id]);
      expect(ok<Checkout[]>(await v1(sandbox, reseller, 'GET', '/v1/checkouts'))).toEqual([]);
      // Only creation takes merchant_id: reading it back is the merchant's.
      expectError(await v1(sandbox, reseller, 'GET', `/v1/checkouts/${checkout.id}`), 403);
      // The reference is unique per (target) merchant.
      expectError(await postCheckout(sandbox, target, { reference: 'r-1' }), 400, 'Duplicate reference');
      // The event is the target merchant's and names the reseller.
      const created = (await events(sandbox, target.merchantId)).find((e) => e.type === 'checkout.created');
      expect(created?.data).toMatchObject({
        merchant_id: target.merchantId,
        reseller_id: reseller.merchantId,
      });
      expect(
        (await events(sandbox, reseller.merchantId)).filter((e) => e.type === 'checkout.created'),
      ).toEqual([]);
    });

    it('own merchant_id is the caller itself (no reseller); a merchant without a connection → 403', async () => {
      const own = ok<Checkout>(await postCheckout(sandbox, reseller, { merchant_id: reseller.merchantId }));
      expect(own).toMatchObject({ merchant_id: reseller.merchantId, reseller_id: null });
      expectError(
        await postCheckout(sandbox, reseller, { merchant_id: target.merchantId }),
        403,
        target.merchantId,
      );
      expectError(await postCheckout(sandbox, reseller, { merchant_id: UNKNOWN_ID }), 403, 'merchant_id');
      // A connection the other way round gives the reseller nothing.
      await connect(sandbox, target, reseller.merchantId);
      expectError(await postCheckout(sandbox, reseller, { merchant_id: target.merchantId }), 403);
    });

    it("customer_id must be the target merchant's customer", async () => {
      await connect(sandbox, reseller, target.merchantId);
      const mine = await createCustomerOf(sandbox, reseller, 'Mine');
      const theirs = await createCustomerOf(sandbox, target, 'Theirs');
      expectError(
        await postCheckout(sandbox, reseller, { merchant_id: target.merchantId, customer_id: mine }),
        403,
        'Customer',
      );
      const ok1 = ok<Checkout>(
        await postCheckout(sandbox, reseller, { merchant_id: target.merchantId, customer_id: theirs }),
      );
      expect(ok1.customer_id).toBe(theirs);
    });

    it("customer: created under the target merchant (the spec's customer has no reseller_id)", async () => {
      await connect(sandbox, reseller, target.merchantId);
      const customer = ok<{ id: string; merchant_id: string }>(
        await v1(sandbox, reseller, 'POST', '/v1/customers', {
          name: 'Cleo',
          merchant_id: target.merchantId,
        }),
      );
      expect(customer.merchant_id).toBe(target.merchantId);
      expect(customer).not.toHaveProperty('reseller_id');
      const list = ok<{ id: string }[]>(await v1(sandbox, target, 'GET', '/v1/customers'));
      expect(list.map((c) => c.id)).toEqual([customer.id]);
      expect(ok<unknown[]>(await v1(sandbox, reseller, 'GET', '/v1/customers'))).toEqual([]);
    });

    it("invoice: created under the target merchant; its checkout (at the target's activation) inherits the reseller", async () => {
      await connect(sandbox, reseller, target.merchantId, { rate: 400 });
      const invoice = ok<{ id: string; merchant_id: string; customer_id: string; invoice_number: string }>(
        await v1(sandbox, reseller, 'POST', '/v1/invoices', {
          title: 'Consulting',
          customer_name: 'Ada',
          amount: 10_000_000,
          merchant_id: target.merchantId,
        }),
      );
      expect(invoice).toMatchObject({ merchant_id: target.merchantId, invoice_number: 'INV-000001' });
      expect(invoice).not.toHaveProperty('reseller_id');
      // The inline customer is the target's.
      const customers = ok<{ id: string }[]>(await v1(sandbox, target, 'GET', '/v1/customers'));
      expect(customers.map((c) => c.id)).toEqual([invoice.customer_id]);
      const activated = ok<{ checkout: Checkout }>(
        await v1(sandbox, target, 'POST', `/v1/invoices/${invoice.id}/activate`, {}),
      );
      expect(activated.checkout).toMatchObject({
        merchant_id: target.merchantId,
        reseller_id: reseller.merchantId,
      });
    });

    it('an invoice whose connection was revoked before activation gets a checkout without reseller', async () => {
      const c = await connect(sandbox, reseller, target.merchantId);
      const invoice = ok<{ id: string }>(
        await v1(sandbox, reseller, 'POST', '/v1/invoices', {
          title: 'Later',
          customer_name: 'Bo',
          amount: 10_000_000,
          merchant_id: target.merchantId,
        }),
      );
      ok(await revoke(target, target.merchantId, c.id));
      const activated = ok<{ checkout: Checkout }>(
        await v1(sandbox, target, 'POST', `/v1/invoices/${invoice.id}/activate`, {}),
      );
      expect(activated.checkout.reseller_id).toBeNull();
    });

    it('the control API acts as the reseller: POST /sandbox/merchants/{id}/checkouts with merchant_id', async () => {
      const url = `/sandbox/merchants/${reseller.merchantId}/checkouts?env=test`;
      const body = {
        title: 'Dashboard',
        amount: 1_000_000,
        expires_at: inFuture(sandbox),
        merchant_id: target.merchantId,
      };
      expectError(await call(sandbox, { method: 'POST', url, payload: body }), 403, 'merchant_id');
      await connect(sandbox, reseller, target.merchantId);
      const checkout = ok<Checkout>(await call(sandbox, { method: 'POST', url, payload: body }));
      expect(checkout).toMatchObject({ merchant_id: target.merchantId, reseller_id: reseller.merchantId });
    });
  });

  describe('environments: a connection exists in one environment only', () => {
    it('a test connection is invisible on the production address, and gives no access there', async () => {
      const c = await connect(sandbox, reseller, target.merchantId);
      expect(await outgoing(reseller, '', 'production')).toEqual([]);
      expect(await incoming(target, 'production')).toEqual([]);
      expectError(await put(reseller, c.id, { rate: 1 }, 'production'), 404);
      expectError(await remove(reseller, c.id, 'production'), 404);
      expectError(await revoke(target, target.merchantId, c.id, 'production'), 404);
      expectError(
        await postCheckout(sandbox, reseller, { merchant_id: target.merchantId }, 'production'),
        403,
        'merchant_id',
      );

      // Its own production connection: another id, its own terms, independent of the test one.
      const prod = await connect(sandbox, reseller, target.merchantId, { rate: 900 }, 'production');
      expect(prod.id).not.toBe(c.id);
      const checkout = ok<Checkout>(
        await postCheckout(sandbox, reseller, { merchant_id: target.merchantId }, 'production'),
      );
      expect(checkout.reseller_id).toBe(reseller.merchantId);
      ok(await revoke(target, target.merchantId, prod.id, 'production'));
      expect((await outgoing(reseller))[0]).toMatchObject({ id: c.id, status: 'active', rate: 500 });
      ok(await postCheckout(sandbox, reseller, { merchant_id: target.merchantId }));
    });
  });
});
