import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ScenarioProgress, ScenarioRun } from '../../../server/contract/scenarios.js';
import { testSandbox } from '../../helpers/sandbox.js';

// The control API's scenario routes: the schema, and runs against this very sandbox with their
// progress on the event stream.

const SCHEMA_FILE = fileURLToPath(new URL('../../../docs/scenario.schema.json', import.meta.url));

const SCENARIO = `name: api run
steps:
  - merchant: acme
  - call: POST /v1/checkouts
    as: co
    body: { title: API order, amount: 2000000, currency: USDC, expires_at: "\${clock.in.1h}" }
  - control: POST /sandbox/checkouts/\${co.id}/payments
  - expect: { event: { type: checkout.paid, data: { id: "\${co.id}" } } }
`;

interface Message {
  event: string;
  data: unknown;
}

/** Opens GET /sandbox/events and collects messages of `type` until `enough` (5 s at most). */
async function collect(
  url: string,
  type: string,
  enough: (m: Message[]) => boolean,
  act: () => Promise<void>,
) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 5000);
  const response = await fetch(`${url}/sandbox/events`, { signal: controller.signal });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const messages: Message[] = [];
  let buffer = decoder.decode((await reader.read()).value);
  const acting = act();
  try {
    while (!enough(messages)) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      for (let cut = buffer.indexOf('\n\n'); cut !== -1; cut = buffer.indexOf('\n\n')) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const event = /^event: (.+)$/m.exec(block)?.[1];
        const data = /^data: (.+)$/m.exec(block)?.[1];
        if (event === type && data) messages.push({ event, data: JSON.parse(data) });
      }
    }
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
  await acting;
  return messages;
}

describe('GET /sandbox/scenario.schema.json', () => {
  it('serves the JSON Schema of scenario files, the same as docs/scenario.schema.json', async () => {
    const sandbox = await testSandbox();
    const res = await sandbox.apps.production.inject({ method: 'GET', url: '/sandbox/scenario.schema.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.json()).toEqual(JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')));
    expect(res.json()).toMatchObject({ type: 'object', required: ['name', 'steps'] });
  });
});

