/**
 * Reusing merchants across runs (`svc-sandbox trigger`): a merchant step takes the newest merchant
 * of the name it would make, so repeated runs do not pile up copies, and the run says what it
 * changed. What the merchant already had is recorded first (its events, its balances), so the
 * expectations on events, webhooks and balances judge only what this run did.
 */
import type { Env } from '../contract/common.js';
import type { RunChanges } from '../contract/scenario-library.js';
import type { Baseline, ListedEvent, ScenarioClient } from './client.js';
import type { Scenario } from './format.js';
import { referencesIn, stringsIn } from './refs.js';

const ENVS: readonly Env[] = ['test', 'production'];

export interface TakenMerchant {
  merchant: { id: string; name: string };
  api_key: { id: string; key: string };
}

/**
 * The merchants a scenario must make fresh even when reusing: those a `get` expectation reads by
 * reference (`/sandbox/merchants/${shop.id}/...`), whose state is a total, not this run's share.
 */
export function freshMerchants(scenario: Scenario): Set<string> {
  const names = new Set<string>();
  for (const step of scenario.steps) {
    if (step.kind !== 'expect' || !('get' in step.expect)) continue;
    for (const [value] of stringsIn(step.expect)) {
      for (const ref of referencesIn(value)) if ('name' in ref) names.add(ref.name);
    }
  }
  return names;
}

/** The newest merchant called `name`, with a usable key and its state recorded; undefined: none. */
export async function takeMerchant(client: ScenarioClient, name: string): Promise<TakenMerchant | undefined> {
  const merchants = await client.call('sandboxListMerchants');
  const found = merchants
    .filter((m) => m.name === name)
    .sort((a, b) => b.created_at.localeCompare(a.created_at))[0];
  if (!found) return undefined;
  const keys = await client.call('sandboxListMerchantApiKeys', { params: { id: found.id } });
  const key =
    keys.find((k) => k.revoked_at === null && k.role === 'owner') ??
    (await client.call('sandboxCreateMerchantApiKey', {
      params: { id: found.id },
      body: { name: 'trigger', role: 'owner' },
    }));
  const baseline: Baseline = { events: new Set(), balances: new Map() };
  for (const env of ENVS) {
    for (const event of await client.events(found.id, env)) baseline.events.add(event.id);
    const balances = await client.call('sandboxListMerchantBalances', {
      params: { id: found.id },
      query: { env },
    });
    for (const b of balances)
      baseline.balances.set(`${env}:${b.currency}`, { available: b.available, held: b.held });
  }
  client.setBaseline(found.id, baseline);
  return { merchant: { id: found.id, name: found.name }, api_key: { id: key.id, key: key.key } };
}

/**
 * What the run changed, from the clock it started at, the seconds its steps advanced it by (a
 * running clock also moves with real time: that is not the run's doing) and the merchants its
 * steps took.
 */
export async function runChanges(
  client: ScenarioClient,
  clockFrom: string,
  advanced: number,
  merchants: RunChanges['merchants'],
): Promise<RunChanges> {
  const { now } = await client.call('sandboxGetClock');
  const fired: ListedEvent[] = [];
  const seen = new Set<string>();
  for (const { id } of merchants) {
    if (seen.has(id)) continue;
    seen.add(id);
    // Each list is newest first: reversed, it is in the order things happened.
    for (const env of ENVS) fired.push(...(await client.events(id, env)).reverse());
  }
  // In the order they happened, across merchants and environments (a stable sort keeps each list's).
  fired.sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0));
  const counts = new Map<string, number>();
  for (const event of fired) counts.set(event.type, (counts.get(event.type) ?? 0) + 1);
  return {
    merchants,
    clock: {
      from: clockFrom,
      to: now,
      moved_seconds: advanced,
    },
    events: [...counts].map(([type, count]) => ({ type, count })),
  };
}
