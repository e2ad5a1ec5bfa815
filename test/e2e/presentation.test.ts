import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildDemo } from './demo.js';
import { call, dashboardUrl, networkQuiet, page, resultsDir, sandbox, setupDashboard } from './harness.js';

// Presentation mode on the demo workspace: no API key, signing secret, curl command, RSA key, id,
// workspace id, control-API path, local address or Authorization header on any page, no developer
// page or control, the switch remembered, the simulation controls still there; the presenter's
// stories.

setupDashboard();

const byTestId = (id: string) => page.getByTestId(id);

/** What a presenter must never show (each also shows outside presentation mode, so the scan can fail). */
const DEVELOPER_MATERIAL: [string, RegExp][] = [
  ['a raw id', /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i],
  ['an API key', /\bsvc[a-z]_/i],
  ['a signing secret', /whsec_/i],
  ['an RSA key', /BEGIN PUBLIC KEY|BEGIN RSA/i],
  ['a curl command', /\bcurl\b/i],
  ['a workspace id', /\bws_[A-Za-z0-9]{6,}/],
  ['a control-API path', /\/sandbox\//],
  ['a local address', /localhost|127\.0\.0\.1/i],
  ['an Authorization header', /\bBearer\b/],
  ['a developer control', /\b(?:Add|Edit) chaos\b/],
];

/** The first piece of developer material in the text, named, or undefined. */
function leak(text: string): string | undefined {
  for (const [what, pattern] of DEVELOPER_MATERIAL) {
    const match = pattern.exec(text);
    if (match) {
      const at = match.index;
      return `${what}: …${text.slice(Math.max(0, at - 60), at + 60).replace(/\s+/g, ' ')}…`;
    }
  }
  return undefined;
}

/** The hash routes the sidebar offers right now. */
const navRoutes = () =>
  page
    .locator('nav a[data-testid^="nav-"]')
    .evaluateAll((links) => links.map((a) => (a.getAttribute('href') ?? '').replace('#/', '')));

/** Everything a person reads on the page: its text and what the form fields hold. */
const shownText = () =>
  page.evaluate(() =>
    [
      document.body.innerText,
      ...Array.from(document.querySelectorAll('input, textarea, select')).map((el) =>
        el instanceof HTMLSelectElement
          ? (el.selectedOptions[0]?.textContent ?? '')
          : (el as HTMLInputElement).value,
      ),
    ].join('\n'),
  );

const settle = async () => {
  await page.waitForFunction(() => !document.querySelector('[data-testid="page-loading"]'));
  await networkQuiet(page); // the page's reads land and are drawn
};

async function settledText(route: string): Promise<string> {
  await page.goto(`${dashboardUrl}#/${route}`);
  await byTestId(`page-${route}`).waitFor();
  await settle();
  return shownText();
}

/**
 * Opens each of the page's rows or toggles (at most `limit`) in turn, as a presenter clicking
 * through would, and returns what each showed.
 */
async function openEach(testId: string, limit = 6): Promise<string[]> {
  const texts: string[] = [];
  const count = Math.min(await byTestId(testId).count(), limit);
  for (let i = 0; i < count; i++) {
    const target = byTestId(testId).nth(i);
    // A row opens its detail; a toggle (attempts, a message) opens in place.
    const toggle = target.locator('[data-testid="delivery-toggle"], button[aria-expanded]').first();
    await ((await toggle.count()) > 0 ? toggle : target).click();
    await settle();
    texts.push(await shownText());
  }
  return texts;
}

/** Every page and what opens from it: list rows, details, delivery attempts, inbox messages. */
async function walk(routes: string[]): Promise<Map<string, string>> {
  const seen = new Map<string, string>();
  for (const route of routes) {
    seen.set(`#/${route}`, await settledText(route));
    const opens: Record<string, string[]> = {
      checkouts: ['checkout-row'],
      invoices: ['invoice-row'],
      customers: ['customer-row'],
      cards: ['card-row', 'cardholder-item'],
      webhooks: ['delivery-row', 'inbox-message'],
      money: ['payout-row'],
    };
    for (const testId of opens[route] ?? []) {
      const texts = await openEach(testId);
      for (const [i, text] of texts.entries()) seen.set(`#/${route} ${testId} ${i + 1}`, text);
    }
  }
  return seen;
}

describe('presentation mode', () => {
  it('hides ids, keys, secrets, addresses, headers and developer controls on every page and detail, and is remembered', async () => {
    await buildDemo(sandbox);
    // The demo's webhooks deliver to the built-in inbox by its workspace address too (as the
    // Webhooks page makes it for another workspace), so a workspace id is there to hide.
    const [merchant] = await call<{ id: string }[]>(sandbox, 'GET', '/sandbox/merchants');
    const workspaceId = (
      await call<{ id: string }>(sandbox, 'POST', '/sandbox/workspaces', { name: 'Other' })
    ).id;
    await call(sandbox, 'POST', `/sandbox/merchants/${merchant!.id}/webhook-endpoints`, {
      url: `${sandbox.urls().test}/sandbox/inbox/dock?workspace=${workspaceId}`,
      events: ['checkout.paid'],
    });
    await page.goto(dashboardUrl);
    const everyRoute = await navRoutes();

    // Outside presentation mode the developer material is there (so the scan below can fail).
    const developer = [...(await walk(everyRoute)).values()].join('\n');
    for (const [what, pattern] of DEVELOPER_MATERIAL) expect(developer, what).toMatch(pattern);

    await byTestId('present-switch').check({ force: true });
    await page.reload();
    expect(await byTestId('present-switch').isChecked()).toBe(true);

    const routes = await navRoutes();
    for (const developerPage of ['developers', 'requests', 'scenarios', 'settings', 'events', 'faults'])
      expect(routes).not.toContain(developerPage);
    const presented = await walk(everyRoute);
    // Every list page opened something, so the details were scanned too.
    for (const opened of ['checkout-row 1', 'invoice-row 1', 'cardholder-item 1', 'delivery-row 1'])
      expect(
        [...presented.keys()].some((k) => k.endsWith(opened)),
        opened,
      ).toBe(true);
    const leaks = [...presented].flatMap(([where, text]) => {
      const found = leak(text);
      return found ? [`${where}: ${found}`] : [];
    });
    expect(leaks).toEqual([]);

    // A developer page opened by its address says what it is instead.
    await settledText('developers');
    await byTestId('page-hidden').waitFor();

    // The simulation controls stay: the checkout detail still plays the payer and the chain.
    await page.goto(`${dashboardUrl}#/checkouts`);
    await byTestId('checkout-row').first().click();
    await expect
      .poll(() => page.locator('main button:not([disabled])').count(), { timeout: 5_000 })
      .toBeGreaterThan(3);

    await byTestId('present-switch').uncheck({ force: true });
    await page.reload();
    expect(await byTestId('present-switch').isChecked()).toBe(false);
  }, 300_000);

  it('plays a story step by step with captions, pausable, through the control API', async () => {
    /** Waits for this story (not the one before, whose caption says done too) to end, and not refused. */
    const storyEnded = async (id: string) => {
      const caption = page.locator(`[data-testid="story-caption"][data-story="${id}"]`);
      await caption
        .and(page.locator('[data-done="true"], [data-failed="true"]'))
        .waitFor({ timeout: 30_000 });
      expect(await caption.getAttribute('data-failed'), (await caption.textContent()) ?? '').toBe('false');
    };
    const playStory = async (id: string) => {
      await byTestId(`story-${id}`).click();
      await storyEnded(id);
    };
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
    await storyEnded('part');

    // It happened for real: half paid, then the window closed.
    const activity = byTestId('home-activity-item');
    await activity.filter({ hasText: 'Paid in part' }).filter({ hasText: '60.00 USDC' }).first().waitFor();

    await playStory('pays');
    await activity
      .filter({ hasText: 'Payment settled' })
      .filter({ hasText: '120.00 USDC' })
      .first()
      .waitFor();

    await playStory('declined');
    await activity.filter({ hasText: 'Card payment declined' }).first().waitFor();

    await playStory('refund');
    await activity.filter({ hasText: 'Refund sent' }).filter({ hasText: '60.00 USDC' }).first().waitFor();

    await byTestId('story-close').click();
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(resultsDir, 'home-presenting-1440.png') });
  }, 180_000);
});
