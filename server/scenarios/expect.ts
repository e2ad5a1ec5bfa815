/**
 * Expectations: what a scenario's `expect` steps and a call's `expect` check, and the messages that
 * say what was expected and what was found.
 */
import { performance } from 'node:perf_hooks';
import type { Env } from '../contract/common.js';
import {
  type ListedEvent,
  type Response,
  type ScenarioClient,
  StepFailure,
  show,
  withQuery,
} from './client.js';
import type { Expectation, ResponseExpectation } from './format.js';

const POLL_MS = 25;

export function expectationLabel(e: Expectation): string {
  if ('get' in e) return `GET ${e.get}${e.status === undefined ? '' : ` → ${e.status}`}`;
  if ('event' in e) return `event ${e.event.type}${e.event.count === undefined ? '' : ` ×${e.event.count}`}`;
  if ('webhook' in e) {
    const w = e.webhook;
    const parts = [
      w.status,
      w.attempts === undefined ? undefined : `${w.attempts} attempt${w.attempts === 1 ? '' : 's'}`,
      w.chaos === undefined ? undefined : `chaos [${w.chaos.join(', ')}]`,
    ];
    return `webhook ${w.event}${parts.some(Boolean) ? ` ${parts.filter(Boolean).join(', ')}` : ''}`;
  }
  if ('requests' in e) {
    const r = e.requests;
    const what = [r.method, r.path, r.status].filter((part) => part !== undefined).join(' ');
    return `requests ${what || 'any'}`;
  }
  return `balance ${e.balance.merchant} ${e.balance.currency}`;
}

const LISTED = 5;
/** The first few items, newest first as the sandbox lists them, and how many more there are. */
const listed = (items: string[]): string =>
  items.length <= LISTED
    ? items.join('; ')
    : `${items.slice(0, LISTED).join('; ')}; and ${items.length - LISTED} more`;

/**
 * Where `actual` differs from the subset `expected`: every given field must be equal; arrays
 * have the same length and match element by element; other actual fields are ignored.
 */
export function mismatch(expected: unknown, actual: unknown, path = ''): string | undefined {
  const at = path || 'value';
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${at}: expected ${show(expected)}, actual ${show(actual)}`;
    if (expected.length !== actual.length)
      return `${at}: expected ${expected.length} items, actual ${actual.length}: ${show(actual)}`;
    for (const [i, item] of expected.entries()) {
      const found = mismatch(item, actual[i], `${path}[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual))
      return `${at}: expected ${show(expected)}, actual ${show(actual)}`;
    for (const [key, value] of Object.entries(expected)) {
      const found = mismatch(value, (actual as Record<string, unknown>)[key], path ? `${path}.${key}` : key);
      if (found) return found;
    }
    return undefined;
  }
  return expected === actual ? undefined : `${at}: expected ${show(expected)}, actual ${show(actual)}`;
}

/** A response's status (2xx when none is given) and the subset of its body a step expects. */
export function checkResponse(
  what: string,
  response: Response,
  expect: ResponseExpectation | undefined,
): void {
  const statusOk =
    expect?.status === undefined
      ? response.status >= 200 && response.status <= 299
      : response.status === expect.status;
  if (!statusOk) {
    throw new StepFailure(
      `${what}: expected status ${expect?.status ?? '2xx'}, actual ${response.status} ${show(response.body)}`,
    );
  }
  if (expect?.body !== undefined) {
    const found = mismatch(expect.body, response.body, 'body');
    if (found) throw new StepFailure(`${what}: ${found}`);
  }
}

