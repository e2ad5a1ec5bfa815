import type { InjectOptions } from 'fastify';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../server/sandbox.js';
import {
  type Actor,
  type Checkout,
  call,
  control,
  createCheckout,
  createKey,
  createMerchant,
  expectError,
  ok,
  UNKNOWN_ID,
} from '../../helpers/api.js';
import { useSharedSandbox } from '../../helpers/suite.js';

interface Endpoint {
  name: string;
  method: InjectOptions['method'];
  url: (ids: { checkout: string; customer: string }) => string;
  payload?: Record<string, unknown>;
}

const ENDPOINTS: Endpoint[] = [
  { name: 'POST /v1/checkouts', method: 'POST', url: () => '/v1/checkouts', payload: { title: 'x' } },
  { name: 'GET /v1/checkouts', method: 'GET', url: () => '/v1/checkouts' },
  { name: 'GET /v1/checkouts/{id}', method: 'GET', url: ({ checkout }) => `/v1/checkouts/${checkout}` },
  { name: 'DELETE /v1/checkouts/{id}', method: 'DELETE', url: ({ checkout }) => `/v1/checkouts/${checkout}` },
  { name: 'POST /v1/customers', method: 'POST', url: () => '/v1/customers', payload: { name: 'x' } },
  { name: 'GET /v1/customers', method: 'GET', url: () => '/v1/customers' },
  { name: 'GET /v1/customers/{id}', method: 'GET', url: ({ customer }) => `/v1/customers/${customer}` },
  {
    name: 'PUT /v1/customers/{id}',
    method: 'PUT',
    url: ({ customer }) => `/v1/customers/${customer}`,
    payload: { name: 'y' },
  },
  { name: 'DELETE /v1/customers/{id}', method: 'DELETE', url: ({ customer }) => `/v1/customers/${customer}` },
  { name: 'GET /v1/static-addresses', method: 'GET', url: () => '/v1/static-addresses' },
  { name: 'GET /v1/withdraw/chains', method: 'GET', url: () => '/v1/withdraw/chains' },
];

const BAD_HEADERS: { name: string; headers: Record<string, string>; mention: string }[] = [
  { name: 'missing header', headers: {}, mention: 'Missing' },
  { name: 'Basic scheme', headers: { authorization: 'Basic x' }, mention: 'Malformed' },
  { name: 'Bearer alone', headers: { authorization: 'Bearer' }, mention: 'Malformed' },
  { name: 'Bearer and spaces', headers: { authorization: 'Bearer    ' }, mention: 'Malformed' },
  { name: 'two tokens', headers: { authorization: 'Bearer svcb_a svcb_b' }, mention: 'Malformed' },
  { name: 'unknown key', headers: { authorization: 'Bearer svcb_doesnotexist' }, mention: 'Invalid' },
  { name: 'key without prefix', headers: { authorization: 'Bearer sk_live_123' }, mention: 'Invalid' },
];

