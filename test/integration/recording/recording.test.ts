// biome-ignore-all lint/suspicious/noTemplateCurlyInString: scenario references (${co1.id}) are literal text here
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type {
  RecordingExpectResult,
  RecordingState,
  RecordingStopped,
} from '../../../server/contract/recording.js';
import type { Sandbox } from '../../../server/sandbox.js';
import { parseScenario } from '../../../server/scenarios/parse.js';
import { runScenario } from '../../../server/scenarios/run.js';
import { createMerchant, inFuture, testSandbox } from '../../helpers/sandbox.js';

/**
 * Recording: while a recording runs, control-API calls (the dashboard's clicks) and /v1
 * calls in either environment become the steps of a scenario, with names for what they created and
 * references instead of ids; stop answers the YAML.
 */

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
type Step = Record<string, unknown>;

function call(
  sandbox: Sandbox,
  method: Method,
  url: string,
  payload?: object,
  options: { key?: string; env?: 'test' | 'production' } = {},
): Promise<LightMyRequestResponse> {
  return sandbox.apps[options.env ?? 'test'].inject({
    method,
    url,
    headers: {
      ...(options.key ? { authorization: `Bearer ${options.key}` } : {}),
      ...(payload ? { 'content-type': 'application/json' } : {}),
    },
    ...(payload ? { payload: JSON.stringify(payload) } : {}),
  }) as Promise<LightMyRequestResponse>;
}

async function ok<T>(response: Promise<LightMyRequestResponse>, status = 200): Promise<T> {
  const res = await response;
  expect(res.statusCode, res.body).toBe(status);
  return res.json() as T;
}

interface Created {
  merchant: { id: string; name: string };
  api_key: { key: string };
}

/** The session of the issue: a merchant, a /v1 checkout, a partial payment, time, a refused refund. */
async function recordSession(sandbox: Sandbox) {
  await ok<RecordingState>(
    call(sandbox, 'POST', '/sandbox/recording/start', { name: 'partial then refund' }),
  );
  const acme = await ok<Created>(
    call(sandbox, 'POST', '/sandbox/merchants', { name: 'Acme Coffee', kyb_status: 'approved' }),
  );
  const key = acme.api_key.key;
  const co = await ok<{ id: string; status: string }>(
    call(
      sandbox,
      'POST',
      '/v1/checkouts',
      { title: 'Order 1', amount: 10_000_000, currency: 'USDC', expires_at: inFuture(sandbox, 3600_000) },
      { key },
    ),
  );
  // Reads are not steps.
  await ok(call(sandbox, 'GET', `/v1/checkouts/${co.id}`, undefined, { key }));
  // The dashboard's click "simulate a payment of 4 USDC".
  await ok(call(sandbox, 'POST', `/sandbox/checkouts/${co.id}/payments`, { amount: 4_000_000 }));
  // A refund of a partial checkout is refused: kept, with the status it got.
  const refused = await call(
    sandbox,
    'POST',
    `/v1/checkouts/${co.id}/refund`,
    { amount: 1_000_000 },
    { key },
  );
  expect(refused.statusCode, refused.body).toBe(400);
  await ok(call(sandbox, 'POST', '/sandbox/clock/advance', { seconds: 2 * 3600 }));
  // The production listener is recorded too: a checkout there, then a cancel.
  const prod = await ok<{ id: string }>(
    call(
      sandbox,
      'POST',
      '/v1/checkouts',
      { title: 'Order 2', amount: 2_000_000, expires_at: inFuture(sandbox, 3600_000) },
      { key, env: 'production' },
    ),
  );
  const cancelled = await call(sandbox, 'DELETE', `/v1/checkouts/${prod.id}`, undefined, {
    key,
    env: 'production',
  });
  expect(cancelled.statusCode, cancelled.body).toBe(204);
  const expectation = await ok<RecordingExpectResult>(
    call(sandbox, 'POST', '/sandbox/recording/expect', { kind: 'resource', path: `/v1/checkouts/${co.id}` }),
  );
  const prodExpectation = await ok<RecordingExpectResult>(
    call(sandbox, 'POST', '/sandbox/recording/expect', {
      kind: 'resource',
      path: `/v1/checkouts/${prod.id}`,
    }),
  );
  const stopped = await ok<RecordingStopped>(call(sandbox, 'POST', '/sandbox/recording/stop'));
  return { acme, co, prod, expectation, prodExpectation, stopped };
}

