/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../server/sandbox.js';
import { setupDashboard } from './harness.js';

// The dashboard stays true while scripts change the sandbox beside it: every change made from
// outside the browser (plain HTTP from this test, a hosted page in another tab) is on screen
// within a second, with no focus event to prompt a re-read.

const h = setupDashboard();
let page: Page;
let sandbox: Sandbox;
let dashboardUrl: string;
/** "Within 1 s" of the outside change having been answered. */
const LIVE = { timeout: 1000 };

beforeEach(async () => {
  ({ page, sandbox, dashboardUrl } = h);
  // Swallow focus events before the dashboard sees them: only the live stream may refresh it.
  await page.addInitScript(() => {
    window.addEventListener('focus', (event) => event.stopImmediatePropagation(), true);
    window.addEventListener('focus', (event) => event.stopImmediatePropagation());
  });
});

/** An HTTP call from outside the browser, as a script would make it. */
async function http(method: 'GET' | 'POST' | 'PATCH', path: string, body?: object, headers = {}) {
  const response = await fetch(`${sandbox.urls().test}${path}`, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

async function openAt(route: string) {
  await page.goto(`${dashboardUrl}#/${route}`);
  await page.getByTestId(`page-${route}`).waitFor();
}

const byTestId = (id: string) => page.getByTestId(id);

describe('the dashboard is live', () => {
  it('follows the clock frozen, advanced and resumed by a script', async () => {
    await openAt('clock');
    await byTestId('clock-state').filter({ hasText: 'Running' }).waitFor();

    await http('POST', '/sandbox/clock/freeze');
    await byTestId('clock-state').filter({ hasText: 'Frozen' }).waitFor(LIVE);

    await http('POST', '/sandbox/clock/advance', { seconds: 86400 });
    await byTestId('clock-offset').filter({ hasText: '+1 d' }).waitFor(LIVE);

    await http('POST', '/sandbox/clock/resume');
    await byTestId('clock-state').filter({ hasText: 'Running' }).waitFor(LIVE);
  });

  it('shows a merchant a script creates, on the merchant list and the developers page', async () => {
    await openAt('merchants');
    await byTestId('merchants-empty').waitFor();

    await http('POST', '/sandbox/merchants', { name: 'Scripted Ltd' });
    await byTestId('merchant-item').filter({ hasText: 'Scripted Ltd' }).waitFor(LIVE);

    await byTestId('nav-developers').click();
    await byTestId('stat-merchants').filter({ hasText: '1' }).waitFor();
    await http('POST', '/sandbox/merchants', { name: 'Second Ltd' });
    await byTestId('stat-merchants').filter({ hasText: '2' }).waitFor(LIVE);
  });

  it('after a scripted reset drops the old merchant, and acts for the new one', async () => {
    await http('POST', '/sandbox/merchants', { name: 'Before Reset' });
    await openAt('checkouts');
    await byTestId('scope-merchant')
      .locator('option', { hasText: 'Before Reset' })
      .waitFor({ state: 'attached' });

    await http('POST', '/sandbox/reset');
    await byTestId('scope-merchant')
      .locator('option', { hasText: 'Before Reset' })
      .waitFor({
        state: 'detached',
        ...LIVE,
      });

    const created = await http('POST', '/sandbox/merchants', { name: 'After Reset' });
    const merchantId = (created.merchant as { id: string }).id;
    await byTestId('scope-merchant')
      .locator('option', { hasText: 'After Reset' })
      .waitFor({
        state: 'attached',
        ...LIVE,
      });
    expect(await byTestId('scope-merchant').inputValue()).toBe(merchantId);

    // Creating a checkout now acts for the merchant that exists (not "Merchant not found").
    await byTestId('checkout-title-input').fill('After the reset');
    await byTestId('checkout-amount-input').fill('12.5');
    await byTestId('checkout-create-submit').click();
    await byTestId('checkout-row').filter({ hasText: 'After the reset' }).waitFor();
    expect(await byTestId('notice-error').allTextContents()).toEqual([]);
  });

  it('shows a KYC approval made on the hosted provider page in another tab', async () => {
    const created = await http('POST', '/sandbox/merchants', { name: 'Cards Co' });
    const auth = { authorization: `Bearer ${(created.api_key as { key: string }).key}` };
    const holder = await http('POST', '/v1/cardholders', { name: 'Kay Verified' }, auth);
    const kyc = await http('POST', `/v1/cardholders/${holder.id as string}/kyc`, undefined, auth);

    await openAt('cards');
    await byTestId('cardholder-item').filter({ hasText: 'Kay Verified' }).click();
    await byTestId('cardholder-kyc').waitFor();
    expect(await byTestId('cardholder-kyc').getAttribute('data-status')).not.toBe('approved');

    const provider = await page.context().newPage();
    await provider.goto(new URL(new URL(kyc.url as string).pathname, sandbox.urls().test).href);
    // The provider page's own Approve button (by its name: the page's markup is the page's business).
    const approved = provider.waitForResponse(
      (r) => r.url().endsWith(`/sandbox/cardholders/${holder.id as string}/kyc`) && r.ok(),
    );
    await provider
      .getByRole('button', { name: /approve/i })
      .first()
      .click();
    await approved;

    await page.locator('[data-testid="cardholder-kyc"][data-status="approved"]').waitFor(LIVE);
    expect(await byTestId('cardholder-kyc').textContent()).toBe('KYC approved');
    await provider.close();
  });
});
