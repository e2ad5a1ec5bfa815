/**
 * Runs a parsed scenario against a sandbox over plain HTTP: a client of its addresses
 * (./client.ts), a step runner (./steps.ts) and the expectations it checks (./expect.ts).
 */
import { performance } from 'node:perf_hooks';
import type { Env } from '../contract/common.js';
import type { RunChanges } from '../contract/scenario-library.js';
import type { ScenarioRun, ScenarioStepResult } from '../contract/scenarios.js';
import { ScenarioClient, type ScenarioTarget, StepFailure } from './client.js';
import type { Scenario } from './format.js';
import { UnresolvedReference } from './refs.js';
import { freshMerchants, runChanges } from './reuse.js';
import { type StepObserver, StepRunner, stepLabel } from './steps.js';

export type { ScenarioRun, ScenarioStepResult, ScenarioTarget, StepObserver };

export interface RunOptions {
  onStep?(result: ScenarioStepResult): void;
  /** environment of steps that name none (before the scenario's own env) */
  env?: Env;
  /**
   * How long an expectation keeps looking before it fails (ms, default 3000): webhook sends and
   * the work they trigger finish after the call that caused them has answered.
   */
  waitMs?: number;
  /** merchant steps reuse merchants by name, and the run reports what it changed (./reuse.ts) */
  reuseMerchants?: boolean;
  /** told what every action step got (svc-sandbox parity) */
  observer?: StepObserver;
  /** false: `expect` is not checked and a 4xx or 5xx answer fails no step (default true) */
  expectations?: boolean;
}

export async function runScenario(
  target: ScenarioTarget,
  scenario: Scenario,
  options: RunOptions = {},
): Promise<ScenarioRun & { changes?: RunChanges }> {
  const client = new ScenarioClient(
    target.urls,
    {
      env: options.env ?? scenario.env ?? 'test',
      merchant: scenario.steps.find((s) => s.kind === 'merchant')?.merchant,
    },
    target.controlToken,
    target.workspace,
  );
  const reuse = options.reuseMerchants ? { fresh: freshMerchants(scenario) } : undefined;
  const clockFrom = reuse ? (await client.call('sandboxGetClock')).now : undefined;
  const runner = new StepRunner(client, options.waitMs ?? 3000, {
    reuse,
    observer: options.observer,
    expectations: options.expectations,
  });
  const steps: ScenarioStepResult[] = [];
  for (const [i, step] of scenario.steps.entries()) {
    const started = performance.now();
    let error: string | undefined;
    try {
      await runner.run(step);
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
    ...(clockFrom === undefined
      ? {}
      : { changes: await runChanges(client, clockFrom, runner.advanced, runner.taken) }),
  };
}
