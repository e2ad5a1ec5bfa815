// biome-ignore-all lint/suspicious/noTemplateCurlyInString: scenario references (${co1.id}) are literal text here
import { describe, expect, it } from 'vitest';
import type { Sandbox, Urls } from '../../../server/sandbox.js';
import { parseScenario } from '../../../server/scenarios/parse.js';
import { runScenario } from '../../../server/scenarios/run.js';
import { callInWorkspace } from '../../helpers/http.js';
import { testSandbox } from '../../helpers/sandbox.js';

/**
 * Recording as QA uses it, over real HTTP: in a workspace that already holds objects, with the
 * built-in inbox named the way the Webhooks page names it (?workspace=ws_…). The file replays green
 * in a fresh sandbox, unchanged, and a changed amount makes it fail naming the step.
 */

const http = (urls: Urls, ws: string, method: string, path: string, body?: object, key?: string) =>
  callInWorkspace(urls.test, ws, method, path, body, key);

/** A workspace holding a merchant with ten checkouts that expire within the hour. */
async function busyWorkspace(sandbox: Sandbox, urls: Urls) {
  const ws = (await http(urls, 'default', 'POST', '/sandbox/workspaces', { name: 'QA' })).id as string;
  const created = await http(urls, ws, 'POST', '/sandbox/merchants', {
    name: 'Acme',
    kyb_status: 'approved',
  });
  const merchant = created.merchant as { id: string };
  const key = (created.api_key as { key: string }).key;
  const now = sandbox.workspaces.require(ws).ctx.clock.now();
  const old: string[] = [];
  for (let i = 0; i < 10; i++) {
    const made = await http(
      urls,
      ws,
      'POST',
      '/v1/checkouts',
      { title: `Old ${i}`, amount: 1_000_000, expires_at: new Date(now + 1800_000).toISOString() },
      key,
    );
    old.push(made.id as string);
  }
  return { ws, merchant, key, now, old };
}

async function replay(scenarioText: string) {
  const parsed = parseScenario(scenarioText);
  if (!parsed.ok) throw new Error(`recorded scenario is invalid: ${JSON.stringify(parsed.errors)}`);
  const fresh = await testSandbox({
    seed: parsed.scenario.seed,
    clock: { at: Date.parse(parsed.scenario.clock.start), frozen: parsed.scenario.clock.frozen },
  });
  const urls = await fresh.listen();
  return { run: await runScenario({ urls }, parsed.scenario), fresh };
}

/** The file with the first `amount: <from>` replaced: the amount QA changes to see a replay fail. */
function withAmount(text: string, from: number, to: number): string {
  const changed = text.replace(`amount: ${from}\n`, `amount: ${to}\n`);
  expect(changed).not.toBe(text);
  return changed;
}

describe('recordings made in realistic use replay', () => {
  it('in a workspace that already held checkouts: the clock step expects only its own objects', async () => {
    const sandbox = await testSandbox();
    const urls = await sandbox.listen();
    const { ws, key, now, old } = await busyWorkspace(sandbox, urls);

    await http(urls, ws, 'POST', '/sandbox/recording/start', { name: 'earlier objects' });
    const co = await http(
      urls,
      ws,
      'POST',
      '/v1/checkouts',
      { title: 'Order', amount: 10_000_000, expires_at: new Date(now + 3600_000).toISOString() },
      key,
    );
    await http(urls, ws, 'POST', `/sandbox/checkouts/${co.id}/payments`, { amount: 4_000_000 });
    // An earlier checkout the recording uses is adopted: made by a step of its own first.
    await http(urls, ws, 'POST', `/sandbox/checkouts/${old[3]}/payments`, { amount: 400_000 });
    const advanced = await http(urls, ws, 'POST', '/sandbox/clock/advance', { seconds: 2 * 3600 });
    // The ten earlier checkouts expired too; the recording is not about them.
    expect(JSON.stringify(advanced)).toContain('checkout.expired');
    const { scenario } = await http(urls, ws, 'POST', '/sandbox/recording/stop');
    const text = scenario as string;
    expect(text).not.toContain(ws);
    expect(text).not.toContain('checkout.expired');
    expect(text).toContain('checkout.partial');
    expect(text).toContain('title: Old 3');
    expect(text).not.toContain('title: Old 4');
    expect(text).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);

    const green = await replay(text);
    expect(green.run.steps.filter((s) => !s.ok)).toEqual([]);
    expect(green.run.ok).toBe(true);

    const red = await replay(withAmount(text, 4_000_000, 5_000_000));
    expect(red.run.ok).toBe(false);
    const failed = red.run.steps.find((s) => !s.ok)!;
    expect(failed.label).toContain('/payments');
    expect(failed.error).toMatch(/4000000|5000000/);
  }, 90_000);

  it('with the built-in inbox named by ?workspace=: its deliveries are not steps, the file names no workspace', async () => {
    const sandbox = await testSandbox();
    const urls = await sandbox.listen();
    const { ws, merchant, key, now } = await busyWorkspace(sandbox, urls);

    await http(urls, ws, 'POST', '/sandbox/recording/start', { name: 'inbox' });
    const inbox = `${urls.test}/sandbox/inbox/dock?workspace=${ws}`;
    await http(urls, ws, 'POST', `/sandbox/merchants/${merchant.id}/webhook-endpoints`, {
      url: inbox,
      events: ['checkout.created', 'checkout.paid'],
    });
    const co = await http(
      urls,
      ws,
      'POST',
      '/v1/checkouts',
      { title: 'Hooked', amount: 3_000_000, expires_at: new Date(now + 3600_000).toISOString() },
      key,
    );
    await http(urls, ws, 'POST', `/sandbox/checkouts/${co.id}/payments`, { amount: 3_000_000 });
    // Both deliveries reach the inbox while the recording runs.
    await expect
      .poll(
        async () => ((await http(urls, ws, 'GET', '/sandbox/inboxes/dock')).messages as unknown[]).length,
        {
          timeout: 10_000,
        },
      )
      .toBe(2);
    const { scenario } = await http(urls, ws, 'POST', '/sandbox/recording/stop');
    const text = scenario as string;
    expect(text).not.toContain(ws);
    expect(text).not.toContain('ws_');
    expect(text).not.toContain('/sandbox/inbox/dock?');
    expect(text).toContain('url: ${sandbox.urls.test}/sandbox/inbox/dock');
    expect(text).not.toMatch(/control: POST \/sandbox\/inbox/);

    const green = await replay(text);
    expect(green.run.steps.filter((s) => !s.ok)).toEqual([]);
    // The replay's deliveries reached the replay's own inbox.
    await expect
      .poll(
        async () =>
          (
            (await green.fresh.apps.test.inject({ url: '/sandbox/inboxes/dock' })).json()
              .messages as unknown[]
          ).length,
        { timeout: 10_000 },
      )
      .toBe(2);

    const red = await replay(withAmount(text, 3_000_000, 2_000_000));
    expect(red.run.ok).toBe(false);
    const failed = red.run.steps.find((s) => !s.ok)!;
    expect(failed.index).toBeGreaterThan(1);
    expect(failed.error).toMatch(/3000000|2000000/);
  }, 90_000);
});
