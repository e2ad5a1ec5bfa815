import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import type { BoundWorkspace } from '../../server/workspaces/binding.js';
import { tempDir, testSandbox } from '../helpers/sandbox.js';

// A request binds to the context its workspace had when it started (server/workspaces/binding.ts):
// a restore, reset or delete waits for the requests bound to the old context, and requests arriving
// meanwhile start on the new one. No request reads two contexts, or one closed under it.

describe('reliability: a request keeps the context it started with', () => {
  it('a restore waits for a bound request; requests arriving meanwhile wait, then see the new context', async () => {
    const sandbox = await testSandbox({ dbPath: `${tempDir()}/sandbox.db` });
    const qa = await sandbox.workspaces.create({ name: 'QA' });
    qa.ctx.clock.freeze();
    const saved = qa.ctx.clock.now();
    sandbox.workspaces.saveCheckpoint(qa, 'start');
    await qa.ctx.scheduler.advance(3_600_000);

    const inFlight = qa.bind() as BoundWorkspace;
    let restored = false;
    const restore = sandbox.workspaces.restoreCheckpoint(qa, 'start').then(() => {
      restored = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Still waiting for the bound request, which reads its own context, open and unchanged.
    expect(restored).toBe(false);
    expect(inFlight.ctx.clock.now()).toBe(saved + 3_600_000);
    expect(inFlight.ctx.merchants.list().length).toBe(0);
    const later = qa.bind();
    expect(later).toBeInstanceOf(Promise);
    inFlight.leave();
    inFlight.leave(); // twice: no effect
    await restore;
    expect(restored).toBe(true);
    const next = (await later) as BoundWorkspace;
    expect(next.ctx).not.toBe(inFlight.ctx);
    expect(next.ctx.clock.now()).toBe(saved);
    next.leave();
  });

  it('a request waiting on a deleted workspace gets 404; the delete waited for the one bound', async () => {
    const sandbox = await testSandbox();
    const qa = await sandbox.workspaces.create({ name: 'QA' });
    const bound = qa.bind() as BoundWorkspace;
    const deleting = sandbox.workspaces.delete(qa.id);
    const waiting = sandbox.apps.test.inject({
      method: 'GET',
      url: '/sandbox/clock',
      headers: { 'x-svc-workspace': qa.id },
    });
    bound.ctx.clock.now();
    bound.leave();
    await deleting;
    expect(qa.bind()).toBeNull();
    // Arrived after the workspace left the list: named but not found.
    expect((await waiting).statusCode).toBe(404);
  });

  it('under load: many concurrent requests and restores, over HTTP, answer 200 and stay consistent', async () => {
    const sandbox = await testSandbox({ dbPath: `${tempDir()}/sandbox.db` });
    const urls = await sandbox.listen();
    const base = urls.test;
    const qa = await sandbox.workspaces.create({ name: 'QA' });
    const headers = { 'x-svc-workspace': qa.id, 'content-type': 'application/json' };
    const made = await request(`${base}/sandbox/merchants`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'Shop' }),
    });
    const { api_key } = (await made.body.json()) as { api_key: { key: string } };
    const auth = { authorization: `Bearer ${api_key.key}`, 'content-type': 'application/json' };
    await request(`${base}/sandbox/clock/freeze`, {
      method: 'POST',
      headers: { 'x-svc-workspace': qa.id },
    }).then((r) => r.body.dump());
    await request(`${base}/sandbox/checkpoints`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'base' }),
    }).then((r) => r.body.dump());
    const frozenAt = qa.ctx.clock.now();
    const checkoutBody = JSON.stringify({
      title: 'Load',
      amount: 1000,
      currency: 'USD',
      expires_at: new Date(frozenAt + 30 * 86_400_000).toISOString(),
    });

    // A live stream of the workspace through it all: it holds no context open (a restore does not
    // wait for it) and follows each new one (`config.workspace: 'outlives'`).
    const stream = new AbortController();
    const streamed = await request(`${base}/sandbox/events`, {
      headers: { 'x-svc-workspace': qa.id },
      signal: stream.signal,
    });
    let seen = '';
    streamed.body.setEncoding('utf8');
    streamed.body.on('data', (chunk: string) => {
      seen += chunk;
    });
    streamed.body.on('error', () => {});

    const statuses = new Map<number, number>();
    const count = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1);
    let inconsistent = 0;
    const one = async (i: number) => {
      switch (i % 4) {
        case 0: {
          // An advance answers with the clock of the context it ran on: never before the checkpoint's
          // time plus its own jump (a second context would show the restored time, earlier).
          const r = await request(`${base}/sandbox/clock/advance`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ seconds: 60 }),
          });
          count(r.statusCode);
          const body = (await r.body.json()) as { now: string; frozen: boolean };
          if (r.statusCode === 200 && (Date.parse(body.now) < frozenAt + 60_000 || !body.frozen))
            inconsistent++;
          return;
        }
        case 1: {
          const r = await request(`${base}/v1/checkouts`, {
            method: 'POST',
            headers: auth,
            body: checkoutBody,
          });
          count(r.statusCode);
          await r.body.dump();
          return;
        }
        case 2: {
          const r = await request(`${base}/v1/checkouts?limit=5`, { headers: auth });
          count(r.statusCode);
          await r.body.dump();
          return;
        }
        default: {
          const r = await request(`${base}/sandbox/clock`, { headers });
          count(r.statusCode);
          await r.body.dump();
        }
      }
    };
    const restores: Promise<void>[] = [];
    const requests: Promise<void>[] = [];
    const restoreTimes: number[] = [];
    for (let round = 0; round < 8; round++) {
      for (let i = 0; i < 40; i++) requests.push(one(round * 40 + i));
      const started = performance.now();
      restores.push(
        request(`${base}/sandbox/checkpoints/base/restore`, {
          method: 'POST',
          headers: { 'x-svc-workspace': qa.id },
        }).then(async (r) => {
          count(r.statusCode);
          await r.body.dump();
          restoreTimes.push(performance.now() - started);
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await Promise.all([...requests, ...restores]);
    const summary = Object.fromEntries(statuses);
    console.log(`workspace-binding: 320 requests, 8 restores, statuses ${JSON.stringify(summary)}`);
    expect(summary).toEqual({ 200: 328 });
    expect(inconsistent).toBe(0);
    // The workspace is whole afterwards: its last restore's state, serving.
    const after = await request(`${base}/v1/checkouts?limit=100`, { headers: auth });
    expect(after.statusCode).toBe(200);
    await after.body.dump();
    // No restore waited on the stream: each took far less than a stuck binding's wait would.
    expect(Math.max(...restoreTimes)).toBeLessThan(5_000);
    // The stream saw every restore (a `workspace` change each) and still follows the workspace.
    expect(seen.match(/"kind":"workspace"/g)?.length).toBe(8);
    const last = await request(`${base}/v1/checkouts`, { method: 'POST', headers: auth, body: checkoutBody });
    const { id } = (await last.body.json()) as { id: string };
    await expect.poll(() => seen.includes(`"resource_id":"${id}"`), { timeout: 5_000 }).toBe(true);
    stream.abort();
  });
});
