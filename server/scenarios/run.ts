/**
 * Runs a parsed scenario against a sandbox over plain HTTP — a fresh one on ephemeral ports (the
 * CLI), a running one (--url, the control API). It never reaches into the sandbox's internals, so
 * what passes here passes for an integration calling the same addresses.
 */
import { performance } from 'node:perf_hooks';
import type { Env } from '../contract/common.js';
import type { ScenarioRun, ScenarioStepResult } from '../contract/scenarios.js';
import {
  durationSeconds,
  type Expectation,
  type ResponseExpectation,
  type Scenario,
  type ScenarioStep,
} from './format.js';
import { referencesIn, resolve, stringsIn, UnresolvedReference } from './refs.js';

export interface ScenarioTarget {
  /** base URLs of the sandbox's two listeners; the control API is reached on the test one */
  urls: { test: string; production: string };
  /** the sandbox's control token, when it requires one (--control-token) */
  controlToken?: string | undefined;
}

export type { ScenarioRun, ScenarioStepResult };

export interface RunOptions {
  onStep?(result: ScenarioStepResult): void;
  /** environment of steps that name none (before the scenario's own env) */
  env?: Env;
  /**
   * How long an expectation keeps looking before it fails (ms, default 3000): webhook sends and
   * the work they trigger finish after the call that caused them has answered.
   */
  waitMs?: number;
}

/** A step that did not hold: the message says what was expected and what was found. */
class StepFailure extends Error {}

interface Response {
  status: number;
  body: unknown;
}

const POLL_MS = 25;

/** The label a step is shown with: its `name`, or what it does. */
export function stepLabel(step: ScenarioStep): string {
  if (step.name) return step.name;
  switch (step.kind) {
    case 'merchant':
      return `merchant ${step.merchant}`;
    case 'call':
      return `${step.call}${step.merchant ? ` as ${step.merchant}` : ''}`;
    case 'control':
      return step.control;
    case 'clock':
      return typeof step.clock === 'string' ? `clock ${step.clock}` : `clock advance ${step.clock.advance}`;
    case 'settings':
      return `settings ${Object.keys(step.settings).join(', ')}`;
    case 'expect':
      return `expect ${expectationLabel(step.expect)}`;
  }
}

function expectationLabel(e: Expectation): string {
  if ('get' in e) return `GET ${e.get}${e.status === undefined ? '' : ` → ${e.status}`}`;
  if ('event' in e) return `event ${e.event.type}${e.event.count === undefined ? '' : ` ×${e.event.count}`}`;
  if ('webhook' in e) {
    const w = e.webhook;
    const parts = [
      w.status,
      w.attempts === undefined ? undefined : `${w.attempts} attempt${w.attempts === 1 ? '' : 's'}`,
    ];
    return `webhook ${w.event}${parts.some(Boolean) ? ` ${parts.filter(Boolean).join(', ')}` : ''}`;
  }
  return `balance ${e.balance.merchant} ${e.balance.currency}`;
}

const SHOWN_CHARS = 500;
/** A value as JSON in a message, cut short when long (a whole list would drown the point). */
const show = (value: unknown): string => {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value);
  return text.length <= SHOWN_CHARS ? text : `${text.slice(0, SHOWN_CHARS)}… (${text.length} characters)`;
};

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

