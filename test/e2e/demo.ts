import { expect } from 'vitest';
import type { Sandbox } from '../../server/sandbox.js';
import { libraryText } from '../../server/scenarios/library.js';
import { parseScenario } from '../../server/scenarios/parse.js';
import { runScenario } from '../../server/scenarios/run.js';

/**
 * The demo as `serve --demo` builds it (server/cli/demo.ts: the clock started a month back, the
 * built-in demo scenario run over the sandbox's addresses), here in the default workspace, the one
 * the pages under test open on. `serve --demo` itself builds it in a workspace named Demo.
 */
export async function buildDemo(sandbox: Sandbox): Promise<void> {
  sandbox.ctx.clock.restart(-30 * 24 * 3600_000);
  sandbox.ctx.scheduler.wake();
  const parsed = parseScenario(libraryText('demo'));
  if (!parsed.ok) throw new Error(`demo scenario: ${parsed.errors[0]?.message}`);
  const run = await runScenario({ urls: sandbox.urls() }, parsed.scenario);
  expect(run.ok, JSON.stringify(run.steps.filter((s) => !s.ok))).toBe(true);
}
