/// <reference lib="dom" />
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../server/sandbox.js';
import { CHROMIUM_ARGS, findChromium } from './browser.js';

// The dashboard of a sandbox started with a control token (serve --control-token), in real
// Chromium: it asks for the token once, then its calls and its event stream carry it.

const dashboardDir = resolve(import.meta.dirname, '../../out/renderer');
const TOKEN = 'e2e-control-token';

describe('dashboard with a control token', () => {
  let browser: Browser;
  let sandbox: Sandbox;
  let dataDir: string;

  beforeAll(async () => {
    if (!existsSync(join(dashboardDir, 'index.html')))
      throw new Error(`${dashboardDir}/index.html is missing: build the dashboard first (npm run build)`);
    const binary = await findChromium();
    browser = await chromium.launch({
      executablePath: binary.executablePath,
      ...(binary.env ? { env: binary.env } : {}),
      args: CHROMIUM_ARGS,
    });
    dataDir = mkdtempSync(join(tmpdir(), 'svc-sandbox-e2e-token-'));
    sandbox = await createSandbox({
      ports: { test: 0, production: 0 },
      dbPath: join(dataDir, 'sandbox.db'),
      dashboardDir,
      controlToken: TOKEN,
    });
    await sandbox.listen();
  });

  afterAll(async () => {
    await browser?.close();
    await sandbox?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('asks for the token, refuses a wrong one, then works with the right one, live updates included', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${sandbox.urls().dashboard}#/merchants`);

    // Without a token: the prompt, over the page.
    await page.getByTestId('control-token-gate').waitFor();
    expect(await page.getByTestId('control-token-rejected').count()).toBe(0);

    // A wrong token: after the reload the prompt is back, saying so.
    await page.getByTestId('control-token-input').fill('wrong');
    await page.getByTestId('control-token-save').click();
    await page.getByTestId('control-token-rejected').waitFor();

    // The right one: the dashboard works, and the cookie is same-site only.
    await page.getByTestId('control-token-input').fill(TOKEN);
    await page.getByTestId('control-token-save').click();
    await page.getByTestId('merchant-name-input').waitFor();
    const cookie = (await context.cookies()).find((c) => c.name === 'svc_control_token');
    expect(cookie?.sameSite).toBe('Strict');
    expect(decodeURIComponent(cookie?.value ?? '')).toBe(TOKEN);
    await page.getByTestId('merchant-name-input').fill('Token Co');
    await page.getByTestId('create-merchant-submit').click();
    await page.getByTestId('merchant-name').filter({ hasText: 'Token Co' }).waitFor();
    expect(await page.getByTestId('control-token-gate').count()).toBe(0);

    // The event stream carries the cookie too: a merchant made by a script appears by itself.
    const made = await fetch(`${sandbox.urls().test}/sandbox/merchants`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-svc-control-token': TOKEN },
      body: JSON.stringify({ name: 'Scripted Ltd' }),
    });
    expect(made.status).toBe(200);
    await page.getByTestId('merchant-item').filter({ hasText: 'Scripted Ltd' }).waitFor({ timeout: 10_000 });
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);
});
