import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildDemo } from './demo.js';
import { dashboardUrl, page, resultsDir, sandbox, setupDashboard } from './harness.js';

// Presentation mode on the demo workspace: no API key, signing secret, curl command or RSA key on
// any page, the switch remembered, the simulation controls still there; the presenter's stories.

setupDashboard();

const byTestId = (id: string) => page.getByTestId(id);
const DEVELOPER_MATERIAL = /svcb_|whsec_|BEGIN PUBLIC KEY|curl/i;

/** The hash routes the sidebar offers right now. */
const navRoutes = () =>
  page
    .locator('nav a[data-testid^="nav-"]')
    .evaluateAll((links) => links.map((a) => (a.getAttribute('href') ?? '').replace('#/', '')));

async function settledText(route: string): Promise<string> {
  await page.goto(`${dashboardUrl}#/${route}`);
  await byTestId(`page-${route}`).waitFor();
  await page.waitForFunction(() => !document.querySelector('[data-testid="page-loading"]'));
  await page.waitForTimeout(400); // the page's reads land
  return page.evaluate(() => document.body.innerText);
}

describe('presentation mode', () => {
  it('hides keys, secrets, curl commands and RSA keys on every page, and is remembered', async () => {
    await buildDemo(sandbox);
    await page.goto(dashboardUrl);
    const everyRoute = await navRoutes();

    // Outside presentation mode the developer material is there (so the scan below can fail).
    const seen = [
      await settledText('merchants'),
      await settledText('webhooks'),
      await settledText('cards'),
      await settledText('developers'),
    ].join('\n');
    for (const needle of ['svcb_', 'whsec_', 'BEGIN PUBLIC KEY', 'curl']) expect(seen).toContain(needle);

    await byTestId('present-switch').check({ force: true });
    await page.reload();
    expect(await byTestId('present-switch').isChecked()).toBe(true);

    const routes = await navRoutes();
    expect(routes).not.toContain('developers');
    expect(routes).not.toContain('requests');
    for (const route of everyRoute) {
      const text = await settledText(route);
      expect(text.match(DEVELOPER_MATERIAL)?.[0], `#/${route}`).toBeUndefined();
    }
    // A developer page opened by its address says what it is instead.
    await settledText('developers');
    await byTestId('page-hidden').waitFor();

    // The simulation controls stay: the checkout detail still plays the payer and the chain.
    await page.goto(`${dashboardUrl}#/checkouts`);
    await byTestId('checkout-row').first().click();
    expect(await page.locator('main button:not([disabled])').count()).toBeGreaterThan(3);

    await byTestId('present-switch').uncheck({ force: true });
    await page.reload();
    expect(await byTestId('present-switch').isChecked()).toBe(false);
  }, 180_000);

  it('plays a story step by step with captions, pausable, through the control API', async () => {
    await buildDemo(sandbox);
    await page.addInitScript(() => localStorage.setItem('svc-sandbox.presenting', '1'));
    await page.goto(dashboardUrl);
    await byTestId('home-balances').waitFor();
    await byTestId('story-pace').selectOption('fast');

    await byTestId('story-part').click();
    const caption = byTestId('story-caption');
    await caption.filter({ hasText: 'Team lunch' }).waitFor();
    await byTestId('story-pause').click();
    const pausedAt = await caption.getAttribute('data-step');
    await page.waitForTimeout(1500);
    expect(await caption.getAttribute('data-step')).toBe(pausedAt);
    await byTestId('story-pause').click(); // resume
    await page.locator('[data-testid="story-caption"][data-done="true"]').waitFor({ timeout: 30_000 });

    // It happened for real: half paid, then the window closed.
    const activity = byTestId('home-activity-item');
    await activity.filter({ hasText: 'Paid in part' }).filter({ hasText: '60.00 USDC' }).first().waitFor();

    await byTestId('story-pays').click();
    await page.locator('[data-testid="story-caption"][data-done="true"]').waitFor({ timeout: 30_000 });
    await activity
      .filter({ hasText: 'Payment settled' })
      .filter({ hasText: '120.00 USDC' })
      .first()
      .waitFor();

    await byTestId('story-declined').click();
    await page.locator('[data-testid="story-caption"][data-done="true"]').waitFor({ timeout: 30_000 });
    await activity.filter({ hasText: 'Card payment declined' }).first().waitFor();

    await byTestId('story-refund').click();
    await page.locator('[data-testid="story-caption"][data-done="true"]').waitFor({ timeout: 30_000 });
    await activity.filter({ hasText: 'Refund sent' }).filter({ hasText: '60.00 USDC' }).first().waitFor();

    await byTestId('story-close').click();
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(resultsDir, 'home-presenting-1440.png') });
  }, 180_000);
});
