import { expect } from 'vitest';
import { buildDemo as serveDemo } from '../../server/cli/demo.js';
import type { Sandbox } from '../../server/sandbox.js';

/**
 * The demo workspace exactly as `serve --demo` builds it (server/cli/demo.ts): the clock started a
 * month back, the built-in demo scenario run over the sandbox's addresses, the demo remembered.
 * A step that fails is printed on stderr, and the demo is then not remembered.
 */
export async function buildDemo(sandbox: Sandbox): Promise<void> {
  await serveDemo(sandbox, sandbox.urls(), { fresh: false });
  expect(sandbox.ctx.repos.kv.get('demo'), 'the demo was built (its error is on stderr)').toBeTruthy();
}