describe('authentication on every /v1 endpoint', () => {
  const shared = useSharedSandbox();
  let sandbox: Sandbox;
  let owner: Actor;
  let ids: { checkout: string; customer: string };

  beforeEach(async () => {
    sandbox = shared();
    owner = await createMerchant(sandbox);
    const checkout = await createCheckout(sandbox, owner);
    const customer = ok<{ id: string }>(
      await call(sandbox, {
        method: 'POST',
        url: '/v1/customers',
        headers: owner.auth,
        payload: { name: 'C' },
      }),
    );
    ids = { checkout: checkout.id, customer: customer.id };
  });

  for (const endpoint of ENDPOINTS) {
    it(`${endpoint.name}: every bad credential → 401 {error}, nothing changes`, async () => {
      for (const bad of BAD_HEADERS) {
        const res = await call(sandbox, {
          method: endpoint.method,
          url: endpoint.url(ids),
          headers: bad.headers,
          ...(endpoint.payload ? { payload: endpoint.payload } : {}),
        });
        expectError(res, 401, bad.mention);
      }
      // The resources the failed calls pointed at are untouched.
      const checkout = ok<Checkout>(
        await call(sandbox, { method: 'GET', url: `/v1/checkouts/${ids.checkout}`, headers: owner.auth }),
      );
      expect(checkout.status).toBe('active');
      ok(await call(sandbox, { method: 'GET', url: `/v1/customers/${ids.customer}`, headers: owner.auth }));
    });

    it(`${endpoint.name}: a revoked key → 401 on the very next request`, async () => {
      const extra = await createKey(sandbox, owner.merchantId, 'admin');
      const first = await call(sandbox, {
        method: 'GET',
        url: '/v1/withdraw/chains',
        headers: extra.auth,
      });
      expect(first.statusCode).toBe(200);
      const revoked = ok<{ revoked_at: string | null }>(
        await control(sandbox, 'DELETE', `/sandbox/api-keys/${extra.id}`),
      );
      expect(revoked.revoked_at).not.toBeNull();
      const res = await call(sandbox, {
        method: endpoint.method,
        url: endpoint.url(ids),
        headers: extra.auth,
        ...(endpoint.payload ? { payload: endpoint.payload } : {}),
      });
      expectError(res, 401, 'revoked');
    });

    it(`${endpoint.name}: the same call with a valid key is not a 401`, async () => {
      const res = await call(sandbox, {
        method: endpoint.method,
        url: endpoint.url(ids),
        headers: owner.auth,
        ...(endpoint.payload ? { payload: endpoint.payload } : {}),
      });
      expect(res.statusCode).not.toBe(401);
      expect(res.statusCode).toBeLessThan(500);
    });
  }

  it('auth is checked before validation: a bad body or id with no key is 401, not 422', async () => {
    expectError(await call(sandbox, { method: 'POST', url: '/v1/checkouts', payload: { amount: 'x' } }), 401);
    expectError(await call(sandbox, { method: 'GET', url: '/v1/checkouts/not-a-uuid' }), 401);
    expectError(await call(sandbox, { method: 'GET', url: '/v1/checkouts?limit=abc' }), 401);
  });

  it('revoking one key leaves the merchant’s other keys working', async () => {
    const a = await createKey(sandbox, owner.merchantId);
    const b = await createKey(sandbox, owner.merchantId);
    ok(await control(sandbox, 'DELETE', `/sandbox/api-keys/${a.id}`));
    expectError(await call(sandbox, { method: 'GET', url: '/v1/checkouts', headers: a.auth }), 401);
    ok(await call(sandbox, { method: 'GET', url: '/v1/checkouts', headers: b.auth }));
    ok(await call(sandbox, { method: 'GET', url: '/v1/checkouts', headers: owner.auth }));
  });

  it('every role may use the /v1 endpoints that exist', async () => {
    for (const role of ['owner', 'admin', 'developer'] as const) {
      const key = await createKey(sandbox, owner.merchantId, role);
      const list = ok<Checkout[]>(
        await call(sandbox, { method: 'GET', url: '/v1/checkouts', headers: key.auth }),
      );
      expect(list.map((c) => c.id)).toContain(ids.checkout);
    }
  });
});

