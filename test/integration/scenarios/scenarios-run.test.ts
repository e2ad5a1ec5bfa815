import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { freshSandboxOptions, runFresh } from '../../../server/cli/fresh.js';
import type { Sandbox } from '../../../server/sandbox.js';
import type { Scenario } from '../../../server/scenarios/format.js';
import { parseScenario } from '../../../server/scenarios/parse.js';
import { runScenario, type ScenarioStepResult } from '../../../server/scenarios/run.js';
import { testSandbox } from '../../helpers/sandbox.js';

// Scenarios run over real HTTP against sandboxes listening on ephemeral loopback ports.

const DOC = fileURLToPath(new URL('../../../docs/scenarios.md', import.meta.url));
/** The complete example of docs/scenarios.md: the documentation is run, so it stays true. */
const DOC_EXAMPLE = /```yaml\n([\s\S]*?)```/.exec(readFileSync(DOC, 'utf8'))![1]!;

function parsed(text: string): Scenario {
  const result = parseScenario(text);
  if (!result.ok) throw new Error(`invalid scenario: ${JSON.stringify(result.errors)}`);
  return result.scenario;
}

async function fresh(
  scenario: Scenario,
): Promise<{ sandbox: Sandbox; urls: { test: string; production: string } }> {
  const sandbox = await testSandbox(freshSandboxOptions(scenario));
  const urls = await sandbox.listen();
  return { sandbox, urls };
}

async function get<T>(base: string, path: string): Promise<T> {
  const response = await fetch(`${base}${path}`);
  expect(response.status, path).toBe(200);
  return (await response.json()) as T;
}

interface LoggedEvent {
  id: string;
  env: string;
  type: string;
  resource_id: string | null;
  data: unknown;
  created_at: string;
}

/**
 * Every merchant's event log in both environments, oldest first, one line per event. The
 * sandbox's own address (in hosted_url) is the one thing a fresh sandbox on a free port changes.
 */
async function eventLog(urls: { test: string; production: string }): Promise<string[]> {
  const base = urls.test;
  const merchants = await get<{ id: string }[]>(base, '/sandbox/merchants');
  const lines: string[] = [];
  for (const merchant of merchants) {
    for (const env of ['test', 'production']) {
      const events = await get<LoggedEvent[]>(
        base,
        `/sandbox/merchants/${merchant.id}/events?env=${env}&limit=1000`,
      );
      for (const e of events.reverse()) {
        const line = JSON.stringify([e.created_at, e.env, e.id, e.type, e.data]);
        lines.push(line.replaceAll(urls.test, '<test>').replaceAll(urls.production, '<production>'));
      }
    }
  }
  return lines;
}

const PARTIAL = `name: partial then expiry
steps:
  - merchant: shop
    body: { kyb_status: approved }
  - call: POST /v1/checkouts
    as: co
    body: { title: Order 7, amount: 10000000, currency: USDC, expires_at: "\${clock.in.1h}" }
  - control: POST /sandbox/checkouts/\${co.id}/payments
    body: { amount: 4000000 }
  - clock: { advance: 2h }
`;

const README = readFileSync(fileURLToPath(new URL('../../../README.md', import.meta.url)), 'utf8');
/** The README's "Scenarios" section: its example file and the failure it shows. */
const README_SECTION = /## Scenarios\n([\s\S]*?)\n## /.exec(README)![1]!;
const README_EXAMPLE = /```yaml\n([\s\S]*?)```/.exec(README_SECTION)![1]!;

