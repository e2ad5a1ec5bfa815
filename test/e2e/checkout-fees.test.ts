/// <reference lib="dom" />
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, dismissNotices, resultsDir, setupDashboard } from './harness.js';

// The checkout detail shows a checkout's fees from the moment its payment is detected, the same
// figures the API and the webhook events carry, and the same ones again once it settles.

const h = setupDashboard();
const byTestId = (id: string) => h.page.getByTestId(id);
const el = (selector: string) => h.page.locator(selector);

interface Created {
  merchant: { id: string };
  api_key: { key: string };
}
interface Checkout {
  id: string;
  status: string;
  platform_fee: number;
  reseller_fee: number;
  platform_gas_fee: number;
}

describe('checkout fees on the dashboard', () => {
  it('shows the fees from paid on, unchanged at completed', async () => {
    const shop = await call<Created>(h.sandbox, 'POST', '/sandbox/merchants', { name: 'Shop Ltd' });
    const reseller = await call<Created>(h.sandbox, 'POST', '/sandbox/merchants', { name: 'Reseller Co' });
    const patched = await h.sandbox.apps.test.inject({
      method: 'PATCH',
      url: `/sandbox/merchants/${shop.merchant.id}`,
      payload: { platform_rate: 150 },
    });
    expect(patched.statusCode).toBe(200);
    await call(
      h.sandbox,
      'POST',
      '/v1/reseller/connections',
      { merchant_id: shop.merchant.id, rate: 500 },
      reseller.api_key.key,
    );
    const checkout = await call<Checkout>(
      h.sandbox,
      'POST',
      '/v1/checkouts',
      {
        title: 'Order #3001',
        amount: 20_000_000,
        chains: ['polygon'],
        merchant_id: shop.merchant.id,
        expires_at: new Date(h.sandbox.ctx.clock.now() + 3600_000).toISOString(),
      },
      reseller.api_key.key,
    );

    await h.page.goto(`${h.dashboardUrl}#/checkouts`);
    await byTestId('scope-merchant').selectOption(shop.merchant.id);
    await el(`[data-testid="checkout-row"][data-checkout-id="${checkout.id}"]`).click();
    await el('[data-testid="checkout-status"][data-status="active"]').waitFor();
    expect(await byTestId('checkout-fees').textContent()).toBe('0.00 USDC');
    expect(await byTestId('checkout-fee-breakdown').count()).toBe(0);

    // Paid from the page: platform 20 × 1.5 % = 0.30, reseller 20 × 5 % − 0.30 = 0.70, polygon gas 0.01.
    await byTestId('checkout-pay-full').click();
    await el('[data-testid="checkout-status"][data-status="paid"]').waitFor();
    const atPaid = await call<Checkout>(
      h.sandbox,
      'GET',
      `/v1/checkouts/${checkout.id}`,
      undefined,
      shop.api_key.key,
    );
    expect(atPaid).toMatchObject({
      status: 'paid',
      platform_fee: 300_000,
      reseller_fee: 700_000,
      platform_gas_fee: 10_000,
    });
    await expect.poll(() => byTestId('checkout-fees').textContent()).toBe('1.01 USDC');
    expect(await byTestId('checkout-fee-breakdown').textContent()).toBe(
      'platform 0.30 · reseller 0.70 · gas 0.01',
    );

    await byTestId('checkout-complete').click();
    await el('[data-testid="checkout-status"][data-status="completed"]').waitFor();
    expect(await byTestId('checkout-fees').textContent()).toBe('1.01 USDC');
    expect(await byTestId('checkout-fee-breakdown').textContent()).toBe(
      'platform 0.30 · reseller 0.70 · gas 0.01',
    );
    const completed = await call<{ type: string; resource_id: string; data: Record<string, unknown> }[]>(
      h.sandbox,
      'GET',
      `/sandbox/merchants/${shop.merchant.id}/events?env=test`,
    );
    expect(
      completed.find((e) => e.type === 'checkout.completed' && e.resource_id === checkout.id)?.data,
    ).toMatchObject({
      platform_fee: 300_000,
      reseller_fee: 700_000,
    });
    await dismissNotices(h.page);
    await h.page.screenshot({ path: join(resultsDir, 'checkout-fees.png') });
  });
});
