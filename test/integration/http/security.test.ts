import type { InjectOptions } from 'fastify';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../server/sandbox.js';
import {
  type Actor,
  type Checkout,
  call,
  control,
  createCheckout,
  createMerchant,
  expectError,
  ok,
} from '../../helpers/api.js';
import { rawRequest } from '../../helpers/http.js';
import { testSandbox } from '../../helpers/sandbox.js';
import { useSharedSandbox } from '../../helpers/suite.js';

const GOOD_HOSTS = [
  'localhost:4010',
  'localhost',
  '127.0.0.1',
  '127.0.0.1:4011',
  '[::1]:4010',
  '[::1]',
  'LOCALHOST:4010',
];
const BAD_HOSTS = [
  '127.0.0.1.evil.com',
  'evil.com',
  'localhost.evil.com:4010',
  'evil.com:4010',
  '127.0.0.2',
  '0.0.0.0:4010',
  'localhost@evil.com',
  '[::1].evil.com',
  '[::1]evil.com:4010',
  'user@localhost:4010',
  'localhost:4010:80',
  'localhost:http',
];

describe('security', () => {
  const shared = useSharedSandbox();
  let sandbox: Sandbox;
  let actor: Actor;
  let checkout: Checkout;

  beforeEach(async () => {
    sandbox = shared();
    actor = await createMerchant(sandbox);
    checkout = await createCheckout(sandbox, actor);
  });

  /** One route of every kind: control GET and POST, /v1 GET and POST, hosted pages, the dashboard. */
  const routes = (name = 'Via bad host'): InjectOptions[] => [
    { method: 'GET', url: '/sandbox/health' },
    { method: 'GET', url: '/sandbox/merchants' },
    { method: 'POST', url: '/sandbox/merchants', payload: { name } },
    { method: 'GET', url: '/v1/checkouts', headers: actor.auth },
    { method: 'POST', url: '/v1/customers', headers: actor.auth, payload: { name } },
    { method: 'GET', url: `/pay/${checkout.id}` },
    { method: 'GET', url: `/pay/${checkout.id}/fiat` },
    { method: 'GET', url: `/pay/${checkout.id}/status` },
    { method: 'GET', url: '/' },
    { method: 'GET', url: '/no-such-route' },
  ];

  describe('Host allow-list (DNS rebinding)', () => {
    it.each(GOOD_HOSTS)('Host %s is served on every kind of route', async (host) => {
      for (const route of routes('Via good host')) {
        const res = await call(sandbox, { ...route, headers: { ...route.headers, host } });
        expect(res.statusCode, `${route.method} ${route.url} with Host ${host}`).not.toBe(403);
        expect(res.statusCode).toBeLessThan(500);
      }
    });

    it.each(BAD_HOSTS)(
      'Host %j → 403 {error} on every kind of route, and nothing is created',
      async (host) => {
        for (const route of routes()) {
          const res = await call(sandbox, { ...route, headers: { ...route.headers, host } });
          expectError(res, 403, /host/i);
        }
        for (const env of ['test', 'production'] as const) {
          const res = await call(
            sandbox,
            { method: 'GET', url: '/v1/checkouts', headers: { ...actor.auth, host } },
            env,
          );
          expectError(res, 403);
        }
        const merchants = ok<{ name: string }[]>(await control(sandbox, 'GET', '/sandbox/merchants'));
        expect(merchants.map((m) => m.name)).not.toContain('Via bad host');
        const customers = ok<{ name: string }[]>(
          await call(sandbox, { method: 'GET', url: '/v1/customers', headers: actor.auth }),
        );
        expect(customers).toEqual([]);
      },
    );

    it('the Host check comes before authentication: a bad host with no key is 403, not 401', async () => {
      expectError(
        await call(sandbox, { method: 'GET', url: '/v1/checkouts', headers: { host: 'evil.com' } }),
        403,
      );
    });
  });

  describe('Origin and Sec-Fetch-Site on state-changing control calls (CSRF)', () => {
    const changes = (): {
      method: 'POST' | 'PATCH' | 'DELETE';
      url: string;
      payload?: Record<string, unknown>;
    }[] => [
      { method: 'POST', url: '/sandbox/merchants', payload: { name: 'CSRF' } },
      { method: 'PATCH', url: `/sandbox/merchants/${actor.merchantId}`, payload: { name: 'CSRF' } },
      { method: 'PATCH', url: '/sandbox/settings', payload: { platform_rate: 9999 } },
      { method: 'POST', url: `/sandbox/merchants/${actor.merchantId}/api-keys`, payload: { name: 'CSRF' } },
      { method: 'POST', url: `/sandbox/checkouts/${checkout.id}/payments` },
      { method: 'POST', url: `/sandbox/checkouts/${checkout.id}/expire` },
      { method: 'POST', url: '/sandbox/clock/advance', payload: { seconds: 86_400 } },
      { method: 'POST', url: '/sandbox/clock/freeze' },
      { method: 'POST', url: '/sandbox/reset' },
    ];

    const assertUnchanged = async () => {
      const merchant = ok<{ name: string }>(
        await control(sandbox, 'GET', `/sandbox/merchants/${actor.merchantId}`),
      );
      expect(merchant.name).toBe('Acme');
      const settings = ok<{ platform_rate: number }>(await control(sandbox, 'GET', '/sandbox/settings'));
      expect(settings.platform_rate).toBe(0);
      const clock = ok<{ frozen: boolean; offset_ms: number }>(
        await control(sandbox, 'GET', '/sandbox/clock'),
      );
      expect(clock.frozen).toBe(false);
      expect(Math.abs(clock.offset_ms)).toBeLessThan(1000);
      const keys = ok<unknown[]>(
        await control(sandbox, 'GET', `/sandbox/merchants/${actor.merchantId}/api-keys`),
      );
      expect(keys).toHaveLength(1);
      const c = ok<Checkout>(
        await call(sandbox, { method: 'GET', url: `/v1/checkouts/${checkout.id}`, headers: actor.auth }),
      );
      expect(c.status).toBe('active');
    };

    it.each([
      ['Origin http://evil.com', { origin: 'http://evil.com' }],
      ['Origin null', { origin: 'null' }],
      ['Origin https://localhost:4010 (other scheme)', { origin: 'https://localhost:4010' }],
      ['Origin http://localhost:9999 (other port)', { origin: 'http://localhost:9999' }],
      ['Origin http://127.0.0.1.evil.com', { origin: 'http://127.0.0.1.evil.com' }],
      ['Origin garbage', { origin: 'not a url' }],
      ['Sec-Fetch-Site cross-site', { 'sec-fetch-site': 'cross-site' }],
      [
        'same Origin but Sec-Fetch-Site cross-site',
        { origin: 'http://localhost:4010', 'sec-fetch-site': 'cross-site' },
      ],
    ])('%s → 403 {error}, and nothing changes', async (_label, extra) => {
      for (const change of changes()) {
        const res = await call(sandbox, {
          method: change.method,
          url: change.url,
          headers: { host: 'localhost:4010', ...extra },
          ...(change.payload ? { payload: change.payload } : {}),
        });
        expectError(res, 403);
      }
      await assertUnchanged();
    });

    it('a percent-encoded control path cannot dodge the Origin check', async () => {
      for (const url of ['/%73andbox/reset', '/%73andbox/clock/freeze', '/sandbox%2Freset']) {
        const res = await call(sandbox, { method: 'POST', url, headers: { origin: 'http://evil.com' } });
        expect(res.statusCode, `${url}: ${res.body}`).toBeGreaterThanOrEqual(400);
        expectError(res, res.statusCode);
      }
      await assertUnchanged();
    });

    it('same-origin Origin, or Sec-Fetch-Site same-origin / none, is allowed', async () => {
      for (const headers of [
        { host: 'localhost:4010', origin: 'http://localhost:4010' },
        { host: '127.0.0.1:4010', origin: 'http://127.0.0.1:4010' },
        { host: '[::1]:4010', origin: 'http://[::1]:4010' },
        { host: 'localhost:4010', 'sec-fetch-site': 'same-origin' },
        { host: 'localhost:4010', 'sec-fetch-site': 'none' },
        { host: 'localhost:4010', origin: 'http://localhost:4010', 'sec-fetch-site': 'same-origin' },
      ]) {
        const res = await call(sandbox, {
          method: 'PATCH',
          url: `/sandbox/merchants/${actor.merchantId}`,
          headers,
          payload: { name: 'Same origin' },
        });
        expect(res.statusCode, JSON.stringify(headers)).toBe(200);
      }
    });

    it('GET control calls from a foreign Origin or a cross-site fetch are refused too (reads leak keys)', async () => {
      for (const url of ['/sandbox/health', '/sandbox/merchants', '/sandbox/settings', '/sandbox/clock']) {
        for (const headers of [
          { origin: 'http://evil.com' },
          { origin: 'null' },
          { 'sec-fetch-site': 'cross-site' },
        ]) {
          const res = await call(sandbox, { method: 'GET', url, headers });
          expect(res.statusCode, `${url} ${JSON.stringify(headers)}`).toBe(403);
          expect(Object.keys(res.json())).toEqual(['error']);
          expect(res.headers['access-control-allow-origin']).toBeUndefined();
        }
        const same = await call(sandbox, {
          method: 'GET',
          url,
          headers: { host: 'localhost:4010', origin: 'http://localhost:4010' },
        });
        expect(same.statusCode, `${url} same origin`).toBe(200);
      }
    });

    it('/v1 calls are authenticated by key, so a foreign Origin does not matter there', async () => {
      const res = await call(sandbox, {
        method: 'POST',
        url: '/v1/customers',
        headers: { ...actor.auth, origin: 'http://evil.com' },
        payload: { name: 'From a browser app' },
      });
      expect(res.statusCode).toBe(200);
    });
  });

  describe('CORS', () => {
    it('no response ever carries Access-Control-Allow-Origin', async () => {
      const probes: InjectOptions[] = [
        ...routes('CORS probe'),
        { method: 'OPTIONS', url: '/sandbox/reset' },
        { method: 'OPTIONS', url: '/v1/checkouts' },
        { method: 'POST', url: '/sandbox/reset', headers: { origin: 'http://evil.com' } },
        { method: 'GET', url: '/v1/checkouts' },
        { method: 'GET', url: '/v1/checkouts', headers: { host: 'evil.com' } },
      ];
      for (const probe of probes) {
        for (const origin of ['http://evil.com', 'null', 'http://localhost:4010']) {
          const res = await call(sandbox, {
            ...probe,
            headers: {
              ...probe.headers,
              origin,
              'access-control-request-method': 'POST',
              'access-control-request-headers': 'authorization, content-type',
            },
          });
          expect(res.headers['access-control-allow-origin'], `${probe.method} ${probe.url}`).toBeUndefined();
          expect(res.headers['access-control-allow-credentials']).toBeUndefined();
        }
      }
    });

    it('responses carry X-Content-Type-Options: nosniff', async () => {
      const res = await call(sandbox, { method: 'GET', url: '/v1/checkouts', headers: actor.auth });
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    });
  });

  describe('over real HTTP', () => {
    it('a request without a Host header (HTTP/1.0) → 400 {error}; a rebinding Host → 403; the loopback address works', async () => {
      const live = await testSandbox();
      const urls = await live.listen();
      const noHost = await rawRequest(urls.test, 'GET /sandbox/health HTTP/1.0\r\n\r\n');
      expect(noHost).toMatch(/^HTTP\/1\.[01] 400/);
      expect(noHost).toContain('{"error":');
      const rebound = await rawRequest(
        urls.test,
        'GET /sandbox/health HTTP/1.1\r\nHost: 127.0.0.1.evil.com\r\nConnection: close\r\n\r\n',
      );
      expect(rebound).toMatch(/^HTTP\/1\.1 403/);
      const direct = await fetch(`${urls.test}/sandbox/health`);
      expect(direct.status).toBe(200);
      const prod = await fetch(`${urls.production}/sandbox/health`);
      expect(prod.status).toBe(200);
      expect(prod.headers.get('access-control-allow-origin')).toBeNull();
    });
  });
});
