/// <reference lib="dom" />
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, dismissNotices, resultsDir, root, setupDashboard } from './harness.js';

// The merchant pages end to end: what a person clicks, checked against what the server holds.

const h = setupDashboard();
const byTestId = (id: string) => h.page.getByTestId(id);
/** `[data-testid=a][data-x=y] …`: an element in a given state, waited for without sleeping. */
const el = (selector: string) => h.page.locator(selector);
const shot = (name: string) => h.page.screenshot({ path: join(resultsDir, `${name}.png`), fullPage: true });

interface Created {
  merchant: { id: string };
  api_key: { key: string };
}
const newMerchant = (name: string) => call<Created>(h.sandbox, 'POST', '/sandbox/merchants', { name });
const balances = (merchantId: string, env = 'test') =>
  call<{ currency: string; available: number; held: number }[]>(
    h.sandbox,
    'GET',
    `/sandbox/merchants/${merchantId}/balances?env=${env}`,
  );

describe('merchant pages', () => {
  it('creates a checkout, pays it, completes it, refunds part of it; Money shows the balance', async () => {
    const { page } = h;
    await page.goto(h.dashboardUrl);

    // A merchant, from the Merchants page: it comes with an owner key (the script below uses it).
    await byTestId('nav-merchants').click();
    await byTestId('merchant-name-input').fill('Acme Ltd');
    await byTestId('create-merchant-submit').click();
    await el('[data-testid="api-key-row"][data-role="owner"]').waitFor();
    const merchantId = (await byTestId('merchant-id').textContent())!;
    const ownerKey = (await byTestId('key-value').first().textContent())!;

    // Two checkouts made by a script meanwhile: one expired, one part-paid. The page shows them too.
    const expiresAt = new Date(h.sandbox.ctx.clock.now() + 86400_000).toISOString();
    const older = (title: string, amount: number) =>
      call<{ id: string }>(
        h.sandbox,
        'POST',
        '/v1/checkouts',
        { title, amount, expires_at: expiresAt },
        ownerKey,
      );
    const annual = await older('Annual plan', 120_000_000);
    await call(h.sandbox, 'POST', `/sandbox/checkouts/${annual.id}/expire`);
    const seats = await older('Team seats ×5', 49_500_000);
    await call(h.sandbox, 'POST', `/sandbox/checkouts/${seats.id}/payments`, { amount: 20_000_000 });

    await byTestId('nav-checkouts').click();
    expect(await byTestId('scope-merchant').inputValue()).toBe(merchantId);
    await el(
      `[data-testid="checkout-row"][data-checkout-id="${annual.id}"][data-status="expired"]`,
    ).waitFor();
    await byTestId('checkout-title-input').fill('Order #1042');
    await byTestId('checkout-amount-input').fill('25');
    await byTestId('checkout-hours-input').fill('24');
    await byTestId('checkout-create-submit').click();

    // The new checkout is selected (before, the newest of the script's was).
    await el('[data-testid="checkout-title"]:text-is("Order #1042")').waitFor();
    await el('[data-testid="checkout-status"][data-status="active"]').waitFor();
    expect(await byTestId('checkout-amount').textContent()).toBe('25.00 USDC');
    const checkoutId = (await byTestId('checkout-id').textContent())!;
    const [stored, ...others] = await call<{ id: string; amount: number; title: string }[]>(
      h.sandbox,
      'GET',
      `/sandbox/merchants/${merchantId}/checkouts`,
    );
    expect(stored).toMatchObject({ id: checkoutId, amount: 25_000_000, title: 'Order #1042' });
    expect(others.map((c) => c.id)).toEqual([seats.id, annual.id]);
    expect(await byTestId('checkout-hosted-link').getAttribute('href')).toBe(
      `${h.sandbox.urls().test}/pay/${checkoutId}`,
    );
    await byTestId('checkout-chain').first().waitFor();
    await expect.poll(() => el('[data-testid="checkout-row"]').count(), { timeout: 5_000 }).toBe(3);

    // Live: a script pays the rest of the part-paid checkout; its row follows the event stream.
    await call(h.sandbox, 'POST', `/sandbox/checkouts/${seats.id}/payments`, {});
    await el(`[data-testid="checkout-row"][data-checkout-id="${seats.id}"][data-status="paid"]`).waitFor();

    // The payer sends everything: detected on-chain, the checkout is paid.
    await byTestId('checkout-pay-full').click();
    await el('[data-testid="checkout-status"][data-status="paid"]').waitFor();
    await el(`[data-testid="checkout-row"][data-checkout-id="${checkoutId}"][data-status="paid"]`).waitFor();
    await expect.poll(() => byTestId('checkout-payment').count(), { timeout: 5_000 }).toBe(1);
    expect(await byTestId('checkout-received').textContent()).toBe('25.00 USDC');

    // Settle now: completed, and the money is the merchant's.
    await byTestId('checkout-complete').click();
    await el('[data-testid="checkout-status"][data-status="completed"]').waitFor();

    await byTestId('nav-money').click();
    const usdc = el('[data-testid="balance"][data-currency="USDC"] [data-testid="balance-available"]');
    await usdc.waitFor();
    const [afterPayment] = await balances(merchantId);
    // 25 USDC less the ethereum USDC gas fee (2 USDC) the platform keeps (the platform rate is 0);
    // the other paid checkout's 49.50 USDC waits for its settlement (60 s after payment).
    expect(afterPayment).toMatchObject({ currency: 'USDC', available: 23_000_000, held: 49_500_000 });
    expect(await usdc.textContent()).toBe('23.00');
    expect(await byTestId('balance-pending').textContent()).toBe('+ 49.50 pending settlement');

    // Back to the checkout: refund 5 USDC with a reason; gas comes off the refund.
    await byTestId('nav-checkouts').click();
    await byTestId('refund-amount-input').fill('5');
    await byTestId('refund-reason-input').fill('Damaged in transit');
    await byTestId('refund-submit').click();
    await el('[data-testid="checkout-status"][data-status="partially_refunded"]').waitFor();
    await byTestId('checkout-refund').waitFor();
    expect(await byTestId('checkout-refunded').textContent()).toBe('5.00 USDC');
    expect(await byTestId('checkout-refund').textContent()).toContain('Damaged in transit');
    await dismissNotices(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(resultsDir, 'checkouts.png') });
    if (process.env.UPDATE_SCREENSHOT) await page.screenshot({ path: join(root, 'docs/screenshot.png') });
    await shot('checkouts-full');

    await byTestId('nav-money').click();
    const [afterRefund] = await balances(merchantId);
    expect(afterRefund!.available).toBeLessThan(23_000_000);
    await el(
      `[data-testid="balance"][data-currency="USDC"] [data-testid="balance-available"][data-amount="${afterRefund!.available}"]`,
    ).waitFor();
    await expect
      .poll(() => el('[data-testid="ledger-row"]').count(), { timeout: 5_000 })
      .toBeGreaterThanOrEqual(3);
  });

  it('delivers webhooks to the built-in inbox, shows every attempt, and retries', async () => {
    const { page } = h;
    /** Sets the inbox's answer from the page and waits for the server to take it. */
    const answerWith = async (status: number) => {
      const stored = page.waitForResponse(
        (r) => r.request().method() === 'PUT' && r.url().endsWith('/sandbox/inboxes/demo') && r.ok(),
      );
      await byTestId('inbox-response-select').selectOption(String(status));
      await stored;
      await el(`[data-testid="inbox-response-select"]:not([disabled])`).waitFor();
    };
    const { merchant, api_key } = await newMerchant('Initech');
    await page.goto(`${h.dashboardUrl}#/webhooks`);

    await byTestId('endpoint-use-inbox').click();
    const inboxUrl = `${h.sandbox.urls().test}/sandbox/inbox/demo`;
    expect(await byTestId('endpoint-url-input').inputValue()).toBe(inboxUrl);
    await byTestId('endpoint-submit').click();
    const endpoint = byTestId('endpoint-row');
    await endpoint.waitFor();
    const [stored] = await call<{ url: string; secret: string; events: string[] }[]>(
      h.sandbox,
      'GET',
      `/sandbox/merchants/${merchant.id}/webhook-endpoints`,
    );
    expect(stored).toMatchObject({ url: inboxUrl, events: ['*'] });
    expect(stored!.secret).toMatch(/^whsec_/);
    expect(await endpoint.getByTestId('endpoint-secret').textContent()).toBe(stored!.secret);
    await byTestId('inbox-empty').waitFor();

    // Something happens (an integration creates a checkout): one delivery, delivered at once.
    const expiresAt = () => new Date(h.sandbox.ctx.clock.now() + 3600_000).toISOString();
    await call(
      h.sandbox,
      'POST',
      '/v1/checkouts',
      { title: 'A', amount: 10_000_000, expires_at: expiresAt() },
      api_key.key,
    );
    const delivered = el(
      '[data-testid="delivery-row"][data-event="checkout.created"][data-status="delivered"]',
    );
    await delivered.waitFor();
    expect(await delivered.getByTestId('delivery-attempt-count').textContent()).toBe('1');
    await delivered.getByTestId('delivery-toggle').click();
    const attempt = byTestId('delivery-attempt');
    await attempt.waitFor();
    expect(await attempt.getByTestId('attempt-response-status').getAttribute('data-response-status')).toBe(
      '200',
    );
    expect(await attempt.getByTestId('attempt-request-body').textContent()).toContain(
      '"event": "checkout.created"',
    );
    expect(await attempt.textContent()).toContain('x-svc-signature');

    // The inbox got it, and the signature checks out against the endpoint's secret.
    const message = el('[data-testid="inbox-message"][data-event="checkout.created"]');
    await message.waitFor();
    expect(await message.getByTestId('inbox-signature').getAttribute('data-valid')).toBe('true');

    // The endpoint goes down: the next delivery fails its first attempt and waits for a retry.
    await answerWith(500);
    await call(
      h.sandbox,
      'POST',
      '/v1/checkouts',
      { title: 'B', amount: 12_000_000, expires_at: expiresAt() },
      api_key.key,
    );
    const retrying = el('[data-testid="delivery-row"][data-status="pending"]');
    await retrying.waitFor();
    await el(
      '[data-testid="delivery-row"][data-status="pending"] [data-testid="delivery-attempt-count"]:text-is("1")',
    ).waitFor();
    await byTestId('delivery-filter-pending').click();
    // While the filtered list loads no rows show; then only the pending one.
    await el('[data-testid="delivery-filter-pending"][aria-pressed="true"]').waitFor();
    await retrying.waitFor();
    await expect.poll(() => byTestId('delivery-row').count(), { timeout: 5_000 }).toBe(1);

    // It comes back up; a manual retry delivers, with the same delivery id.
    await answerWith(200);
    await byTestId('delivery-filter-all').click();
    const pendingId = await retrying.getAttribute('data-delivery-id');
    await retrying.getByTestId('delivery-retry').click();
    const recovered = el(
      `[data-testid="delivery-row"][data-delivery-id="${pendingId}"][data-status="delivered"]`,
    );
    await recovered.waitFor();
    expect(await recovered.getByTestId('delivery-attempt-count').textContent()).toBe('2');
    await el(
      '[data-testid="inbox-message"] [data-testid="inbox-signature"][data-valid="true"] >> nth=2',
    ).waitFor();
    // Notices sit over the bottom right of the page: close them before clicking there.
    await dismissNotices(page);
    await recovered.getByTestId('delivery-toggle').click();
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(resultsDir, 'webhooks.png') });
    await shot('webhooks-full');
  });

  it('takes a deposit to a static address and pays out', async () => {
    const { page } = h;
    const { merchant } = await newMerchant('Globex');
    const addresses = await call<{ chain: string; address: string }[]>(
      h.sandbox,
      'GET',
      `/sandbox/merchants/${merchant.id}/static-addresses`,
    );
    const tronAddress = addresses.find((a) => a.chain === 'tron')!.address;
    await page.goto(`${h.dashboardUrl}#/money`);

    const tron = el('[data-testid="static-address"][data-chain="tron"]');
    await tron.waitFor();
    expect(await tron.getByTestId('static-address-value').textContent()).toBe(tronAddress);
    await byTestId('balances-empty').waitFor();

    await tron.getByTestId('address-send').click();
    await tron.getByTestId('address-send-currency').selectOption('USDT');
    await tron.getByTestId('address-send-amount').fill('150');
    await tron.getByTestId('address-send-submit').click();
    const usdt = el('[data-testid="balance"][data-currency="USDT"] [data-testid="balance-available"]');
    await el(
      '[data-testid="balance"][data-currency="USDT"] [data-testid="balance-available"][data-amount="150000000"]',
    ).waitFor();
    expect(await usdt.textContent()).toBe('150.00');
    await el('[data-testid="ledger-row"][data-kind="deposit"]').waitFor();

    // A payout that completes, then one the bank rejects: only the first moves money.
    await byTestId('payout-amount-input').fill('40');
    await byTestId('payout-currency-select').selectOption('USDT');
    await byTestId('payout-submit').click();
    await el('[data-testid="balance-available"][data-amount="110000000"]').waitFor();
    await el('[data-testid="payout-row"][data-status="completed"]').waitFor();
    await byTestId('payout-amount-input').fill('10');
    await byTestId('payout-outcome-select').selectOption('failed');
    await byTestId('payout-submit').click();
    await el('[data-testid="payout-row"][data-status="failed"]').waitFor();
    expect(await byTestId('notice-error').textContent()).toContain('failed');
    expect((await balances(merchant.id)).find((b) => b.currency === 'USDT')?.available).toBe(110_000_000);

    // Credit the merchant directly.
    await byTestId('credit-amount-input').fill('1000');
    await byTestId('credit-submit').click();
    await el(
      '[data-testid="balance"][data-currency="USDC"] [data-testid="balance-available"][data-amount="1000000000"]',
    ).waitFor();
    await dismissNotices(page);
    await shot('money');
  });

  it('verifies a cardholder, issues and funds a virtual card, authorizes and settles; shows the public key', async () => {
    const { page } = h;
    const { merchant } = await newMerchant('Hooli');
    await call(h.sandbox, 'POST', `/sandbox/merchants/${merchant.id}/credit`, {
      currency: 'USDC',
      amount: 500_000_000,
    });
    const testKey = await call<{ public_key_pem: string }>(h.sandbox, 'GET', '/sandbox/keys?env=test');
    const productionKey = await call<{ public_key_pem: string }>(
      h.sandbox,
      'GET',
      '/sandbox/keys?env=production',
    );
    await page.goto(`${h.dashboardUrl}#/cards`);

    await el(`[data-testid="public-key-pem"]:has-text("BEGIN PUBLIC KEY")`).waitFor();
    expect(await byTestId('public-key-pem').textContent()).toBe(testKey.public_key_pem.trim());

    await byTestId('cardholder-name-input').fill('Jane Doe');
    await byTestId('cardholder-create-submit').click();
    await el('[data-testid="cardholder-name"]:text-is("Jane Doe")').waitFor();

    // KYC from the identity provider, then an application (auto review) and a virtual card.
    await byTestId('kyc-approve').click();
    await el('[data-testid="cardholder-kyc"][data-status="approved"]').waitFor();
    const catalogue = await call<{ id: string; type: string }[]>(h.sandbox, 'GET', '/sandbox/card-catalogue');
    await byTestId('card-product-select').selectOption(catalogue.find((p) => p.type === 'virtual')!.id);
    await byTestId('card-apply').click();
    await el('[data-testid="application-row"][data-status="approved"]').waitFor();
    await byTestId('card-issue').click();
    const card = el('[data-testid="card-row"][data-status="active"]');
    await card.waitFor();
    expect(await card.getByTestId('card-last4').textContent()).toMatch(/^•••• \d{4}$/);

    // Fund the cardholder from the business wallet.
    await byTestId('fund-amount-input').fill('50');
    await byTestId('fund-submit').click();
    await el('[data-testid="cardholder-balance"]:text-is("50.00 USDC")').waitFor();

    // The card network: an authorization holds 12.50, settling completes it.
    await byTestId('authorize-amount-input').fill('12.5');
    await byTestId('authorize-merchant-input').fill('Blue Bottle Coffee');
    await byTestId('authorize-channel-select').selectOption('present');
    await byTestId('authorize-submit').click();
    const tx = el('[data-testid="tx-row"][data-status="requested"]');
    await tx.waitFor();
    expect(await tx.textContent()).toContain('Blue Bottle Coffee');
    await el('[data-testid="cardholder-balance"]:text-is("37.50 USDC")').waitFor();
    await tx.getByTestId('tx-settle').click();
    const settled = el('[data-testid="tx-row"][data-status="completed"]');
    await settled.waitFor();
    expect(await settled.getByTestId('tx-amount').textContent()).toBe('−12.50 USDC');
    const cardId = await card.getAttribute('data-card-id');
    const [stored] = await call<{ status: string; amount: number }[]>(
      h.sandbox,
      'GET',
      `/sandbox/cards/${cardId}/transactions`,
    );
    expect(stored).toMatchObject({ status: 'completed', amount: -12_500_000 });

    // The coffee shop refunds 2.50 to the card.
    await byTestId('card-move-kind').selectOption('refunds');
    await byTestId('card-move-amount').fill('2.5');
    await byTestId('card-move-submit').click();
    await el('[data-testid="tx-row"][data-type="card_refund"][data-status="completed"]').waitFor();
    await el('[data-testid="cardholder-balance"]:text-is("40.00 USDC")').waitFor();
    await dismissNotices(page);
    await shot('cards');

    // Production is another world: no cardholders there, and its own key pair.
    await byTestId('scope-env-production').click();
    await page.waitForFunction(
      (pem) => document.querySelector('[data-testid="public-key-pem"]')?.textContent === pem,
      productionKey.public_key_pem.trim(),
    );
    expect(productionKey.public_key_pem).not.toBe(testKey.public_key_pem);
    await el('[data-testid="cardholder-list"]:has-text("No cardholders in production yet.")').waitFor();
    await expect.poll(() => byTestId('cardholder-item').count(), { timeout: 5_000 }).toBe(0);
    await shot('cards-production');
  });

  it('works the same in production: a checkout paid and part-refunded, a funded card authorizes and settles', async () => {
    const { page } = h;
    const { merchant } = await newMerchant('Umbrella Corp');
    const base = `/sandbox/merchants/${merchant.id}`;
    /** The merchant's objects of one kind in one environment, as the control API lists them. */
    const ids = async (kind: 'checkouts' | 'cardholders', env: 'test' | 'production') =>
      (await call<{ id: string }[]>(h.sandbox, 'GET', `${base}/${kind}?env=${env}`)).map((o) => o.id);

    await page.goto(`${h.dashboardUrl}#/checkouts`);
    await byTestId('scope-env-production').click();
    await el('[data-testid="scope-env-production"][aria-pressed="true"]').waitFor();
    await el('[data-testid="checkouts-empty"]:has-text("No checkouts in production yet.")').waitFor();

    // A checkout created from the page lands in production, not in test.
    await byTestId('checkout-title-input').fill('Prod order #7');
    await byTestId('checkout-amount-input').fill('40');
    await byTestId('checkout-create-submit').click();
    const detail = el('[data-testid="checkout-detail"][data-env="production"]');
    await detail.waitFor();
    await el('[data-testid="checkout-title"]:text-is("Prod order #7")').waitFor();
    await el('[data-testid="checkout-status"][data-status="active"]').waitFor();
    const checkoutId = (await byTestId('checkout-id').textContent())!;
    expect(await detail.getAttribute('data-checkout-id')).toBe(checkoutId);
    expect(await ids('checkouts', 'production')).toEqual([checkoutId]);
    expect(await ids('checkouts', 'test')).toEqual([]);
    expect(await byTestId('checkout-hosted-link').getAttribute('href')).toBe(
      `${h.sandbox.urls().production}/pay/${checkoutId}`,
    );

    // Paid in full, then 10 of the 40 refunded.
    await byTestId('checkout-pay-full').click();
    await el('[data-testid="checkout-status"][data-status="paid"]').waitFor();
    expect(await byTestId('checkout-received').textContent()).toBe('40.00 USDC');
    await byTestId('refund-amount-input').fill('10');
    await byTestId('refund-reason-input').fill('Wrong size');
    await byTestId('refund-submit').click();
    await el('[data-testid="checkout-status"][data-status="partially_refunded"]').waitFor();
    await byTestId('checkout-refund').waitFor();
    expect(await byTestId('checkout-refunded').textContent()).toBe('10.00 USDC');
    expect(await byTestId('checkout-refund').textContent()).toContain('Wrong size');
    const stored = await call<{ env: string; checkout: { status: string; refunded_amount: number } }>(
      h.sandbox,
      'GET',
      `/sandbox/checkouts/${checkoutId}`,
    );
    expect(stored).toMatchObject({
      env: 'production',
      checkout: { status: 'partially_refunded', refunded_amount: 10_000_000 },
    });
    await el(
      `[data-testid="checkout-row"][data-checkout-id="${checkoutId}"][data-status="partially_refunded"]`,
    ).waitFor();
    await dismissNotices(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(resultsDir, 'checkouts-production.png') });

    // Money for the card: credit the merchant 100 USDC in production from the Money page.
    const available = async (env: 'test' | 'production') =>
      (await balances(merchant.id, env)).find((b) => b.currency === 'USDC')?.available ?? 0;
    const beforeCredit = await available('production');
    await byTestId('nav-money').click();
    await byTestId('credit-amount-input').fill('100');
    await byTestId('credit-submit').click();
    await el(
      `[data-testid="balance"][data-currency="USDC"] [data-testid="balance-available"][data-amount="${beforeCredit + 100_000_000}"]`,
    ).waitFor();

    // A cardholder, created in production from the Cards page.
    await byTestId('nav-cards').click();
    await el('[data-testid="cardholder-list"]:has-text("No cardholders in production yet.")').waitFor();
    await byTestId('cardholder-name-input').fill('Ada Wong');
    await byTestId('cardholder-email-input').fill('ada@example.com');
    await byTestId('cardholder-create-submit').click();
    const holder = el('[data-testid="cardholder-detail"][data-env="production"]');
    await holder.waitFor();
    await el('[data-testid="cardholder-name"]:text-is("Ada Wong")').waitFor();
    const holderId = (await holder.getAttribute('data-cardholder-id'))!;
    expect(await ids('cardholders', 'production')).toEqual([holderId]);
    expect(await ids('cardholders', 'test')).toEqual([]);
    expect(await holder.textContent()).toContain('ada@example.com');

    // KYC, an application (auto review), a virtual card: active at once.
    await byTestId('kyc-approve').click();
    await el('[data-testid="cardholder-kyc"][data-status="approved"]').waitFor();
    const catalogue = await call<{ id: string; type: string }[]>(h.sandbox, 'GET', '/sandbox/card-catalogue');
    await byTestId('card-product-select').selectOption(catalogue.find((p) => p.type === 'virtual')!.id);
    await byTestId('card-apply').click();
    await el('[data-testid="application-row"][data-status="approved"]').waitFor();
    await byTestId('card-issue').click();
    const card = el('[data-testid="card-row"][data-status="active"]');
    await card.waitFor();
    const cardId = (await card.getAttribute('data-card-id'))!;

    // Funded from the production business wallet; an authorization holds 15, settling completes it.
    await byTestId('fund-amount-input').fill('60');
    await byTestId('fund-submit').click();
    await el('[data-testid="cardholder-balance"]:text-is("60.00 USDC")').waitFor();
    await byTestId('authorize-amount-input').fill('15');
    await byTestId('authorize-merchant-input').fill('Raccoon City Diner');
    await byTestId('authorize-submit').click();
    const tx = el('[data-testid="tx-row"][data-status="requested"]');
    await tx.waitFor();
    await el('[data-testid="cardholder-balance"]:text-is("45.00 USDC")').waitFor();
    await tx.getByTestId('tx-settle').click();
    const settled = el('[data-testid="tx-row"][data-status="completed"]');
    await settled.waitFor();
    expect(await settled.getByTestId('tx-amount').textContent()).toBe('−15.00 USDC');

    // Locking works in production too.
    await card.getByTestId('card-lock').click();
    await el(`[data-testid="card-row"][data-card-id="${cardId}"][data-status="locked"]`).waitFor();

    // The server agrees: all of it is in production, nothing in test.
    const held = await call<{
      cardholder: { env: string; email: string; balances: { currency: string; balance: number }[] };
      cards: { id: string; status: string }[];
    }>(h.sandbox, 'GET', `/sandbox/cardholders/${holderId}`);
    expect(held.cardholder).toMatchObject({
      env: 'production',
      email: 'ada@example.com',
      balances: [{ currency: 'USDC', balance: 45_000_000 }],
    });
    expect(held.cards).toMatchObject([{ id: cardId, status: 'locked' }]);
    const [payment] = await call<{ status: string; amount: number }[]>(
      h.sandbox,
      'GET',
      `/sandbox/cards/${cardId}/transactions`,
    );
    expect(payment).toMatchObject({ status: 'completed', amount: -15_000_000 });
    // The 60 moved to the cardholder came out of the production wallet; test was never touched.
    expect(await available('production')).toBe(beforeCredit + 40_000_000);
    expect(await balances(merchant.id, 'test')).toEqual([]);

    await dismissNotices(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(resultsDir, 'cards-production-flow.png') });
    await shot('cards-production-flow-full');
  });
});
