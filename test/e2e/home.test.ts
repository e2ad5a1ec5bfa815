import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildDemo } from './demo.js';
import { dashboardUrl, page, resultsDir, sandbox, setupDashboard } from './harness.js';

// The home page on the demo workspace (what `serve --demo` builds): money, charts with data, the
// checkouts by status, webhook health and a feed that reads the history.

setupDashboard();

const byTestId = (id: string) => page.getByTestId(id);

describe('home page', () => {
  it('opens at / on the merchant with balances, charts with data and the history', async () => {
    await buildDemo(sandbox);
    await page.goto(dashboardUrl);

    await byTestId('page-home').waitFor();
    // Balances per currency, each with its code (read once they are on screen: the page is
    // there before its figures, and allTextContents does not wait).
    await byTestId('home-balance').first().waitFor();
    const balances = await byTestId('home-balance').allTextContents();
    expect(balances.length).toBeGreaterThan(0);
    for (const text of balances) expect(text).toMatch(/^[\d,]+\.\d{2,6} [A-Z]{3,5}$/);
    expect(await byTestId('home-received-value').first().textContent()).toMatch(/[1-9][\d,]*\.\d+ USD[CT]/);

    // The charts draw (uPlot: a canvas) once their chunk arrives.
    for (const chart of ['home-volume-chart', 'home-spend-chart']) {
      const canvas = byTestId(chart).locator('canvas');
      await canvas.first().waitFor();
      const box = await canvas.first().boundingBox();
      expect(box?.width ?? 0).toBeGreaterThan(200);
    }

    // Checkouts by status: counts that add up to the list's.
    await byTestId('home-status').locator('.status-bar-count').first().waitFor();
    const counts = await byTestId('home-status').locator('.status-bar-count').allTextContents();
    const sum = counts.reduce((total, n) => total + Number(n), 0);
    expect(await byTestId('home-statuses').textContent()).toContain(`${sum} checkouts in all`);
    expect(counts.length).toBeGreaterThan(2);

    expect(await byTestId('home-webhook-rate').textContent()).toMatch(/^\d+%$/);

    // The feed is the recorded log (the demo ran before the page opened), and reads further back.
    const items = byTestId('home-activity-item');
    const first = await items.count();
    expect(first).toBeGreaterThan(5);
    await byTestId('home-activity-more').click();
    await expect.poll(() => items.count()).toBeGreaterThan(first);

    await page.screenshot({ path: join(resultsDir, 'home-1440.png'), fullPage: true });
  }, 120_000);
});
