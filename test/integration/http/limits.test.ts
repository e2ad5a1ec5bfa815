import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox, type Urls } from '../../../server/sandbox.js';
import { type Actor, createKey, createMerchant, patchSettings } from '../../helpers/api.js';
import { closed, type HeldRequest, holdRequest, nextRequests } from '../../helpers/http.js';

interface Reply {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

async function get(base: string, path: string, authorization?: string): Promise<Reply> {
  const res = await fetch(`${base}${path}`, { headers: authorization ? { authorization } : {} });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
  };
}

function expect429(reply: Reply, mention: string): void {
  expect(reply.status).toBe(429);
  expect(Object.keys(reply.body)).toEqual(['error']);
  expect(reply.body.error).toEqual(expect.stringContaining(mention));
  expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
}

describe('per-key limits over real HTTP', () => {
  // One listening sandbox; each test gets a fresh merchant (limits are per key) and sets its limits.
  let sandbox: Sandbox;
  let urls: Urls;
  let actor: Actor;
  const held: HeldRequest[] = [];

  beforeAll(async () => {
    sandbox = await createSandbox({ ports: { test: 0, production: 0 } });
    urls = await sandbox.listen();
  });
  afterAll(async () => {
    await sandbox.close();
  });

  beforeEach(async () => {
    actor = await createMerchant(sandbox);
    await patchSettings(sandbox, { rate_limit_per_minute: 1000, concurrency_limit: 10 });
  });

  afterEach(() => {
    for (const h of held.splice(0)) h.socket.destroy();
  });

  describe('rate', () => {
    it('with rate_limit_per_minute 5 the 6th request → 429 with Retry-After and {error}; counted across both listeners', async () => {
      await patchSettings(sandbox, { rate_limit_per_minute: 5 });
      const auth = actor.auth.authorization;
      for (const base of [urls.test, urls.test, urls.production, urls.test, urls.production]) {
        expect((await get(base, '/v1/checkouts', auth)).status).toBe(200);
      }
      const limited = await get(urls.test, '/v1/checkouts', auth);
      expect429(limited, 'Rate limit');
      const retryAfter = Number(limited.headers.get('retry-after'));
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect429(await get(urls.production, '/v1/customers', auth), 'Rate limit');
      // a 429 is not a 401: a bad key is still told it is bad
      expect((await get(urls.test, '/v1/checkouts', 'Bearer svcb_unknown')).status).toBe(401);
    });

    it('limits are per key: another key of the same merchant, and another merchant, still get through', async () => {
      await patchSettings(sandbox, { rate_limit_per_minute: 3 });
      for (let i = 0; i < 3; i++) await get(urls.test, '/v1/checkouts', actor.auth.authorization);
      expect429(await get(urls.test, '/v1/checkouts', actor.auth.authorization), 'Rate limit');
      const second = await createKey(sandbox, actor.merchantId);
      expect((await get(urls.test, '/v1/checkouts', second.auth.authorization)).status).toBe(200);
      const other = await createMerchant(sandbox, 'Other');
      expect((await get(urls.test, '/v1/checkouts', other.auth.authorization)).status).toBe(200);
    });

    it('the control API is not rate limited', async () => {
      await patchSettings(sandbox, { rate_limit_per_minute: 1 });
      for (let i = 0; i < 10; i++) expect((await get(urls.test, '/sandbox/health')).status).toBe(200);
    });

    it('0 turns the rate limit off, also for a key that was limited', async () => {
      await patchSettings(sandbox, { rate_limit_per_minute: 2 });
      await get(urls.test, '/v1/checkouts', actor.auth.authorization);
      await get(urls.test, '/v1/checkouts', actor.auth.authorization);
      expect429(await get(urls.test, '/v1/checkouts', actor.auth.authorization), 'Rate limit');
      await patchSettings(sandbox, { rate_limit_per_minute: 0 });
      const replies = await Promise.all(
        Array.from({ length: 40 }, () => get(urls.test, '/v1/checkouts', actor.auth.authorization)),
      );
      expect(replies.map((r) => r.status)).toEqual(Array(40).fill(200));
    });
  });

  describe('concurrency', () => {
    const hold = async (base: string, authorization = actor.auth.authorization) => {
      const h = await holdRequest(base, authorization);
      held.push(h);
      return h;
    };

    it('with concurrency_limit 2, two requests in flight make the third a 429; a finished one frees its slot', async () => {
      await patchSettings(sandbox, { concurrency_limit: 2 });
      const arrived = nextRequests(sandbox.apps.test.server, 2);
      const first = await hold(urls.test);
      await hold(urls.test);
      await arrived;
      const limited = await get(urls.test, '/v1/checkouts', actor.auth.authorization);
      expect429(limited, 'Concurrency limit');
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      // finishing the body completes the request normally, and frees its slot
      const response = await first.finish();
      expect(response).toMatch(/^HTTP\/1\.1 200/);
      expect(response).toContain('Held request');
      expect((await get(urls.test, '/v1/checkouts', actor.auth.authorization)).status).toBe(200);
    });

    it('slots are shared by both listeners and are per key', async () => {
      await patchSettings(sandbox, { concurrency_limit: 2 });
      const arrivedTest = nextRequests(sandbox.apps.test.server, 1);
      const arrivedProd = nextRequests(sandbox.apps.production.server, 1);
      await hold(urls.test);
      await hold(urls.production);
      await Promise.all([arrivedTest, arrivedProd]);
      expect429(await get(urls.production, '/v1/checkouts', actor.auth.authorization), 'Concurrency');
      const other = await createKey(sandbox, actor.merchantId);
      expect((await get(urls.test, '/v1/checkouts', other.auth.authorization)).status).toBe(200);
    });

    it('aborting a held connection frees its slot (no leak)', async () => {
      await patchSettings(sandbox, { concurrency_limit: 2 });
      const arrived = nextRequests(sandbox.apps.test.server, 2);
      const a = await hold(urls.test);
      const b = await hold(urls.test);
      const [reqA, reqB] = await arrived;
      expect429(await get(urls.test, '/v1/checkouts', actor.auth.authorization), 'Concurrency');

      const closedA = closed(reqA!);
      a.socket.destroy();
      await closedA;
      await new Promise((resolve) => setImmediate(resolve));
      expect((await get(urls.test, '/v1/checkouts', actor.auth.authorization)).status).toBe(200);

      const closedB = closed(reqB!);
      b.socket.destroy();
      await closedB;
      await new Promise((resolve) => setImmediate(resolve));
      // both slots are back: exactly two can be held again, and the third is refused
      const again = nextRequests(sandbox.apps.test.server, 2);
      await hold(urls.test);
      await hold(urls.test);
      await again;
      expect429(await get(urls.test, '/v1/checkouts', actor.auth.authorization), 'Concurrency');
    });

    it('many aborted connections in a row leak nothing', async () => {
      await patchSettings(sandbox, { concurrency_limit: 1 });
      for (let i = 0; i < 5; i++) {
        const arrived = nextRequests(sandbox.apps.test.server, 1);
        const h = await hold(urls.test);
        const [req] = await arrived;
        const gone = closed(req!);
        h.socket.destroy();
        await gone;
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect((await get(urls.test, '/v1/checkouts', actor.auth.authorization)).status).toBe(200);
    });

    it('0 turns the concurrency limit off', async () => {
      await patchSettings(sandbox, { concurrency_limit: 0 });
      const arrived = nextRequests(sandbox.apps.test.server, 3);
      await hold(urls.test);
      await hold(urls.test);
      await hold(urls.test);
      await arrived;
      expect((await get(urls.test, '/v1/checkouts', actor.auth.authorization)).status).toBe(200);
    });

    it('the default limit is 10 concurrent requests per key', async () => {
      const arrived = nextRequests(sandbox.apps.test.server, 10);
      for (let i = 0; i < 10; i++) await hold(urls.test);
      await arrived;
      expect429(await get(urls.test, '/v1/checkouts', actor.auth.authorization), 'Concurrency');
    });
  });
});
