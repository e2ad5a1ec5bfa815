import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Checkpoint, Workspace } from '../../../server/contract/workspaces.js';
import { UNKNOWN_KEY } from '../../../server/http/plugins/api-key.js';
import type { Sandbox } from '../../../server/sandbox.js';
import { startReceiver } from '../../helpers/receiver.js';
import { ManualTime, tempDir, testSandbox } from '../../helpers/sandbox.js';

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** A control or /v1 call through the test listener, in workspace `ws` (none: the default). */
async function call(
  sandbox: Sandbox,
  method: Method,
  url: string,
  options: { ws?: string; body?: object; key?: string } = {},
) {
  const headers: Record<string, string> = {};
  if (options.ws) headers['x-svc-workspace'] = options.ws;
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  const res = await sandbox.apps.test.inject({
    method,
    url,
    headers,
    ...(options.body ? { payload: options.body } : {}),
  });
  return {
    status: res.statusCode,
    body: res.body ? (res.json() as Record<string, unknown> & unknown[]) : undefined,
  };
}

async function create(sandbox: Sandbox, body: object = {}): Promise<Workspace> {
  const res = await call(sandbox, 'POST', '/sandbox/workspaces', { body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as unknown as Workspace;
}

async function merchant(sandbox: Sandbox, ws: string | undefined, name: string) {
  const res = await call(sandbox, 'POST', '/sandbox/merchants', { ws, body: { name } });
  expect(res.status).toBe(200);
  const body = res.body as unknown as { merchant: { id: string }; api_key: { key: string } };
  return { id: body.merchant.id, key: body.api_key.key };
}

const names = (res: { body?: unknown }) => (res.body as { name: string }[]).map((m) => m.name);

describe('workspaces', () => {
  it('create, list, get, delete; the default one always exists and cannot be deleted', async () => {
    const sandbox = await testSandbox({ sole: true });
    const listed = await call(sandbox, 'GET', '/sandbox/workspaces');
    expect(listed.status).toBe(200);
    expect(listed.body).toHaveLength(1);
    expect(listed.body![0]).toMatchObject({ id: 'default', name: 'Default', default: true });

    const ws = await create(sandbox, { name: 'CI run 1', seed: 'abc' });
    expect(ws).toMatchObject({
      name: 'CI run 1',
      default: false,
      ephemeral: true,
      seed: 'abc',
      checkpoints: 0,
      from: null,
    });
    expect(ws.id).toMatch(/^ws_[0-9A-Za-z]{16}$/);
    expect((await call(sandbox, 'GET', `/sandbox/workspaces/${ws.id}`)).body).toMatchObject({ id: ws.id });
    // by name too
    expect((await call(sandbox, 'GET', '/sandbox/workspaces/ci%20run%201')).body).toMatchObject({
      id: ws.id,
    });
    expect((await call(sandbox, 'GET', '/sandbox/workspaces')).body).toHaveLength(2);

    // names are unique
    const dup = await call(sandbox, 'POST', '/sandbox/workspaces', { body: { name: 'ci run 1' } });
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({ error: expect.stringContaining('ci run 1') });

    const refused = await call(sandbox, 'DELETE', '/sandbox/workspaces/default');
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: 'The default workspace cannot be deleted' });

    expect((await call(sandbox, 'DELETE', `/sandbox/workspaces/${ws.id}`)).status).toBe(204);
    const gone = await call(sandbox, 'GET', `/sandbox/workspaces/${ws.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ error: `Workspace not found: ${ws.id}` });
    expect((await call(sandbox, 'DELETE', `/sandbox/workspaces/${ws.id}`)).status).toBe(404);
  });

  it('bad bodies are 422 naming the field', async () => {
    const sandbox = await testSandbox();
    for (const [body, field] of [
      [{ name: '' }, 'name'],
      [{ seed: 5 }, 'seed'],
      [{ clock: { start: 'yesterday' } }, 'start'],
      [{ clock: { frozen: 'yes' } }, 'frozen'],
      [{ from: {} }, 'workspace_id'],
      [{ ephemeral: 1 }, 'ephemeral'],
      [{ colour: 'red' }, 'colour'],
    ] as const) {
      const res = await call(sandbox, 'POST', '/sandbox/workspaces', { body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect((res.body as unknown as { error: string }).error).toContain(field);
    }
    const bad = await call(sandbox, 'POST', '/sandbox/checkpoints', { body: { name: '../etc' } });
    expect(bad.status).toBe(422);
    const from = await call(sandbox, 'POST', '/sandbox/workspaces', {
      body: { from: { workspace_id: 'ws_nope' } },
    });
    expect(from.status).toBe(404);
  });

  it('the header scopes every control call; /v1 finds the workspace from the key; nothing crosses', async () => {
    const sandbox = await testSandbox();
    const a = await create(sandbox, { name: 'A' });
    const b = await create(sandbox, { name: 'B' });
    const inA = await merchant(sandbox, a.id, 'Only in A');
    const inB = await merchant(sandbox, 'B', 'Only in B');
    const inDefault = await merchant(sandbox, undefined, 'Only in default');

    expect(names(await call(sandbox, 'GET', '/sandbox/merchants', { ws: a.id }))).toEqual(['Only in A']);
    expect(names(await call(sandbox, 'GET', '/sandbox/merchants', { ws: b.id }))).toEqual(['Only in B']);
    expect(names(await call(sandbox, 'GET', '/sandbox/merchants'))).toEqual(['Only in default']);
    // ?workspace= where a header cannot be sent
    expect(names(await call(sandbox, 'GET', `/sandbox/merchants?workspace=${a.id}`))).toEqual(['Only in A']);

    // another workspace's merchant is not found through this one
    expect((await call(sandbox, 'GET', `/sandbox/merchants/${inA.id}/balances`, { ws: b.id })).status).toBe(
      404,
    );
    expect(
      (
        await call(sandbox, 'PATCH', `/sandbox/merchants/${inA.id}`, {
          ws: b.id,
          body: { kyb_status: 'approved' },
        })
      ).status,
    ).toBe(404);

    // /v1: each key acts in its own workspace
    const made = await call(sandbox, 'POST', '/v1/customers', {
      key: inA.key,
      body: { name: 'Ada', email: 'a@example.com' },
    });
    expect(made.status).toBe(200);
    const customerId = (made.body as unknown as { id: string }).id;
    expect((await call(sandbox, 'GET', `/v1/customers/${customerId}`, { key: inA.key })).status).toBe(200);
    expect((await call(sandbox, 'GET', `/v1/customers/${customerId}`, { key: inB.key })).status).toBe(404);
    expect((await call(sandbox, 'GET', `/v1/customers/${customerId}`, { key: inDefault.key })).status).toBe(
      404,
    );
    // a header on /v1 changes nothing: the key decides
    expect(
      (await call(sandbox, 'GET', `/v1/customers/${customerId}`, { key: inB.key, ws: a.id })).status,
    ).toBe(404);

    // unknown workspace: 404 before any route runs
    const unknown = await call(sandbox, 'GET', '/sandbox/merchants', { ws: 'ws_0000000000000000' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'Workspace not found: ws_0000000000000000' });

    // a deleted workspace's keys are 401, refused as held by no workspace of the sandbox
    expect((await call(sandbox, 'DELETE', `/sandbox/workspaces/${a.id}`)).status).toBe(204);
    const after = await call(sandbox, 'GET', '/v1/customers', { key: inA.key });
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ error: UNKNOWN_KEY });
    expect((await call(sandbox, 'GET', '/v1/customers', { key: inB.key })).status).toBe(200);
    // a key no workspace ever held, the same; no key at all keeps its own words
    expect((await call(sandbox, 'GET', '/v1/customers', { key: 'svcb_nothing' })).body).toEqual({
      error: UNKNOWN_KEY,
    });
    expect((await call(sandbox, 'GET', '/v1/customers')).body).toEqual({
      error: 'Missing API key: send Authorization: Bearer svcb_...',
    });
    // the default workspace's request log lists the refused request, with no merchant
    const refused = await call(sandbox, 'GET', '/sandbox/request-log?unauthenticated=true');
    expect(
      (refused.body as { status: number }[]).filter((r) => r.status === 401).length,
    ).toBeGreaterThanOrEqual(3);
  });

  it('each workspace has its own clock: an advance runs only its own due work and says what fired', async () => {
    const time = new ManualTime();
    const sandbox = await testSandbox({ realNow: time.now });
    const receiver = await startReceiver();
    const a = await create(sandbox, {
      name: 'A',
      clock: { start: '2027-03-01T00:00:00.000Z', frozen: true },
    });
    const b = await create(sandbox, { name: 'B' });
    expect(a.clock).toMatchObject({ now: '2027-03-01T00:00:00.000Z', frozen: true });

    const checkouts: Record<string, string> = {};
    for (const ws of [a, b]) {
      const m = await merchant(sandbox, ws.id, `M ${ws.name}`);
      await call(sandbox, 'POST', `/sandbox/merchants/${m.id}/webhook-endpoints`, {
        ws: ws.id,
        body: { url: receiver.url, events: ['checkout.expired'] },
      });
      const clock = (await call(sandbox, 'GET', '/sandbox/clock', { ws: ws.id })).body as unknown as {
        now: string;
      };
      const res = await call(sandbox, 'POST', '/v1/checkouts', {
        key: m.key,
        body: {
          title: 'Order',
          amount: 1_000_000,
          currency: 'USDC',
          expires_at: new Date(Date.parse(clock.now) + 3600_000).toISOString(),
        },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      checkouts[ws.id] = (res.body as unknown as { id: string }).id;
    }

    const advanced = await call(sandbox, 'POST', '/sandbox/clock/advance', {
      ws: a.id,
      body: { seconds: 7200 },
    });
    expect(advanced.status).toBe(200);
    expect(advanced.body).toMatchObject({
      now: '2027-03-01T02:00:00.000Z',
      frozen: true,
      fired: {
        events: [{ type: 'checkout.expired', id: expect.any(String) }],
        deliveries: 1,
        jobs: expect.any(Number),
      },
    });
    const fired = (advanced.body as unknown as { fired: { jobs: number } }).fired;
    expect(fired.jobs).toBeGreaterThanOrEqual(1);
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.body).toMatchObject({
      event: 'checkout.expired',
      data: { id: checkouts[a.id] },
    });

    // B's clock did not move, and its checkout is still open
    const bClock = (await call(sandbox, 'GET', '/sandbox/clock', { ws: b.id })).body as unknown as {
      offset_ms: number;
    };
    expect(bClock.offset_ms).toBe(0);
    const bCheckout = await call(sandbox, 'GET', `/sandbox/checkouts/${checkouts[b.id]}`, { ws: b.id });
    expect(bCheckout.body).toMatchObject({ checkout: { status: 'active' } });
    // and the default one's clock stands where it was
    expect(
      ((await call(sandbox, 'GET', '/sandbox/clock')).body as unknown as { offset_ms: number }).offset_ms,
    ).toBe(0);
  });

  it('checkpoints: save, list, restore data, clock and settings; delete; fork from one', async () => {
    const time = new ManualTime();
    const sandbox = await testSandbox({ realNow: time.now });
    const ws = await create(sandbox, {
      name: 'QA',
      clock: { start: '2027-01-01T00:00:00.000Z', frozen: true },
    });
    const m = await merchant(sandbox, ws.id, 'Before');
    await call(sandbox, 'PATCH', '/sandbox/settings', { ws: ws.id, body: { platform_rate: 100 } });

    const saved = await call(sandbox, 'POST', '/sandbox/checkpoints', {
      ws: ws.id,
      body: { name: 'paid, before refund' },
    });
    expect(saved.status).toBe(201);
    expect(saved.body).toMatchObject({
      name: 'paid, before refund',
      at: '2027-01-01T00:00:00.000Z',
      size_bytes: expect.any(Number),
    });
    expect(
      (
        await call(sandbox, 'POST', '/sandbox/checkpoints', {
          ws: ws.id,
          body: { name: 'paid, before refund' },
        })
      ).status,
    ).toBe(409);

    // change data, clock and settings
    await merchant(sandbox, ws.id, 'After');
    await call(sandbox, 'POST', '/sandbox/clock/advance', { ws: ws.id, body: { seconds: 86400 } });
    await call(sandbox, 'PATCH', '/sandbox/settings', { ws: ws.id, body: { platform_rate: 250 } });
    expect(names(await call(sandbox, 'GET', '/sandbox/merchants', { ws: ws.id })).sort()).toEqual([
      'After',
      'Before',
    ]);

    const listed = await call(sandbox, 'GET', '/sandbox/checkpoints', { ws: ws.id });
    expect((listed.body as unknown as Checkpoint[]).map((c) => c.name)).toEqual(['paid, before refund']);
    // checkpoints are per workspace
    expect((await call(sandbox, 'GET', '/sandbox/checkpoints')).body).toEqual([]);

    const restored = await call(
      sandbox,
      'POST',
      `/sandbox/checkpoints/${encodeURIComponent('paid, before refund')}/restore`,
      { ws: ws.id },
    );
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({
      restored: 'paid, before refund',
      workspace: { id: ws.id, clock: { now: '2027-01-01T00:00:00.000Z', frozen: true } },
    });
    expect(names(await call(sandbox, 'GET', '/sandbox/merchants', { ws: ws.id }))).toEqual(['Before']);
    expect(
      (
        (await call(sandbox, 'GET', '/sandbox/settings', { ws: ws.id })).body as unknown as {
          platform_rate: number;
        }
      ).platform_rate,
    ).toBe(100);
    // the key made before the checkpoint works again
    expect((await call(sandbox, 'GET', '/v1/customers', { key: m.key })).status).toBe(200);

    // fork: a new workspace from the checkpoint; the source is untouched by what the fork does
    const fork = await create(sandbox, {
      name: 'Branch B',
      from: { workspace_id: ws.id, checkpoint: 'paid, before refund' },
    });
    expect(fork.from).toEqual({ workspace_id: ws.id, checkpoint: 'paid, before refund' });
    expect(fork.clock.now).toBe('2027-01-01T00:00:00.000Z');
    await merchant(sandbox, fork.id, 'Only in branch');
    expect(names(await call(sandbox, 'GET', '/sandbox/merchants', { ws: fork.id })).sort()).toEqual([
      'Before',
      'Only in branch',
    ]);
    expect(names(await call(sandbox, 'GET', '/sandbox/merchants', { ws: ws.id }))).toEqual(['Before']);
    // the fork has keys of its own: the source's key acts in the source only
    const forkKeys = (await call(sandbox, 'GET', `/sandbox/merchants/${m.id}/api-keys`, { ws: fork.id }))
      .body as unknown as { id: string; key: string }[];
    expect(forkKeys.length).toBeGreaterThan(0);
    expect(forkKeys.map((k) => k.key)).not.toContain(m.key);
    await call(sandbox, 'POST', '/v1/customers', { key: forkKeys[0]!.key, body: { name: 'Fork customer' } });
    const sourceCustomers = await call(sandbox, 'GET', '/v1/customers', { key: m.key });
    expect((sourceCustomers.body as unknown as { name: string }[]).map((c) => c.name)).not.toContain(
      'Fork customer',
    );
    // fork from now
    const now = await create(sandbox, { name: 'Branch C', from: { workspace_id: fork.id } });
    expect(names(await call(sandbox, 'GET', '/sandbox/merchants', { ws: now.id })).sort()).toEqual([
      'Before',
      'Only in branch',
    ]);

    expect((await call(sandbox, 'POST', '/sandbox/checkpoints/nope/restore', { ws: ws.id })).status).toBe(
      404,
    );
    expect(
      (
        await call(sandbox, 'DELETE', `/sandbox/checkpoints/${encodeURIComponent('paid, before refund')}`, {
          ws: ws.id,
        })
      ).status,
    ).toBe(204);
    expect((await call(sandbox, 'GET', '/sandbox/checkpoints', { ws: ws.id })).body).toEqual([]);
    expect((await call(sandbox, 'DELETE', '/sandbox/checkpoints/nope', { ws: ws.id })).status).toBe(404);
  });

  it('reset empties only its own workspace', async () => {
    const sandbox = await testSandbox();
    const ws = await create(sandbox, { name: 'R' });
    await merchant(sandbox, ws.id, 'In R');
    await merchant(sandbox, undefined, 'In default');
    expect((await call(sandbox, 'POST', '/sandbox/reset', { ws: ws.id })).status).toBe(200);
    expect(names(await call(sandbox, 'GET', '/sandbox/merchants', { ws: ws.id }))).toEqual([]);
    expect(names(await call(sandbox, 'GET', '/sandbox/merchants'))).toEqual(['In default']);
  });

  it('hosted pages of a workspace live under its prefix, and hosted_url says so', async () => {
    const sandbox = await testSandbox();
    const urls = await sandbox.listen();
    const ws = await create(sandbox, { name: 'Pages' });
    const m = await merchant(sandbox, ws.id, 'Shop');
    const res = await call(sandbox, 'POST', '/v1/checkouts', {
      key: m.key,
      body: {
        title: 'Beans',
        amount: 5_000_000,
        currency: 'USDC',
        expires_at: new Date(sandbox.workspaces.require(ws.id).ctx.clock.now() + 3600_000).toISOString(),
      },
    });
    const checkout = res.body as unknown as { id: string; hosted_url: string };
    expect(checkout.hosted_url).toBe(`${urls.test}/w/${ws.id}/pay/${checkout.id}`);
    const page = await fetch(checkout.hosted_url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Shop');
    const status = await fetch(`${urls.test}/w/${ws.id}/pay/${checkout.id}/status`);
    expect(await status.json()).toMatchObject({ id: checkout.id, status: 'active' });
    // the same page without the prefix is the default workspace's: not found there
    expect((await fetch(`${urls.test}/pay/${checkout.id}`)).status).toBe(404);
    // the page's own payment call, through the prefix
    const paid = await fetch(`${urls.test}/w/${ws.id}/sandbox/checkouts/${checkout.id}/payments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(paid.status).toBe(200);
    expect((await fetch(`${urls.test}/w/ws_0000000000000000/pay/${checkout.id}`)).status).toBe(404);
  });

  it('the event stream follows ?workspace= and only that workspace', async () => {
    const sandbox = await testSandbox();
    const urls = await sandbox.listen();
    const ws = await create(sandbox, { name: 'Live' });
    const controller = new AbortController();
    const response = await fetch(`${urls.test}/sandbox/events?workspace=${ws.id}`, {
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    let text = '';
    const until = async (needle: string) => {
      const deadline = Date.now() + 3000;
      while (!text.includes(needle) && Date.now() < deadline) {
        const { value, done } = await reader.read();
        if (done) break;
        text += new TextDecoder().decode(value);
      }
      return text.includes(needle);
    };
    await merchant(sandbox, undefined, 'Default merchant');
    await merchant(sandbox, ws.id, 'Live merchant');
    expect(await until('"kind":"merchant"')).toBe(true);
    const live = (await call(sandbox, 'GET', '/sandbox/merchants', { ws: ws.id })).body as unknown as {
      id: string;
    }[];
    const other = (await call(sandbox, 'GET', '/sandbox/merchants')).body as unknown as { id: string }[];
    expect(text).toContain(live[0]!.id);
    expect(text).not.toContain(other[0]!.id);
    // a restore keeps the stream, which says the workspace changed and follows the new data
    await call(sandbox, 'POST', '/sandbox/checkpoints', { ws: ws.id, body: { name: 'one' } });
    await call(sandbox, 'POST', '/sandbox/checkpoints/one/restore', { ws: ws.id });
    expect(await until('change:replaced')).toBe(true);
    await merchant(sandbox, ws.id, 'After restore');
    const after = (await call(sandbox, 'GET', '/sandbox/merchants', { ws: ws.id })).body as unknown as {
      id: string;
      name: string;
    }[];
    const newest = after.find((m) => m.name === 'After restore')!;
    expect(await until(newest.id)).toBe(true);
    controller.abort();
  });

  it('a file sandbox keeps its lasting workspaces and checkpoints across a restart; ephemeral ones go', async () => {
    const dir = tempDir();
    const dbPath = join(dir, 'sandbox.db');
    const first = await testSandbox({ dbPath, sole: true });
    const lasting = await create(first, {
      name: 'Lasting',
      clock: { start: '2027-05-01T00:00:00.000Z', frozen: true },
    });
    expect(lasting.ephemeral).toBe(false);
    const ephemeral = await create(first, { name: 'Gone', ephemeral: true });
    const m = await merchant(first, lasting.id, 'Kept');
    await call(first, 'POST', '/sandbox/checkpoints', { ws: lasting.id, body: { name: 'start' } });
    await merchant(first, ephemeral.id, 'Temporary');
    expect(existsSync(join(`${dbPath}-workspaces`, `${lasting.id}.db`))).toBe(true);
    await first.close();

    const second = await testSandbox({ dbPath, sole: true });
    const listed = (await call(second, 'GET', '/sandbox/workspaces')).body as unknown as Workspace[];
    expect(listed.map((w) => w.name)).toEqual(['Default', 'Lasting']);
    expect(listed[1]).toMatchObject({
      id: lasting.id,
      checkpoints: 1,
      clock: { now: '2027-05-01T00:00:00.000Z' },
    });
    expect(names(await call(second, 'GET', '/sandbox/merchants', { ws: lasting.id }))).toEqual(['Kept']);
    expect((await call(second, 'GET', '/v1/customers', { key: m.key })).status).toBe(200);
    expect(
      (await call(second, 'POST', '/sandbox/checkpoints/start/restore', { ws: lasting.id })).status,
    ).toBe(200);
    // deleting removes its files
    expect((await call(second, 'DELETE', `/sandbox/workspaces/${lasting.id}`)).status).toBe(204);
    expect(existsSync(join(`${dbPath}-workspaces`, `${lasting.id}.db`))).toBe(false);
    expect(existsSync(join(`${dbPath}-workspaces`, `${lasting.id}.checkpoints`))).toBe(false);
  });

  it('the same seed in two workspaces makes the same ids but different keys', async () => {
    const sandbox = await testSandbox();
    const a = await create(sandbox, { name: 'A', seed: 's1' });
    const b = await create(sandbox, { name: 'B', seed: 's1' });
    const ma = await merchant(sandbox, a.id, 'Same');
    const mb = await merchant(sandbox, b.id, 'Same');
    expect(ma.id).toBe(mb.id);
    expect(ma.key).not.toBe(mb.key);
    expect((await call(sandbox, 'GET', '/v1/customers', { key: ma.key })).status).toBe(200);
    expect((await call(sandbox, 'GET', '/v1/customers', { key: mb.key })).status).toBe(200);
  });
});
