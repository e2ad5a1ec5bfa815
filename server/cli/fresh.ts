import { createSandbox, type SandboxOptions } from '../sandbox.js';
import type { Scenario } from '../scenarios/format.js';
import { type RunOptions, runScenario, type ScenarioRun } from '../scenarios/run.js';

/**
 * The sandbox a scenario replays in: in memory, on free loopback ports, with the scenario's seed
 * and clock, so the same file makes the same ids and timestamps every time.
 */
export function freshSandboxOptions(scenario: Scenario): SandboxOptions {
  return {
    dbPath: ':memory:',
    host: '127.0.0.1',
    ports: { test: 0, production: 0 },
    seed: scenario.seed,
    clock: { at: Date.parse(scenario.clock.start), frozen: scenario.clock.frozen },
  };
}

/**
 * Runs a scenario in a sandbox of its own, closed afterwards; `after` sees the sandbox's test
 * address once the steps have run (to read what the run left, such as its coverage).
 */
export async function runFresh(
  scenario: Scenario,
  options: RunOptions = {},
  after?: (url: string) => Promise<void>,
): Promise<ScenarioRun> {
  const sandbox = await createSandbox(freshSandboxOptions(scenario));
  try {
    const urls = await sandbox.listen();
    const run = await runScenario({ urls }, scenario, options);
    await after?.(urls.test);
    return run;
  } finally {
    await sandbox.close();
  }
}
