/// <reference lib="dom" />
import { describe, expect, it } from 'vitest';
import { call, setupDashboard } from './harness.js';

// The checkout page plays a transfer after the checkout closed, and marks transfers the checkout
// did not count (late, or on a chain it does not offer), in real Chromium.

const h = setupDashboard();
const byTestId = (id: string) => h.page.getByTestId(id);
const el = (selector: string) => h.page.locator(selector);

interface Created {
  merchant: { id: string };
  api_key: { key: string };
}

describe('outside-world chaos on the checkout page', () => {
  it('sends a late transfer to an expired checkout and marks it, and an unsupported-chain one', async () => {
    const shop = await call<Created>(h.sandbox, 'POST', '/sandbox/merchants', { name: 'Late Shop' });
    const checkout = await call<{ id: string }>(
      h.sandbox,
      'POST',
      '/v1/checkouts',
      {
        title: 'Order #4001',
        amount: 25_000_000,
        chains: ['ethereum'],
        expires_at: new Date(h.sandbox.ctx.clock.now() + 3600_000).toISOString(),
      },
      shop.api_key.key,
    );
    await call(h.sandbox, 'POST', `/sandbox/checkouts/${checkout.id}/payments`, {
      chain: 'bsc',
      token: 'USDT',
      amount: 5_000_000,
      unsupported_chain: true,
    });

    await h.page.goto(`${h.dashboardUrl}#/checkouts`);
    await byTestId('scope-merchant').selectOption(shop.merchant.id);
    await el(`[data-testid="checkout-row"][data-checkout-id="${checkout.id}"]`).click();
    await el('[data-testid="checkout-status"][data-status="active"]').waitFor();
    // Only a closed checkout offers a late transfer.
    expect(await byTestId('checkout-pay-late').count()).toBe(0);
    expect(await byTestId('payment-uncounted').textContent()).toBe('unsupported chain');

    await byTestId('checkout-expire').click();
    await el('[data-testid="checkout-status"][data-status="expired"]').waitFor();
    await byTestId('checkout-pay-amount').fill('7');
    await byTestId('checkout-pay-late').click();
    await expect
      .poll(() => byTestId('payment-uncounted').allTextContents())
      .toEqual(['unsupported chain', 'late']);
    await el('[data-testid="checkout-status"][data-status="expired"]').waitFor();

    const view = await call<{ received_amount: number; payments: { outcome: string; amount: number }[] }>(
      h.sandbox,
      'GET',
      `/sandbox/checkouts/${checkout.id}`,
    );
    expect(view.received_amount).toBe(0);
    expect(view.payments.map((p) => [p.outcome, p.amount])).toEqual([
      ['unsupported_chain', 5_000_000],
      ['late', 7_000_000],
    ]);
  });

  it('sends a burst of transfers to a static address from the money page', async () => {
    const shop = await call<Created>(h.sandbox, 'POST', '/sandbox/merchants', { name: 'Burst Shop' });
    await h.page.goto(`${h.dashboardUrl}#/money`);
    await byTestId('scope-merchant').selectOption(shop.merchant.id);
    const tron = el('[data-testid="static-address"][data-chain="tron"]');
    await tron.waitFor();
    await tron.getByTestId('address-send').click();
    await tron.getByTestId('address-send-currency').selectOption('USDT');
    await tron.getByTestId('address-send-amount').fill('2');
    await tron.getByTestId('address-send-count').fill('0');
    expect(await tron.getByTestId('address-send-submit').isDisabled()).toBe(true);
    await tron.getByTestId('address-send-count').fill('12');
    await tron.getByTestId('address-send-submit').click();
    await el(
      '[data-testid="balance"][data-currency="USDT"] [data-testid="balance-available"][data-amount="24000000"]',
    ).waitFor();
    const deposits = await call<{ txid: string }[]>(
      h.sandbox,
      'GET',
      `/sandbox/merchants/${shop.merchant.id}/deposits`,
    );
    expect(new Set(deposits.map((d) => d.txid)).size).toBe(12);
    const received = await call<{ type: string }[]>(
      h.sandbox,
      'GET',
      `/sandbox/merchants/${shop.merchant.id}/events?type=deposit.received`,
    );
    expect(received).toHaveLength(12);
  });
});
