/**
 * Work a helper must do after every test (close the sandboxes, receivers and children it opened).
 * A helper registers it here once, when it is first imported; `test/setup.ts` runs it after each
 * test of every file. A hook registered by the helper itself would run for the first file of a
 * worker only, since workers that run many files (vitest's `isolate: false`) import a helper once.
 */
type Cleanup = () => unknown;

const cleanups: Cleanup[] = [];

export function afterEveryTest(cleanup: Cleanup): void {
  cleanups.push(cleanup);
}

/** Runs every registered cleanup, the last registered first (as vitest runs after-hooks). */
export async function runCleanups(): Promise<void> {
  for (const cleanup of [...cleanups].reverse()) await cleanup();
}
