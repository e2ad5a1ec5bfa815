import { describe, expect, it } from 'vitest';
import type { Faults } from '../../../server/contract/faults.js';
import type { RequestLogEntry, VerifyRequestsResult } from '../../../server/contract/requests.js';
import type { Sandbox } from '../../../server/sandbox.js';
import { type Actor, createMerchant, testSandbox as openSandbox } from '../../helpers/sandbox.js';

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
    await control(sandbox, 'PUT', '/sandbox/faults', {
      rules: [{ match: { path: '/v1/checkouts/{id}' }, effect: { status: 429, retry_after_s: 2 } }],
    });
    const created = (await (await api(sandbox, actor, 'POST', '/v1/checkouts', checkout())).json()) as {
      id: string;
    };
    const res = await api(sandbox, actor, 'GET', `/v1/checkouts/${created.id}`);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('2');
    expect(((await res.json()) as { error: string }).error).toContain('"rule-1"');
    expect((await control(sandbox, 'GET', `/sandbox/merchants/${actor.merchantId}`)).status).toBe(200);
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
});
