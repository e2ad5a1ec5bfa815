import { afterAll, beforeAll } from 'vitest';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../server/sandbox.js';

/**
 * One sandbox shared by every test of a file (or describe block): building the two Fastify apps
 * costs far more than a test does, so tests isolate themselves with a fresh merchant instead.
 * Tests that change global state (settings, the clock) should use testSandbox() instead.
 */
export function useSharedSandbox(options: () => SandboxOptions = () => ({})): () => Sandbox {
  let sandbox: Sandbox | undefined;
  beforeAll(async () => {
    sandbox = await createSandbox({ ports: { test: 0, production: 0 }, ...options() });
    await sandbox.apps.test.ready();
  });
  afterAll(async () => {
    await sandbox?.close();
    sandbox = undefined;
  });
  return () => {
    if (!sandbox) throw new Error('useSharedSandbox: the sandbox exists only inside tests');
    return sandbox;
  };
}
