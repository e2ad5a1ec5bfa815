/**
 * The suite's projects (vitest.config.ts). Workers run many files each and import the server once
 * (vitest's `isolate: false`), except for the files below: a file that mocks a module
 * (`vi.mock`) needs a module registry of its own, or it would get a module another file already
 * imported with the real dependency (or with that file's mock). `unit/test-projects.test.ts`
 * fails when a file mocks a module and is not listed here.
 */
export const ISOLATED = ['test/unit/shell.test.ts', 'test/unit/shell-webhook-ca.test.ts'];

/** Everything but the browser: unit, integration and reliability (`npm run test:fast` runs most). */
export const NODE = ['test/{unit,integration,reliability}/**/*.test.ts'];

/** The dashboard and the hosted pages in a real Chromium. */
export const BROWSER = ['test/e2e/**/*.test.ts'];
