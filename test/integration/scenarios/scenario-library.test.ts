import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { freshSandboxOptions } from '../../../server/cli/fresh.js';
import { EVENT_TYPES } from '../../../server/contract/events.js';
import type { LibraryList, LibraryScenarioDetail } from '../../../server/contract/scenario-library.js';
import type { ScenarioRun } from '../../../server/contract/scenarios.js';
import { LIBRARY, libraryText } from '../../../server/scenarios/library.js';
import { parseScenario } from '../../../server/scenarios/parse.js';
import { runScenario } from '../../../server/scenarios/run.js';
import { expectError, ok } from '../../helpers/api.js';
import { createMerchant, testSandbox } from '../../helpers/sandbox.js';

const DIR = fileURLToPath(new URL('../../../server/scenarios/library/', import.meta.url));

function parsed(name: string) {
  const result = parseScenario(libraryText(name));
  if (!result.ok) throw new Error(`${name}: ${JSON.stringify(result.errors)}`);
  return result.scenario;
}

describe('the built-in library index', () => {
  it('lists exactly the YAML files, each valid and named as its entry', () => {
    const files = readdirSync(DIR)
      .filter((f) => f.endsWith('.yaml'))
      .sort();
    expect(files).toEqual(LIBRARY.map((e) => `${e.name}.yaml`).sort());
    for (const entry of LIBRARY) {
      const scenario = parsed(entry.name);
      expect(scenario.name, entry.name).toBe(entry.name);
      expect(entry.description.length, entry.name).toBeGreaterThan(10);
      expect(
        scenario.steps.some((s) => s.kind === 'expect'),
        `${entry.name} asserts something`,
      ).toBe(true);
    }
  });

  it('has a scenario for every webhook event type and the interesting paths of the spec', () => {
    const covered = new Set(LIBRARY.filter((e) => e.name !== 'demo').flatMap((e) => e.events));
    expect(EVENT_TYPES.filter((t) => !covered.has(t))).toEqual([]);
    for (const type of EVENT_TYPES) expect(LIBRARY.map((e) => e.name)).toContain(type);
    for (const path of [
      'checkout.partial',
      'checkout.overpaid',
      'checkout.expired',
      'refund.clawback',
      'card.declined.limit',
      'card.reversal',
      'kyc.rejected',
      'webhook.retries-exhausted',
      'reseller.fees',
      'demo',
    ])
      expect(LIBRARY.map((e) => e.name)).toContain(path);
  });
});

describe('every built-in scenario, in a fresh sandbox', () => {
  it.each(LIBRARY.map((e) => [e.name, e] as const))(
    '%s runs green and produces its events',
    {
      timeout: 60_000,
    },
    async (_name, entry) => {
      const scenario = parsed(entry.name);
      const sandbox = await testSandbox(freshSandboxOptions(scenario));
      const urls = await sandbox.listen();
      const run = await runScenario({ urls }, scenario);
      expect(run.steps.filter((s) => !s.ok).map((s) => `${s.index} ${s.label}: ${s.error}`)).toEqual([]);
      expect(run.ok).toBe(true);
      expect(run.steps.length).toBe(scenario.steps.length);
      const types = sandbox.db
        .prepare<[], { type: string }>('SELECT type FROM events ORDER BY rowid')
        .all()
        .map((r) => r.type);
      if (entry.name === 'demo') expect([...new Set(types)].sort()).toEqual([...entry.events].sort());
      else expect(types).toEqual(entry.events);
    },
  );
});

describe('control API: /sandbox/scenarios/library', () => {
  it('lists the library and serves each file', async () => {
    const sandbox = await testSandbox();
    const list = ok<LibraryList>(
      await sandbox.apps.test.inject({ method: 'GET', url: '/sandbox/scenarios/library' }),
    );
    expect(list.items).toEqual(
      LIBRARY.map(({ name, description, events }) => ({ name, description, events })),
    );
    const detail = ok<LibraryScenarioDetail>(
      await sandbox.apps.test.inject({ method: 'GET', url: '/sandbox/scenarios/library/card.reversal' }),
    );
    expect(detail).toMatchObject({
      name: 'card.reversal',
      events: ['card.created', 'card.transaction', 'card.transaction'],
    });
    expect(detail.scenario).toBe(libraryText('card.reversal'));
    expect(detail.scenario).toMatch(/^name: card\.reversal$/m);
    expectError(
      await sandbox.apps.test.inject({ method: 'GET', url: '/sandbox/scenarios/library/no.such' }),
      404,
      'Library scenario not found: no.such',
    );
  });

  it('runs one against this sandbox: its merchants and events appear here', { timeout: 30_000 }, async () => {
    const sandbox = await testSandbox();
    await sandbox.listen();
    const existing = await createMerchant(sandbox, 'Already Here');
    // Progress goes where every scenario run's goes (the event stream's `event: scenario`).
    const progress: { name: string; done: boolean }[] = [];
    sandbox.scenarios.on((p) => progress.push({ name: p.name, done: p.done }));
    const run = ok<ScenarioRun>(
      await sandbox.apps.test.inject({
        method: 'POST',
        url: '/sandbox/scenarios/library/checkout.partial/run',
        payload: {},
      }),
    );
    expect(run.ok).toBe(true);
    expect(run.name).toBe('checkout.partial');
    expect(run.steps.map((s) => s.ok)).toEqual(run.steps.map(() => true));
    expect(run.steps[0]).toMatchObject({ index: 1, kind: 'merchant', ok: true });
    expect(progress.length).toBe(run.steps.length);
    expect(progress.at(-1)).toEqual({ name: 'checkout.partial', done: true });
    const merchants = ok<{ id: string; name: string }[]>(
      await sandbox.apps.test.inject({ method: 'GET', url: '/sandbox/merchants' }),
    );
    expect(merchants.map((m) => m.name).sort()).toEqual(['Already Here', 'Demo Coffee Roasters']);
    const shop = merchants.find((m) => m.id !== existing.merchantId)!;
    const events = ok<{ type: string }[]>(
      await sandbox.apps.test.inject({ method: 'GET', url: `/sandbox/merchants/${shop.id}/events?env=test` }),
    );
    expect(events.map((e) => e.type)).toEqual(['checkout.partial', 'checkout.created']);

    // In production when asked: the steps that name no env act there.
    const prod = ok<ScenarioRun>(
      await sandbox.apps.test.inject({
        method: 'POST',
        url: '/sandbox/scenarios/library/checkout.created/run',
        payload: { env: 'production' },
      }),
    );
    expect(prod.ok).toBe(true);
    const created = sandbox.db
      .prepare<[], { env: string }>("SELECT env FROM events WHERE type = 'checkout.created' ORDER BY rowid")
      .all();
    expect(created.map((e) => e.env)).toEqual(['test', 'production']);

    expectError(
      await sandbox.apps.test.inject({
        method: 'POST',
        url: '/sandbox/scenarios/library/nope/run',
        payload: {},
      }),
      404,
      'nope',
    );
    expectError(
      await sandbox.apps.test.inject({
        method: 'POST',
        url: '/sandbox/scenarios/library/checkout.created/run',
        payload: { env: 'staging' },
      }),
      422,
      'env',
    );
  });
});
