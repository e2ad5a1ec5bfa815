/// <reference lib="dom" />
import { describe, expect, it } from 'vitest';
import { startGradedReceiver } from '../helpers/graded-receivers.js';
import { call, setupDashboard } from './harness.js';

// The dashboard's two parts of testing the integration, in real Chromium: "Check my receiver" on
// the Webhooks page grading a real receiver, and the Coverage page with unreached moves highlighted.

const h = setupDashboard();
const byTestId = (id: string) => h.page.getByTestId(id);
const SECRET = 'whsec_0123456789abcdefABCDEF';

async function merchant() {
  return call<{ merchant: { id: string }; api_key: { key: string } }>(
    h.sandbox,
    'POST',
    '/sandbox/merchants',
    {
      name: 'Graded Co',
    },
  );
}

describe('testing the integration in the dashboard', () => {
  it('checks a receiver from the Webhooks page and shows the scorecard', async () => {
    const created = await merchant();
    const receiver = await startGradedReceiver('reserializing', SECRET);
    await h.page.goto(h.dashboardUrl);
    await byTestId('nav-webhooks').click();
    await byTestId('scope-merchant').selectOption(created.merchant.id);

    await byTestId('receiver-check-url').fill(receiver.url);
    await byTestId('receiver-check-secret').fill(SECRET);
    await byTestId('receiver-check-run').click();
    await byTestId('receiver-check-result').waitFor();
    await expect.poll(() => byTestId('receiver-check-summary').textContent()).toMatch(/\d+ passed, 1 failed/);
    const raw = h.page.locator('[data-testid="receiver-check-case"][data-name="raw body bytes"]');
    expect(await raw.getAttribute('data-ok')).toBe('false');
    expect(await raw.textContent()).toContain('re-serialized JSON');
    const signed = h.page.locator('[data-testid="receiver-check-case"][data-name="signed checkout.paid"]');
    expect(await signed.getAttribute('data-ok')).toBe('true');
  });

  it('shows each machine on the Coverage page, a paid checkout reached and the rest highlighted', async () => {
    const created = await merchant();
    const checkout = await call<{ id: string }>(
      h.sandbox,
      'POST',
      '/v1/checkouts',
      { title: 'Covered', amount: 1_000_000, expires_at: new Date(Date.now() + 3600_000).toISOString() },
      created.api_key.key,
    );
    await call(h.sandbox, 'POST', `/sandbox/checkouts/${checkout.id}/payments`, {});
    await h.page.goto(h.dashboardUrl);
    await byTestId('nav-coverage').click();
    const paid = h.page.locator(
      'table[data-machine="checkout"] [data-testid="coverage-transition"][data-from="active"][data-to="paid"]',
    );
    await paid.waitFor();
    expect(await paid.getAttribute('data-reached')).toBe('true');
    const cancelled = h.page.locator(
      'table[data-machine="checkout"] [data-testid="coverage-transition"][data-from="active"][data-to="cancelled"]',
    );
    expect(await cancelled.getAttribute('data-reached')).toBe('false');
    expect(await cancelled.getAttribute('class')).toContain('coverage-unreached');
    expect(await byTestId('coverage-machine').count()).toBeGreaterThanOrEqual(8);
    const event = h.page.locator('[data-testid="coverage-event"][data-type="checkout.paid"]');
    expect(await event.getAttribute('data-reached')).toBe('true');

    // A new move arrives over the live stream: the page reads the counts again.
    await call(h.sandbox, 'POST', `/sandbox/checkouts/${checkout.id}/complete`, {});
    const completed = h.page.locator(
      'table[data-machine="checkout"] [data-testid="coverage-transition"][data-from="paid"][data-to="completed"]',
    );
    await expect.poll(() => completed.getAttribute('data-reached'), { timeout: 10_000 }).toBe('true');
  });
});
