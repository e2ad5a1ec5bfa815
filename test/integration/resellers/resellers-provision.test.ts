import { beforeEach, describe, expect, it } from 'vitest';
import type { Merchant } from '../../../server/contract/merchants.js';
import type { ProvisionResult } from '../../../server/contract/resellers.js';
import type { UserRow } from '../../../server/db/users.js';
import { verifyPassword } from '../../../server/domain/resellers/passwords.js';
import type { Sandbox } from '../../../server/sandbox.js';
import {
  type Actor,
  type Checkout,
  call,
  createMerchant,
  expectError,
  ok,
  UNKNOWN_ID,
} from '../../helpers/api.js';
import { patchMerchant, postCheckout, type ResellerConnection, v1 } from '../../helpers/resellers.js';
import { useSharedSandbox } from '../../helpers/suite.js';

// spec: POST /v1/reseller/provision (body, response, errors), Provisioned merchant. Production only.

let counter = 0;
const body = (overrides: Record<string, unknown> = {}) => {
  counter += 1;
  return {
    email: `owner${counter}@shop.example`,
    password: 'secret6',
    full_name: 'Olga Owner',
    merchant_name: 'Sub Shop',
    legal_name: 'Sub Shop GmbH',
    country: 'DE',
    rate: 250,
    ...overrides,
  };
};

