import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { createMerchant, inFuture, testSandbox } from '../helpers/sandbox.js';
import { CHROMIUM_ARGS, findChromium } from './browser.js';
import { root } from './harness.js';

// The security headers in real Chromium: the dashboard, /docs and the hosted pages work under their
// policies (no violation reported), and a foreign page (another 127.0.0.1 port: another origin) that
// frames them is refused, unless the workspace's settings name it for the hosted pages.

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/** A page on another origin that frames `url`. */
async function foreignPage(url: string): Promise<string> {
  const server = createServer((_req, res) => {
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end(`<!doctype html><title>Not the sandbox</title><iframe id="framed" src="${url}"></iframe>`);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

/** What the page reports: CSP violations (as the document sees them) and console errors. */
function watch(page: Page): { violations: string[]; errors: string[] } {
  const seen = { violations: [] as string[], errors: [] as string[] };
  page.on('console', (message) => {
    if (message.type() === 'error') seen.errors.push(message.text());
  });
  page.on('pageerror', (error) => seen.errors.push(error.message));
  return seen;
}

/** Records every securitypolicyviolation event, in every frame, from before the page's own scripts. */
const REPORT_VIOLATIONS = () => {
  const list: string[] = [];
  (window as unknown as { __violations: string[] }).__violations = list;
  document.addEventListener('securitypolicyviolation', (e) =>
    list.push(`${e.violatedDirective} ${e.blockedURI}`),
  );
};

async function setUp() {
  const sandbox = await testSandbox({ dashboardDir: `${root}/out/renderer` });
  const urls = await sandbox.listen();
  const actor = await createMerchant(sandbox);
  const made = await sandbox.apps.test.inject({
    method: 'POST',
    url: '/v1/checkouts',
    headers: actor.auth,
    payload: { title: 'Framed coffee', amount: 5_000_000, expires_at: inFuture(sandbox) },
  });
  const checkout = made.json() as { hosted_url: string };
  const holder = (
    await sandbox.apps.test.inject({
      method: 'POST',
      url: '/v1/cardholders',
      headers: actor.auth,
      payload: { name: 'Grace Hopper', email: 'grace@example.com' },
    })
  ).json() as { id: string };
  const kyc = (
    await sandbox.apps.test.inject({
      method: 'POST',
      url: `/v1/cardholders/${holder.id}/kyc`,
      headers: actor.auth,
    })
  ).json() as { url: string };
  const binary = await findChromium();
  const browser = await chromium.launch({
    executablePath: binary.executablePath,
    ...(binary.env ? { env: binary.env } : {}),
    args: CHROMIUM_ARGS,
  });
  const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 } });
  await context.addInitScript(REPORT_VIOLATIONS);
  return { sandbox, urls, hosted: checkout.hosted_url, kyc: kyc.url, browser, context };
}

describe('security headers in Chromium', () => {
  it('the dashboard, /docs and the hosted pages work under their policies, with no violation', {
    timeout: 120_000,
  }, async () => {
    const { urls, hosted, kyc, browser, context } = await setUp();
    try {
      const page = await context.newPage();
      const seen = watch(page);
      const violations = () =>
        page.evaluate(() => (window as unknown as { __violations: string[] }).__violations);

      await page.goto(urls.dashboard);
      await page.getByTestId('page-home').waitFor();
      await page.getByTestId('home-balances').waitFor();
      expect(await violations(), 'dashboard').toEqual([]);

      await page.goto(`${urls.test}/docs`);
      // Polled rather than waitFor: Playwright's visibility wait never settles on Swagger UI's page
      // here (with or without these headers), although the operations are on screen.
      await expect
        .poll(() => page.locator('.opblock-summary-path', { hasText: /^\/v1\/checkouts$/ }).count(), {
          timeout: 30_000,
        })
        .toBeGreaterThan(0);
      expect(await violations(), '/docs').toEqual([]);

      await page.goto(hosted);
      // The inline script ran (allowed by its hash): it fills the countdown.
      await page.getByTestId('countdown').filter({ hasText: /\d/ }).waitFor();
      expect(await violations(), 'hosted checkout').toEqual([]);

      await page.goto(`${hosted}/fiat`);
      await page.getByTestId('pay').waitFor();
      expect(await violations(), 'card page').toEqual([]);

      await page.goto(kyc);
      await page.getByTestId('approve').click();
      await page.locator('[data-testid="kyc-status"][data-status="approved"]').waitFor();
      expect(await violations(), 'KYC page').toEqual([]);

      expect(seen.errors.filter((e) => /Content Security Policy|Refused/i.test(e))).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('refuses a foreign page framing the dashboard or a hosted page, unless the settings name it', {
    timeout: 120_000,
  }, async () => {
    const { sandbox, urls, hosted, browser, context } = await setUp();
    try {
      const page = await context.newPage();
      const seen = watch(page);
      /** Whether the framed document is the sandbox's (readable only as a frame, not cross-origin). */
      const framedShows = async (testId: string) => {
        const frame = page.frames().find((f) => f !== page.mainFrame());
        if (!frame) return false;
        return (await frame.locator(`[data-testid="${testId}"]`).count()) > 0;
      };

      await page.goto(await foreignPage(urls.dashboard));
      await expect.poll(() => seen.errors.some((e) => /frame-ancestors/.test(e))).toBe(true);
      expect(await framedShows('page-home')).toBe(false);

      seen.errors.length = 0;
      await page.goto(await foreignPage(hosted));
      await expect.poll(() => seen.errors.some((e) => /frame-ancestors/.test(e))).toBe(true);
      expect(await framedShows('checkout')).toBe(false);

      // A shop that embeds its checkout: its origin named in the settings.
      const shop = await foreignPage(hosted);
      const patched = await sandbox.apps.test.inject({
        method: 'PATCH',
        url: '/sandbox/settings',
        payload: { hosted_pages_frame_ancestors: [new URL(shop).origin] },
      });
      expect(patched.statusCode).toBe(200);
      seen.errors.length = 0;
      await page.goto(shop);
      await expect.poll(() => framedShows('checkout'), { timeout: 15_000 }).toBe(true);
      expect(seen.errors.filter((e) => /frame-ancestors/.test(e))).toEqual([]);

      // The dashboard stays unframeable whatever that setting says.
      seen.errors.length = 0;
      await page.goto(await foreignPage(urls.dashboard));
      await expect.poll(() => seen.errors.some((e) => /frame-ancestors/.test(e))).toBe(true);
      expect(await framedShows('page-home')).toBe(false);
    } finally {
      await browser.close();
    }
  });
});
