import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { pageAssets } from '../../scripts/page-assets.js';

/**
 * Eight test files, each in a worker process of its own, all at once, against one sandbox: what
 * a CI suite using `svc-sandbox/testing` does. Run by
 * test/integration/workspaces/parallel-workspaces.test.ts (with the sandbox it started), or alone:
 * `npx vitest run --config test/parallel/vitest.config.ts`.
 */
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  // The in-process sandbox of the global setup runs the server's sources.
  plugins: [pageAssets()],
  test: {
    include: ['test/parallel/lanes/*.ts'],
    globalSetup: ['test/parallel/global-setup.ts'],
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: 8,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    reporters: ['default'],
  },
});