describe('POST /sandbox/scenarios/run', () => {
  it('runs against this sandbox and streams each finished step as event: scenario', async () => {
    const sandbox = await testSandbox();
    const urls = await sandbox.listen();
    let run: ScenarioRun | undefined;
    const messages = await collect(
      urls.test,
      'scenario',
      (m) => m.some((x) => (x.data as ScenarioProgress).done),
      async () => {
        const res = await fetch(`${urls.test}/sandbox/scenarios/run`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ scenario: SCENARIO }),
        });
        expect(res.status).toBe(200);
        run = (await res.json()) as ScenarioRun;
      },
    );
    expect(run).toMatchObject({ ok: true, name: 'api run' });
    expect(run!.steps.map((s) => [s.index, s.line, s.kind, s.ok])).toEqual([
      [1, 3, 'merchant', true],
      [2, 4, 'call', true],
      [3, 7, 'control', true],
      [4, 8, 'expect', true],
    ]);
    const progress = messages.map((m) => m.data as ScenarioProgress);
    expect(progress.map((p) => [p.step.index, p.done])).toEqual([
      [1, false],
      [2, false],
      [3, false],
      [4, true],
    ]);
    expect(new Set(progress.map((p) => p.run_id)).size).toBe(1);
    expect(progress[0]!.name).toBe('api run');
    expect(progress.map((p) => p.step)).toEqual(run!.steps);
    // It ran here: the merchant and its paid checkout are in this sandbox.
    const merchants = (await sandbox.apps.test.inject({ method: 'GET', url: '/sandbox/merchants' })).json();
    expect(merchants.map((m: { name: string }) => m.name)).toEqual(['acme']);
  });

  it('a failed step is 200 with ok false, the failure named; its progress message is the last (done)', async () => {
    const sandbox = await testSandbox();
    const urls = await sandbox.listen();
    const messages: ScenarioProgress[] = [];
    const off = sandbox.scenarios.on((p) => messages.push(p));
    const res = await fetch(`${urls.test}/sandbox/scenarios/run`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        scenario: `name: fails\nsteps:\n  - merchant: a\n  - control: POST /sandbox/checkouts/nope/payments\n  - merchant: b\n`,
      }),
    });
    off();
    const run = (await res.json()) as ScenarioRun;
    expect(res.status).toBe(200);
    expect(run.ok).toBe(false);
    expect(run.steps).toHaveLength(2);
    expect(run.steps[1]).toMatchObject({ index: 2, line: 4, ok: false });
    expect(run.steps[1]!.error).toMatch(
      /^POST \/sandbox\/checkouts\/nope\/payments: expected status 2xx, actual 4\d\d /,
    );
    expect(messages.map((m) => [m.step.index, m.done])).toEqual([
      [1, false],
      [2, true],
    ]);
  });

  it('env: production makes the steps that name none act in production', async () => {
    const sandbox = await testSandbox();
    const urls = await sandbox.listen();
    const res = await fetch(`${urls.test}/sandbox/scenarios/run`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        env: 'production',
        scenario: `name: prod
steps:
  - merchant: acme
  - call: POST /v1/checkouts
    body: { title: Live, amount: 1000000, currency: USDC, expires_at: "\${clock.in.1h}" }
  - expect: { event: { type: checkout.created, count: 1 } }
  - expect: { event: { type: checkout.created, env: test, count: 0 } }
`,
      }),
    });
    const run = (await res.json()) as ScenarioRun;
    expect(run.steps.filter((s) => !s.ok)).toEqual([]);
    expect(run.ok).toBe(true);
  });

  it('an invalid file is 400 naming the line and field of every problem; nothing runs', async () => {
    const sandbox = await testSandbox();
    await sandbox.listen();
    const res = await sandbox.apps.test.inject({
      method: 'POST',
      url: '/sandbox/scenarios/run',
      payload: {
        scenario: `name: bad\nsteps:\n  - merchant: a\n  - clock: { advance: 1 week }\n  - call: GET /v1/\${x.id}\n`,
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error:
        'invalid scenario: line 4: steps[1].clock.advance: must be a duration like 30s, 5m, 2h, 7d or 1h30m; ' +
        `line 5: steps[2].call: \${x.id}: unknown name x (no earlier step is named x)`,
    });
    expect((await sandbox.apps.test.inject({ method: 'GET', url: '/sandbox/merchants' })).json()).toEqual([]);
    const yaml = await sandbox.apps.test.inject({
      method: 'POST',
      url: '/sandbox/scenarios/run',
      payload: { scenario: 'name: [unclosed' },
    });
    expect(yaml.statusCode).toBe(400);
    expect(yaml.json().error).toMatch(/^invalid scenario: line 1: \(file\): /);
  });

  it('refuses a bad body (422 naming the field), a cross-site caller (403), a sandbox not listening (409)', async () => {
    const sandbox = await testSandbox();
    const early = await sandbox.apps.test.inject({
      method: 'POST',
      url: '/sandbox/scenarios/run',
      payload: { scenario: SCENARIO },
    });
    expect(early.statusCode).toBe(409);
    expect(early.json()).toEqual({
      error: 'the sandbox is not listening yet: scenarios run over its addresses',
    });
    await sandbox.listen();
    const missing = await sandbox.apps.test.inject({
      method: 'POST',
      url: '/sandbox/scenarios/run',
      payload: {},
    });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().error).toContain('scenario');
    const env = await sandbox.apps.test.inject({
      method: 'POST',
      url: '/sandbox/scenarios/run',
      payload: { scenario: SCENARIO, env: 'staging' },
    });
    expect(env.statusCode).toBe(422);
    expect(env.json().error).toContain('env');
    const foreign = await sandbox.apps.test.inject({
      method: 'POST',
      url: '/sandbox/scenarios/run',
      headers: { origin: 'https://evil.example' },
      payload: { scenario: SCENARIO },
    });
    expect(foreign.statusCode).toBe(403);
    expect((await sandbox.apps.test.inject({ method: 'GET', url: '/sandbox/merchants' })).json()).toEqual([]);
  });
});