/** Keeps checking until the check passes or `waitMs` is over; the last failure is the answer. */
export async function eventually(check: () => Promise<void>, waitMs: number): Promise<void> {
  const deadline = performance.now() + waitMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (!(error instanceof StepFailure) || performance.now() >= deadline) throw error;
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/** One look at the sandbox: throws a StepFailure saying what differs, or returns. */
export async function checkExpectation(client: ScenarioClient, e: Expectation): Promise<void> {
  if ('get' in e) return checkGet(client, e);
  if ('event' in e) return checkEvent(client, e.event);
  if ('webhook' in e) return checkWebhook(client, e.webhook);
  if ('requests' in e) return checkRequests(client, e.requests);
  return checkBalance(client, e.balance);
}

type Of<K extends string> = Extract<Expectation, Record<K, unknown>>;

async function checkGet(client: ScenarioClient, e: Of<'get'>): Promise<void> {
  const path = withQuery(e.get, e.query);
  const response = e.get.startsWith('/v1/')
    ? await client.request('GET', `${client.baseUrl(client.envOf(e.env))}${path}`, {
        headers: { authorization: `Bearer ${client.merchant(e.merchant).key}` },
      })
    : await client.control('GET', path);
  checkResponse(`GET ${path}`, response, { status: e.status ?? 200, body: e.body });
}

async function checkEvent(client: ScenarioClient, event: Of<'event'>['event']): Promise<void> {
  const { type, data, count } = event;
  const env = client.envOf(event.env);
  const names = event.merchant ? [event.merchant] : client.merchantNames();
  const all = (await Promise.all(names.map((n) => client.events(client.merchant(n).id, env)))).flat();
  const ofType = all.filter((e) => e.type === type);
  const matching = ofType.filter((e) => data === undefined || !mismatch(data, e.data));
  if (count === undefined ? matching.length > 0 : matching.length === count) return;
  const wanted = `${count === undefined ? 'a' : count} ${type} event${count === 1 || count === undefined ? '' : 's'}${
    data === undefined ? '' : ` with data ${show(data)}`
  }`;
  const actual =
    ofType.length > 0
      ? `${matching.length} matching; ${type} data: ${listed(ofType.map((e) => show(e.data)))}`
      : `events in ${env}: ${[...new Set(all.map((e) => e.type))].join(', ') || 'none'}`;
  throw new StepFailure(`expected ${wanted}, actual ${actual}`);
}

interface ListedDelivery {
  event_id: string;
  merchant_id: string;
  status: string;
  attempt_count: number;
  attempts: { chaos: { kind: string }[] }[];
}

/** What chaos did to a delivery's attempts, in order: one list of effect kinds. */
const chaosOf = (d: ListedDelivery): string[] => d.attempts.flatMap((a) => a.chaos.map((e) => e.kind));

async function checkWebhook(client: ScenarioClient, w: Of<'webhook'>['webhook']): Promise<void> {
  const env = client.envOf(w.env);
  const query = {
    event: w.event,
    env,
    limit: 1000,
    ...(w.merchant ? { merchant_id: client.merchant(w.merchant).id } : {}),
  };
  // Without a merchant: the deliveries of the merchants this scenario made, not the sandbox's
  // other tenants' (a running sandbox has its own).
  const ours = client.merchantIds();
  const deliveries = ((await client.call('sandboxListDeliveries', { query })) as ListedDelivery[]).filter(
    (d) =>
      (w.merchant !== undefined || ours.has(d.merchant_id)) && !client.eventBefore(d.merchant_id, d.event_id),
  );
  let dataOf = async (_d: ListedDelivery): Promise<unknown> => undefined;
  if (w.data !== undefined) {
    const cache = new Map<string, Map<string, unknown>>();
    dataOf = async (d) => {
      if (!cache.has(d.merchant_id))
        cache.set(
          d.merchant_id,
          new Map((await client.events(d.merchant_id, env)).map((ev) => [ev.id, ev.data])),
        );
      return cache.get(d.merchant_id)!.get(d.event_id);
    };
  }
  for (const d of deliveries) {
    if (w.status !== undefined && d.status !== w.status) continue;
    if (w.attempts !== undefined && d.attempt_count !== w.attempts) continue;
    if (w.chaos !== undefined && mismatch(w.chaos, chaosOf(d))) continue;
    if (w.data !== undefined && mismatch(w.data, await dataOf(d))) continue;
    return;
  }
  const wanted = [
    w.status,
    w.attempts === undefined ? undefined : `${w.attempts} attempt${w.attempts === 1 ? '' : 's'}`,
    w.data === undefined ? undefined : `data ${show(w.data)}`,
    w.chaos === undefined ? undefined : `chaos [${w.chaos.join(', ')}]`,
  ].filter(Boolean);
  const actual =
    deliveries.length === 0
      ? `no ${w.event} deliveries in ${env}`
      : listed(
          deliveries.map(
            (d) =>
              `${d.status} after ${d.attempt_count} attempt${d.attempt_count === 1 ? '' : 's'}${
                w.chaos === undefined ? '' : `, chaos [${chaosOf(d).join(', ')}]`
              }`,
          ),
        );
  throw new StepFailure(
    `expected a ${w.event} delivery${wanted.length ? ` ${wanted.join(', ')}` : ''}, actual ${actual}`,
  );
}

async function checkBalance(client: ScenarioClient, b: Of<'balance'>['balance']): Promise<void> {
  const env = client.envOf(b.env);
  const balances = await client.call('sandboxListMerchantBalances', {
    params: { id: client.merchant(b.merchant).id },
    query: { env },
  });
  const found = balances.find((x) => x.currency === b.currency) ?? {
    currency: b.currency,
    available: 0,
    held: 0,
  };
  // A merchant the run reused (svc-sandbox trigger): what this run moved, not what it had before.
  const before = client.balanceBefore(client.merchant(b.merchant).id, env, b.currency);
  const balance = {
    currency: b.currency,
    available: found.available - before.available,
    held: found.held - before.held,
  };
  const expected = {
    ...(b.available === undefined ? {} : { available: b.available }),
    ...(b.held === undefined ? {} : { held: b.held }),
  };
  const problem = mismatch(expected, balance, `${b.merchant} ${b.currency} balance`);
  if (problem) throw new StepFailure(problem);
}

/** Where each event log the run can see ended before a step: `merchantId env` → its newest event id. */
export type EventMarks = Map<string, string | null>;

const ENVS = ['test', 'production'] as const;
/** Pages of new events read per log: a step firing more than this many is beyond any recording. */
const EVENT_PAGES = 10;
const EVENT_PAGE = 100;

/** The newest event of every log (each merchant the run made, both environments), before a step. */
export async function eventMarks(client: ScenarioClient): Promise<EventMarks> {
  const marks: EventMarks = new Map();
  await Promise.all(
    [...client.merchantIds()].flatMap((id) =>
      ENVS.map(async (env) => {
        const [newest] = await client.call('sandboxListMerchantEvents', {
          params: { id },
          query: { env, limit: 1 },
        });
        marks.set(`${id} ${env}`, newest?.id ?? null);
      }),
    ),
  );
  return marks;
}

/** The events of one log recorded after its mark, oldest first. */
async function eventsSince(
  client: ScenarioClient,
  merchantId: string,
  env: Env,
  mark: string | null,
): Promise<ListedEvent[]> {
  const fresh: ListedEvent[] = [];
  let after: string | undefined;
  for (let page = 0; page < EVENT_PAGES; page++) {
    const events: ListedEvent[] = await client.call('sandboxListMerchantEvents', {
      params: { id: merchantId },
      query: { env, limit: EVENT_PAGE, starting_after: after },
    });
    for (const event of events) {
      if (event.id === mark) return fresh.reverse();
      fresh.push(event);
    }
    if (events.length < EVENT_PAGE) break;
    after = events.at(-1)!.id;
  }
  return fresh.reverse();
}

/** The logs' events since `marks`, one list per log that has any, each oldest first. */
async function logsSince(client: ScenarioClient, marks: EventMarks): Promise<ListedEvent[][]> {
  return (
    await Promise.all(
      [...client.merchantIds()].flatMap((id) =>
        ENVS.map((env) => eventsSince(client, id, env, marks.get(`${id} ${env}`) ?? null)),
      ),
    )
  ).filter((log) => log.length > 0);
}

/** An event a step fired, and whose log it is in. */
export interface FiredEvent extends ListedEvent {
  merchant_id: string;
  env: Env;
}

/**
 * Every event fired since `marks`, oldest first: each log keeps its order, and logs interleave by
 * their events' times (within one instant, in merchant order: the logs cannot tell more).
 */
export async function firedSince(client: ScenarioClient, marks: EventMarks): Promise<FiredEvent[]> {
  const ids = [...client.merchantIds()];
  const logs = await Promise.all(
    ids.flatMap((id) =>
      ENVS.map(async (env) =>
        (await eventsSince(client, id, env, marks.get(`${id} ${env}`) ?? null)).map(
          (event): FiredEvent => ({ ...event, merchant_id: id, env }),
        ),
      ),
    ),
  );
  const merged: FiredEvent[] = [];
  const at = logs.map(() => 0);
  for (;;) {
    let next = -1;
    for (const [k, log] of logs.entries()) {
      const event = log[at[k]!];
      if (event && (next < 0 || event.created_at < logs[next]![at[next]!]!.created_at)) next = k;
    }
    if (next < 0) return merged;
    merged.push(logs[next]![at[next]!++]!);
  }
}

/**
 * Whether `expected` is an interleaving of the logs' sequences: each log keeps its own order, and
 * how two merchants' events interleave is not observable from their logs (one clock instant).
 */
export function interleaves(expected: readonly string[], logs: readonly string[][]): boolean {
  if (logs.reduce((n, log) => n + log.length, 0) !== expected.length) return false;
  const dead = new Set<string>();
  const walk = (at: number[], i: number): boolean => {
    if (i === expected.length) return true;
    const key = at.join(',');
    if (dead.has(key)) return false;
    for (const [k, log] of logs.entries()) {
      if (log[at[k]!] !== expected[i]) continue;
      const next = [...at];
      next[k]!++;
      if (walk(next, i + 1)) return true;
    }
    dead.add(key);
    return false;
  };
  return walk(
    logs.map(() => 0),
    0,
  );
}

/** The events fired since `marks` are exactly `expected` (types, in order). */
export async function checkFired(
  client: ScenarioClient,
  marks: EventMarks,
  expected: readonly string[],
): Promise<void> {
  const logs = (await logsSince(client, marks)).map((log) => log.map((e) => e.type));
  if (interleaves(expected, logs)) return;
  const list = (types: readonly string[]) => (types.length === 0 ? 'none' : types.join(', '));
  throw new StepFailure(`events fired: expected ${list(expected)}; actual ${list(logs.flat())}`);
}

/** The /v1 requests the run sent (the request log's verification), near misses named on failure. */
async function checkRequests(client: ScenarioClient, criteria: Of<'requests'>['requests']): Promise<void> {
  const result = await client.call('sandboxVerifyRequests', { body: criteria });
  if (result.ok) return;
  const expected = Object.entries(result.count)
    .map(([op, n]) => `${{ eq: 'exactly', gte: 'at least', lte: 'at most' }[op] ?? op} ${n}`)
    .join(' and ');
  const misses = result.near_misses.map(
    ({ request, differences }) =>
      `${request.method} ${request.path} (${request.status}): ${differences.join('; ')}`,
  );
  throw new StepFailure(
    `expected ${expected} matching request(s), found ${result.matched}${misses.length > 0 ? `; near misses: ${misses.join(' | ')}` : ''}`,
  );
}
