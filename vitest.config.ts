import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { pageAssets } from './scripts/page-assets.js';
import { BROWSER, FAST, FAST_LEAVES_OUT, ISOLATED, NODE } from './test/projects.js';

/**
 * Workers: one more than the cores. Much of a test's time is spent waiting on something outside
 * its worker (Chromium, a spawned CLI, a timeout it proves), so a third worker on two cores keeps
 * both busy; vitest's own default (cores - 1) ran the suite one file at a time on two cores.
 * `VITEST_MAX_WORKERS` (or `--maxWorkers`) overrides it.
 */
const workers = Number(process.env.VITEST_MAX_WORKERS) || Math.min(availableParallelism() + 1, 8);

/** `npm run test:fast`: the inner loop's tier (test/projects.ts). */
const fast = process.env.SVC_TEST_TIER === 'fast';

export default defineConfig({
  // The tests run the server's sources: its hosted pages import their client as text.
  plugins: [pageAssets()],
  test: {
    globalSetup: ['test/global-setup.ts'],
    // Closes what the helpers opened for a test after it, in every file (helpers/cleanup.ts).
    setupFiles: ['test/setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    maxWorkers: workers,
    // A worker runs many files and imports the server once, not once a file: every test makes
    // its own sandbox, and the helpers close what they open (test/README.md, "Workers"). Files
    // that mock a module run alone (test/projects.ts).
    isolate: false,
    reporters: ['default', 'json', './test/slowest-files.ts'],
    outputFile: { json: 'test-results/vitest.json' },
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: fast ? FAST : NODE,
          exclude: [...ISOLATED, ...(fast ? FAST_LEAVES_OUT : [])],
        },
      },
      { extends: true, test: { name: 'isolated', include: ISOLATED, isolate: true } },
      // The dashboard in Chromium: `npm run test:fast` leaves these out. A browser test waits on
      // a browser and a sandbox at once, with three workers on two cores: twice the usual budget.
      ...(fast ? [] : [{ extends: true, test: { name: 'browser', include: BROWSER, testTimeout: 40_000 } }]),
    ],
  },
});
