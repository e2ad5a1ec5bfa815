/// <reference lib="dom" />
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: scenario references (${shop.id}) are literal text here
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resultsDir, setupDashboard } from './harness.js';

// The Scenarios page at a desktop (1440 × 900) and a phone (390 × 844): the recording card with its
// expectation picker, and the runner with long failures (an array mismatch, a value with no space to
// break at). Nothing widens the page; a long failure shows a summary, its full diff one click away.

const h = setupDashboard();
const byTestId = (id: string) => h.page.getByTestId(id);
const el = (selector: string) => h.page.locator(selector);

const VIEWPORTS = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
] as const;

/** How far the page scrolls sideways (0: not at all), and the widest element's right edge. */
const overflow = () =>
  h.page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    let widest = '';
    let right = 0;
    for (const node of Array.from(document.querySelectorAll('main *'))) {
      const r = node.getBoundingClientRect();
      if (r.width > 0 && r.right > right) {
        right = r.right;
        widest = `${node.tagName.toLowerCase()}.${node.className}`;
      }
    }
    return {
      sideways: document.documentElement.scrollWidth - width,
      beyond: right > width + 1 ? `${widest} ends at ${Math.round(right)} > ${width}` : '',
    };
  });

async function send(method: string, url: string, payload?: object, key?: string) {
  const res = await h.sandbox.apps.test.inject({
    method: method as 'POST',
    url,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}) },
    ...(payload ? { payload } : {}),
  });
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res.json() as Record<string, unknown>;
}

describe('scenarios page layout', () => {
  it('keeps the recording card in the viewport and names objects in the picker as the pages do', async () => {
    const { page } = h;
    page.setDefaultTimeout(8000);
    await send('POST', '/sandbox/recording/start', {
      name: 'a QA reproduction with a rather long name: partial payments racing the expiry on Polygon',
    });
    const created = await send('POST', '/sandbox/merchants', { name: 'Roastery', kyb_status: 'approved' });
    const key = (created.api_key as { key: string }).key;
    const inAnHour = new Date(Date.parse(String((await send('GET', '/sandbox/clock')).now)) + 3600_000);
    const co = await send(
      'POST',
      '/v1/checkouts',
      { title: 'Espresso beans', amount: 12_500_000, currency: 'USDC', expires_at: inAnHour.toISOString() },
      key,
    );
    await send('POST', `/sandbox/checkouts/${co.id}/payments`, { amount: 2_500_000 });
    await send('POST', '/v1/cardholders', { name: 'Ann Lee', email: 'ann@example.com' }, key);

    await page.goto(h.dashboardUrl);
    await byTestId('nav-scenarios').click();
    await byTestId('expectation-form').waitFor();
    await expect
      .poll(() => byTestId('expect-resource').locator('option').allTextContents(), { timeout: 5_000 })
      .toEqual(['Checkout · Espresso beans · 12.50 USDC', 'Cardholder · Ann Lee']);
    await byTestId('expect-resource').selectOption(`/v1/checkouts/${co.id}`);
    await byTestId('expect-add').click();
    await el('[data-testid="expect-last"]:has-text("status: active")').waitFor();

    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await byTestId('recording-indicator').waitFor();
      expect(await overflow(), `${viewport.width} px`).toEqual({ sideways: 0, beyond: '' });
      // The banner fits the screen too, its long name cut.
      const banner = await byTestId('recording-indicator').boundingBox();
      expect(banner!.x).toBeGreaterThanOrEqual(0);
      expect(banner!.x + banner!.width).toBeLessThanOrEqual(viewport.width);
      await page.screenshot({
        path: join(resultsDir, `scenarios-recording-${viewport.width}.png`),
        fullPage: true,
      });
    }
  }, 60_000);

  it('wraps and cuts long failures, with the full diff one click away, at desktop and phone widths', async () => {
    const { page } = h;
    page.setDefaultTimeout(8000);
    await page.goto(h.dashboardUrl);
    await byTestId('nav-scenarios').click();
    const unbroken = 'x'.repeat(400);
    const scenario = [
      'name: long failures',
      'steps:',
      '  - merchant: shop',
      '    body: { name: Long Failure Shop }',
      // An array mismatch: the settings list every chain, the file says none.
      '  - expect: { get: /sandbox/settings, body: { chains: [] } }',
      // A value with no space to break at.
      `  - expect: { get: "/sandbox/merchants/\${shop.id}", body: { name: ${unbroken} } }`,
      '',
    ].join('\n');
    await byTestId('scenario-text').fill(scenario);
    await byTestId('scenario-run').click();
    await el('[data-testid="scenario-result"][data-ok="false"]').waitFor();

    const arrayStep = byTestId('scenario-step-2');
    const summary = (await arrayStep.locator('.scenario-step-summary').textContent())!;
    expect(summary).toMatch(/^GET \/sandbox\/settings: body\.chains: expected 0 items, actual \d+: /);
    // A summary of two lines at most, the rest behind "Full message", closed.
    expect(summary.length).toBeLessThanOrEqual(181);
    expect(summary.endsWith('…')).toBe(true);
    const details = arrayStep.getByTestId('scenario-step-details');
    expect(await details.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    expect(await arrayStep.getByTestId('scenario-diff-actual').isVisible()).toBe(false);
    const stepHeight = (await arrayStep.boundingBox())!.height;
    expect(stepHeight).toBeLessThan(120);

    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      expect(await overflow(), `${viewport.width} px, closed`).toEqual({ sideways: 0, beyond: '' });
      await page.screenshot({
        path: join(resultsDir, `scenarios-failure-${viewport.width}.png`),
        fullPage: true,
      });
    }

    // One click: the full diff, the actual list of chains, still inside the page.
    await details.locator('summary').click();
    const actual = arrayStep.getByTestId('scenario-diff-actual');
    await actual.waitFor();
    expect(await actual.textContent()).toContain('"chain":');
    await byTestId('scenario-step-3').getByTestId('scenario-step-details').locator('summary').click();
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      expect(await overflow(), `${viewport.width} px, open`).toEqual({ sideways: 0, beyond: '' });
      await page.screenshot({
        path: join(resultsDir, `scenarios-failure-open-${viewport.width}.png`),
        fullPage: true,
      });
    }
  }, 60_000);
});
