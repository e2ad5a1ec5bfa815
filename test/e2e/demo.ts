import { expect } from 'vitest';
import type { Sandbox } from '../../server/sandbox.js';
import { libraryText } from '../../server/scenarios/library.js';
import { parseScenario } from '../../server/scenarios/parse.js';
import { runScenario } from '../../server/scenarios/run.js';

/** The demo workspace `serve --demo` builds: the built-in demo scenario, run over the sandbox's addresses. */
export async function buildDemo(sandbox: Sandbox): Promise<void> {
  const parsed = parseScenario(libraryText('demo'));
  if (!parsed.ok) throw new Error(`demo scenario: ${parsed.errors[0]?.message}`);
  const run = await runScenario({ urls: sandbox.urls() }, parsed.scenario);
  expect(run.ok, JSON.stringify(run.steps.filter((s) => !s.ok))).toBe(true);
}
