import { beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../server/sandbox.js';
import { expectAddressValidFor } from '../../helpers/addresses.js';
import {
  call,
  control,
  createCheckout,
  createKey,
  createMerchant,
  expectError,
  ok,
  UNKNOWN_ID,
} from '../../helpers/api.js';
import { ManualTime, testSandbox } from '../../helpers/sandbox.js';
import { useSharedSandbox } from '../../helpers/suite.js';

interface MerchantJson {
  id: string;
  name: string;
  legal_name: string | null;
  country: string | null;
  kyb_status: string;
  platform_rate: number | null;
  created_at: string;
  updated_at: string;
}
interface ApiKeyJson {
  id: string;
  merchant_id: string;
  name: string;
  role: string;
  key: string;
  created_at: string;
  revoked_at: string | null;
}
interface SettingsJson {
  platform_rate: number;
  settlement_delay_seconds: number;
  application_review: string;
  rate_limit_per_minute: number;
  concurrency_limit: number;
  webhook_timeout_ms: number;
  chains: {
    chain: string;
    tokens: { name: string; contract_address: string; min: number; max: number; gas_fee: number }[];
  }[];
  card_catalogue: { id: string; name: string; type: string }[];
}

describe('control API: merchants and API keys', () => {
  const shared = useSharedSandbox();
  let sandbox: Sandbox;
  beforeEach(() => {
    sandbox = shared();
  });

  it('POST /sandbox/merchants → {merchant, api_key}: an owner key that works on /v1, and static addresses', async () => {
    const res = ok<{ merchant: MerchantJson; api_key: ApiKeyJson }>(
      await control(sandbox, 'POST', '/sandbox/merchants', {
        name: 'Shop',
        legal_name: 'Shop Ltd',
        country: 'GB',
        kyb_status: 'pending',
      }),
    );
    expect(Object.keys(res).sort()).toEqual(['api_key', 'merchant']);
    expect(res.merchant).toMatchObject({
      name: 'Shop',
      legal_name: 'Shop Ltd',
      country: 'GB',
      kyb_status: 'pending',
      platform_rate: null,
    });
    expect(res.api_key).toMatchObject({ merchant_id: res.merchant.id, role: 'owner', revoked_at: null });
    expect(res.api_key.key).toMatch(/^svcb_[0-9A-Za-z]{20,}$/);
    const auth = { authorization: `Bearer ${res.api_key.key}` };
    const addresses = ok<
      {
        id: number;
        checkout_id: null;
        merchant_id: string;
        chain: string;
        address: string;
        created_at: string;
      }[]
    >(await call(sandbox, { method: 'GET', url: '/v1/static-addresses', headers: auth }));
    expect(addresses.map((a) => a.chain).sort()).toEqual(['bitcoin', 'bsc', 'ethereum', 'polygon', 'tron']);
    for (const a of addresses) {
      expect(Object.keys(a).sort()).toEqual([
        'address',
        'chain',
        'checkout_id',
        'created_at',
        'id',
        'merchant_id',
      ]);
      expect(a.checkout_id).toBeNull();
      expect(a.merchant_id).toBe(res.merchant.id);
      expect(Number.isInteger(a.id)).toBe(true);
      expectAddressValidFor(a.chain, a.address);
    }
    // stable across calls
    expect(ok(await call(sandbox, { method: 'GET', url: '/v1/static-addresses', headers: auth }))).toEqual(
      addresses,
    );
  });

  it('defaults: kyb_status approved, legal_name and country null', async () => {
    const { merchant } = ok<{ merchant: MerchantJson }>(
      await control(sandbox, 'POST', '/sandbox/merchants', { name: 'M' }),
    );
    expect(merchant).toMatchObject({ kyb_status: 'approved', legal_name: null, country: null });
  });

  it.each([
    ['missing name', {}, 'name'],
    ['empty name', { name: '' }, 'name'],
    ['country alpha-3', { name: 'm', country: 'GBR' }, 'country'],
    ['country not ISO', { name: 'm', country: 'ZZ' }, 'country'],
    ['kyb_status unknown', { name: 'm', kyb_status: 'great' }, 'kyb_status'],
  ])('create with %s → 422', async (_label, payload, field) => {
    expectError(await control(sandbox, 'POST', '/sandbox/merchants', payload), 422, field);
  });

  it('GET /sandbox/merchants lists them newest first; GET by id; 404 and 422', async () => {
    const a = await createMerchant(sandbox, 'First');
    const b = await createMerchant(sandbox, 'Second');
    const list = ok<MerchantJson[]>(await control(sandbox, 'GET', '/sandbox/merchants'));
    const ids = list.map((m) => m.id);
    expect(ids.indexOf(b.merchantId)).toBeLessThan(ids.indexOf(a.merchantId));
    const one = ok<MerchantJson>(await control(sandbox, 'GET', `/sandbox/merchants/${a.merchantId}`));
    expect(one).toEqual(list.find((m) => m.id === a.merchantId));
    expectError(await control(sandbox, 'GET', `/sandbox/merchants/${UNKNOWN_ID}`), 404, UNKNOWN_ID);
    expectError(await control(sandbox, 'GET', '/sandbox/merchants/nope'), 422, 'id');
  });

  it('PATCH merges name, kyb_status and platform_rate; validates; 404 for unknown', async () => {
    const m = await createMerchant(sandbox, 'Before');
    const url = `/sandbox/merchants/${m.merchantId}`;
    const patched = ok<MerchantJson>(await control(sandbox, 'PATCH', url, { kyb_status: 'rejected' }));
    expect(patched).toMatchObject({ name: 'Before', kyb_status: 'rejected', platform_rate: null });
    const again = ok<MerchantJson>(
      await control(sandbox, 'PATCH', url, { name: 'After', platform_rate: 250 }),
    );
    expect(again).toMatchObject({ name: 'After', kyb_status: 'rejected', platform_rate: 250 });
    expect(ok(await control(sandbox, 'GET', url))).toEqual(again);
    expect(
      ok<MerchantJson>(await control(sandbox, 'PATCH', url, { platform_rate: null })).platform_rate,
    ).toBeNull();
    expectError(await control(sandbox, 'PATCH', url, { platform_rate: 10_001 }), 422, 'platform_rate');
    expectError(await control(sandbox, 'PATCH', url, { platform_rate: -1 }), 422, 'platform_rate');
    expectError(await control(sandbox, 'PATCH', url, { platform_rate: 1.5 }), 422, 'platform_rate');
    expectError(await control(sandbox, 'PATCH', url, { kyb_status: 'nope' }), 422, 'kyb_status');
    expectError(await control(sandbox, 'PATCH', url, { name: '' }), 422, 'name');
    expectError(await control(sandbox, 'PATCH', `/sandbox/merchants/${UNKNOWN_ID}`, { name: 'x' }), 404);
    expect(ok<MerchantJson>(await control(sandbox, 'GET', url)).name).toBe('After');
  });

  it('API keys: create with a role (default developer), listed with the full key, usable at once', async () => {
    const m = await createMerchant(sandbox);
    const url = `/sandbox/merchants/${m.merchantId}/api-keys`;
    const admin = ok<ApiKeyJson>(await control(sandbox, 'POST', url, { name: 'CI', role: 'admin' }));
    expect(admin).toMatchObject({ merchant_id: m.merchantId, name: 'CI', role: 'admin', revoked_at: null });
    expect(admin.key).toMatch(/^svcb_/);
    const dev = ok<ApiKeyJson>(await control(sandbox, 'POST', url, { name: 'Dev' }));
    expect(dev.role).toBe('developer');
    expect(dev.key).not.toBe(admin.key);
    const list = ok<ApiKeyJson[]>(await control(sandbox, 'GET', url));
    expect(list).toHaveLength(3);
    expect(list.map((k) => k.key)).toEqual(expect.arrayContaining([m.key, admin.key, dev.key]));
    expect(list.find((k) => k.id === admin.id)).toEqual(admin);
    ok(
      await call(sandbox, {
        method: 'GET',
        url: '/v1/checkouts',
        headers: { authorization: `Bearer ${admin.key}` },
      }),
    );
  });

  it.each([
    ['missing name', { role: 'admin' }, 'name'],
    ['role "root"', { name: 'k', role: 'root' }, 'role'],
  ])('API key create with %s → 422', async (_label, payload, field) => {
    const m = await createMerchant(sandbox);
    expectError(
      await control(sandbox, 'POST', `/sandbox/merchants/${m.merchantId}/api-keys`, payload),
      422,
      field,
    );
  });

  it('API keys of an unknown merchant → 404', async () => {
    expectError(
      await control(sandbox, 'POST', `/sandbox/merchants/${UNKNOWN_ID}/api-keys`, { name: 'k' }),
      404,
    );
    expectError(await control(sandbox, 'GET', `/sandbox/merchants/${UNKNOWN_ID}/api-keys`), 404);
  });

  it('revoke: DELETE /sandbox/api-keys/{id} → the key with revoked_at; still listed; rejected at once; 404 unknown', async () => {
    const m = await createMerchant(sandbox);
    const key = await createKey(sandbox, m.merchantId);
    ok(await call(sandbox, { method: 'GET', url: '/v1/customers', headers: key.auth }));
    const revoked = ok<ApiKeyJson>(await control(sandbox, 'DELETE', `/sandbox/api-keys/${key.id}`));
    expect(revoked.id).toBe(key.id);
    expect(Math.abs(Date.parse(revoked.revoked_at!) - sandbox.ctx.clock.now())).toBeLessThan(5000);
    expectError(
      await call(sandbox, { method: 'GET', url: '/v1/customers', headers: key.auth }),
      401,
      'revoked',
    );
    expectError(
      await call(sandbox, { method: 'GET', url: '/v1/customers', headers: key.auth }, 'production'),
      401,
      'revoked',
    );
    const list = ok<ApiKeyJson[]>(
      await control(sandbox, 'GET', `/sandbox/merchants/${m.merchantId}/api-keys`),
    );
    expect(list.find((k) => k.id === key.id)?.revoked_at).toBe(revoked.revoked_at);
    // revoking again keeps the first revocation time
    const twice = ok<ApiKeyJson>(await control(sandbox, 'DELETE', `/sandbox/api-keys/${key.id}`));
    expect(twice.revoked_at).toBe(revoked.revoked_at);
    expectError(await control(sandbox, 'DELETE', `/sandbox/api-keys/${UNKNOWN_ID}`), 404);
  });

  it('GET /sandbox/health', async () => {
    const health = ok<{ status: string; version: string; now: string; urls: Record<string, string> }>(
      await control(sandbox, 'GET', '/sandbox/health'),
    );
    expect(health.status).toBe('ok');
    expect(health.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(health.now).toBe(new Date(Date.parse(health.now)).toISOString());
    expect(Object.keys(health.urls).sort()).toEqual(['dashboard', 'production', 'test']);
  });

  it('unknown control routes → 404 {error}', async () => {
    expectError(await control(sandbox, 'GET', '/sandbox/nothing'), 404);
    expectError(await control(sandbox, 'POST', '/sandbox/merchants/x/y/z'), 404);
  });
});

describe('control API: settings', () => {
  // Shared: every test here leaves the settings as it found them, except the one that isolates itself.
  const shared = useSharedSandbox();
  let sandbox: Sandbox;
  beforeEach(() => {
    sandbox = shared();
  });

  it('GET returns the documented defaults', async () => {
    const settings = ok<SettingsJson>(await control(sandbox, 'GET', '/sandbox/settings'));
    expect(settings).toMatchObject({
      platform_rate: 0,
      settlement_delay_seconds: 60,
      application_review: 'auto',
      rate_limit_per_minute: 1000,
      concurrency_limit: 10,
      webhook_timeout_ms: 10_000,
    });
    expect(settings.chains.map((c) => c.chain)).toEqual(['ethereum', 'tron', 'bitcoin', 'polygon', 'bsc']);
    const tokens = Object.fromEntries(settings.chains.map((c) => [c.chain, c.tokens.map((t) => t.name)]));
    // spec, Static address: accepted tokens per chain
    expect(tokens).toEqual({
      ethereum: ['USDC', 'USDT', 'ETH'],
      tron: ['USDT'],
      bitcoin: ['BTC'],
      polygon: ['USDC', 'USDT'],
      bsc: ['USDT'],
    });
    expect(settings.card_catalogue).toHaveLength(2);
  });

  it('PATCH merges top-level keys, persists, and GET /v1/withdraw/chains follows the catalogue', async () => {
    sandbox = await testSandbox();
    const before = ok<SettingsJson>(await control(sandbox, 'GET', '/sandbox/settings'));
    const after = ok<SettingsJson>(
      await control(sandbox, 'PATCH', '/sandbox/settings', {
        platform_rate: 150,
        settlement_delay_seconds: 5,
      }),
    );
    expect(after).toEqual({ ...before, platform_rate: 150, settlement_delay_seconds: 5 });
    expect(ok(await control(sandbox, 'GET', '/sandbox/settings'))).toEqual(after);
    const chains = [
      { chain: 'polygon', tokens: [{ name: 'USDC', contract_address: '0x1', min: 0, max: 0, gas_fee: 7 }] },
    ];
    const third = ok<SettingsJson>(await control(sandbox, 'PATCH', '/sandbox/settings', { chains }));
    expect(third).toEqual({ ...after, chains });
    const actor = await createMerchant(sandbox);
    expect(
      ok(await call(sandbox, { method: 'GET', url: '/v1/withdraw/chains', headers: actor.auth })),
    ).toEqual(chains);
    const checkout = await createCheckout(sandbox, actor);
    expect(checkout.crypto_chains.map((c) => c.chain)).toEqual(['polygon']);
    expect(checkout.crypto_chains[0]!.tokens[0]!.gas_fee).toBe(7);
  });

  it('an empty PATCH changes nothing', async () => {
    const before = ok<SettingsJson>(await control(sandbox, 'GET', '/sandbox/settings'));
    expect(ok(await control(sandbox, 'PATCH', '/sandbox/settings', {}))).toEqual(before);
  });

  const token = { name: 'USDC', contract_address: '', min: 0, max: 0, gas_fee: 0 };
  it.each([
    ['platform_rate 10001', { platform_rate: 10_001 }, 'platform_rate'],
    ['platform_rate -1', { platform_rate: -1 }, 'platform_rate'],
    ['platform_rate "5"', { platform_rate: '5' }, 'platform_rate'],
    ['platform_rate null', { platform_rate: null }, 'platform_rate'],
    ['settlement_delay_seconds 1.5', { settlement_delay_seconds: 1.5 }, 'settlement_delay_seconds'],
    ['application_review "sometimes"', { application_review: 'sometimes' }, 'application_review'],
    ['rate_limit_per_minute -1', { rate_limit_per_minute: -1 }, 'rate_limit_per_minute'],
    ['concurrency_limit "ten"', { concurrency_limit: 'ten' }, 'concurrency_limit'],
    ['webhook_timeout_ms 0', { webhook_timeout_ms: 0 }, 'webhook_timeout_ms'],
    ['chains empty', { chains: [] }, 'chains'],
    ['chain without tokens', { chains: [{ chain: 'x', tokens: [] }] }, 'chains'],
    [
      'duplicate chain names',
      {
        chains: [
          { chain: 'tron', tokens: [token] },
          { chain: 'tron', tokens: [token] },
        ],
      },
      'duplicate chain',
    ],
    ['duplicate token names', { chains: [{ chain: 'tron', tokens: [token, token] }] }, 'duplicate token'],
    ['token min above max', { chains: [{ chain: 'tron', tokens: [{ ...token, min: 10, max: 5 }] }] }, 'min'],
    ['negative gas fee', { chains: [{ chain: 'tron', tokens: [{ ...token, gas_fee: -1 }] }] }, 'gas_fee'],
  ])('PATCH with %s → 422 and nothing changes', async (_label, patch, mention) => {
    const before = ok<SettingsJson>(await control(sandbox, 'GET', '/sandbox/settings'));
    expectError(await control(sandbox, 'PATCH', '/sandbox/settings', patch), 422, mention);
    expect(ok(await control(sandbox, 'GET', '/sandbox/settings'))).toEqual(before);
  });
});

describe('control API: reset', () => {
  it('POST /sandbox/reset wipes merchants, keys and data, keeps the settings, and puts the clock back on real time', async () => {
    const sandbox = await testSandbox();
    const actor = await createMerchant(sandbox);
    const checkout = await createCheckout(sandbox, actor);
    ok(await control(sandbox, 'POST', '/sandbox/clock/advance', { seconds: 3600 }));
    ok(await control(sandbox, 'POST', '/sandbox/clock/freeze'));
    ok(await control(sandbox, 'PATCH', '/sandbox/settings', { settlement_delay_seconds: 5 }));
    expect(ok(await control(sandbox, 'POST', '/sandbox/reset'))).toEqual({ reset: true });
    // The settings are kept (carried into the new database through the kv repository).
    expect(
      ok<SettingsJson>(await control(sandbox, 'GET', '/sandbox/settings')).settlement_delay_seconds,
    ).toBe(5);
    expect(ok(await control(sandbox, 'GET', '/sandbox/merchants'))).toEqual([]);
    expectError(await call(sandbox, { method: 'GET', url: '/v1/checkouts', headers: actor.auth }), 401);
    expectError(await control(sandbox, 'GET', `/sandbox/checkouts/${checkout.id}`), 404);
    expectError(await call(sandbox, { method: 'GET', url: `/pay/${checkout.id}` }), 404);
    const clock = ok<{ frozen: boolean; offset_ms: number }>(await control(sandbox, 'GET', '/sandbox/clock'));
    expect(clock.frozen).toBe(false);
    expect(Math.abs(clock.offset_ms)).toBeLessThan(1000);
    // the sandbox works normally afterwards, and the pending expiry job is gone with its checkout
    const again = await createMerchant(sandbox);
    await createCheckout(sandbox, again);
    ok(await control(sandbox, 'POST', '/sandbox/clock/advance', { seconds: 7200 }));
    expect(ok<unknown[]>(await control(sandbox, 'GET', '/sandbox/merchants'))).toHaveLength(1);
  });
});

describe('seeded sandboxes', () => {
  it('the same seed makes the same merchant ids, API keys, checkout ids and addresses', async () => {
    const run = async (seed: string) => {
      const time = new ManualTime();
      const sandbox = await testSandbox({ seed, realNow: time.now });
      const actor = await createMerchant(sandbox);
      const checkout = await createCheckout(sandbox, actor);
      const addresses = ok(
        await call(sandbox, { method: 'GET', url: '/v1/static-addresses', headers: actor.auth }),
      );
      return { actor, checkout, addresses };
    };
    const a = await run('demo');
    const b = await run('demo');
    expect(b).toEqual(a);
    const c = await run('other');
    expect(c.actor.merchantId).not.toBe(a.actor.merchantId);
    expect(c.actor.key).not.toBe(a.actor.key);
  });
});
