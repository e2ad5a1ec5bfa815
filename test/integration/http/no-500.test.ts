import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMerchant, testSandbox } from '../../helpers/sandbox.js';

interface OpenApi {
  paths: Record<string, Record<string, unknown>>;
}

/**
 * Every route in the OpenAPI document, fed random JSON bodies and odd path ids: whatever a client
 * sends, the answer is never a 5xx, and errors are always exactly `{error: string}`.
 */
describe('no route answers 500 to client input', () => {
  it('random bodies and ids on every /v1 and /sandbox route', async () => {
    const sandbox = await testSandbox();
    const actor = await createMerchant(sandbox);
    const doc = (await sandbox.apps.test.inject({ url: '/sandbox/openapi.json' })).json() as OpenApi;
    const skip = new Set([
      '/sandbox/reset',
      '/sandbox/events',
      '/sandbox/clock/advance',
      '/sandbox/clock/freeze',
    ]);
    const routes = Object.entries(doc.paths)
      .filter(([path]) => !skip.has(path))
      .flatMap(([path, methods]) =>
        Object.keys(methods).map((method) => ({ path, method: method.toUpperCase() })),
      );
    expect(routes.length).toBeGreaterThan(60);

    const ids = fc.constantFrom(
      actor.merchantId,
      '00000000-0000-4000-8000-000000000000',
      'not-a-uuid',
      '%00',
      'a'.repeat(300),
    );
    const bodies = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.record({
        amount: fc.oneof(fc.integer(), fc.double(), fc.string(), fc.constant(null)),
        currency: fc.oneof(fc.string(), fc.constantFrom('USDC', 'usdt', 'BTC')),
        status: fc.string(),
        url: fc.string(),
        session: fc.string(),
        expires_at: fc.oneof(
          fc.string(),
          fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
        ),
      }),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), ids, bodies, async (route, id, body) => {
        const url = route.path.replace(/\{[^}]+\}/g, encodeURIComponent(id));
        const res = await sandbox.apps.test.inject({
          method: route.method as 'GET',
          url,
          headers: { ...actor.auth, 'content-type': 'application/json' },
          ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: JSON.stringify(body) }),
        });
        expect(res.statusCode, `${route.method} ${url} ${JSON.stringify(body)} → ${res.body}`).toBeLessThan(
          500,
        );
        if (res.statusCode >= 400) {
          const error = res.json() as Record<string, unknown>;
          expect(Object.keys(error)).toEqual(['error']);
          expect(typeof error.error).toBe('string');
        }
      }),
      { numRuns: 1500 },
    );
  }, 60_000);
});