describe('access across merchants: 403 for another merchant’s resource, 404 for unknown ids', () => {
  const shared = useSharedSandbox();
  let sandbox: Sandbox;
  let alice: Actor;
  let bob: Actor;
  let checkout: Checkout;
  let customerId: string;

  beforeEach(async () => {
    sandbox = shared();
    alice = await createMerchant(sandbox, 'Alice');
    bob = await createMerchant(sandbox, 'Bob');
    checkout = await createCheckout(sandbox, alice);
    customerId = ok<{ id: string }>(
      await call(sandbox, {
        method: 'POST',
        url: '/v1/customers',
        headers: alice.auth,
        payload: { name: 'C' },
      }),
    ).id;
  });

  it('another merchant’s checkout: GET and DELETE → 403, and it stays active', async () => {
    expectError(
      await call(sandbox, { method: 'GET', url: `/v1/checkouts/${checkout.id}`, headers: bob.auth }),
      403,
    );
    expectError(
      await call(sandbox, { method: 'DELETE', url: `/v1/checkouts/${checkout.id}`, headers: bob.auth }),
      403,
    );
    const again = ok<Checkout>(
      await call(sandbox, { method: 'GET', url: `/v1/checkouts/${checkout.id}`, headers: alice.auth }),
    );
    expect(again.status).toBe('active');
  });

  it('another merchant’s customer: GET, PUT and DELETE → 403, and it is unchanged', async () => {
    const url = `/v1/customers/${customerId}`;
    expectError(await call(sandbox, { method: 'GET', url, headers: bob.auth }), 403);
    expectError(
      await call(sandbox, { method: 'PUT', url, headers: bob.auth, payload: { name: 'Hijacked' } }),
      403,
    );
    expectError(await call(sandbox, { method: 'DELETE', url, headers: bob.auth }), 403);
    const customer = ok<{ name: string }>(await call(sandbox, { method: 'GET', url, headers: alice.auth }));
    expect(customer.name).toBe('C');
  });

  it('lists never show another merchant’s objects', async () => {
    const bobCheckouts = ok<unknown[]>(
      await call(sandbox, { method: 'GET', url: '/v1/checkouts', headers: bob.auth }),
    );
    expect(bobCheckouts).toEqual([]);
    const bobCustomers = ok<unknown[]>(
      await call(sandbox, { method: 'GET', url: '/v1/customers', headers: bob.auth }),
    );
    expect(bobCustomers).toEqual([]);
    const bobAddresses = ok<{ merchant_id: string; address: string }[]>(
      await call(sandbox, { method: 'GET', url: '/v1/static-addresses', headers: bob.auth }),
    );
    const aliceAddresses = ok<{ merchant_id: string; address: string }[]>(
      await call(sandbox, { method: 'GET', url: '/v1/static-addresses', headers: alice.auth }),
    );
    expect(bobAddresses.every((a) => a.merchant_id === bob.merchantId)).toBe(true);
    expect(aliceAddresses.every((a) => a.merchant_id === alice.merchantId)).toBe(true);
    const aliceSet = new Set(aliceAddresses.map((a) => a.address));
    expect(bobAddresses.some((a) => aliceSet.has(a.address))).toBe(false);
  });

  it('another merchant’s checkout as a pagination cursor is unknown in my list → 422', async () => {
    expectError(
      await call(sandbox, {
        method: 'GET',
        url: `/v1/checkouts?starting_after=${checkout.id}`,
        headers: bob.auth,
      }),
      422,
      'starting_after',
    );
  });

  it('unknown ids → 404 on every by-id endpoint', async () => {
    const c = `/v1/checkouts/${UNKNOWN_ID}`;
    const u = `/v1/customers/${UNKNOWN_ID}`;
    expectError(await call(sandbox, { method: 'GET', url: c, headers: alice.auth }), 404, UNKNOWN_ID);
    expectError(await call(sandbox, { method: 'DELETE', url: c, headers: alice.auth }), 404, UNKNOWN_ID);
    expectError(await call(sandbox, { method: 'GET', url: u, headers: alice.auth }), 404, UNKNOWN_ID);
    expectError(
      await call(sandbox, { method: 'PUT', url: u, headers: alice.auth, payload: { name: 'n' } }),
      404,
    );
    expectError(await call(sandbox, { method: 'DELETE', url: u, headers: alice.auth }), 404, UNKNOWN_ID);
  });

  it('a malformed id → 422 naming id', async () => {
    expectError(
      await call(sandbox, { method: 'GET', url: '/v1/checkouts/123', headers: alice.auth }),
      422,
      'id',
    );
    expectError(
      await call(sandbox, { method: 'DELETE', url: '/v1/customers/abc', headers: alice.auth }),
      422,
      'id',
    );
  });

  it('unknown /v1 routes → 404 {error}; a known path with another method → 405 with Allow', async () => {
    expectError(await call(sandbox, { method: 'GET', url: '/v1/nothing-here', headers: alice.auth }), 404);
    const patch = await call(sandbox, {
      method: 'PATCH',
      url: `/v1/checkouts/${checkout.id}`,
      headers: alice.auth,
    });
    expectError(patch, 405, 'PATCH');
    expect(patch.headers.allow).toBe('DELETE, GET, HEAD');
  });
});

