/// <reference lib="dom" />
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, dismissNotices, resultsDir, setupDashboard } from './harness.js';

// The Resellers page end to end: a reseller connects to a merchant, sells for it, earns its fee;
// the merchant sees and revokes the connection; provisioning on production. Each step done in the
// page is checked against what the server holds.

const h = setupDashboard();
const byTestId = (id: string) => h.page.getByTestId(id);
/** `[data-testid=a][data-x=y] …`: an element in a given state, waited for without sleeping. */
const el = (selector: string) => h.page.locator(selector);

interface Created {
  merchant: { id: string };
}
interface Connection {
  id: string;
  reseller_id: string;
  merchant_id: string;
  status: string;
  rate: number;
  min_fee: number | null;
  max_fee: number | null;
}
interface Income {
  currency: string;
  earned: number;
  pending: number;
}

const newMerchant = async (name: string) =>
  (await call<Created>(h.sandbox, 'POST', '/sandbox/merchants', { name })).merchant.id;
const connections = (merchantId: string, env = 'test') =>
  call<{ outgoing: Connection[]; incoming: Connection[] }>(
    h.sandbox,
    'GET',
    `/sandbox/merchants/${merchantId}/reseller-connections?env=${env}`,
  );
const income = (merchantId: string) =>
  call<Income[]>(h.sandbox, 'GET', `/sandbox/merchants/${merchantId}/reseller-income?env=test`);
/** Picks the scope's merchant in the page header (the page shows only that merchant's data). */
const pickMerchant = (merchantId: string) => byTestId('scope-merchant').selectOption(merchantId);

