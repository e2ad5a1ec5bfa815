/// <reference lib="dom" />
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { testSandbox } from '../helpers/sandbox.js';
import { bundledChromium, CHROMIUM_ARGS } from './browser.js';

/**
 * A machine with no system Chromium still runs the browser tests: the Chromium inside the
 * `@sparticuz/chromium` npm package, unpacked with its libraries and fonts, drives the dashboard.
 * (The system one is hidden here by asking for the bundled one directly.)
 */
describe('the bundled Chromium (no system browser needed)', () => {
  it('renders the dashboard and runs its script', { timeout: 120_000 }, async () => {
    const binary = await bundledChromium();
    expect(binary.source).toBe('bundled');
    expect(binary.executablePath).not.toBe('/usr/bin/chromium');
    const sandbox = await testSandbox();
    const { dashboard } = await sandbox.listen();
    const browser = await chromium.launch({
      executablePath: binary.executablePath,
      ...(binary.env ? { env: binary.env } : {}),
      args: CHROMIUM_ARGS,
    });
    try {
      expect(browser.version()).toMatch(/^\d+\./);
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(dashboard);
      // The dashboard's script ran and read the server: the sidebar lists the pages.
      await page.getByTestId('nav-merchants').waitFor();
      const text = await page.evaluate(() => document.body.innerText);
      expect(text).toContain('Merchants');
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('points its fonts at this checkout even when the unpacked copy came from another path', async () => {
    const conf = join(dirname((await bundledChromium()).executablePath), 'fonts', 'fonts.conf');
    const good = readFileSync(conf, 'utf8');
    // As if unpacked by a checkout that has since moved away (node_modules shared or copied).
    writeFileSync(conf, good.replaceAll(dirname(dirname(conf)), '/gone/checkout'));
    await bundledChromium();
    expect(readFileSync(conf, 'utf8')).toBe(good);
  });
});
