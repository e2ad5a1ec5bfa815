import { expect } from 'vitest';
import { demoSpanMs } from '../../server/cli/demo.js';
import type { Sandbox } from '../../server/sandbox.js';
import { libraryText } from '../../server/scenarios/library.js';
import { parseScenario } from '../../server/scenarios/parse.js';
import { runScenario } from '../../server/scenarios/run.js';

/**
 * The demo as `serve --demo` builds it (server/cli/demo.ts: the clock started as far back as the
 * scenario moves it, so its history ends now; the
 * built-in demo scenario run over the sandbox's addresses), here in the default workspace, the one
 * the pages under test open on. `serve --demo` itself builds it in a workspace named Demo.
 */
export async function buildDemo(sandbox: Sandbox): Promise<void> {
  const parsed = parseScenario(libraryText('demo'));
  if (!parsed.ok) throw new Error(`demo scenario: ${parsed.errors[0]?.message}`);
  sandbox.ctx.clock.restart(-demoSpanMs(parsed.scenario.steps));
  sandbox.ctx.scheduler.wake();
  const run = await runScenario({ urls: sandbox.urls() }, parsed.scenario);
  expect(run.ok, JSON.stringify(run.steps.filter((s) => !s.ok))).toBe(true);
}
