/// <reference lib="dom" />
import { describe, expect, it } from 'vitest';
import { call, setupDashboard } from './harness.js';

// The dashboard plays the outside world's chaos: a transfer after a checkout closed (and marks the
// transfers a checkout did not count), a burst of deposits, an authorization with an expected
// settlement that a reversal pre-empts; in real Chromium.

const h = setupDashboard();
const byTestId = (id: string) => h.page.getByTestId(id);
const el = (selector: string) => h.page.locator(selector);

interface Created {
  merchant: { id: string };
  api_key: { key: string };
}

describe('outside-world chaos on the dashboard', () => {
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

  it('authorizes with a settlement expected by itself; a reversal first means it never comes', async () => {
    const shop = await call<Created>(h.sandbox, 'POST', '/sandbox/merchants', { name: 'Hotel Shop' });
    const key = shop.api_key.key;
    await call(h.sandbox, 'POST', `/sandbox/merchants/${shop.merchant.id}/credit`, {
      currency: 'USDC',
      amount: 100_000_000,
    });
    const holder = await call<{ id: string }>(
      h.sandbox,
      'POST',
      '/v1/cardholders',
      { name: 'Jane Doe' },
      key,
    );
    await call(h.sandbox, 'POST', `/sandbox/cardholders/${holder.id}/kyc`, { result: 'approved' });
    const catalogue = '6f1c2a8e-3b4d-4c5e-9f60-7a8b9c0d1e21';
    await call(
      h.sandbox,
      'POST',
      `/v1/cardholders/${holder.id}/cards/apply`,
      {
        catalogue,
        account_purpose: 'travel',
        occupation: 'engineer',
        annual_salary: '50000_100000',
        expected_monthly_volume: '1000_5000',
      },
      key,
    );
    const funded = await h.sandbox.apps.test.inject({
      method: 'POST',
      url: `/v1/cardholders/${holder.id}/fund`,
      headers: { authorization: `Bearer ${key}` },
      payload: { amount: 50_000_000, currency: 'USDC' },
    });
    expect(funded.statusCode).toBe(204);
    const card = await call<{ id: string }>(
      h.sandbox,
      'POST',
      `/v1/cardholders/${holder.id}/cards`,
      { catalogue, type: 'virtual' },
      key,
    );

    await h.page.goto(`${h.dashboardUrl}#/cards`);
    await byTestId('scope-merchant').selectOption(shop.merchant.id);
    await el(`[data-testid="cardholder-item"][data-cardholder-id="${holder.id}"]`).click();
    await el(`[data-testid="card-row"][data-card-id="${card.id}"] .card-tile-main`).click();
    await byTestId('authorize-amount-input').fill('20');
    await byTestId('authorize-merchant-input').fill('Grand Hotel');
    await byTestId('authorize-settle-select').selectOption('86400');
    await byTestId('authorize-submit').click();
    const tx = el('[data-testid="tx-row"][data-status="requested"]');
    await tx.waitFor();
    await tx.getByTestId('tx-reverse').click();
    await el('[data-testid="tx-row"][data-status="reversed"]').waitFor();

    await byTestId('authorize-amount-input').fill('5');
    await byTestId('authorize-settle-select').selectOption('3600');
    await byTestId('authorize-submit').click();
    await el('[data-testid="tx-row"][data-status="requested"]').waitFor();
    await call(h.sandbox, 'POST', '/sandbox/clock/advance', { seconds: 2 * 86_400 });
    // The second settles by itself on the clock, live on the page; the reversed one stays reversed.
    await el('[data-testid="tx-row"][data-status="completed"]').waitFor();
    const rows = await call<{ amount: number; status: string }[]>(
      h.sandbox,
      'GET',
      `/sandbox/cards/${card.id}/transactions`,
    );
    expect(rows.map((r) => [r.amount, r.status])).toEqual([
      [-5_000_000, 'completed'],
      [-20_000_000, 'reversed'],
    ]);
  });
});