describe('recording', () => {
  it('turns a session into a scenario with names and references', async () => {
    const sandbox = await testSandbox();
    const { acme, co, prod, expectation, stopped } = await recordSession(sandbox);

    expect(expectation.step).toContain('status: partial');
    expect(stopped).toMatchObject({ recording: false, name: 'partial then refund', steps: 11 });
    const scenario = parse(stopped.scenario) as { name: string; clock: unknown; steps: Step[] };
    expect(scenario.name).toBe('partial then refund');
    expect(scenario.clock).toMatchObject({ frozen: true });
    expect(scenario.steps).toEqual([
      { merchant: 'acme_coffee', body: { name: 'Acme Coffee', kyb_status: 'approved' } },
      {
        call: 'POST /v1/checkouts',
        merchant: 'acme_coffee',
        env: 'test',
        as: 'co1',
        // Times are relative to the sandbox clock when the step runs: the file works at any time.
        body: { title: 'Order 1', amount: 10_000_000, currency: 'USDC', expires_at: '${clock.in.1h}' },
        // What it answered (key fields, earlier objects by reference) and the events it fired.
        expect: {
          status: 200,
          body: expect.objectContaining({
            merchant_id: '${acme_coffee.id}',
            status: 'active',
            amount: 10_000_000,
            currency: 'USDC',
            refunded_amount: 0,
          }),
          events: ['checkout.created'],
        },
      },
      {
        control: 'POST /sandbox/checkouts/${co1.id}/payments',
        body: { amount: 4_000_000 },
        expect: {
          status: 200,
          body: {
            // Paid in part, and still open: it becomes partial when it expires.
            checkout: expect.objectContaining({ id: '${co1.id}', status: 'active', amount: 10_000_000 }),
            payment: { checkout_id: '${co1.id}', amount: 4_000_000 },
          },
          events: [],
        },
      },
      // A simulation: the state it left, read back, and the balance it moved.
      {
        expect: {
          get: '/sandbox/checkouts/${co1.id}',
          body: expect.objectContaining({
            checkout: expect.objectContaining({ status: 'active', amount: 10_000_000, refunded_amount: 0 }),
            env: 'test',
            received_amount: 4_000_000,
          }),
        },
      },
      {
        expect: {
          balance: {
            merchant: 'acme_coffee',
            currency: 'USDC',
            available: expect.any(Number),
            held: expect.any(Number),
          },
        },
      },
      {
        call: 'POST /v1/checkouts/${co1.id}/refund',
        merchant: 'acme_coffee',
        env: 'test',
        body: { amount: 1_000_000 },
        expect: { status: 400 },
      },
      { clock: { advance: '2h' }, expect: { events: ['checkout.partial'] } },
      {
        call: 'POST /v1/checkouts',
        merchant: 'acme_coffee',
        env: 'production',
        as: 'co2',
        body: expect.objectContaining({ title: 'Order 2' }),
        expect: expect.objectContaining({ status: 200, events: ['checkout.created'] }),
      },
      {
        call: 'DELETE /v1/checkouts/${co2.id}',
        merchant: 'acme_coffee',
        env: 'production',
        expect: { status: 204, events: ['checkout.cancelled'] },
      },
      { expect: { get: '/v1/checkouts/${co1.id}', merchant: 'acme_coffee', body: { status: 'partial' } } },
      {
        expect: {
          get: '/v1/checkouts/${co2.id}',
          merchant: 'acme_coffee',
          env: 'production',
          body: { status: 'cancelled' },
        },
      },
    ]);
    // No id, key or address of this sandbox is left in the file.
    for (const value of [acme.merchant.id, acme.api_key.key, co.id, prod.id]) {
      expect(stopped.scenario).not.toContain(value);
    }
    // Stopped: nothing more is recorded.
    expect(await ok<RecordingState>(call(sandbox, 'GET', '/sandbox/recording'))).toEqual({
      recording: false,
      steps: 0,
    });
  });

  it('replays green in a fresh sandbox, ending in the same states', async () => {
    const sandbox = await testSandbox();
    const { stopped } = await recordSession(sandbox);
    const parsed = parseScenario(stopped.scenario);
    if (!parsed.ok) throw new Error(`recorded scenario is invalid: ${JSON.stringify(parsed.errors)}`);
    const { scenario } = parsed;
    const replay = await testSandbox({
      seed: scenario.seed,
      clock: { at: Date.parse(scenario.clock.start), frozen: scenario.clock.frozen },
    });
    const urls = await replay.listen();
    const run = await runScenario({ urls }, scenario);
    expect(run.steps.filter((s) => !s.ok)).toEqual([]);
    expect(run.ok).toBe(true);
    expect(run.steps).toHaveLength(11);

    // Field by field: every checkout of the merchant in both environments, and its events.
    const finalState = async (s: Sandbox) => {
      const merchants = await ok<{ id: string; name: string }[]>(call(s, 'GET', '/sandbox/merchants'));
      const acme = merchants.find((m) => m.name === 'Acme Coffee')!;
      const state: Record<string, unknown> = {};
      for (const env of ['test', 'production'] as const) {
        const checkouts = await ok<Record<string, unknown>[]>(
          call(s, 'GET', `/sandbox/merchants/${acme.id}/checkouts?env=${env}`),
        );
        state[env] = checkouts.map((c) => [c.title, c.status, c.amount, c.paid_amount, c.refunded_amount]);
        const events = await ok<{ type: string }[]>(
          call(s, 'GET', `/sandbox/merchants/${acme.id}/events?env=${env}&limit=1000`),
        );
        state[`${env} events`] = events.map((e) => e.type);
      }
      return state;
    };
    const original = await finalState(sandbox);
    expect(original.test).toEqual([['Order 1', 'partial', 10_000_000, 4_000_000, 0]]);
    expect(await finalState(replay)).toEqual(original);
  });

  it("points webhook endpoints on the built-in inbox at the replaying sandbox's own address", async () => {
    const sandbox = await testSandbox();
    const urls = await sandbox.listen();
    await ok(call(sandbox, 'POST', '/sandbox/recording/start', { name: 'hooks' }));
    const shop = await ok<Created>(call(sandbox, 'POST', '/sandbox/merchants', { name: 'Hook Shop' }));
    await ok(
      call(sandbox, 'POST', `/sandbox/merchants/${shop.merchant.id}/webhook-endpoints`, {
        url: `${urls.test}/sandbox/inbox/shop-hooks`,
        events: ['checkout.created'],
      }),
    );
    await ok(
      call(
        sandbox,
        'POST',
        '/v1/checkouts',
        { title: 'Hooked', amount: 1_000_000, expires_at: inFuture(sandbox) },
        { key: shop.api_key.key },
      ),
    );
    const stopped = await ok<RecordingStopped>(call(sandbox, 'POST', '/sandbox/recording/stop'));
    expect(stopped.scenario).toContain('url: ${sandbox.urls.test}/sandbox/inbox/shop-hooks');
    expect(stopped.scenario).not.toContain(urls.test);

    const parsed = parseScenario(stopped.scenario);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    const replay = await testSandbox({
      seed: parsed.scenario.seed,
      clock: { at: Date.parse(parsed.scenario.clock.start), frozen: true },
    });
    const run = await runScenario({ urls: await replay.listen() }, parsed.scenario);
    expect(run.steps.filter((s) => !s.ok)).toEqual([]);
    // The replay's webhook reached the replay's own inbox.
    await expect
      .poll(
        async () =>
          (await ok<{ messages: unknown[] }>(call(replay, 'GET', '/sandbox/inboxes/shop-hooks'))).messages
            .length,
        { timeout: 5000 },
      )
      .toBe(1);
  });

  it('reports its state, created resources included, and adopts a merchant made before it started', async () => {
    const sandbox = await testSandbox();
    const before = await createMerchant(sandbox, 'Old Shop');
    const started = await ok<RecordingState>(call(sandbox, 'POST', '/sandbox/recording/start'));
    expect(started).toMatchObject({ recording: true, steps: 0, resources: [] });
    expect(started.name).toMatch(/^recording /);
    // A dashboard click acting as the merchant in production (the acting route).
    const co = await ok<{ id: string }>(
      call(sandbox, 'POST', `/sandbox/merchants/${before.merchantId}/checkouts?env=production`, {
        title: 'From the dashboard',
        amount: 3_000_000,
        expires_at: inFuture(sandbox),
      }),
    );
    await ok(call(sandbox, 'PATCH', '/sandbox/settings', { webhook_timeout_ms: 2000 }));
    await ok(call(sandbox, 'POST', '/sandbox/clock/freeze'));
    const state = await ok<RecordingState>(call(sandbox, 'GET', '/sandbox/recording'));
    expect(state).toMatchObject({
      recording: true,
      steps: 4,
      resources: [{ name: 'co1', id: co.id, path: `/v1/checkouts/${co.id}`, env: 'production' }],
    });
    const added = await ok<RecordingExpectResult>(
      call(sandbox, 'POST', '/sandbox/recording/expect', {
        kind: 'resource',
        path: `/v1/checkouts/${co.id}`,
        fields: ['status', 'amount'],
      }),
    );
    expect(added.steps).toBe(5);
    const stopped = await ok<RecordingStopped>(call(sandbox, 'POST', '/sandbox/recording/stop'));
    const steps = (parse(stopped.scenario) as { steps: Step[] }).steps;
    expect(steps[0]).toEqual({ merchant: 'old_shop', body: { name: 'Old Shop', kyb_status: 'approved' } });
    expect(steps[1]).toMatchObject({
      control: 'POST /sandbox/merchants/${old_shop.id}/checkouts?env=production',
    });
    expect(steps.slice(2)).toEqual([
      { settings: { webhook_timeout_ms: 2000 } },
      { clock: 'freeze' },
      {
        expect: {
          get: '/v1/checkouts/${co1.id}',
          merchant: 'old_shop',
          env: 'production',
          body: { status: 'active', amount: 3_000_000 },
        },
      },
    ]);
  });

  it('adds a merchant named only in a body (a reseller connection target) before the step', async () => {
    const sandbox = await testSandbox();
    const reseller = await createMerchant(sandbox, 'Reseller One');
    const target = await createMerchant(sandbox, 'Target Shop');
    await ok(call(sandbox, 'POST', '/sandbox/recording/start', { name: 'connect' }));
    await ok(
      call(
        sandbox,
        'POST',
        '/v1/reseller/connections',
        { merchant_id: target.merchantId, rate: 450 },
        { key: reseller.key },
      ),
    );
    const stopped = await ok<RecordingStopped>(call(sandbox, 'POST', '/sandbox/recording/stop'));
    const steps = (parse(stopped.scenario) as { steps: Step[] }).steps;
    expect(steps.map((step) => step.merchant ?? step.call)).toEqual([
      'reseller_one',
      'target_shop',
      'reseller_one',
    ]);
    expect(steps[2]).toMatchObject({
      call: 'POST /v1/reseller/connections',
      body: { merchant_id: '${target_shop.id}', rate: 450 },
    });
    const parsed = parseScenario(stopped.scenario);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    const replay = await testSandbox({ seed: parsed.scenario.seed });
    const run = await runScenario({ urls: await replay.listen() }, parsed.scenario);
    expect(run.steps.filter((step) => !step.ok)).toEqual([]);
  });

  it('refuses what makes no sense: start twice, stop or expect with none running, bad paths', async () => {
    const sandbox = await testSandbox();
    const stop = await call(sandbox, 'POST', '/sandbox/recording/stop');
    expect(stop.statusCode).toBe(409);
    expect(stop.json()).toEqual({ error: expect.stringContaining('No recording is running') });
    const early = await call(sandbox, 'POST', '/sandbox/recording/expect', {
      kind: 'resource',
      path: '/v1/x',
    });
    expect(early.statusCode).toBe(409);

    expect((await call(sandbox, 'POST', '/sandbox/recording/start', { name: '' })).statusCode).toBe(422);
    await ok(call(sandbox, 'POST', '/sandbox/recording/start', { name: 'one' }));
    const twice = await call(sandbox, 'POST', '/sandbox/recording/start', { name: 'two' });
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toEqual({ error: 'A recording is already running: one' });

    const foreign = await call(sandbox, 'POST', '/sandbox/recording/expect', {
      kind: 'resource',
      path: '/x',
    });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().error).toMatch(/path/);
    const unknownV1 = await call(sandbox, 'POST', '/sandbox/recording/expect', {
      kind: 'resource',
      path: '/v1/checkouts/00000000-0000-4000-8000-000000000000',
    });
    expect(unknownV1.statusCode).toBe(422);
    expect(unknownV1.json().error).toMatch(/^path: names no object created while recording/);
    const missing = await call(sandbox, 'POST', '/sandbox/recording/expect', {
      kind: 'resource',
      path: '/sandbox/checkouts/00000000-0000-4000-8000-000000000000',
    });
    expect(missing.statusCode).toBe(404);
    const actor = await createMerchant(sandbox, 'Fields');
    const noField = await call(sandbox, 'POST', '/sandbox/recording/expect', {
      kind: 'resource',
      path: `/sandbox/merchants/${actor.merchantId}`,
      fields: ['colour'],
    });
    expect(noField.statusCode).toBe(422);
    expect(noField.json().error).toMatch(/^fields: .* has no field colour$/);
    // None of the refused calls, nor the recording routes, became steps: only the merchant did.
    expect((await ok<RecordingState>(call(sandbox, 'GET', '/sandbox/recording'))).steps).toBe(1);
  });

  it('leaves out reads, unauthenticated calls and calls made while no recording runs', async () => {
    const sandbox = await testSandbox();
    const actor = await createMerchant(sandbox, 'Quiet');
    await ok(call(sandbox, 'POST', '/v1/customers', { name: 'Before' }, { key: actor.key }));
    await ok(call(sandbox, 'POST', '/sandbox/recording/start', { name: 'quiet' }));
    await ok(call(sandbox, 'GET', '/sandbox/merchants'));
    await ok(call(sandbox, 'GET', '/v1/customers', undefined, { key: actor.key }));
    expect((await call(sandbox, 'POST', '/v1/customers', { name: 'No key' })).statusCode).toBe(401);
    await ok(call(sandbox, 'GET', '/sandbox/openapi.json'));
    const stopped = await ok<RecordingStopped>(call(sandbox, 'POST', '/sandbox/recording/stop'));
    expect(stopped.steps).toBe(0);
    expect((parse(stopped.scenario) as { steps: Step[] }).steps).toEqual([]);
    await ok(call(sandbox, 'POST', '/v1/customers', { name: 'After' }, { key: actor.key }));
    expect((await ok<RecordingState>(call(sandbox, 'GET', '/sandbox/recording'))).steps).toBe(0);
  });

  it('pushes the recording state on the event stream as it changes', async () => {
    const sandbox = await testSandbox();
    const urls = await sandbox.listen();
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 5000);
    try {
      const response = await fetch(`${urls.test}/sandbox/events?env=production`, {
        signal: controller.signal,
      });
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      const states: RecordingState[] = [];
      let acted = false;
      while (states.length < 3) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        if (!acted) {
          acted = true;
          await fetch(`${urls.test}/sandbox/recording/start`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ name: 'live' }),
          });
          await fetch(`${urls.test}/sandbox/merchants`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ name: 'Live Shop' }),
          });
          await fetch(`${urls.test}/sandbox/recording/stop`, { method: 'POST' });
        }
        const blocks = buffer.split('\n\n');
        buffer = blocks.pop() ?? '';
        for (const block of blocks) {
          if (!block.startsWith('event: recording')) continue;
          const data = block.split('\n').find((line) => line.startsWith('data: '));
          states.push(JSON.parse(data!.slice(6)) as RecordingState);
        }
      }
      await reader.cancel();
      expect(states.map((s) => [s.recording, s.steps])).toEqual([
        [true, 0],
        [true, 1],
        [false, 0],
      ]);
    } finally {
      clearTimeout(timer);
    }
  });
});