describe('environment isolation (test vs production listener, same key)', () => {
  const shared = useSharedSandbox();
  let sandbox: Sandbox;
  let actor: Actor;

  beforeEach(async () => {
    sandbox = shared();
    actor = await createMerchant(sandbox);
  });

  it('the same key authenticates on both listeners', async () => {
    ok(await call(sandbox, { method: 'GET', url: '/v1/checkouts', headers: actor.auth }, 'test'));
    ok(await call(sandbox, { method: 'GET', url: '/v1/checkouts', headers: actor.auth }, 'production'));
  });

  it('a test checkout is 404 on production (GET, DELETE, hosted page) and lists do not cross', async () => {
    const testCheckout = await createCheckout(sandbox, actor, { reference: 'ref-1' }, 'test');
    const prodCheckout = await createCheckout(sandbox, actor, { reference: 'ref-1' }, 'production');
    expect(prodCheckout.id).not.toBe(testCheckout.id);

    expectError(
      await call(
        sandbox,
        { method: 'GET', url: `/v1/checkouts/${testCheckout.id}`, headers: actor.auth },
        'production',
      ),
      404,
    );
    expectError(
      await call(
        sandbox,
        { method: 'DELETE', url: `/v1/checkouts/${testCheckout.id}`, headers: actor.auth },
        'production',
      ),
      404,
    );
    expectError(
      await call(
        sandbox,
        { method: 'GET', url: `/v1/checkouts/${prodCheckout.id}`, headers: actor.auth },
        'test',
      ),
      404,
    );
    expectError(await call(sandbox, { method: 'GET', url: `/pay/${testCheckout.id}` }, 'production'), 404);
    expect((await call(sandbox, { method: 'GET', url: `/pay/${testCheckout.id}` }, 'test')).statusCode).toBe(
      200,
    );

    const testList = ok<Checkout[]>(
      await call(sandbox, { method: 'GET', url: '/v1/checkouts', headers: actor.auth }),
    );
    const prodList = ok<Checkout[]>(
      await call(sandbox, { method: 'GET', url: '/v1/checkouts', headers: actor.auth }, 'production'),
    );
    expect(testList.map((c) => c.id)).toEqual([testCheckout.id]);
    expect(prodList.map((c) => c.id)).toEqual([prodCheckout.id]);
    expect(prodCheckout.hosted_url).not.toBe(testCheckout.hosted_url);

    // still active on test: the production DELETE did nothing
    const still = ok<Checkout>(
      await call(sandbox, { method: 'GET', url: `/v1/checkouts/${testCheckout.id}`, headers: actor.auth }),
    );
    expect(still.status).toBe('active');
  });

  it('customers are per environment: 404 across, lists do not cross, inline email lookup does not cross', async () => {
    const testCustomer = ok<{ id: string }>(
      await call(sandbox, {
        method: 'POST',
        url: '/v1/customers',
        headers: actor.auth,
        payload: { name: 'T', email: 'same@example.com' },
      }),
    );
    const url = `/v1/customers/${testCustomer.id}`;
    expectError(await call(sandbox, { method: 'GET', url, headers: actor.auth }, 'production'), 404);
    expectError(
      await call(sandbox, { method: 'PUT', url, headers: actor.auth, payload: { name: 'P' } }, 'production'),
      404,
    );
    expectError(await call(sandbox, { method: 'DELETE', url, headers: actor.auth }, 'production'), 404);
    const prodList = ok<unknown[]>(
      await call(sandbox, { method: 'GET', url: '/v1/customers', headers: actor.auth }, 'production'),
    );
    expect(prodList).toEqual([]);
    // a production checkout cannot attach the test customer
    const attach = await call(
      sandbox,
      {
        method: 'POST',
        url: '/v1/checkouts',
        headers: actor.auth,
        payload: {
          title: 't',
          expires_at: new Date(sandbox.ctx.clock.now() + 3600_000).toISOString(),
          customer_id: testCustomer.id,
        },
      },
      'production',
    );
    expectError(attach, 404);
    // the email matches nothing in production, so the inline customer is a new one there
    const prodCheckout = await createCheckout(
      sandbox,
      actor,
      { customer_email: 'same@example.com', customer_name: 'Prod' },
      'production',
    );
    expect(prodCheckout.customer_id).not.toBe(testCustomer.id);
  });

  it('static addresses are per environment', async () => {
    const testAddresses = ok<{ chain: string; address: string }[]>(
      await call(sandbox, { method: 'GET', url: '/v1/static-addresses', headers: actor.auth }),
    );
    const prodAddresses = ok<{ chain: string; address: string }[]>(
      await call(sandbox, { method: 'GET', url: '/v1/static-addresses', headers: actor.auth }, 'production'),
    );
    expect(testAddresses).toHaveLength(5);
    expect(prodAddresses).toHaveLength(5);
    const testSet = new Set(testAddresses.map((a) => a.address));
    expect(prodAddresses.some((a) => testSet.has(a.address))).toBe(false);
  });

  it('events are recorded in the environment that made them', async () => {
    const prod = await createCheckout(sandbox, actor, {}, 'production');
    const testEvents = ok<{ resource_id: string }[]>(
      await control(sandbox, 'GET', `/sandbox/merchants/${actor.merchantId}/events?env=test`),
    );
    const prodEvents = ok<{ resource_id: string; env: string }[]>(
      await control(sandbox, 'GET', `/sandbox/merchants/${actor.merchantId}/events?env=production`),
    );
    expect(testEvents.map((e) => e.resource_id)).not.toContain(prod.id);
    expect(prodEvents.map((e) => e.resource_id)).toContain(prod.id);
    expect(prodEvents.every((e) => e.env === 'production')).toBe(true);
  });
});
