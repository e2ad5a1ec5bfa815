/**
 * The step runner: what each kind of step does over the sandbox's HTTP, and the named results
 * (`as:`, each merchant, the clock) that later steps reference as `${name.path}`.
 */
import { performance } from 'node:perf_hooks';
import type { FaultsInput } from '../contract/faults.js';
import type { CreateMerchantBody } from '../contract/merchants.js';
import type { AdvanceBody } from '../contract/sandbox-state.js';
import type { SettingsPatch } from '../contract/settings.js';
import { type Response, type ScenarioClient, withQuery } from './client.js';
import {
  checkExpectation,
  checkFired,
  checkResponse,
  type EventMarks,
  eventMarks,
  eventually,
  expectationLabel,
  type FiredEvent,
  firedSince,
} from './expect.js';
import { durationSeconds, type ScenarioStep } from './format.js';
import { referencesIn, resolve, stringsIn } from './refs.js';
import { type TakenMerchant, takeMerchant } from './reuse.js';

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
    case 'faults':
      return step.faults === 'clear' ? 'faults clear' : `faults ${step.faults.rules.length} rule(s)`;
    case 'expect':
      return `expect ${expectationLabel(step.expect)}`;
  }
}

/** What an action step got in the sandbox: its answer (call, control) and the events it fired. */
export interface StepObservation {
  /** what a call or control step sent: its method and path (references resolved, query included) */
  request?: { method: string; path: string };
  response?: Response;
  /** oldest first; only for the steps the observer asked them of */
  events?: FiredEvent[];
}

/**
 * Someone comparing each action step's outcome with something else (svc-sandbox parity compares it
 * with what the real service answered): told after every call, control and clock step.
 */
export interface StepObserver {
  /**
   * Whether to collect the events `step` fires: a test of the events read so far, true once they
   * are all there (webhook work may still be running when the step answers), or undefined: none.
   */
  events?(step: ScenarioStep): ((events: FiredEvent[]) => boolean) | undefined;
  /** `results`: what `${...}` references resolve against after the step (its own `as` included) */
  observe(step: ScenarioStep, observation: StepObservation, results: ReadonlyMap<string, unknown>): void;
}

export interface StepRunnerOptions {
  /** reuse merchants by name, except those named here (./reuse.ts) */
  reuse?: { fresh: Set<string> } | undefined;
  observer?: StepObserver | undefined;
  /**
   * false: `expect` is not checked (on actions or as steps) and an answer of 4xx or 5xx does not
   * fail its step; the observer judges the answers instead. Default true.
   */
  expectations?: boolean | undefined;
}

export class StepRunner {
  /** What `${...}` references resolve against, by name. */
  private readonly results: Map<string, unknown>;
  /** the merchants the merchant steps made or reused, in step order */
  readonly taken: { step: string; name: string; id: string; made: boolean }[] = [];
  /** the seconds the clock steps advanced the sandbox clock by */
  advanced = 0;

  constructor(
    private readonly client: ScenarioClient,
    /** how long an expectation keeps looking before it fails (ms) */
    private readonly waitMs: number,
    private readonly options: StepRunnerOptions = {},
  ) {
    this.results = new Map<string, unknown>([
      ['sandbox', { url: client.refUrls().test, urls: client.refUrls() }],
    ]);
  }

