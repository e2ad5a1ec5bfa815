import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { expect, it } from 'vitest';
import { createMerchant, testSandbox } from '../helpers/sandbox.js';
import { CHROMIUM_ARGS, findChromium } from './browser.js';
import { buildDemo } from './demo.js';
import { root } from './harness.js';

// A browser started from a POSIX environment (LANG=C) may report `en-US@posix` as its language (the
// npm Chromium does; Debian's reports `en-US`), a tag `Intl` refuses. The test sets that locale
// itself, so it tests the same thing with either browser: the home page still shows its figures.
it('the home page works in a browser whose language is en-US@posix (LANG=C)', {
  timeout: 60_000,
}, async () => {
  const sandbox = await testSandbox();
  const urls = await sandbox.listen();
  const acme = await createMerchant(sandbox, 'Acme Posix');
  const checkout = await sandbox.apps.test.inject({
    method: 'POST',
    url: '/v1/checkouts',
    headers: acme.auth,
    payload: {
      title: 'Beans',
      amount: 12_500_000,
      expires_at: new Date(sandbox.ctx.clock.now() + 86_400_000).toISOString(),
    },
  });
  const id = (checkout.json() as { id: string }).id;
  await sandbox.apps.test.inject({ method: 'POST', url: `/sandbox/checkouts/${id}/payments`, payload: {} });
  const binary = await findChromium();
  const browser = await chromium.launch({
    executablePath: binary.executablePath,
    env: { ...(binary.env ?? (process.env as Record<string, string>)), LANG: 'C', LC_ALL: 'C' },
    args: CHROMIUM_ARGS,
  });
  try {
    const context = await browser.newContext({ locale: 'en-US@posix' });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    expect(await page.evaluate(() => navigator.language)).toBe('en-US@posix');
    await page.goto(urls.dashboard);
    // the home page's figures: the balance the payment left
    await page.getByText('USDC').first().waitFor({ timeout: 20_000 });
    expect(await page.textContent('body')).toContain('Acme Posix');
    expect(errors).toEqual([]);
  } finally {
    await browser.close();
  }
});

// The same language as a browser context reports it: the dashboard normalises it (`en-US`) before
// the chart library loads, so both home charts draw.
it('draws both home charts in a browser context whose locale is en-US@posix', {
  timeout: 180_000,
}, async () => {
  const sandbox = await testSandbox({ dashboardDir: join(root, 'out/renderer') });
  const urls = await sandbox.listen();
  await buildDemo(sandbox);
  const binary = await findChromium();
  const browser = await chromium.launch({
    executablePath: binary.executablePath,
    ...(binary.env ? { env: binary.env } : {}),
    args: CHROMIUM_ARGS,
  });
  try {
    const context = await browser.newContext({
      locale: 'en-US@posix',
      viewport: { width: 1440, height: 900 },
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    expect(await page.evaluate(() => navigator.language)).toBe('en-US@posix');
    await page.goto(urls.dashboard);
    expect(await page.evaluate(() => navigator.language)).toBe('en-US');
    for (const chart of ['home-volume-chart', 'home-spend-chart'])
      await page.locator(`[data-testid="${chart}"] canvas`).waitFor({ timeout: 30_000 });
    expect(await page.textContent('body')).not.toContain('could not be shown');
    expect(errors).toEqual([]);
  } finally {
    await browser.close();
  }
});
