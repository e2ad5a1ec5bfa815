import type { ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, spawnCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/sandbox.js';
import { CHROMIUM_ARGS, findChromium } from './browser.js';
import { resultsDir } from './harness.js';

// The API reference at /docs as a user opens it: the built CLI (`node dist/server/cli.js serve`, so
// the bundle loads the renderer from node_modules as the npm package does) and real Chromium with
// every request off this machine refused, so the page renders from what the sandbox serves or not at all.

let browser: Browser;

beforeAll(async () => {
  ensureBuilt();
  mkdirSync(resultsDir, { recursive: true });
  const binary = await findChromium();
  browser = await chromium.launch({
    executablePath: binary.executablePath,
    ...(binary.env ? { env: binary.env } : {}),
    args: CHROMIUM_ARGS,
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

function serve(): Promise<{ child: ChildProcess; base: string }> {
  const db = join(tempDir(), 'sandbox.db');
  const child = spawnCli(['serve', '--port', '0', '--prod-port', '0', '--db', db]);
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line: ${stderr}`)), 20_000);
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const match = /^svc-sandbox ready test=(\S+)/.exec(line);
      if (!match) return;
      clearTimeout(timer);
      resolve({ child, base: match[1]! });
    });
  });
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

describe('/docs in a browser', () => {
  it('renders every operation with nothing from the network', { timeout: 90_000 }, async () => {
    const { base } = await serve();
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const refused: string[] = [];
    await context.route('**/*', (route) => {
      const url = new URL(route.request().url());
      if (url.protocol.startsWith('http') && LOOPBACK.has(url.hostname)) return route.continue();
      if (url.protocol === 'data:') return route.continue();
      refused.push(url.href);
      return route.abort('internetdisconnected');
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${base}/docs`);
    await expect.poll(() => page.title()).toBe('svc-sandbox API reference');
    // Operations are grouped by tag and listed with method and path.
    const checkouts = page.locator('.opblock-summary-path', { hasText: /^\/v1\/checkouts$/ }).first();
    await checkouts.waitFor({ timeout: 30_000 });
    const operations = await page.locator('.opblock').count();
    expect(operations).toBeGreaterThan(20);
    await expect
      .poll(() => page.locator('.opblock-summary-path', { hasText: '/sandbox/merchants' }).count())
      .toBeGreaterThan(0);
    // An operation opens on its parameters and responses.
    await checkouts.click();
    await page.locator('.opblock.is-open .responses-wrapper').first().waitFor();
    await page.screenshot({ path: join(resultsDir, 'docs.png') });
    expect(refused, 'requests off this machine').toEqual([]);
    expect(errors, 'errors in the page').toEqual([]);
    await context.close();
  });

  it('is linked from the dashboard (the Developers page)', { timeout: 60_000 }, async () => {
    const { base } = await serve();
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-US' });
    const page = await context.newPage();
    await page.goto(`${base}/#/developers`);
    const link = page.getByTestId('api-reference');
    await link.waitFor({ timeout: 30_000 });
    const [docs] = await Promise.all([context.waitForEvent('page'), link.click()]);
    await docs.locator('.opblock').first().waitFor({ timeout: 30_000 });
    expect(new URL(docs.url()).pathname).toBe('/docs');
    await context.close();
  });
});
