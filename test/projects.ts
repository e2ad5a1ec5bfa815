/**
 * The suite's projects (vitest.config.ts). Workers run many files each and import the server once
 * (vitest's `isolate: false`), except for the files below, which need a module registry of their
 * own: a file that mocks a module (`vi.mock`) would otherwise get a module another file already
 * imported with the real dependency (or with that file's mock), a file that asserts what the
 * process has loaded (`require.cache`) would see what other files loaded, and a file that measures
 * the process's memory (`process.memoryUsage`) would count what other files left behind.
 * `unit/test-projects.test.ts` fails when such a file is not listed here.
 */
export const ISOLATED = [
  'test/unit/shell.test.ts',
  'test/unit/shell-webhook-ca.test.ts',
  'test/integration/dashboard/docs-page.test.ts',
  'test/reliability/connections.test.ts',
];

/** Everything but the browser: unit, integration and reliability. */
export const NODE = ['test/{unit,integration,reliability}/**/*.test.ts'];

/**
 * `npm run test:fast` (SVC_TEST_TIER=fast), for the inner loop: unit and integration in process.
 * It leaves out the browser, the reliability suite, and the tests that run other programs: the
 * built CLI as a user runs it, the npm package packed and installed, the client generators, the
 * Python kit's suite (pytest in a venv).
 * `npm test` runs them all.
 */
export const FAST = ['test/{unit,integration}/**/*.test.ts'];
export const FAST_LEAVES_OUT = [
  'test/integration/cli/**/*.test.ts',
  'test/integration/openapi/openapi-hey-api-client.test.ts',
  'test/integration/openapi/openapi-python-client.test.ts',
  'test/integration/python/**/*.test.ts',
];

/** The dashboard and the hosted pages in a real Chromium. */
export const BROWSER = ['test/e2e/**/*.test.ts'];