describe('reseller provisioning', () => {
  const shared = useSharedSandbox();
  let sandbox: Sandbox;
  let reseller: Actor;

  beforeEach(async () => {
    sandbox = shared();
    reseller = await createMerchant(sandbox, 'Reseller'); // kyb_status approved by default
  });

  const provision = (
    payload: unknown,
    env: 'test' | 'production' = 'production',
    actor: Actor | null = reseller,
  ) => v1(sandbox, actor, 'POST', '/v1/reseller/provision', payload, env);
  const merchantCount = async () =>
    ok<Merchant[]>(await call(sandbox, { method: 'GET', url: '/sandbox/merchants' })).length;
  const userCount = () => sandbox.db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM users').get()!.n;
  const connectionCount = () =>
    sandbox.db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM reseller_connections').get()!.n;

  /** Runs `fn` and checks it created no merchant, user or connection. */
  const createsNothing = async (fn: () => Promise<void>) => {
    const before = [await merchantCount(), userCount(), connectionCount()];
    await fn();
    expect([await merchantCount(), userCount(), connectionCount()]).toEqual(before);
  };

  it('creates a user, a draft merchant with its static addresses, and an active connection, in one call', async () => {
    const input = body({
      btype: 'individual',
      website: 'https://sub.example',
      min_fee: 1_000,
      max_fee: 9_000,
    });
    const result = ok<ProvisionResult>(await provision(input));
    expect(Object.keys(result).sort()).toEqual(['connection_id', 'merchant', 'user_id']);
    expect(Object.keys(result.merchant).sort()).toEqual([
      'btype',
      'country',
      'created_at',
      'id',
      'kyb_status',
      'legal_name',
      'name',
    ]);
    expect(result.merchant).toMatchObject({
      name: 'Sub Shop',
      legal_name: 'Sub Shop GmbH',
      country: 'DE',
      btype: 'individual',
      kyb_status: 'draft',
    });
    // The password never comes back.
    expect(JSON.stringify(result)).not.toContain('secret6');

    // The merchant, as every merchant: shared by both environments, five static addresses in each.
    const merchant = ok<Merchant>(
      await call(sandbox, { method: 'GET', url: `/sandbox/merchants/${result.merchant.id}` }),
    );
    expect(merchant).toMatchObject({
      kyb_status: 'draft',
      btype: 'individual',
      website: 'https://sub.example',
    });
    for (const env of ['test', 'production']) {
      const addresses = ok<{ chain: string }[]>(
        await call(sandbox, {
          method: 'GET',
          url: `/sandbox/merchants/${result.merchant.id}/static-addresses?env=${env}`,
        }),
      );
      expect(addresses.map((a) => a.chain).sort()).toEqual(['bitcoin', 'bsc', 'ethereum', 'polygon', 'tron']);
    }

    // The connection: active at once, in production, with the body's terms.
    const outgoing = ok<ResellerConnection[]>(
      await v1(sandbox, reseller, 'GET', '/v1/reseller/connections', undefined, 'production'),
    );
    expect(outgoing).toEqual([
      expect.objectContaining({
        id: result.connection_id,
        reseller_id: reseller.merchantId,
        merchant_id: result.merchant.id,
        status: 'active',
        rate: 250,
        min_fee: 1_000,
        max_fee: 9_000,
      }),
    ]);
    expect(ok<ResellerConnection[]>(await v1(sandbox, reseller, 'GET', '/v1/reseller/connections'))).toEqual(
      [],
    );
    const checkout = ok<Checkout>(
      await postCheckout(sandbox, reseller, { merchant_id: result.merchant.id }, 'production'),
    );
    expect(checkout).toMatchObject({ merchant_id: result.merchant.id, reseller_id: reseller.merchantId });

    // The user: scrypt hash with a random salt, never the password.
    const user = sandbox.db
      .prepare<[string], UserRow>('SELECT * FROM users WHERE id = ?')
      .get(result.user_id)!;
    expect(user).toMatchObject({
      email: input.email,
      full_name: 'Olga Owner',
      merchant_id: result.merchant.id,
    });
    expect(user.password_hash).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/);
    expect(user.password_hash).not.toContain('secret6');
    expect(verifyPassword('secret6', user.password_hash)).toBe(true);
    expect(verifyPassword('secret7', user.password_hash)).toBe(false);
  });

  it('defaults: btype company, no website, no full name, no caps', async () => {
    const { email, password, merchant_name, legal_name, country, rate } = body();
    const result = ok<ProvisionResult>(
      await provision({ email, password, merchant_name, legal_name, country, rate }),
    );
    expect(result.merchant.btype).toBe('company');
    const merchant = ok<Merchant>(
      await call(sandbox, { method: 'GET', url: `/sandbox/merchants/${result.merchant.id}` }),
    );
    expect(merchant).toMatchObject({ btype: 'company', website: null });
    const user = sandbox.db
      .prepare<[string], UserRow>('SELECT * FROM users WHERE id = ?')
      .get(result.user_id)!;
    expect(user.full_name).toBeNull();
    const [connection] = ok<ResellerConnection[]>(
      await v1(sandbox, reseller, 'GET', '/v1/reseller/connections', undefined, 'production'),
    );
    expect(connection).toMatchObject({ min_fee: null, max_fee: null });
  });

  it('two provisions never share a salt', async () => {
    const a = ok<ProvisionResult>(await provision(body()));
    const b = ok<ProvisionResult>(await provision(body()));
    const hash = (id: string) =>
      sandbox.db.prepare<[string], UserRow>('SELECT * FROM users WHERE id = ?').get(id)!.password_hash;
    expect(hash(a.user_id).split('$')[4]).not.toBe(hash(b.user_id).split('$')[4]);
  });

  it('the test address refuses with 400 and creates nothing, whatever the body or the KYB', async () => {
    await createsNothing(async () => {
      expectError(await provision(body(), 'test'), 400, 'production address');
      expectError(await provision({}, 'test'), 400, 'production address');
      await patchMerchant(sandbox, reseller.merchantId, { kyb_status: 'pending' });
      expectError(await provision(body(), 'test'), 400, 'production address');
    });
  });

  it.each([
    ['email missing', { email: undefined }, 'email'],
    ['email not an email', { email: 'not-an-email' }, 'email'],
    ['password missing', { password: undefined }, 'password'],
    ['password 5 characters', { password: '12345' }, 'password'],
    ['password not a string', { password: 123456 }, 'password'],
    ['merchant_name missing', { merchant_name: undefined }, 'merchant_name'],
    ['merchant_name empty', { merchant_name: '' }, 'merchant_name'],
    ['legal_name missing', { legal_name: undefined }, 'legal_name'],
    ['country missing', { country: undefined }, 'country'],
    ['country not ISO 3166-1', { country: 'ZZ' }, 'country'],
    ['country lower case', { country: 'de' }, 'country'],
    ['country alpha-3', { country: 'DEU' }, 'country'],
    ['btype unknown', { btype: 'llc' }, 'btype'],
    ['rate missing', { rate: undefined }, 'rate'],
    ['rate above 10000', { rate: 10_001 }, 'rate'],
    ['rate fractional', { rate: 2.5 }, 'rate'],
    ['min_fee negative', { min_fee: -1 }, 'min_fee'],
    ['max_fee a string', { max_fee: '9' }, 'max_fee'],
    ['min_fee above max_fee', { min_fee: 10, max_fee: 9 }, 'min_fee'],
  ])('%s → 400 naming the field, nothing created', async (_label, overrides, field) => {
    const payload = JSON.parse(JSON.stringify(body(overrides))) as Record<string, unknown>;
    await createsNothing(async () => {
      const message = expectError(await provision(payload), 400);
      expect(message.startsWith(`${field}:`), message).toBe(true);
    });
  });

  it('a body that is not an object → 400', async () => {
    await createsNothing(async () => {
      expectError(await provision([1, 2]), 400);
      for (const raw of ['"x"', '42', 'null']) {
        const res = await call(
          sandbox,
          {
            method: 'POST',
            url: '/v1/reseller/provision',
            headers: { ...reseller.auth, 'content-type': 'application/json' },
            payload: raw,
          },
          'production',
        );
        expectError(res, 400);
      }
    });
  });

  it('an email already registered → 409, case-insensitively; nothing else is created', async () => {
    ok(await provision(body({ email: 'Taken@Shop.example' })));
    await createsNothing(async () => {
      expectError(await provision(body({ email: 'taken@shop.example' })), 409, 'Email already registered');
      expectError(await provision(body({ email: 'Taken@Shop.example' })), 409);
    });
    // Another reseller provisioning the same email is refused too: users are global.
    const second = await createMerchant(sandbox, 'Second reseller');
    expectError(await provision(body({ email: 'TAKEN@shop.example' }), 'production', second), 409);
  });

  it.each(['draft', 'pending', 'rejected'])(
    'a reseller with kyb_status %s → 403, checked before the body and the email',
    async (status) => {
      ok(await provision(body({ email: `kyb-${status}@shop.example` })));
      await patchMerchant(sandbox, reseller.merchantId, { kyb_status: status });
      await createsNothing(async () => {
        expectError(await provision(body()), 403, 'KYB', status);
        expectError(await provision(body({ country: 'ZZ', password: '1' })), 403, 'KYB');
        expectError(await provision(body({ email: `kyb-${status}@shop.example` })), 403, 'KYB');
      });
    },
  );

  it('no key → 401', async () => {
    expectError(await provision(body(), 'production', null), 401);
  });

  describe('control API: POST /sandbox/merchants/{id}/provision?env=', () => {
    const url = (id: string, env?: string) =>
      `/sandbox/merchants/${id}/provision${env === undefined ? '' : `?env=${env}`}`;

    it('acts as the reseller, production only, same rules', async () => {
      const result = ok<ProvisionResult>(
        await call(sandbox, { method: 'POST', url: url(reseller.merchantId, 'production'), payload: body() }),
      );
      expect(result.merchant.kyb_status).toBe('draft');
      const outgoing = ok<ResellerConnection[]>(
        await v1(sandbox, reseller, 'GET', '/v1/reseller/connections', undefined, 'production'),
      );
      expect(outgoing.map((c) => c.id)).toEqual([result.connection_id]);
      await createsNothing(async () => {
        expectError(
          await call(sandbox, { method: 'POST', url: url(reseller.merchantId), payload: body() }),
          400,
          'production',
        );
        expectError(
          await call(sandbox, { method: 'POST', url: url(reseller.merchantId, 'test'), payload: body() }),
          400,
          'production',
        );
        expectError(
          await call(sandbox, {
            method: 'POST',
            url: url(reseller.merchantId, 'production'),
            payload: body({ rate: -1 }),
          }),
          400,
          /^rate:/,
        );
        expectError(
          await call(sandbox, { method: 'POST', url: url(UNKNOWN_ID, 'production'), payload: body() }),
          404,
          UNKNOWN_ID,
        );
        expectError(
          await call(sandbox, { method: 'POST', url: url('nope', 'production'), payload: body() }),
          400,
          'id',
        );
        expectError(
          await call(sandbox, { method: 'POST', url: url(reseller.merchantId, 'staging'), payload: body() }),
          400,
          'env',
        );
        await patchMerchant(sandbox, reseller.merchantId, { kyb_status: 'pending' });
        expectError(
          await call(sandbox, {
            method: 'POST',
            url: url(reseller.merchantId, 'production'),
            payload: body(),
          }),
          403,
          'KYB',
        );
      });
    });
  });
});
