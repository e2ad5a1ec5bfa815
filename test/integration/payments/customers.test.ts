import { beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../server/sandbox.js';
import {
  type Actor,
  call,
  createCheckout,
  createMerchant,
  expectError,
  getCheckout,
  ok,
} from '../../helpers/api.js';
import { ManualTime } from '../../helpers/sandbox.js';
import { useSharedSandbox } from '../../helpers/suite.js';

interface CustomerJson {
  id: string;
  merchant_id: string;
  name: string;
  email: string | null;
  phone: string | null;
  country: string | null;
  notes: string | null;
  created_at: string;
  updated_at: string;
}

const CUSTOMER_KEYS = [
  'country',
  'created_at',
  'email',
  'id',
  'merchant_id',
  'name',
  'notes',
  'phone',
  'updated_at',
];

describe('customers', () => {
  const time = new ManualTime();
  const shared = useSharedSandbox(() => ({ realNow: time.now }));
  let sandbox: Sandbox;
  let actor: Actor;

  const create = (payload: unknown) =>
    call(sandbox, { method: 'POST', url: '/v1/customers', headers: actor.auth, payload: payload as object });

  beforeEach(async () => {
    sandbox = shared();
    actor = await createMerchant(sandbox);
  });

  it('creates a customer with every field and returns exactly the spec fields', async () => {
    const customer = ok<CustomerJson>(
      await create({
        name: 'Ada',
        email: 'ada@example.com',
        phone: '+14155550100',
        country: 'GBR',
        notes: 'vip',
      }),
    );
    expect(Object.keys(customer).sort()).toEqual(CUSTOMER_KEYS);
    expect(customer).toMatchObject({
      merchant_id: actor.merchantId,
      name: 'Ada',
      email: 'ada@example.com',
      phone: '+14155550100',
      country: 'GBR',
      notes: 'vip',
    });
    expect(customer.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[47][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(customer.created_at).toBe(new Date(time.ms).toISOString());
    expect(customer.updated_at).toBe(customer.created_at);
    const fetched = ok<CustomerJson>(
      await call(sandbox, { method: 'GET', url: `/v1/customers/${customer.id}`, headers: actor.auth }),
    );
    expect(fetched).toEqual(customer);
  });

  it('only name is required; the rest default to null', async () => {
    const customer = ok<CustomerJson>(await create({ name: 'Bo' }));
    expect(customer).toMatchObject({ email: null, phone: null, country: null, notes: null });
  });

  it.each([
    ['missing name', {}, 'name'],
    ['empty name', { name: '' }, 'name'],
    ['name as number', { name: 42 }, 'name'],
    ['email "nope"', { name: 'x', email: 'nope' }, 'email'],
    ['country alpha-2 "US"', { name: 'x', country: 'US' }, 'country'],
    ['country "XXX" (not ISO alpha-3)', { name: 'x', country: 'XXX' }, 'country'],
    ['country lower case', { name: 'x', country: 'usa' }, 'country'],
    ['phone letters', { name: 'x', phone: 'call me' }, 'phone'],
    ['notes as object', { name: 'x', notes: { a: 1 } }, 'notes'],
  ])('create with %s → 422 naming the field', async (_label, payload, field) => {
    expectError(await create(payload), 422, field);
  });

  it('merchant_id of another merchant (no reseller connection) → 403', async () => {
    const other = await createMerchant(sandbox, 'Other');
    expectError(await create({ name: 'x', merchant_id: other.merchantId }), 403, 'merchant_id');
    // the caller's own id is fine
    ok(await create({ name: 'x', merchant_id: actor.merchantId }));
  });

  it('lists newest first with limit and starting_after', async () => {
    const made: CustomerJson[] = [];
    for (let i = 0; i < 5; i++) {
      made.push(ok<CustomerJson>(await create({ name: `c${i}` })));
      time.tick(1000);
    }
    const list = (query = '') =>
      call(sandbox, { method: 'GET', url: `/v1/customers${query}`, headers: actor.auth }).then((r) =>
        ok<CustomerJson[]>(r),
      );
    const all = await list();
    expect(all.map((c) => c.name)).toEqual(['c4', 'c3', 'c2', 'c1', 'c0']);
    expect(all[0]).toEqual(made[4]);
    const page1 = await list('?limit=2');
    expect(page1.map((c) => c.name)).toEqual(['c4', 'c3']);
    const page2 = await list(`?limit=2&starting_after=${page1[1]!.id}`);
    expect(page2.map((c) => c.name)).toEqual(['c2', 'c1']);
    const page3 = await list(`?limit=2&starting_after=${page2[1]!.id}`);
    expect(page3.map((c) => c.name)).toEqual(['c0']);
    const end = await list(`?starting_after=${page3[0]!.id}`);
    expect(end).toEqual([]);
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=1001', 'limit'],
    ['limit=abc', 'limit'],
    ['limit=-1', 'limit'],
    ['starting_after=not-a-uuid', 'starting_after'],
    ['starting_after=00000000-0000-4000-8000-000000000000', 'starting_after'],
  ])('list with %s → 422', async (query, field) => {
    expectError(
      await call(sandbox, { method: 'GET', url: `/v1/customers?${query}`, headers: actor.auth }),
      422,
      field,
    );
  });

  it('limit=1000 is accepted', async () => {
    ok(await call(sandbox, { method: 'GET', url: '/v1/customers?limit=1000', headers: actor.auth }));
  });

  it('PUT replaces the record (omitted fields become null) and bumps updated_at', async () => {
    const customer = ok<CustomerJson>(
      await create({ name: 'Ada', email: 'ada@example.com', phone: '+441234', country: 'GBR', notes: 'n' }),
    );
    time.tick(5000);
    const res = await call(sandbox, {
      method: 'PUT',
      url: `/v1/customers/${customer.id}`,
      headers: actor.auth,
      payload: { name: 'Ada L.', country: 'FRA' },
    });
    const updated = ok<CustomerJson>(res);
    expect(updated).toMatchObject({
      id: customer.id,
      name: 'Ada L.',
      country: 'FRA',
      email: null,
      phone: null,
      notes: null,
      created_at: customer.created_at,
    });
    expect(Date.parse(updated.updated_at) - Date.parse(customer.updated_at)).toBe(5000);
    const fetched = ok<CustomerJson>(
      await call(sandbox, { method: 'GET', url: `/v1/customers/${customer.id}`, headers: actor.auth }),
    );
    expect(fetched).toEqual(updated);
  });

  it.each([
    ['missing name', { email: 'a@b.co' }, 'name'],
    ['bad email', { name: 'x', email: 'nope' }, 'email'],
    ['country XXX', { name: 'x', country: 'XXX' }, 'country'],
    ['country US', { name: 'x', country: 'US' }, 'country'],
  ])('PUT with %s → 422 and the record is unchanged', async (_label, payload, field) => {
    const customer = ok<CustomerJson>(await create({ name: 'Keep', country: 'DEU' }));
    expectError(
      await call(sandbox, {
        method: 'PUT',
        url: `/v1/customers/${customer.id}`,
        headers: actor.auth,
        payload,
      }),
      422,
      field,
    );
    const fetched = ok<CustomerJson>(
      await call(sandbox, { method: 'GET', url: `/v1/customers/${customer.id}`, headers: actor.auth }),
    );
    expect(fetched).toEqual(customer);
  });

  it('DELETE → 204 with no body; then 404; checkouts referencing it keep customer_id', async () => {
    const customer = ok<CustomerJson>(await create({ name: 'Gone' }));
    const checkout = await createCheckout(sandbox, actor, { customer_id: customer.id });
    expect(checkout.customer_id).toBe(customer.id);
    const del = await call(sandbox, {
      method: 'DELETE',
      url: `/v1/customers/${customer.id}`,
      headers: actor.auth,
    });
    expect(del.statusCode).toBe(204);
    expect(del.body).toBe('');
    expectError(
      await call(sandbox, { method: 'GET', url: `/v1/customers/${customer.id}`, headers: actor.auth }),
      404,
    );
    expectError(
      await call(sandbox, { method: 'DELETE', url: `/v1/customers/${customer.id}`, headers: actor.auth }),
      404,
    );
    const list = ok<CustomerJson[]>(
      await call(sandbox, { method: 'GET', url: '/v1/customers', headers: actor.auth }),
    );
    expect(list.map((c) => c.id)).not.toContain(customer.id);
    const again = await getCheckout(sandbox, actor, checkout.id);
    expect(again.customer_id).toBe(customer.id);
    // and a deleted customer can no longer be attached
    expectError(
      await call(sandbox, {
        method: 'POST',
        url: '/v1/checkouts',
        headers: actor.auth,
        payload: {
          title: 't',
          expires_at: new Date(time.ms + 3600_000).toISOString(),
          customer_id: customer.id,
        },
      }),
      404,
    );
  });
});
