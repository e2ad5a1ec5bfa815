import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Faults } from '../../../server/contract/faults.js';
import type { RequestLogEntry, VerifyRequestsResult } from '../../../server/contract/requests.js';
import type { Sandbox } from '../../../server/sandbox.js';
import { type Actor, createMerchant, testSandbox as openSandbox, tempDir } from '../../helpers/sandbox.js';

/** A sandbox listening on 127.0.0.1 (faults are about real connections). */
async function testSandbox(options: Parameters<typeof openSandbox>[0] = {}): Promise<Sandbox> {
  const sandbox = await openSandbox(options);
  await sandbox.listen();
  return sandbox;
}

/**
 * API faults (PUT/GET/DELETE /sandbox/faults) over real HTTP on 127.0.0.1, and request
 * verification (POST /sandbox/request-log/verify) with its near misses.
 */

const control = async (
  sandbox: Sandbox,
  method: 'GET' | 'PUT' | 'DELETE' | 'POST',
  url: string,
  body?: object,
) => {
  const res = await fetch(`${sandbox.urls().test}${url}`, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return {
    status: res.status,
    body: text === '' ? null : (JSON.parse(text) as unknown),
    headers: res.headers,
  };
};

const api = (
  sandbox: Sandbox,
  actor: Actor,
  method: string,
  path: string,
  body?: object,
  signal?: AbortSignal,
) =>
  fetch(`${sandbox.urls().test}${path}`, {
    method,
    headers: { ...actor.auth, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
    ...(signal ? { signal } : {}),
  });

const checkout = (reference?: string) => ({
  title: 'Plan',
  amount: 50_000_000,
  currency: 'USDC',
  expires_at: new Date(Date.now() + 86_400_000).toISOString(),
  ...(reference ? { reference } : {}),
});

async function log(sandbox: Sandbox): Promise<RequestLogEntry[]> {
  await new Promise((resolve) => setTimeout(resolve, 30));
  return (await control(sandbox, 'GET', '/sandbox/request-log')).body as RequestLogEntry[];
}

describe('API faults', () => {
  it('a 503 for the next 2 creates: the handler does not run, the log marks the rule, then requests pass', async () => {
    const sandbox = await testSandbox();
    const actor = await createMerchant(sandbox);
    const set = await control(sandbox, 'PUT', '/sandbox/faults', {
      seed: 's1',
      rules: [
        { id: 'flaky', match: { method: 'POST', path: '/v1/checkouts' }, count: 2, effect: { status: 503 } },
      ],
    });
    expect(set.status).toBe(200);
    expect((set.body as Faults).seed).toBe('s1');
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await api(sandbox, actor, 'POST', '/v1/checkouts', checkout());
      statuses.push(res.status);
      if (res.status === 503) expect(((await res.json()) as { error: string }).error).toContain('"flaky"');
      else await res.arrayBuffer();
    }
    expect(statuses).toEqual([503, 503, 200]);
    const list = (await api(sandbox, actor, 'GET', '/v1/checkouts')).json() as Promise<unknown[]>;
    expect(await list).toHaveLength(1);
    const entries = await log(sandbox);
    expect(entries.filter((e) => e.fault?.rule === 'flaky').map((e) => e.fault)).toEqual([
      { rule: 'flaky', effect: 'status', status: 503 },
      { rule: 'flaky', effect: 'status', status: 503 },
    ]);
    const faults = (await control(sandbox, 'GET', '/sandbox/faults')).body as Faults;
    expect(faults.rules[0]).toMatchObject({ id: 'flaky', remaining: 0, applied: 2 });
    expect((await control(sandbox, 'DELETE', '/sandbox/faults')).status).toBe(204);
    expect(((await control(sandbox, 'GET', '/sandbox/faults')).body as Faults).rules).toEqual([]);
  });

  it('an exported workspace keeps its fault marks: imported elsewhere, the log marks the same requests', async () => {
    const source = await testSandbox();
    const actor = await createMerchant(source);
    await control(source, 'PUT', '/sandbox/faults', {
      rules: [{ id: 'busy', match: { method: 'GET' }, count: 1, effect: { status: 429, retry_after_s: 2 } }],
    });
    expect((await api(source, actor, 'GET', '/v1/checkouts')).status).toBe(429);
    expect((await api(source, actor, 'GET', '/v1/checkouts')).status).toBe(200);
    const before = await log(source);
    const exported = await source.apps.test.inject({ method: 'GET', url: '/sandbox/export' });
    expect(exported.statusCode).toBe(200);

    const target = await testSandbox();
    const imported = await target.apps.test.inject({
      method: 'POST',
      url: '/sandbox/import',
      headers: { 'content-type': 'application/octet-stream' },
      payload: exported.rawPayload,
    });
    expect(imported.statusCode, imported.body).toBe(200);
    const after = await log(target);
    const marks = (entries: RequestLogEntry[]) => entries.map((e) => [e.id, e.status, e.fault ?? null]);
    expect(marks(after)).toEqual(marks(before));
    expect(after.filter((e) => e.fault)).toEqual([
      expect.objectContaining({ status: 429, fault: { rule: 'busy', effect: 'status', status: 429 } }),
    ]);
  });

  it('a 429 carries Retry-After; a route template matches; the control API is never faulted', async () => {
    const sandbox = await testSandbox();
    const actor = await createMerchant(sandbox);
    const created = (await (await api(sandbox, actor, 'POST', '/v1/checkouts', checkout())).json()) as {
      id: string;
    };
    await control(sandbox, 'PUT', '/sandbox/faults', {
      rules: [
        { match: { path: '/v1/checkouts/{id}' }, effect: { status: 429, retry_after_s: 2 } },
        // Every request of every method and path: only the control API can escape it.
        { id: 'everything', effect: { status: 503 } },
      ],
    });
    const res = await api(sandbox, actor, 'GET', `/v1/checkouts/${created.id}`);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('2');
    expect(((await res.json()) as { error: string }).error).toContain('"rule-1"');
    // The catch-all is in force on /v1 ...
    const other = await api(sandbox, actor, 'GET', '/v1/checkouts');
    expect(other.status).toBe(503);
    expect(((await other.json()) as { error: string }).error).toContain('"everything"');
    // ... and never on the control API, whatever the method, on either listener.
    const controlCalls: [string, 'GET' | 'POST' | 'PUT', string, object?][] = [
      ['test', 'GET', `/sandbox/merchants/${actor.merchantId}`],
      ['test', 'GET', `/sandbox/checkouts/${created.id}`],
      ['test', 'GET', '/sandbox/clock'],
      ['test', 'POST', '/sandbox/clock/advance', { seconds: 1 }],
      ['test', 'POST', '/sandbox/request-log/verify', { method: 'GET' }],
      ['test', 'GET', '/sandbox/request-log'],
      ['production', 'GET', '/sandbox/health'],
    ];
    for (const [env, method, url, body] of controlCalls) {
      const answer = await fetch(`${sandbox.urls()[env as 'test' | 'production']}${url}`, {
        method,
        headers: body ? { 'content-type': 'application/json' } : {},
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      await answer.arrayBuffer();
      expect([method, url, answer.status]).toEqual([method, url, 200]);
    }
    // Not one control call was even counted against the rules: only the two /v1 calls were.
    const faults = (await control(sandbox, 'GET', '/sandbox/faults')).body as Faults;
    expect(faults.rules.map((r) => [r.id, r.applied])).toEqual([
      ['rule-1', 1],
      ['everything', 1],
    ]);
  });

  it('latency: the right answer, later', async () => {
    const sandbox = await testSandbox();
    const actor = await createMerchant(sandbox);
    await control(sandbox, 'PUT', '/sandbox/faults', {
      rules: [{ id: 'slow', effect: { latency_ms: { min: 150, max: 200 } } }],
    });
    const started = performance.now();
    const res = await api(sandbox, actor, 'GET', '/v1/checkouts');
    expect(res.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    const [entry] = await log(sandbox);
    expect(entry!.fault).toMatchObject({ rule: 'slow', effect: 'latency' });
    expect(entry!.fault!.latency_ms).toBeGreaterThanOrEqual(150);
    expect(entry!.fault!.latency_ms).toBeLessThanOrEqual(200);
  });

  it('timeout: no answer; the connection is closed once the client gives up', async () => {
    const sandbox = await testSandbox();
    const actor = await createMerchant(sandbox);
    await control(sandbox, 'PUT', '/sandbox/faults', {
      rules: [{ id: 'hang', count: 1, effect: { timeout: true } }],
    });
    const error = await api(
      sandbox,
      actor,
      'GET',
      '/v1/checkouts',
      undefined,
      AbortSignal.timeout(300),
    ).catch((e: unknown) => e);
    expect((error as Error).name).toBe('TimeoutError');
    await expect
      .poll(async () => (await log(sandbox))[0]?.fault)
      .toEqual({ rule: 'hang', effect: 'timeout' });
    expect((await api(sandbox, actor, 'GET', '/v1/checkouts')).status).toBe(200);
  });

  it("timeout: closed after the server's request timeout when the client waits", async () => {
    const sandbox = await testSandbox({ timeouts: { requestMs: 300 } });
    const actor = await createMerchant(sandbox);
    await control(sandbox, 'PUT', '/sandbox/faults', { rules: [{ count: 1, effect: { timeout: true } }] });
    const started = performance.now();
    const error = await api(sandbox, actor, 'GET', '/v1/checkouts').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(performance.now() - started).toBeGreaterThanOrEqual(280);
  });

  it('lost response: the create commits and the connection closes; its retry with the same reference is refused', async () => {
    const sandbox = await testSandbox();
    const actor = await createMerchant(sandbox);
    await control(sandbox, 'PUT', '/sandbox/faults', {
      rules: [
        {
          id: 'lost',
          match: { method: 'POST', path: '/v1/checkouts' },
          count: 1,
          effect: { lost_response: true },
        },
      ],
    });
    const error = await api(sandbox, actor, 'POST', '/v1/checkouts', checkout('order-7')).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TypeError);
    const list = (await (await api(sandbox, actor, 'GET', '/v1/checkouts')).json()) as {
      reference: string;
    }[];
    expect(list.map((c) => c.reference)).toEqual(['order-7']);
    const retry = await api(sandbox, actor, 'POST', '/v1/checkouts', checkout('order-7'));
    expect(retry.status).toBe(400);
    const entries = await log(sandbox);
    expect(entries.find((e) => e.fault)).toMatchObject({
      status: 200,
      fault: { rule: 'lost', effect: 'lost_response' },
    });
  });

  it('the same seed gives the same faults in two fresh sandboxes; setting the seed again restarts the sequence', async () => {
    const run = async (sandbox: Sandbox, actor: Actor) => {
      const statuses: number[] = [];
      for (let i = 0; i < 20; i++) {
        const res = await api(sandbox, actor, 'GET', '/v1/checkouts');
        await res.arrayBuffer();
        statuses.push(res.status);
      }
      return statuses;
    };
    const rules = { seed: 'same', rules: [{ rate: 0.4, effect: { status: 500 } }] };
    const runs: number[][] = [];
    for (let i = 0; i < 2; i++) {
      const sandbox = await testSandbox();
      const actor = await createMerchant(sandbox);
      await control(sandbox, 'PUT', '/sandbox/faults', rules);
      runs.push(await run(sandbox, actor));
      await control(sandbox, 'PUT', '/sandbox/faults', rules);
      runs.push(await run(sandbox, actor));
    }
    expect(runs[0]).toContain(500);
    expect(runs[0]).toContain(200);
    for (const other of runs.slice(1)) expect(other).toEqual(runs[0]);
  });

  it('match.env production faults the production address only: the same requests in test are answered', async () => {
    const sandbox = await testSandbox();
    const actor = await createMerchant(sandbox);
    await control(sandbox, 'PUT', '/sandbox/faults', {
      rules: [{ id: 'prod-down', match: { env: 'production' }, effect: { status: 503 } }],
    });
    const inTest = [
      await api(sandbox, actor, 'GET', '/v1/checkouts'),
      await api(sandbox, actor, 'POST', '/v1/checkouts', checkout()),
    ];
    for (const res of inTest) await res.arrayBuffer();
    expect(inTest.map((res) => res.status)).toEqual([200, 200]);
    const inProduction = await fetch(`${sandbox.urls().production}/v1/checkouts`, { headers: actor.auth });
    expect(inProduction.status).toBe(503);
    expect(((await inProduction.json()) as { error: string }).error).toContain('"prod-down"');
    const faults = (await control(sandbox, 'GET', '/sandbox/faults')).body as Faults;
    expect(faults.rules[0]).toMatchObject({ id: 'prod-down', applied: 1, remaining: null });
    const marked = (await log(sandbox)).filter((e) => e.fault).map((e) => [e.env, e.status]);
    expect(marked).toEqual([['production', 503]]);
  });

  it('a seeded sequence and its remaining counts continue across a restart on the same database file', async () => {
    const rules = {
      seed: 'restart-1',
      rules: [{ id: 'flaky', rate: 0.5, count: 6, effect: { status: 500 } }],
    };
    const statuses = async (sandbox: Sandbox, actor: Actor, n: number) => {
      const out: number[] = [];
      for (let i = 0; i < n; i++) {
        const res = await api(sandbox, actor, 'GET', '/v1/checkouts');
        await res.arrayBuffer();
        out.push(res.status);
      }
      return out;
    };
    const faultsOf = async (sandbox: Sandbox) =>
      ((await control(sandbox, 'GET', '/sandbox/faults')).body as Faults).rules.map((r) => ({
        remaining: r.remaining,
        applied: r.applied,
      }));

    // Without a restart: 16 requests in one go.
    const unbroken = await testSandbox();
    const unbrokenActor = await createMerchant(unbroken);
    await control(unbroken, 'PUT', '/sandbox/faults', rules);
    const expected = await statuses(unbroken, unbrokenActor, 16);
    const expectedFaults = await faultsOf(unbroken);

    // The same 16 with the sandbox closed and opened again on its file after the first 8.
    const dbPath = join(tempDir(), 'sandbox.db');
    const first = await testSandbox({ dbPath });
    const actor = await createMerchant(first);
    await control(first, 'PUT', '/sandbox/faults', rules);
    const before = await statuses(first, actor, 8);
    const atClose = await faultsOf(first);
    await first.close();
    const second = await testSandbox({ dbPath });
    // The remaining count is what it was, neither reset to the rule's count nor spent.
    expect(await faultsOf(second)).toEqual(atClose);
    const after = await statuses(second, actor, 8);

    // Something was faulted on each side of the restart, and the rule was not spent before it.
    expect(before).toContain(500);
    expect(after).toContain(500);
    expect(atClose[0]!.remaining).toBeGreaterThan(0);
    expect(atClose[0]!.remaining).toBeLessThan(6);
    expect([...before, ...after]).toEqual(expected);
    expect(await faultsOf(second)).toEqual(expectedFaults);
  });

  it('bad rules are refused with 422 naming the field', async () => {
    const sandbox = await testSandbox();
    const two = await control(sandbox, 'PUT', '/sandbox/faults', {
      rules: [{ effect: { status: 503, timeout: true } }],
    });
    expect(two.status).toBe(422);
    expect((two.body as { error: string }).error).toMatch(/^rules\[0\]\.effect: /);
    const none = await control(sandbox, 'PUT', '/sandbox/faults', { rules: [{ effect: {} }] });
    expect((none.body as { error: string }).error).toMatch(/^rules\[0\]\.effect: /);
    const range = await control(sandbox, 'PUT', '/sandbox/faults', {
      rules: [{ effect: { latency_ms: { min: 10, max: 5 } } }],
    });
    expect((range.body as { error: string }).error).toMatch(/^rules\[0\]\.effect\.latency_ms: /);
    const status = await control(sandbox, 'PUT', '/sandbox/faults', { rules: [{ effect: { status: 418 } }] });
    expect(status.status).toBe(422);
    expect((status.body as { error: string }).error).toContain('status');
  });
});

describe('request verification', () => {
  it('matches by template, body subset and count; a failed verify names its near misses and the differing field', async () => {
    const sandbox = await testSandbox();
    const actor = await createMerchant(sandbox);
    const first = await api(sandbox, actor, 'POST', '/v1/checkouts', {
      ...checkout('a'),
      amount: 10_000_000,
    });
    const created = (await first.json()) as { id: string };
    await (await api(sandbox, actor, 'GET', `/v1/checkouts/${created.id}?expand=none`)).arrayBuffer();
    await new Promise((resolve) => setTimeout(resolve, 30));
    const ok = (
      await control(sandbox, 'POST', '/sandbox/request-log/verify', {
        method: 'POST',
        path: '/v1/checkouts',
        body: { amount: 10_000_000, reference: 'a' },
        count: { eq: 1 },
      })
    ).body as VerifyRequestsResult;
    expect(ok).toMatchObject({ ok: true, matched: 1, near_misses: [] });
    const byTemplate = (
      await control(sandbox, 'POST', '/sandbox/request-log/verify', {
        path: '/v1/checkouts/{id}',
        status: '2xx',
      })
    ).body as VerifyRequestsResult;
    expect(byTemplate.matched).toBe(1);
    const failed = (
      await control(sandbox, 'POST', '/sandbox/request-log/verify', {
        method: 'POST',
        path: '/v1/checkouts',
        body: { amount: 50_000_000 },
      })
    ).body as VerifyRequestsResult;
    expect(failed).toMatchObject({ ok: false, matched: 0, count: { gte: 1 } });
    expect(failed.near_misses[0]!.differences).toEqual(['body.amount: expected 50000000, actual 10000000']);
    const since = (
      await control(sandbox, 'POST', '/sandbox/request-log/verify', {
        method: 'POST',
        since: failed.near_misses[0]!.request.id,
        count: { eq: 0 },
      })
    ).body as VerifyRequestsResult;
    expect(since.ok).toBe(true);
    const unknown = await control(sandbox, 'POST', '/sandbox/request-log/verify', {
      since: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.status).toBe(422);
    expect((unknown.body as { error: string }).error).toMatch(/^since: /);
  });
  const verifyOf = async (sandbox: Sandbox, criteria: object) => {
    const res = await control(sandbox, 'POST', '/sandbox/request-log/verify', criteria);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as VerifyRequestsResult;
  };
  const send = async (sandbox: Sandbox, actor: Actor, method: string, path: string, body?: object) => {
    const res = await api(sandbox, actor, method, path, body);
    await res.arrayBuffer();
    return res.status;
  };

  it('since as a time: only the requests at or after it count', async () => {
    const sandbox = await testSandbox();
    const actor = await createMerchant(sandbox);
    expect(await send(sandbox, actor, 'GET', '/v1/checkouts?limit=1')).toBe(200);
    const clock = await control(sandbox, 'POST', '/sandbox/clock/advance', { seconds: 60 });
    const at = (clock.body as { now: string }).now;
    expect(await send(sandbox, actor, 'GET', '/v1/checkouts?limit=2')).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 30));
    const after = await verifyOf(sandbox, {
      method: 'GET',
      path: '/v1/checkouts',
      since: at,
      count: { eq: 1 },
    });
    expect(after).toMatchObject({ ok: true, matched: 1 });
    expect(after.requests.map((r) => r.path)).toEqual(['/v1/checkouts?limit=2']);
    // A time before both: both count.
    const earlier = new Date(Date.parse(at) - 3600_000).toISOString();
    expect(await verifyOf(sandbox, { method: 'GET', since: earlier })).toMatchObject({
      ok: true,
      matched: 2,
    });
  });

  it('count.lte: more matching requests than allowed fail', async () => {
    const sandbox = await testSandbox();
    const actor = await createMerchant(sandbox);
    for (let i = 0; i < 2; i++) expect(await send(sandbox, actor, 'GET', '/v1/checkouts')).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 30));
    const tooMany = await verifyOf(sandbox, { method: 'GET', path: '/v1/checkouts', count: { lte: 1 } });
    expect(tooMany).toMatchObject({ ok: false, matched: 2, count: { lte: 1 } });
    expect(await verifyOf(sandbox, { method: 'GET', count: { lte: 2 } })).toMatchObject({
      ok: true,
      matched: 2,
    });
    expect(await verifyOf(sandbox, { method: 'POST', count: { lte: 0 } })).toMatchObject({
      ok: true,
      matched: 0,
    });
  });

  it('env: only the requests sent to that environment match', async () => {
    const sandbox = await testSandbox();
    const actor = await createMerchant(sandbox);
    expect(await send(sandbox, actor, 'GET', '/v1/checkouts')).toBe(200);
    const production = await fetch(`${sandbox.urls().production}/v1/checkouts?limit=3`, {
      headers: actor.auth,
    });
    await production.arrayBuffer();
    expect(production.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 30));
    const inProduction = await verifyOf(sandbox, { method: 'GET', env: 'production', count: { eq: 1 } });
    expect(inProduction).toMatchObject({ ok: true, matched: 1 });
    expect(inProduction.requests.map((r) => [r.env, r.path])).toEqual([
      ['production', '/v1/checkouts?limit=3'],
    ]);
    const inTest = await verifyOf(sandbox, { method: 'GET', env: 'test', count: { eq: 1 } });
    expect(inTest.requests.map((r) => [r.env, r.path])).toEqual([['test', '/v1/checkouts']]);
  });

  it('a status class (4xx) matches every status of the class and no other', async () => {
    const sandbox = await testSandbox();
    const actor = await createMerchant(sandbox);
    expect(await send(sandbox, actor, 'GET', '/v1/checkouts')).toBe(200);
    expect(await send(sandbox, actor, 'GET', '/v1/checkouts/00000000-0000-4000-8000-000000000000')).toBe(404);
    expect(await send(sandbox, actor, 'POST', '/v1/checkouts', { title: 'no amount or expiry' })).toBe(422);
    await new Promise((resolve) => setTimeout(resolve, 30));
    const clientErrors = await verifyOf(sandbox, { status: '4xx', count: { eq: 2 } });
    expect(clientErrors).toMatchObject({ ok: true, matched: 2 });
    expect(clientErrors.requests.map((r) => r.status)).toEqual([422, 404]);
    expect(await verifyOf(sandbox, { status: '2xx', count: { eq: 1 } })).toMatchObject({
      ok: true,
      matched: 1,
    });
    expect(await verifyOf(sandbox, { status: '5xx', count: { eq: 0 } })).toMatchObject({
      ok: true,
      matched: 0,
    });
  });
});