export async function runScenario(
  target: ScenarioTarget,
  scenario: Scenario,
  options: RunOptions = {},
): Promise<ScenarioRun> {
  const waitMs = options.waitMs ?? 3000;
  const results = new Map<string, unknown>([
    ['sandbox', { url: target.urls.test, urls: { ...target.urls } }],
  ]);
  const merchants = new Map<string, { id: string; key: string }>();
  const defaultMerchant = scenario.steps.find((s) => s.kind === 'merchant')?.merchant;
  const envOf = (stepEnv?: Env): Env => stepEnv ?? options.env ?? scenario.env ?? 'test';

  const request = async (
    method: string,
    url: string,
    init: { body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<Response> => {
    const headers: Record<string, string> = { accept: 'application/json', ...init.headers };
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    let response: globalThis.Response;
    try {
      response = await fetch(url, {
        method,
        headers,
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        signal: AbortSignal.timeout(30_000),
      });
    } catch (error) {
      throw new StepFailure(`${method} ${url}: no answer (${(error as Error).message})`);
    }
    const text = await response.text();
    let body: unknown = text;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {}
    return { status: response.status, body };
  };
  const withQuery = (path: string, query?: Record<string, string | number | boolean>) => {
    if (!query || Object.keys(query).length === 0) return path;
    const params = new URLSearchParams(
      Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]),
    );
    return `${path}${path.includes('?') ? '&' : '?'}${params}`;
  };
  const controlHeaders: Record<string, string> =
    target.controlToken === undefined ? {} : { 'x-svc-control-token': target.controlToken };
  const control = (method: string, path: string, body?: unknown) =>
    request(method, `${target.urls.test}${path}`, { body, headers: controlHeaders });
  const merchantKey = (name: string | undefined) => {
    const merchant = merchants.get(name ?? defaultMerchant ?? '');
    if (!merchant) throw new StepFailure(`merchant ${name ?? '(default)'} was not created (its step failed)`);
    return merchant;
  };
  /** A control call that has to succeed for the step to make sense. */
  const controlOk = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const response = await control(method, path, body);
    if (response.status < 200 || response.status > 299)
      throw new StepFailure(`${method} ${path}: ${response.status} ${show(response.body)}`);
    return response.body;
  };
  const checkResponse = (what: string, response: Response, expect: ResponseExpectation | undefined) => {
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
  };
  /** Keeps checking until the check passes or the wait is over; the last failure is the answer. */
  const eventually = async (check: () => Promise<void>) => {
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
  };
  const eventsOf = async (merchantId: string, env: Env) =>
    (await controlOk('GET', `/sandbox/merchants/${merchantId}/events?env=${env}&limit=1000`)) as {
      id: string;
      type: string;
      data: Record<string, unknown>;
    }[];

  /** `${clock...}` references read the sandbox clock when their step runs. */
  const readClock = async (step: ScenarioStep) => {
    const durations = new Set<string>();
    let used = false;
    for (const [value] of stringsIn(step)) {
      for (const ref of referencesIn(value)) {
        if (!('name' in ref) || ref.name !== 'clock') continue;
        used = true;
        if (ref.path[1] !== undefined) durations.add(ref.path[1]);
      }
    }
    if (!used) return;
    const { now } = (await controlOk('GET', '/sandbox/clock')) as { now: string };
    const at = (sign: number) =>
      Object.fromEntries(
        [...durations].map((d) => [
          d,
          new Date(Date.parse(now) + sign * (durationSeconds(d) ?? 0) * 1000).toISOString(),
        ]),
      );
    results.set('clock', { now, in: at(1), ago: at(-1) });
  };

  const runStep = async (step: ScenarioStep): Promise<void> => {
    await readClock(step);
    switch (step.kind) {
      case 'merchant': {
        const body = resolve(step.body ?? {}, results);
        const created = (await controlOk('POST', '/sandbox/merchants', { name: step.merchant, ...body })) as {
          merchant: { id: string; name: string };
          api_key: { id: string; key: string };
        };
        merchants.set(step.merchant, { id: created.merchant.id, key: created.api_key.key });
        results.set(step.merchant, {
          id: created.merchant.id,
          name: created.merchant.name,
          key: created.api_key.key,
          merchant: created.merchant,
          api_key: created.api_key,
        });
        return;
      }
      case 'call':
      case 'control': {
        const line = step.kind === 'call' ? step.call : step.control;
        const [method, rawPath] = line.split(' ') as [string, string];
        const path = withQuery(resolve(rawPath, results), resolve(step.query, results));
        const body = resolve(step.body, results);
        let response: Response;
        if (step.kind === 'call') {
          const { key } = merchantKey(step.merchant);
          response = await request(method, `${target.urls[envOf(step.env)]}${path}`, {
            body,
            // A header the step gives wins: `authorization` lets a step call with another key, or none.
            headers: { authorization: `Bearer ${key}`, ...resolve(step.headers ?? {}, results) },
          });
        } else response = await control(method, path, body);
        checkResponse(`${method} ${path}`, response, resolve(step.expect, results));
        if (step.as) results.set(step.as, response.body);
        return;
      }
      case 'clock': {
        if (step.clock === 'freeze') await controlOk('POST', '/sandbox/clock/freeze');
        else if (step.clock === 'resume') await controlOk('POST', '/sandbox/clock/resume');
        else
          await controlOk('POST', '/sandbox/clock/advance', { seconds: durationSeconds(step.clock.advance) });
        return;
      }
      case 'settings': {
        const settings = await controlOk('PATCH', '/sandbox/settings', resolve(step.settings, results));
        if (step.as) results.set(step.as, settings);
        return;
      }
      case 'expect':
        return eventually(() => checkExpectation(resolve(step.expect, results)));
    }
  };

  const checkExpectation = async (e: Expectation): Promise<void> => {
    if ('get' in e) {
      const path = withQuery(e.get, e.query);
      const response = e.get.startsWith('/v1/')
        ? await request('GET', `${target.urls[envOf(e.env)]}${path}`, {
            headers: { authorization: `Bearer ${merchantKey(e.merchant).key}` },
          })
        : await control('GET', path);
      checkResponse(`GET ${path}`, response, { status: e.status ?? 200, body: e.body });
      return;
    }
    if ('event' in e) {
      const { type, data, count } = e.event;
      const env = envOf(e.event.env);
      const names = e.event.merchant ? [e.event.merchant] : [...merchants.keys()];
      const all = (await Promise.all(names.map((n) => eventsOf(merchantKey(n).id, env)))).flat();
      const ofType = all.filter((event) => event.type === type);
      const matching = ofType.filter((event) => data === undefined || !mismatch(data, event.data));
      if (count === undefined ? matching.length > 0 : matching.length === count) return;
      const wanted = `${count === undefined ? 'a' : count} ${type} event${count === 1 || count === undefined ? '' : 's'}${
        data === undefined ? '' : ` with data ${show(data)}`
      }`;
      const actual =
        ofType.length > 0
          ? `${matching.length} matching; ${type} data: ${listed(ofType.map((event) => show(event.data)))}`
          : `events in ${env}: ${[...new Set(all.map((event) => event.type))].join(', ') || 'none'}`;
      throw new StepFailure(`expected ${wanted}, actual ${actual}`);
    }
    if ('webhook' in e) {
      const w = e.webhook;
      const env = envOf(w.env);
      const query = new URLSearchParams({ event: w.event, env, limit: '1000' });
      if (w.merchant) query.set('merchant_id', merchantKey(w.merchant).id);
      // Without a merchant: the deliveries of the merchants this scenario made, not the sandbox's
      // other tenants' (a running sandbox has its own).
      const ours = new Set([...merchants.values()].map((m) => m.id));
      const deliveries = (
        (await controlOk('GET', `/sandbox/deliveries?${query}`)) as {
          event_id: string;
          merchant_id: string;
          status: string;
          attempt_count: number;
        }[]
      ).filter((d) => w.merchant !== undefined || ours.has(d.merchant_id));
      let dataOf = async (_d: { event_id: string; merchant_id: string }): Promise<unknown> => undefined;
      if (w.data !== undefined) {
        const cache = new Map<string, Map<string, unknown>>();
        dataOf = async (d) => {
          if (!cache.has(d.merchant_id))
            cache.set(
              d.merchant_id,
              new Map((await eventsOf(d.merchant_id, env)).map((ev) => [ev.id, ev.data])),
            );
          return cache.get(d.merchant_id)!.get(d.event_id);
        };
      }
      for (const d of deliveries) {
        if (w.status !== undefined && d.status !== w.status) continue;
        if (w.attempts !== undefined && d.attempt_count !== w.attempts) continue;
        if (w.data !== undefined && mismatch(w.data, await dataOf(d))) continue;
        return;
      }
      const wanted = [
        w.status,
        w.attempts === undefined ? undefined : `${w.attempts} attempt${w.attempts === 1 ? '' : 's'}`,
        w.data === undefined ? undefined : `data ${show(w.data)}`,
      ].filter(Boolean);
      const actual =
        deliveries.length === 0
          ? `no ${w.event} deliveries in ${env}`
          : listed(
              deliveries.map(
                (d) => `${d.status} after ${d.attempt_count} attempt${d.attempt_count === 1 ? '' : 's'}`,
              ),
            );
      throw new StepFailure(
        `expected a ${w.event} delivery${wanted.length ? ` ${wanted.join(', ')}` : ''}, actual ${actual}`,
      );
    }
    const b = e.balance;
    const env = envOf(b.env);
    const balances = (await controlOk(
      'GET',
      `/sandbox/merchants/${merchantKey(b.merchant).id}/balances?env=${env}`,
    )) as { currency: string; available: number; held: number }[];
    const balance = balances.find((x) => x.currency === b.currency) ?? {
      currency: b.currency,
      available: 0,
      held: 0,
    };
    const expected = {
      ...(b.available === undefined ? {} : { available: b.available }),
      ...(b.held === undefined ? {} : { held: b.held }),
    };
    const found = mismatch(expected, balance, `${b.merchant} ${b.currency} balance`);
    if (found) throw new StepFailure(found);
  };

  const steps: ScenarioStepResult[] = [];
  for (const [i, step] of scenario.steps.entries()) {
    const started = performance.now();
    let error: string | undefined;
    try {
      await runStep(step);
    } catch (caught) {
      if (caught instanceof StepFailure || caught instanceof UnresolvedReference) error = caught.message;
      else error = `unexpected error: ${(caught as Error)?.message ?? String(caught)}`;
    }
    const result: ScenarioStepResult = {
      index: i + 1,
      line: step.line,
      kind: step.kind,
      label: stepLabel(step),
      ok: error === undefined,
      ...(error === undefined ? {} : { error }),
      duration_ms: Math.round(performance.now() - started),
    };
    steps.push(result);
    options.onStep?.(result);
    // A failed expectation is reported and the run goes on; a failed action leaves nothing for
    // the later steps to build on, so the run stops there.
    if (error !== undefined && step.kind !== 'expect') break;
  }
  return {
    ok: steps.every((s) => s.ok) && steps.length === scenario.steps.length,
    name: scenario.name,
    steps,
  };
}
