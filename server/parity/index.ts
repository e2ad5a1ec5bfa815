/**
 * Parity: a session recorded against the real service (`svc-sandbox record`), replayed step by step
 * in a sandbox by the scenario runner, each step's answer and webhooks compared with what the
 * real service gave (`recorded`). Steps without `recorded` just run; `expect` is the business of
 * `svc-sandbox run` and is not checked here.
 *
 * The sandbox's webhooks of a step are the events the step fired in the event logs of the
 * merchants the session made, not deliveries to an endpoint: the real service's endpoints are set
 * up in its dashboard, so a recorded session has no endpoint the replay could deliver to, and an
 * event is exactly what the sandbox would deliver to every endpoint subscribed to it.
 */
import { documents } from '../contract/call.js';
import type { Env } from '../contract/common.js';
import type { ParityDifference, ParityReport } from '../contract/parity.js';
import { ScenarioClient, type ScenarioTarget } from '../scenarios/client.js';
import type { Scenario, ScenarioStep } from '../scenarios/format.js';
import { lookup, UnresolvedReference } from '../scenarios/refs.js';
import { runScenario, type StepObserver } from '../scenarios/run.js';
import { stepLabel } from '../scenarios/steps.js';
import { type CompareContext, compareValues, type Found } from './compare.js';
import { Contract, type Schema } from './contract.js';
import { ignoreMatcher } from './ignore.js';
import { compareWebhooks } from './webhooks.js';

export type { ParityDifference, ParityReport };
export { ignoreMatcher };

export interface ParityOptions {
  /** field paths whose differences are accepted (./ignore.ts has the syntax) */
  ignore?: readonly string[];
  /** environment of the steps that name none (before the file's own env) */
  env?: Env;
  /**
   * How long a step's webhooks may take to appear in the sandbox when fewer than the recorded ones
   * are there yet (ms, default 1500): webhook work can finish after the step has answered.
   */
  waitMs?: number;
}

/** The recorded webhooks of a step, when it has them (absent: not recorded, so not compared). */
function recordedWebhooks(step: ScenarioStep) {
  return step.kind === 'call' || step.kind === 'control' || step.kind === 'clock'
    ? step.recorded?.webhooks
    : undefined;
}

/** The sandbox's contract: the OpenAPI document it serves (undefined when it serves none). */
async function loadContract(target: ScenarioTarget): Promise<Contract | undefined> {
  try {
    const response = await fetch(`${target.urls.test}${documents.openapi}`, {
      headers: target.controlToken === undefined ? {} : { 'x-svc-control-token': target.controlToken },
      signal: AbortSignal.timeout(30_000),
    });
    if (!response.ok) return undefined;
    return new Contract((await response.json()) as Schema);
  } catch {
    return undefined;
  }
}

/**
 * Replays `scenario` in `target` (a sandbox's addresses, and the workspace to act in: give it a
 * fresh one, see `checkParityInNewWorkspace`) and returns every difference from the recording.
 * Throws an Error naming the pattern when an ignore pattern is not one.
 */
export async function checkParity(
  scenario: Scenario,
  target: ScenarioTarget,
  options: ParityOptions = {},
): Promise<ParityReport> {
  const ignored = ignoreMatcher(options.ignore ?? []);
  const contract = await loadContract(target);
  const differences: ParityDifference[] = [];
  let compared = 0;
  const positions = new Map(scenario.steps.map((step, i) => [step, i]));
  const where = (step: ScenarioStep) => ({
    index: (positions.get(step) ?? 0) + 1,
    line: step.line,
    label: stepLabel(step),
  });

  const observer: StepObserver = {
    events(step) {
      const hooks = recordedWebhooks(step);
      return hooks && ((events) => events.length >= hooks.length);
    },
    observe(step, observation, results) {
      if (step.kind !== 'call' && step.kind !== 'control' && step.kind !== 'clock') return;
      const recorded = step.recorded;
      if (!recorded) return;
      compared++;
      const ctx: CompareContext = {
        contract,
        lookup(name, path) {
          try {
            return { value: lookup(results, { raw: `\${${[name, ...path].join('.')}}`, name, path }) };
          } catch (error) {
            if (error instanceof UnresolvedReference) return undefined;
            throw error;
          }
        },
      };
      const found: Found[] = [];
      // A step the recorder inferred plays the outside world: the real service never answered it,
      // so only the webhooks that followed it compare.
      if (
        step.kind !== 'clock' &&
        !(step.kind === 'control' && step.inferred !== undefined) &&
        'status' in recorded
      ) {
        const { request, response } = observation;
        if (response && response.status !== recorded.status) {
          found.push({
            kind: 'status',
            path: '(status)',
            message: `recorded ${recorded.status}, the sandbox ${response.status}${
              response.status >= 400 ? ` ${JSON.stringify(response.body)?.slice(0, 200) ?? ''}` : ''
            }`,
          });
        } else if (response && recorded.body !== undefined) {
          const schema = request && contract?.response(request.method, request.path, response.status);
          found.push(
            ...compareValues(
              recorded.body,
              response.body,
              { ...ctx, shapeOnly: response.status >= 400 },
              [],
              schema,
            ),
          );
        }
      }
      const hooks = recorded.webhooks;
      if (hooks) found.push(...compareWebhooks(hooks, observation.events ?? [], ctx));
      for (const f of found)
        differences.push({ kind: f.kind, step: where(step), path: f.path, message: f.message });
    },
  };

  const run = await runScenario(target, scenario, {
    observer,
    expectations: false,
    waitMs: options.waitMs ?? 1500,
    ...(options.env === undefined ? {} : { env: options.env }),
  });
  const failed = run.steps.find((s) => !s.ok);
  if (failed) {
    const rest = scenario.steps.length - failed.index;
    differences.push({
      kind: 'replay',
      step: { index: failed.index, line: failed.line, label: failed.label },
      path: '(step)',
      message: `the sandbox could not replay it: ${failed.error ?? 'failed'}${
        rest > 0 ? `; the ${rest} step${rest === 1 ? '' : 's'} after it did not run` : ''
      }`,
    });
  }
  const kept = differences.filter((d) => !ignored(d.path));
  return {
    ok: kept.length === 0,
    name: scenario.name,
    steps: scenario.steps.length,
    compared,
    differences: kept,
    ignored: differences.length - kept.length,
  };
}

/**
 * Replays `scenario` in a new ephemeral workspace of the sandbox at `sandbox.urls`, made with the
 * file's seed and clock and deleted afterwards: no earlier state of that sandbox takes part.
 */
export async function checkParityInNewWorkspace(
  scenario: Scenario,
  sandbox: Omit<ScenarioTarget, 'workspace'>,
  options: ParityOptions = {},
): Promise<ParityReport & { workspace: string }> {
  ignoreMatcher(options.ignore ?? []);
  const client = new ScenarioClient(sandbox.urls, { env: 'test', merchant: undefined }, sandbox.controlToken);
  const created = await client.call('sandboxCreateWorkspace', {
    body: {
      ephemeral: true,
      seed: scenario.seed,
      clock: { start: scenario.clock.start, frozen: scenario.clock.frozen },
    },
  });
  try {
    const report = await checkParity(scenario, { ...sandbox, workspace: created.id }, options);
    return { ...report, workspace: created.id };
  } finally {
    await client.call('sandboxDeleteWorkspace', { params: { id: created.id } }).catch(() => undefined);
  }
}
