import { afterEach, describe, expect, it } from 'vitest';
import {
  closeWorkspaces,
  RequestVerificationError,
  startSandbox,
  type TestSandbox,
  type TestWorkspace,
  workspace,
} from '../../../server/testing/index.js';

/**
 * svc-sandbox/testing: `ws.faults`, `ws.verify` and `ws.requests`, used as the README's
 * "Testing your integration's failure handling" recipe uses them: an app's own retrying client
 * against every effect.
 */

const open: TestSandbox[] = [];
afterEach(async () => {
  await closeWorkspaces();
  await Promise.all(open.splice(0).map((s) => s.close()));
});

/** The app under test: creates a checkout, retrying 5xx, 429 (after Retry-After) and timeouts. */
async function createCheckout(ws: TestWorkspace, reference: string, timeoutMs = 500) {
  const waits: number[] = [];
  for (let attempt = 1; ; attempt++) {
    let res: Response;
    try {
      res = await fetch(`${ws.urls.test}/v1/checkouts`, {
        method: 'POST',
        headers: { ...ws.headers, 'content-type': 'application/json' },
        body: JSON.stringify({
          title: 'Plan',
          amount: 50_000_000,
          currency: 'USDC',
          reference,
          expires_at: new Date(Date.now() + 86_400_000).toISOString(),
        }),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      if (attempt >= 4) throw error;
      waits.push(0);
      continue;
    }
    if ((res.status === 429 || res.status >= 500) && attempt < 4) {
      const wait = Number(res.headers.get('retry-after') ?? 0) * 1000;
      waits.push(wait);
      await new Promise((resolve) => setTimeout(resolve, wait));
      continue;
    }
    return {
      status: res.status,
      body: (await res.json()) as { id?: string; error?: string },
      attempt,
      waits,
    };
  }
}

describe('svc-sandbox/testing: faults and verification', () => {
  it('retries on 503, waits Retry-After on 429, gives up on a timeout and retries; the faults go with the workspace', async () => {
    open.push(await startSandbox());
    const ws = await workspace();
    const set = await ws.faults.set({
      seed: 'recipe',
      rules: [
        { id: 'down', match: { method: 'POST', path: '/v1/checkouts' }, count: 1, effect: { status: 503 } },
        { id: 'busy', match: { method: 'POST' }, count: 1, effect: { status: 429, retry_after_s: 1 } },
        { id: 'hang', match: { method: 'POST' }, count: 1, effect: { timeout: true } },
      ],
    });
    expect(set.rules.map((r) => r.id)).toEqual(['down', 'busy', 'hang']);
    const result = await createCheckout(ws, 'order-1');
    expect(result).toMatchObject({ status: 200, attempt: 4, waits: [0, 1000, 0] });
    await ws.verify({ method: 'POST', path: '/v1/checkouts', body: { reference: 'order-1' }, count: 4 });
    await ws.verify({ method: 'POST', path: '/v1/checkouts', status: 200, count: 1 });
    expect((await ws.faults.list()).rules.map((r) => r.applied)).toEqual([1, 1, 1]);
    await ws.faults.clear();
    expect((await ws.faults.list()).rules).toEqual([]);
    await ws.faults.set([{ effect: { status: 500 } }]);
    // A second workspace, live beside it in the same sandbox: none of its faults, none of its requests faulted.
    const live = await workspace();
    const list = (w: TestWorkspace) => fetch(`${w.urls.test}/v1/checkouts`, { headers: w.headers });
    const [faulted, answered] = [await list(ws), await list(live)];
    expect([faulted.status, answered.status]).toEqual([500, 200]);
    expect(await answered.json()).toEqual([]);
    await faulted.arrayBuffer();
    expect((await live.faults.list()).rules).toEqual([]);
    expect((await createCheckout(live, 'order-live')).attempt).toBe(1);
    expect((await ws.faults.list()).rules.map((r) => r.applied)).toEqual([1]);
    await live.close();
    await ws.close();
    const other = await workspace();
    expect((await other.faults.list()).rules).toEqual([]);
  });

  it('a lost response: the app retries with the same reference and is refused with 400; the checkout exists once', async () => {
    open.push(await startSandbox());
    const ws = await workspace();
    await ws.faults.set([
      { match: { method: 'POST', path: '/v1/checkouts' }, count: 1, effect: { lost_response: true } },
    ]);
    const result = await createCheckout(ws, 'order-2');
    expect(result.status).toBe(400);
    expect(result.body.error).toMatch(/reference/);
    expect(await ws.api<unknown[]>('GET', '/v1/checkouts')).toHaveLength(1);
    const sent = await ws.requests({ method: 'POST', path: '/v1/checkouts' });
    expect(sent.map((r) => r.status)).toEqual([400, 200]);
  });

  it('a failed verify throws an assertion error naming the near misses and the differing field', async () => {
    open.push(await startSandbox());
    const ws = await workspace();
    await createCheckout(ws, 'order-3');
    const error = await ws
      .verify({ method: 'POST', path: '/v1/checkouts', body: { amount: 5_000_000, reference: 'order-3' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestVerificationError);
    expect((error as Error).name).toBe('AssertionError');
    expect((error as Error).message).toContain('expected at least 1 request(s) matching');
    expect((error as Error).message).toContain('near misses:');
    expect((error as Error).message).toContain('body.amount: expected 5000000, actual 50000000');
  });
});
