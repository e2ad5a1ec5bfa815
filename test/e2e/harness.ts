/// <reference lib="dom" />
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { createSandbox, type Sandbox } from '../../server/sandbox.js';
import { CHROMIUM_ARGS, findChromium } from './browser.js';

// The dashboard in real Chromium against a real sandbox, as dashboard.test.ts sets it up: one
// browser per file; per test its own data dir, free ports and browser context.

export const root = resolve(import.meta.dirname, '../..');
export const resultsDir = join(root, 'test-results');
const dashboardDir = join(root, 'out/renderer');

export interface Harness {
  page: Page;
  sandbox: Sandbox;
  dashboardUrl: string;
}

/**
 * The current test's page, sandbox and dashboard URL (live bindings: import them and read them inside
 * a test or hook); the object setupDashboard returns holds the same three.
 */
export let page: Page;
export let sandbox: Sandbox;
export let dashboardUrl: string;

/** Registers the hooks; the returned object (and the bindings above) is filled in before each test. */
export function setupDashboard(): Harness {
  const h = {} as Harness;
  let browser: Browser;
  let context: BrowserContext;
  let dataDir: string;
  /** Script errors and React warnings in the page: a test that causes any fails. */
  let pageErrors: string[] = [];

  beforeAll(async () => {
    if (!existsSync(join(dashboardDir, 'index.html'))) {
      throw new Error(
        `${dashboardDir}/index.html is missing: build the dashboard first (npm run build, or npx electron-vite build)`,
      );
    }
    mkdirSync(resultsDir, { recursive: true });
    const binary = await findChromium();
    browser = await chromium.launch({
      executablePath: binary.executablePath,
      ...(binary.env ? { env: binary.env } : {}),
      args: CHROMIUM_ARGS,
    });
  });

  afterAll(async () => {
    await browser?.close();
  });

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'svc-sandbox-e2e-'));
    h.sandbox = await createSandbox({
      ports: { test: 0, production: 0 },
      dbPath: join(dataDir, 'sandbox.db'),
      dashboardDir,
    });
    ({ dashboard: h.dashboardUrl } = await h.sandbox.listen());
    // A named locale: without one Chromium reports the POSIX locale ("en-US@posix"), which Intl rejects.
    context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-US' });
    h.page = await context.newPage();
    trackRequests(h.page);
    pageErrors = [];
    ({ page, sandbox, dashboardUrl } = h);
    h.page.on('pageerror', (error) => pageErrors.push(error.message));
    h.page.on('console', (message) => {
      // A refused call (4xx) is logged by Chromium itself; the dashboard shows those as notices.
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
        pageErrors.push(message.text());
      }
    });
  });

  afterEach(async () => {
    const errors = pageErrors;
    await context?.close();
    await h.sandbox?.close();
    rmSync(dataDir, { recursive: true, force: true });
    expect(errors, 'errors in the page').toEqual([]);
  });

  return h;
}

/** The page's requests still waiting for their answer (the event stream, which never ends, left out). */
const inFlight = new WeakMap<Page, Set<object>>();

function trackRequests(page: Page): void {
  const pending = new Set<object>();
  inFlight.set(page, pending);
  page.on('request', (request) => {
    if (request.resourceType() !== 'eventsource') pending.add(request);
  });
  const done = (request: object) => pending.delete(request);
  page.on('requestfinished', done);
  page.on('requestfailed', done);
}

/**
 * Waits until the page has had no request in flight for `quietMs` (its reads have landed and been
 * drawn), or `timeoutMs` has passed; a fixed pause would be too short on a busy machine and too
 * long on a quiet one.
 */
export async function networkQuiet(page: Page, quietMs = 120, timeoutMs = 10_000): Promise<void> {
  const pending = inFlight.get(page);
  if (!pending) throw new Error('networkQuiet: the page was not opened by setupDashboard');
  const deadline = performance.now() + timeoutMs;
  let quietSince = pending.size === 0 ? performance.now() : Number.POSITIVE_INFINITY;
  while (performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    if (pending.size > 0) quietSince = Number.POSITIVE_INFINITY;
    else if (quietSince === Number.POSITIVE_INFINITY) quietSince = performance.now();
    else if (performance.now() - quietSince >= quietMs) break;
  }
  // What the last answers changed is drawn before anyone reads it.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve(null))));
}

/** A control-API or /v1 call made by "a script", as the other side of what the dashboard shows. */
export async function call<T>(
  sandbox: Sandbox,
  method: 'GET' | 'POST',
  url: string,
  payload?: object,
  apiKey?: string,
): Promise<T> {
  const response = await sandbox.apps.test.inject({
    method,
    url,
    ...(payload ? { payload } : {}),
    ...(apiKey ? { headers: { authorization: `Bearer ${apiKey}` } } : {}),
  });
  if (response.statusCode >= 300)
    throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
  return response.json() as T;
}

/** Closes every notice at once (before screenshots); success notices would fade by themselves. */
export async function dismissNotices(page: Page): Promise<void> {
  await page.getByTestId('notice-dismiss').evaluateAll((buttons) => {
    for (const button of buttons) (button as HTMLButtonElement).click();
  });
  await page.getByTestId('notice-dismiss').first().waitFor({ state: 'detached' });
}
