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

/** Runs a scenario in a sandbox of its own, closed afterwards. */
export async function runFresh(scenario: Scenario, options: RunOptions = {}): Promise<ScenarioRun> {
  const sandbox = await createSandbox(freshSandboxOptions(scenario));
  try {
    const urls = await sandbox.listen();
    return await runScenario({ urls }, scenario, options);
  } finally {
    await sandbox.close();
  }
}