describe('runScenario', () => {
  it('runs the README example green; the failure the README shows is what a wrong status prints', async () => {
    const run = await runFresh(parsed(README_EXAMPLE));
    expect(run.steps.filter((s) => !s.ok)).toEqual([]);
    expect(run.ok).toBe(true);

    const wrong = parsed(
      README_EXAMPLE.replace('body: { status: partial, paid_amount', 'body: { status: expired, paid_amount'),
    );
    const failed = (await runFresh(wrong, { waitMs: 100 })).steps.filter((s) => !s.ok);
    expect(failed).toHaveLength(1);
    const shown = /\n {2}✗ (\d+) (.+) \(line (\d+)\)\n {6}GET \/v1\/checkouts\/\S+: (.+)\n/.exec(
      README_SECTION,
    )!;
    expect([String(failed[0]!.index), failed[0]!.label, String(failed[0]!.line)]).toEqual(shown.slice(1, 4));
    expect(failed[0]!.error).toMatch(new RegExp(`^GET /v1/checkouts/[0-9a-f-]{36}: ${shown[4]}$`));
  });

  it('runs the documented example green in a fresh sandbox, every step reported in order', async () => {
    const scenario = parsed(DOC_EXAMPLE);
    const seen: ScenarioStepResult[] = [];
    const run = await runFresh(scenario, { onStep: (r) => seen.push(r) });
    expect(run.steps.filter((s) => !s.ok)).toEqual([]);
    expect(run.ok).toBe(true);
    expect(run.name).toBe('partial payment, expiry, refund, card reversal');
    expect(run.steps).toHaveLength(scenario.steps.length);
    expect(seen).toEqual(run.steps);
    expect(run.steps.map((s) => s.index)).toEqual(scenario.steps.map((_, i) => i + 1));
    expect(run.steps.map((s) => s.line)).toEqual(scenario.steps.map((s) => s.line));
    expect(run.steps.find((s) => s.label === 'refund 3 USDC')).toMatchObject({ kind: 'call', ok: true });
  });

  it('runs the same example against a running sandbox with a real-time clock and its own data', async () => {
    const sandbox = await testSandbox();
    const urls = await sandbox.listen();
    // Something already there: the scenario's merchants are new ones, its expectations still hold.
    await fetch(`${urls.test}/sandbox/merchants`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Existing' }),
    });
    const run = await runScenario({ urls }, parsed(DOC_EXAMPLE));
    expect(run.steps.filter((s) => !s.ok)).toEqual([]);
    expect(run.ok).toBe(true);
  });

  it('a wrong expectation fails naming the step, the expected and the actual value; the run goes on', async () => {
    const scenario =
      parsed(`${PARTIAL}  - expect: { get: "/v1/checkouts/\${co.id}", body: { status: expired } }
  - expect: { event: { type: checkout.partial, data: { id: "\${co.id}" } } }
  - expect:
      balance: { merchant: shop, currency: USDC, available: 4000000 }
    name: full amount credited
  - expect: { webhook: { event: checkout.partial, status: delivered } }
`);
    const run = await runFresh(scenario, { waitMs: 200 });
    expect(run.ok).toBe(false);
    const failed = run.steps.filter((s) => !s.ok);
    expect(failed.map((s) => [s.index, s.line, s.kind, s.label])).toEqual([
      [5, 11, 'expect', `expect GET /v1/checkouts/\${co.id}`],
      [7, 13, 'expect', 'full amount credited'],
      [8, 16, 'expect', 'expect webhook checkout.partial delivered'],
    ]);
    expect(failed[0]!.error).toMatch(
      /^GET \/v1\/checkouts\/[0-9a-f-]{36}: body\.status: expected "expired", actual "partial"$/,
    );
    expect(failed[1]!.error).toBe('shop USDC balance.available: expected 4000000, actual 2000000');
    expect(failed[2]!.error).toBe(
      'expected a checkout.partial delivery delivered, actual no checkout.partial deliveries in test',
    );
    expect(run.steps[5]).toMatchObject({ index: 6, ok: true, label: 'expect event checkout.partial' });
  });

  it('a failed call stops the run there, with the status and body it got', async () => {
    const scenario = parsed(`${PARTIAL}  - call: POST /v1/checkouts/\${co.id}/refund
    body: { amount: 100 }
  - expect: { event: { type: checkout.refunded } }
`);
    const run = await runFresh(scenario, { waitMs: 200 });
    expect(run.ok).toBe(false);
    expect(run.steps).toHaveLength(5);
    expect(run.steps[4]).toMatchObject({ index: 5, line: 11, kind: 'call', ok: false });
    expect(run.steps[4]!.error).toMatch(
      /^POST \/v1\/checkouts\/\S+\/refund: expected status 2xx, actual 400 \{"error":/,
    );
  });

  it('an expected error status passes; a reference to a missing field fails the step saying so', async () => {
    const scenario = parsed(`name: refs
steps:
  - merchant: shop
  - call: POST /v1/checkouts
    body: { title: no expiry }
    expect: { status: 422, body: { error: "expires_at: is required" } }
  - call: GET /v1/checkouts
    headers: { authorization: Bearer svcb_unknown }
    expect: { status: 401 }
  - call: GET /v1/checkouts
    as: list
  - control: GET /sandbox/checkouts/\${list.0.nope}
`);
    const run = await runFresh(scenario);
    expect(run.steps[1]!.error).toBeUndefined();
    expect(run.steps.map((s) => s.ok)).toEqual([true, true, true, true, false]);
    expect(run.steps[4]!.error).toBe(`\${list.0.nope}: list has no field 0`);
  });

  it('is deterministic: two fresh runs give the same ids, keys and timestamps, line by line', async () => {
    const scenario = parsed(DOC_EXAMPLE);
    const logs: string[][] = [];
    const keys: string[] = [];
    for (let i = 0; i < 2; i++) {
      const { urls } = await fresh(scenario);
      const run = await runScenario({ urls }, scenario);
      expect(run.ok).toBe(true);
      logs.push(await eventLog(urls));
      const [merchant] = await get<{ id: string }[]>(urls.test, '/sandbox/merchants');
      const apiKeys = await get<{ key: string }[]>(urls.test, `/sandbox/merchants/${merchant!.id}/api-keys`);
      keys.push(apiKeys.map((k) => k.key).join());
      // Webhook deliveries and their attempts, on sandbox time too (durations are real time).
      const deliveries = await get<
        {
          id: string;
          event: string;
          status: string;
          created_at: string;
          attempts: { number: number; at: string }[];
        }[]
      >(urls.test, '/sandbox/deliveries?limit=1000');
      expect(deliveries.some((d) => d.status === 'failed' && d.attempts.length === 5)).toBe(true);
      logs[i]!.push(
        ...deliveries.map((d) =>
          JSON.stringify([d.id, d.event, d.status, d.created_at, d.attempts.map((a) => [a.number, a.at])]),
        ),
      );
    }
    expect(logs[0]!.length).toBeGreaterThanOrEqual(7);
    for (const [i, line] of logs[0]!.entries()) expect(logs[1]![i], `event ${i + 1}`).toBe(line);
    expect(logs[1]).toHaveLength(logs[0]!.length);
    expect(keys[1]).toBe(keys[0]);
    // Timestamps are relative to the scenario's start: the first event is at the frozen start.
    expect(JSON.parse(logs[0]![0]!)[0]).toBe('2026-01-01T00:00:00.000Z');

    // Another seed: other ids, the same times.
    const other = parsed(DOC_EXAMPLE.replace('seed: qa-1234', 'seed: qa-5678'));
    const { urls } = await fresh(other);
    expect((await runScenario({ urls }, other)).ok).toBe(true);
    const otherLog = await eventLog(urls);
    expect(JSON.parse(otherLog[0]!)[2]).not.toBe(JSON.parse(logs[0]![0]!)[2]);
    expect(otherLog.map((l) => JSON.parse(l)[0])).toEqual(
      logs[0]!.slice(0, otherLog.length).map((l) => JSON.parse(l)[0]),
    );
  });
});