describe('resellers page', () => {
  it('connects, sells on behalf, earns the fee after the hold; the merchant revokes', async () => {
    const { page } = h;
    const resellerId = await newMerchant('Reseller Co');
    const shopId = await newMerchant('Shop Ltd');

    await page.goto(h.dashboardUrl);
    await byTestId('nav-resellers').click();
    await pickMerchant(resellerId);
    await byTestId('outgoing-empty').waitFor();
    await byTestId('incoming-empty').waitFor();
    await byTestId('income-empty').waitFor();
    await byTestId('on-behalf-none').waitFor();
    await byTestId('provision-production-only').waitFor();
    // Only the other merchants can be connected to.
    await expect
      .poll(() => byTestId('connection-merchant-select').locator('option').allTextContents(), {
        timeout: 5_000,
      })
      .toEqual(['Choose a merchant…', 'Shop Ltd']);

    // A connection to Shop Ltd at 2 %, no caps.
    await byTestId('connection-merchant-select').selectOption(shopId);
    await byTestId('connection-rate-input').fill('2');
    await byTestId('connection-submit').click();
    const row = el(`[data-testid="outgoing-row"][data-merchant-id="${shopId}"][data-status="active"]`);
    await row.waitFor();
    expect(await row.getByTestId('connection-merchant').textContent()).toBe('Shop Ltd');
    expect(await row.getByTestId('connection-rate').textContent()).toBe('2 %');
    expect(await row.getByTestId('connection-min-fee').textContent()).toBe('—');
    expect(await row.getByTestId('connection-max-fee').textContent()).toBe('—');
    const { outgoing } = await connections(resellerId);
    expect(outgoing).toEqual([
      expect.objectContaining({
        id: await row.getAttribute('data-connection-id'),
        reseller_id: resellerId,
        merchant_id: shopId,
        status: 'active',
        rate: 200,
        min_fee: null,
        max_fee: null,
      }),
    ]);

    // A checkout of 100 USDC for Shop Ltd, made by the reseller.
    await byTestId('on-behalf-merchant-select').selectOption(shopId);
    await byTestId('on-behalf-title-input').fill('Order #2001');
    await byTestId('on-behalf-amount-input').fill('100');
    await byTestId('on-behalf-submit').click();
    const created = el('[data-testid="on-behalf-checkout"][data-status="active"]');
    await created.waitFor();
    const checkoutId = (await created.getAttribute('data-checkout-id'))!;
    expect(await byTestId('on-behalf-checkout-id').textContent()).toBe(checkoutId);
    const stored = await call<{ checkout: { merchant_id: string; reseller_id: string; amount: number } }>(
      h.sandbox,
      'GET',
      `/sandbox/checkouts/${checkoutId}`,
    );
    expect(stored.checkout).toMatchObject({
      merchant_id: shopId,
      reseller_id: resellerId,
      amount: 100_000_000,
    });

    // A script pays it in full and settles it: the fee is the reseller's, held for 7 days. The
    // page follows Shop Ltd's checkout events (the income and the checkout's status).
    await call(h.sandbox, 'POST', `/sandbox/checkouts/${checkoutId}/payments`);
    await call(h.sandbox, 'POST', `/sandbox/checkouts/${checkoutId}/complete`);
    expect(await income(resellerId)).toEqual([{ currency: 'USDC', earned: 0, pending: 2_000_000 }]);
    const usdc = el('[data-testid="income"][data-currency="USDC"]');
    await usdc.locator('[data-testid="income-pending"][data-amount="2000000"]').waitFor();
    expect(await usdc.getByTestId('income-pending').textContent()).toBe('+ 2.00 pending (7-day hold)');
    expect(await usdc.getByTestId('income-earned').textContent()).toBe('0.00');
    await el('[data-testid="on-behalf-checkout"][data-status="completed"]').waitFor();

    // Eight days later the hold is over: earned. The release makes no event: refresh the card.
    await call(h.sandbox, 'POST', '/sandbox/clock/advance', { seconds: 691_200 });
    expect(await income(resellerId)).toEqual([{ currency: 'USDC', earned: 2_000_000, pending: 0 }]);
    await byTestId('income-refresh').click();
    await usdc.locator('[data-testid="income-earned"][data-amount="2000000"]').waitFor();
    expect(await usdc.getByTestId('income-earned').textContent()).toBe('2.00');
    expect(await usdc.getByTestId('income-pending').textContent()).toBe('Nothing pending');

    await dismissNotices(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(resultsDir, 'resellers.png') });
    // At 1024 px the page is one column and nothing sticks out sideways.
    await page.setViewportSize({ width: 1024, height: 1800 });
    await page.screenshot({ path: join(resultsDir, 'resellers-1024.png') });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1024);
    await page.setViewportSize({ width: 1440, height: 900 });

    // Shop Ltd's side: the incoming connection, revoked from the page.
    await pickMerchant(shopId);
    const incomingRow = `[data-testid="incoming-row"][data-reseller-id="${resellerId}"]`;
    const incoming = el(incomingRow);
    await el(`${incomingRow}[data-status="active"]`).waitFor();
    expect(await incoming.getByTestId('connection-reseller').textContent()).toBe('Reseller Co');
    expect(await incoming.getByTestId('connection-rate').textContent()).toBe('2 %');
    await byTestId('outgoing-empty').waitFor();
    await incoming.getByTestId('connection-revoke').click();
    await incoming.getByTestId('connection-revoke-confirm').click();
    await el(`${incomingRow}[data-status="revoked"]`).waitFor();
    expect(await incoming.getByTestId('connection-revoke').count()).toBe(0);
    const revoked = await connections(shopId);
    expect(revoked.incoming).toEqual([
      expect.objectContaining({ reseller_id: resellerId, status: 'revoked' }),
    ]);

    // Back as the reseller: the connection shows revoked, and no checkout can be made for Shop Ltd.
    await pickMerchant(resellerId);
    await el(`[data-testid="outgoing-row"][data-merchant-id="${shopId}"][data-status="revoked"]`).waitFor();
    await byTestId('on-behalf-none').waitFor();

    // The on-behalf checkout, opened on the Checkouts page: in Shop Ltd's scope, selected.
    await byTestId('on-behalf-checkout-open').click();
    await el(
      `[data-testid="checkout-row"][data-checkout-id="${checkoutId}"][data-status="completed"]`,
    ).waitFor();
    expect(await byTestId('scope-merchant').inputValue()).toBe(shopId);
    expect(await byTestId('checkout-title').textContent()).toBe('Order #2001');
    expect(await byTestId('checkout-id').textContent()).toBe(checkoutId);
  });

  it('provisions a merchant on production, then edits and deletes its connection', async () => {
    const { page } = h;
    const resellerId = await newMerchant('Reseller Co');

    await page.goto(`${h.dashboardUrl}#/resellers`);
    await pickMerchant(resellerId);
    await byTestId('provision-switch-production').click();
    await el('[data-testid="scope-env-production"][aria-pressed="true"]').waitFor();

    await byTestId('provision-email-input').fill('owner@corner.example');
    await byTestId('provision-password-input').fill('s3cret-pass');
    await byTestId('provision-merchant-name-input').fill('Corner Shop');
    await byTestId('provision-legal-name-input').fill('Corner Shop Ltd');
    await byTestId('provision-country-input').fill('gb');
    expect(await byTestId('provision-country-input').inputValue()).toBe('GB');
    await byTestId('provision-btype-select').selectOption('individual');
    await byTestId('provision-rate-input').fill('1.5');
    await byTestId('provision-max-fee-input').fill('10');
    await byTestId('provision-submit').click();

    await byTestId('provision-result').waitFor();
    const merchantId = (await byTestId('provision-merchant-id').textContent())!;
    const connectionId = (await byTestId('provision-connection-id').textContent())!;
    const merchants = await call<{ id: string; name: string; kyb_status: string; btype: string }[]>(
      h.sandbox,
      'GET',
      '/sandbox/merchants',
    );
    expect(merchants.find((m) => m.id === merchantId)).toMatchObject({
      name: 'Corner Shop',
      kyb_status: 'draft',
      btype: 'individual',
    });
    expect((await connections(resellerId, 'production')).outgoing).toEqual([
      expect.objectContaining({ id: connectionId, merchant_id: merchantId, rate: 150, max_fee: 10_000_000 }),
    ]);
    // The merchants list was read again: the new merchant is in the picker and named in the table.
    await el(`[data-testid="scope-merchant"] option[value="${merchantId}"]`).waitFor({ state: 'attached' });
    const row = el(`[data-testid="outgoing-row"][data-connection-id="${connectionId}"]`);
    expect(await row.getByTestId('connection-merchant').textContent()).toBe('Corner Shop');
    expect(await row.getByTestId('connection-rate').textContent()).toBe('1.5 %');
    expect(await row.getByTestId('connection-max-fee').textContent()).toBe('10.00');

    // The same email again: the server's refusal is shown as a notice.
    await byTestId('provision-email-input').fill('owner@corner.example');
    await byTestId('provision-password-input').fill('s3cret-pass');
    await byTestId('provision-merchant-name-input').fill('Corner Shop 2');
    await byTestId('provision-legal-name-input').fill('Corner Shop 2 Ltd');
    await byTestId('provision-country-input').fill('GB');
    await byTestId('provision-rate-input').fill('1');
    await byTestId('provision-submit').click();
    await el('[data-testid="notice-error"]:has-text("owner@corner.example")').waitFor();

    // Edit the terms inline: 3 %, a 0.50 minimum, no maximum any more.
    await row.getByTestId('connection-edit').click();
    expect(await byTestId('connection-edit-rate-input').inputValue()).toBe('1.5');
    expect(await byTestId('connection-edit-max-fee-input').inputValue()).toBe('10.00');
    await byTestId('connection-edit-rate-input').fill('3');
    await byTestId('connection-edit-min-fee-input').fill('0.5');
    await byTestId('connection-edit-max-fee-input').fill('');
    await byTestId('connection-edit-submit').click();
    await row.locator('[data-testid="connection-rate"][data-rate="300"]').waitFor();
    await byTestId('connection-edit-form').waitFor({ state: 'detached' });
    expect(await row.getByTestId('connection-min-fee').textContent()).toBe('0.50');
    expect(await row.getByTestId('connection-max-fee').textContent()).toBe('—');
    expect((await connections(resellerId, 'production')).outgoing).toEqual([
      expect.objectContaining({ id: connectionId, rate: 300, min_fee: 500_000, max_fee: null }),
    ]);

    // A minimum above the maximum is caught in the form, before the server.
    await row.getByTestId('connection-edit').click();
    await byTestId('connection-edit-max-fee-input').fill('0.25');
    await byTestId('connection-edit-terms-problem').waitFor();
    expect(await byTestId('connection-edit-submit').isDisabled()).toBe(true);
    await byTestId('connection-edit-cancel').click();

    // Delete it: gone from the page and the server.
    await row.getByTestId('connection-delete').click();
    await row.getByTestId('connection-delete-confirm').click();
    await byTestId('outgoing-empty').waitFor();
    expect((await connections(resellerId, 'production')).outgoing).toEqual([]);
  });
});
