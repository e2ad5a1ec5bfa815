import { SANDBOX_URL_ENV, startSandbox } from '../../server/testing/index.js';

/**
 * The Vitest recipe of the README: one sandbox for the run, its address handed to the workers
 * through SVC_SANDBOX_URL. A sandbox named already (the integration test's own) is used as it is.
 */
export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (process.env[SANDBOX_URL_ENV]) return undefined;
  const sandbox = await startSandbox();
  return () => sandbox.close();
}
