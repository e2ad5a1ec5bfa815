import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { freshSandboxOptions } from '../../../server/cli/fresh.js';
import type { RecordingStopped } from '../../../server/contract/recording.js';
import type { Scenario } from '../../../server/scenarios/format.js';
import { parseScenario } from '../../../server/scenarios/parse.js';
import { runScenario } from '../../../server/scenarios/run.js';
import { testSandbox } from '../../helpers/sandbox.js';

// Scenarios set API faults with a `faults:` step and check the requests sent with `expect: {requests}`.

function parsed(text: string): Scenario {
  const result = parseScenario(text);
  if (!result.ok) throw new Error(`invalid scenario: ${JSON.stringify(result.errors)}`);
  return result.scenario;
}

async function run(text: string) {
  const scenario = parsed(text);
  const sandbox = await testSandbox(freshSandboxOptions(scenario));
  const urls = await sandbox.listen();
  return runScenario({ urls }, scenario);
}

const CREATE = `  - call: POST /v1/checkouts
    body: { title: Order, amount: 1000000, expires_at: "\${clock.in.1h}" }`;

describe('scenarios: API faults and request expectations', () => {
  it('a 503 and a 429 set by a step answer the calls; latency answers right; requests expectations hold', async () => {
    const result = await run(`
name: faults
steps:
  - merchant: shop
  - faults:
      seed: qa
      rules:
        - { id: down, match: { method: POST, path: /v1/checkouts }, count: 1, effect: { status: 503 } }
        - { id: busy, match: { method: POST }, count: 1, effect: { status: 429, retry_after_s: 2 } }
        - { id: slow, match: { method: GET }, count: 1, effect: { latency_ms: { min: 5, max: 10 } } }
    as: set
${CREATE}
    expect: { status: 503, body: { error: 'API fault "down": 503 on purpose' } }
${CREATE}
    expect: { status: 429 }
${CREATE}
  - call: GET /v1/checkouts
  - control: GET /sandbox/faults
    expect: { body: { seed: qa, rules: [{ applied: 1 }, { applied: 1 }, { applied: 1 }] } }
  - faults: clear
  - expect: { requests: { method: POST, path: /v1/checkouts, body: { title: Order }, count: { eq: 3 } } }
  - expect: { requests: { path: /v1/checkouts, status: 503, count: { eq: 1 } } }
  - expect: { requests: { method: GET, path: /v1/checkouts, status: 200 } }
`);
    expect(result.steps.filter((s) => !s.ok)).toEqual([]);
    expect(result.ok).toBe(true);
  });

  it('a failed requests expectation names the near miss and the differing field', async () => {
    const result = await run(`
name: near
steps:
  - merchant: shop
${CREATE}
  - expect: { requests: { method: POST, path: /v1/checkouts, body: { amount: 5000 } } }
`);
    const failed = result.steps.filter((s) => !s.ok);
    expect(failed).toHaveLength(1);
    expect(failed[0]!.error).toContain('expected at least 1 matching request(s), found 0');
    expect(failed[0]!.error).toContain('body.amount: expected 5000, actual 1000000');
  });

  it('the recorder records the faults that are set (with the seed used) and their clearing', async () => {
    const sandbox = await testSandbox();
    const control = async (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
      sandbox.apps.test.inject({ method, url, ...(payload ? { payload } : {}) });
    expect((await control('POST', '/sandbox/recording/start', { name: 'faults' })).statusCode).toBe(200);
    const rules = [{ id: 'down', match: { method: 'POST' }, count: 1, effect: { status: 503 } }];
    const set = await control('PUT', '/sandbox/faults', { rules });
    expect(set.statusCode).toBe(200);
    await control('DELETE', '/sandbox/faults');
    const stopped = (await control('POST', '/sandbox/recording/stop')).json<RecordingStopped>();
    const steps = (parse(stopped.scenario) as { steps: unknown[] }).steps;
    expect(steps).toEqual([
      { faults: { seed: set.json<{ seed: string }>().seed, rules } },
      { faults: 'clear' },
    ]);
    expect(parseScenario(stopped.scenario).ok).toBe(true);
  });
});
