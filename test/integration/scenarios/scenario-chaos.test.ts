import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { freshSandboxOptions } from '../../../server/cli/fresh.js';
import type { RecordingStopped } from '../../../server/contract/recording.js';
import type { Sandbox } from '../../../server/sandbox.js';
import type { Scenario } from '../../../server/scenarios/format.js';
import { parseScenario } from '../../../server/scenarios/parse.js';
import { runScenario } from '../../../server/scenarios/run.js';
import { inFuture, testSandbox } from '../../helpers/sandbox.js';

// Scenarios set delivery chaos with a control step and assert what it did to the attempts.

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

const SETUP = `
name: chaos
steps:
  - merchant: shop
  - control: POST /sandbox/merchants/\${shop.id}/webhook-endpoints
    as: hook
    body: { url: "\${sandbox.url}/sandbox/inbox/chaos", events: [checkout.created] }
`;

describe('scenarios: delivery chaos', () => {
  it('a drop set by a step is retried on the schedule, and the expectation sees it', async () => {
    const result = await run(`${SETUP}
  - control: PATCH /sandbox/webhook-endpoints/\${hook.id}
    body: { chaos: { seed: qa-1, drop: 1 } }
    expect: { body: { chaos: { seed: qa-1, drop: 1 } } }
  - call: POST /v1/checkouts
    body: { title: Order, amount: 1000000, expires_at: "\${clock.in.1h}" }
  - expect: { webhook: { event: checkout.created, status: pending, attempts: 1, chaos: [dropped] } }
  - control: PATCH /sandbox/webhook-endpoints/\${hook.id}
    body: { chaos: null }
  - clock: { advance: 5m }
  - expect: { webhook: { event: checkout.created, status: delivered, attempts: 2, chaos: [dropped] } }
  - expect: { get: /sandbox/inboxes/chaos, body: { messages: [{ signature_valid: true }] } }
`);
    expect(result.steps.filter((s) => !s.ok)).toEqual([]);
    expect(result.ok).toBe(true);
  });

  it('duplicates and bad signatures reach the inbox; a wrong chaos expectation fails naming it', async () => {
    const result = await run(`${SETUP}
  - control: PATCH /sandbox/webhook-endpoints/\${hook.id}
    body: { chaos: { duplicate: 1, bad_signature: 1 } }
  - call: POST /v1/checkouts
    body: { title: Order, amount: 1000000, expires_at: "\${clock.in.1h}" }
  - expect: { webhook: { event: checkout.created, chaos: [bad_signature, duplicated] } }
  - expect:
      get: /sandbox/inboxes/chaos
      body: { messages: [{ signature_valid: false }, { signature_valid: false }] }
  - expect: { webhook: { event: checkout.created, chaos: [dropped] } }
`);
    const failed = result.steps.filter((s) => !s.ok);
    expect(failed).toHaveLength(1);
    expect(failed[0]!.index).toBe(result.steps.length);
    expect(failed[0]!.error).toContain('chaos [dropped]');
    expect(failed[0]!.error).toContain('chaos [bad_signature, duplicated]');
  });

  it('the recorder records the chaos settings with their seed, and a replay makes the same decisions', async () => {
    const sandbox = await testSandbox();
    const urls = await sandbox.listen();
    const send = async (method: string, url: string, payload?: object, key?: string) => {
      const res = await sandbox.apps.test.inject({
        method: method as 'POST',
        url,
        headers: key ? { authorization: `Bearer ${key}` } : {},
        ...(payload ? { payload } : {}),
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as Record<string, unknown>;
    };
    await send('POST', '/sandbox/recording/start', { name: 'chaos' });
    const shop = (await send('POST', '/sandbox/merchants', { name: 'Chaos Shop' })) as {
      merchant: { id: string };
      api_key: { key: string };
    };
    const hook = await send('POST', `/sandbox/merchants/${shop.merchant.id}/webhook-endpoints`, {
      url: `${urls.test}/sandbox/inbox/recorded-chaos`,
      events: ['checkout.created'],
    });
    // no seed given: the sandbox chooses one, and the recording must carry it
    const set = (await send('PATCH', `/sandbox/webhook-endpoints/${hook.id}`, {
      chaos: { duplicate: 0.5, drop: 0.4, bad_signature: 0.4 },
    })) as { chaos: { seed: string } };
    for (let i = 0; i < 6; i++)
      await send(
        'POST',
        '/v1/checkouts',
        { title: `Order ${i}`, amount: 1_000_000, expires_at: inFuture(sandbox) },
        shop.api_key.key,
      );
    const stopped = (await send('POST', '/sandbox/recording/stop')) as unknown as RecordingStopped;
    const steps = (parse(stopped.scenario) as { steps: Record<string, unknown>[] }).steps;
    expect(steps).toContainEqual(
      expect.objectContaining({
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a scenario reference, not a template
        control: 'PATCH /sandbox/webhook-endpoints/${hook1.id}',
        body: { chaos: { seed: set.chaos.seed, duplicate: 0.5, drop: 0.4, bad_signature: 0.4 } },
      }),
    );

    const scenario = parsed(stopped.scenario);
    const replay = await testSandbox(freshSandboxOptions(scenario));
    const result = await runScenario({ urls: await replay.listen() }, scenario);
    expect(result.steps.filter((s) => !s.ok)).toEqual([]);
    const decisions = async (box: Sandbox) => {
      await box.ctx.dispatcher.idle();
      const res = await box.apps.test.inject({ url: '/sandbox/deliveries' });
      return (res.json() as { attempts: { chaos: { kind: string }[] }[] }[])
        .reverse()
        .map((d) => d.attempts.map((a) => a.chaos.map((e) => e.kind)));
    };
    const original = await decisions(sandbox);
    expect(original.flat(2).length).toBeGreaterThan(0);
    expect(await decisions(replay)).toEqual(original);
  });
});