  /** Runs one step; throws a StepFailure (or an UnresolvedReference) when it does not hold. */
  async run(step: ScenarioStep): Promise<void> {
    const { client, results } = this;
    await this.readClock(step);
    switch (step.kind) {
      case 'merchant': {
        const body = resolve(step.body ?? {}, results);
        const name = typeof body.name === 'string' ? body.name : step.merchant;
        const reuse = this.options.reuse;
        const reused =
          reuse && !reuse.fresh.has(step.merchant) ? await takeMerchant(client, name) : undefined;
        const created =
          reused ??
          ((await client.call('sandboxCreateMerchant', {
            body: { name: step.merchant, ...body } as CreateMerchantBody,
          })) as TakenMerchant);
        this.taken.push({
          step: step.merchant,
          name: created.merchant.name,
          id: created.merchant.id,
          made: reused === undefined,
        });
        client.addMerchant(step.merchant, { id: created.merchant.id, key: created.api_key.key });
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
        const checks = this.options.expectations !== false;
        const fired = checks ? step.expect?.events : undefined;
        const watch = await this.watch(step, fired);
        let response: Response;
        if (step.kind === 'call') {
          const { key } = client.merchant(step.merchant);
          response = await client.request(method, `${client.baseUrl(client.envOf(step.env))}${path}`, {
            body,
            // A header the step gives wins: `authorization` lets a step call with another key, or none.
            headers: { authorization: `Bearer ${key}`, ...resolve(step.headers ?? {}, results) },
          });
        } else response = await client.control(method, path, body);
        if (checks) checkResponse(`${method} ${path}`, response, resolve(step.expect, results));
        if (step.as) results.set(step.as, response.body);
        if (watch.marks && fired)
          await eventually(() => checkFired(client, watch.marks!, fired), this.waitMs);
        await this.observed(step, { request: { method, path }, response }, watch);
        return;
      }
      case 'clock': {
        const fired = this.options.expectations !== false ? step.expect?.events : undefined;
        const watch = await this.watch(step, fired);
        if (step.clock === 'freeze') await client.call('sandboxFreezeClock');
        else if (step.clock === 'resume') await client.call('sandboxResumeClock');
        else {
          const seconds = durationSeconds(step.clock.advance);
          await client.call('sandboxAdvanceClock', { body: { seconds } as AdvanceBody });
          this.advanced += seconds ?? 0;
        }
        if (watch.marks && fired)
          await eventually(() => checkFired(client, watch.marks!, fired), this.waitMs);
        await this.observed(step, {}, watch);
        return;
      }
      case 'settings': {
        const settings = await client.call('sandboxUpdateSettings', {
          body: resolve(step.settings, results) as SettingsPatch,
        });
        if (step.as) results.set(step.as, settings);
        return;
      }
      case 'faults': {
        const faults =
          step.faults === 'clear'
            ? await client.call('sandboxClearFaults')
            : await client.call('sandboxSetFaults', { body: resolve(step.faults, results) as FaultsInput });
        if (step.as) results.set(step.as, faults);
        return;
      }
      case 'expect':
        if (this.options.expectations === false) return;
        return eventually(() => checkExpectation(client, resolve(step.expect, results)), this.waitMs);
    }
  }

  /** Where the event logs end before an action step, when its expectations or the observer need it. */
  private async watch(
    step: ScenarioStep,
    fired: readonly string[] | undefined,
  ): Promise<{ marks?: EventMarks; complete?: (events: FiredEvent[]) => boolean }> {
    const complete = this.options.observer?.events?.(step);
    if (fired === undefined && complete === undefined) return {};
    return { marks: await eventMarks(this.client), ...(complete ? { complete } : {}) };
  }

  /** Tells the observer what the step got, with the events it fired once they are all there. */
  private async observed(
    step: ScenarioStep,
    observation: StepObservation,
    watch: { marks?: EventMarks; complete?: (events: FiredEvent[]) => boolean },
  ): Promise<void> {
    const { observer } = this.options;
    if (!observer) return;
    if (watch.marks && watch.complete) {
      const deadline = performance.now() + this.waitMs;
      let events = await firedSince(this.client, watch.marks);
      while (!watch.complete(events) && performance.now() < deadline) {
        await new Promise((r) => setTimeout(r, 25));
        events = await firedSince(this.client, watch.marks);
      }
      observation.events = events;
    }
    observer.observe(step, observation, this.results);
  }

  /** `${clock...}` references read the sandbox clock when their step runs. */
  private async readClock(step: ScenarioStep): Promise<void> {
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
    const { now } = await this.client.call('sandboxGetClock');
    const at = (sign: number) =>
      Object.fromEntries(
        [...durations].map((d) => [
          d,
          new Date(Date.parse(now) + sign * (durationSeconds(d) ?? 0) * 1000).toISOString(),
        ]),
      );
    this.results.set('clock', { now, in: at(1), ago: at(-1) });
  }
}
