/// <reference lib="dom" />
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { call, resultsDir, setupDashboard } from './harness.js';

// The customer-facing pages in real Chromium: the hosted checkout following the sandbox clock and
// the checkout live (changes made by "a script" beside it), its sandbox tools, its layout on a
// phone and a small laptop; the identity provider's page. The harness fails a test on any error
// in the page.

const h = setupDashboard();
const shot = (name: string) => h.page.screenshot({ path: join(resultsDir, `${name}.png`), fullPage: true });

interface Checkout {
  id: string;
  hosted_url: string;
  expires_at: string;
  crypto_chains: { chain: string; address: string }[];
}
interface Inspection {
  checkout: { status: string; paid_amount: number | null };
  received_amount: number;
}

const HOUR = 3600_000;

/** A merchant and a 10.00 USDC checkout expiring in exactly an hour of a frozen sandbox clock. */
async function frozenCheckout(title = 'Order #1042', amount = 10_000_000) {
  await call(h.sandbox, 'POST', '/sandbox/clock/freeze');
  const { api_key } = await call<{ api_key: { key: string } }>(h.sandbox, 'POST', '/sandbox/merchants', {
    name: 'Northwind Coffee',
  });
  const expiresAt = new Date(h.sandbox.ctx.clock.now() + HOUR).toISOString();
  const checkout = await call<Checkout>(
    h.sandbox,
    'POST',
    '/v1/checkouts',
    { title, description: 'Two bags of house blend', amount, expires_at: expiresAt },
    api_key.key,
  );
  return { checkout, key: api_key.key };
}

const byTestId = (id: string) => h.page.getByTestId(id);
const text = async (id: string) => (await byTestId(id).textContent())?.trim();
const inspect = (id: string) => call<Inspection>(h.sandbox, 'GET', `/sandbox/checkouts/${id}`);
const advance = (seconds: number) => call(h.sandbox, 'POST', '/sandbox/clock/advance', { seconds });

/** Waits until an element's text is exactly `expected` (the page updates itself; no reloads). */
async function waitForText(page: Page, testId: string, expected: string, timeout = 3_000): Promise<void> {
  await page.waitForFunction(
    ([id, want]) => document.querySelector(`[data-testid="${id}"]`)?.textContent?.trim() === want,
    [testId, expected] as const,
    { timeout },
  );
}

/** Nothing a customer could pay with is on screen. */
async function expectNoPaymentOptions(page: Page): Promise<void> {
  await expect.poll(() => page.locator('[data-testid^="qr-"]').count(), { timeout: 5_000 }).toBe(0);
  await expect
    .poll(() => page.locator('[data-testid="payment-options"]').count(), { timeout: 5_000 })
    .toBe(0);
  await expect.poll(() => page.locator('[data-testid="pay-card"]').count(), { timeout: 5_000 }).toBe(0);
  expect(await byTestId('simulate-full').isVisible()).toBe(false);
  expect(await byTestId('simulate-partial').isVisible()).toBe(false);
}

/** Status polls the page makes: proof that it looked again (event-driven, not a sleep). */
async function polls(page: Page, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    await page.waitForResponse((r) => /\/pay\/[^/]+\/status$/.test(new URL(r.url()).pathname), {
      timeout: 3_000,
    });
  }
}

describe('hosted checkout page', () => {
  it('counts down on the sandbox clock: still while frozen, drops on advance, expires past it', async () => {
    const { page } = h;
    const { checkout } = await frozenCheckout();
    await page.goto(checkout.hosted_url);

    expect(await text('merchant')).toBe('Northwind Coffee');
    expect(await text('title')).toBe('Order #1042');
    expect(await text('amount')).toBe('10.00 USDC');
    expect(await text('status')).toBe('Awaiting payment');
    expect(await text('countdown')).toBe('Expires in 1h 00m 00s');
    expect(await page.locator('link[rel="icon"]').getAttribute('href')).toMatch(/^data:image\/svg\+xml,/);
    // Chains in words, one QR code per deposit address.
    for (const { chain } of checkout.crypto_chains) {
      await expect
        .poll(() => page.locator(`[data-testid="qr-${chain}"] svg`).count(), { timeout: 5_000 })
        .toBe(1);
    }
    expect(await page.locator('body').innerText()).not.toMatch(/\bBsc\b/);

    // Frozen: over three polls (more than 2 s) nothing moves.
    await polls(page, 3);
    expect(await text('countdown')).toBe('Expires in 1h 00m 00s');
    expect(await byTestId('countdown').getAttribute('data-frozen')).toBe('true');
    expect(await text('sandbox-clock')).toContain('frozen');

    // Ten minutes later on the sandbox clock, within a poll.
    await advance(600);
    await waitForText(page, 'countdown', 'Expires in 50m 00s');
    await shot('hosted-open');

    // Past the expiry: the expired state, nothing to pay with.
    await advance(3000);
    await page.locator('[data-testid="status"][data-status="expired"]').waitFor({ timeout: 3_000 });
    expect(await text('result-title')).toBe('This checkout has expired');
    expect(await byTestId('countdown').isVisible()).toBe(false);
    await expectNoPaymentOptions(page);
    await shot('hosted-expired');
  });

  it('with the clock running a day ahead of the browser, the countdown runs from sandbox time', async () => {
    const { page } = h;
    await advance(86_400);
    const { api_key } = await call<{ api_key: { key: string } }>(h.sandbox, 'POST', '/sandbox/merchants', {
      name: 'Later Ltd',
    });
    const checkout = await call<Checkout>(
      h.sandbox,
      'POST',
      '/v1/checkouts',
      {
        title: 'Tomorrow',
        amount: 1_000_000,
        expires_at: new Date(h.sandbox.ctx.clock.now() + HOUR).toISOString(),
      },
      api_key.key,
    );
    await page.goto(checkout.hosted_url);
    const remaining = async () => Number(await byTestId('countdown').getAttribute('data-remaining'));
    const first = await remaining();
    // An hour of sandbox time (the browser's clock would say 25 hours).
    expect(first).toBeGreaterThan(3500);
    expect(first).toBeLessThanOrEqual(3600);
    expect(await byTestId('countdown').getAttribute('data-frozen')).toBe('false');
    // It runs: two seconds later (two polls and more) it shows less.
    await page.waitForFunction(
      (start) =>
        Number(document.querySelector('[data-testid="countdown"]')?.getAttribute('data-remaining')) <=
        start - 2,
      first,
      { timeout: 5_000 },
    );
    expect(await text('countdown')).toMatch(/^Expires in 59m \d\ds$/);
  });

  it('a partial payment shows progress live; the simulate button pays the rest; the success screen follows', async () => {
    const { page } = h;
    const { checkout } = await frozenCheckout();
    await page.goto(checkout.hosted_url);
    const chain = checkout.crypto_chains[0]!.chain;
    expect(await byTestId('progress').isVisible()).toBe(false);

    // A wallet pays 4.00 of 10.00 (a script, beside the page).
    await call(h.sandbox, 'POST', `/sandbox/checkouts/${checkout.id}/payments`, { amount: 4_000_000 });
    await waitForText(page, 'progress-text', '4.00 of 10.00 USDC paid');
    expect(await text('progress-left')).toBe('6.00 USDC left to pay');
    expect(await text('status')).toBe('Partially paid');
    expect(await text(`pay-amount-${chain}`)).toBe('6.00 USDC');
    const width = await byTestId('progress-fill').evaluate((el) => (el as HTMLElement).style.width);
    expect(width).toBe('40%');
    await shot('hosted-partial');

    // The demo button: the rest, through the control API.
    await byTestId('simulate-full').click();
    await waitForText(page, 'result-title', 'Payment received');
    expect(await text('simulate-message')).toBe(`6.00 USDC sent on ${await chainWord(page, chain)}.`);
    expect(await text('status')).toBe('Paid');
    await expectNoPaymentOptions(page);
    const after = await inspect(checkout.id);
    expect(after.checkout).toMatchObject({ status: 'paid', paid_amount: 10_000_000 });
    expect(after.received_amount).toBe(10_000_000);
    await shot('hosted-paid');

    // Settlement (by a script) keeps the success screen.
    await call(h.sandbox, 'POST', `/sandbox/checkouts/${checkout.id}/complete`);
    await page.locator('[data-testid="status"][data-status="completed"]').waitFor({ timeout: 3_000 });
    expect(await text('result-title')).toBe('Payment received');
  });

  it('a partial payment typed into the sandbox tools, a refused amount, then a payment from outside', async () => {
    const { page } = h;
    const { checkout } = await frozenCheckout();
    await page.goto(checkout.hosted_url);

    await byTestId('simulate-amount').fill('four');
    await byTestId('simulate-partial').click();
    expect(await text('simulate-message')).toBe('Enter an amount in USDC, like 4.00 (up to 6 decimals).');

    await byTestId('simulate-amount').fill('2.5');
    await byTestId('simulate-partial').click();
    await waitForText(page, 'progress-text', '2.50 of 10.00 USDC paid');
    expect((await inspect(checkout.id)).received_amount).toBe(2_500_000);

    // The rest arrives from a wallet the page knows nothing about.
    await call(h.sandbox, 'POST', `/sandbox/checkouts/${checkout.id}/payments`, {});
    await waitForText(page, 'result-title', 'Payment received');
    await expectNoPaymentOptions(page);
  });

  it('a cancelled checkout: the cancelled state, no payment options', async () => {
    const { page } = h;
    const { checkout } = await frozenCheckout();
    await page.goto(checkout.hosted_url);
    await call(h.sandbox, 'POST', `/sandbox/checkouts/${checkout.id}/cancel`);
    await waitForText(page, 'result-title', 'This checkout was cancelled');
    expect(await text('status')).toBe('Cancelled');
    await expectNoPaymentOptions(page);
  });

  it('copy buttons put the address and the amount left on the clipboard; chain tabs switch the address', async () => {
    const { page } = h;
    const { checkout } = await frozenCheckout();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: new URL(checkout.hosted_url).origin,
    });
    await page.goto(checkout.hosted_url);
    const [first, second] = checkout.crypto_chains;
    await byTestId(`copy-address-${first!.chain}`).click();
    await waitForText(page, `copy-address-${first!.chain}`, 'Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(first!.address);
    await byTestId(`copy-amount-${first!.chain}`).click();
    await waitForText(page, `copy-amount-${first!.chain}`, 'Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('10.00');
    if (second) {
      await byTestId(`chain-tab-${second.chain}`).click();
      await byTestId(`chain-${second.chain}`).waitFor();
      await byTestId(`chain-${first!.chain}`).waitFor({ state: 'hidden' });
      expect(await text(`address-${second.chain}`)).toBe(second.address);
    }
  });

  it('a card-only checkout: no QR, a Pay by card link to the provider page, which pays it', async () => {
    const { page } = h;
    const { api_key } = await call<{ api_key: { key: string } }>(h.sandbox, 'POST', '/sandbox/merchants', {
      name: 'Card Shop',
    });
    const checkout = await call<Checkout>(
      h.sandbox,
      'POST',
      '/v1/checkouts',
      {
        title: 'Gift card',
        amount: 25_000_000,
        currency: 'USD',
        method: 'fiat',
        expires_at: new Date(h.sandbox.ctx.clock.now() + HOUR).toISOString(),
      },
      api_key.key,
    );
    await page.goto(checkout.hosted_url);
    await expect.poll(() => page.locator('[data-testid^="qr-"]').count(), { timeout: 5_000 }).toBe(0);
    expect(await text('amount')).toBe('25.00 USD');
    await byTestId('pay-card').click();
    await page.waitForURL(/\/fiat$/);
    expect(await text('status')).toBe('Awaiting payment');
    await byTestId('pay').click();
    await waitForText(page, 'status', 'Paid');
    expect((await inspect(checkout.id)).checkout.status).toBe('paid');
    await page.goBack();
    await waitForText(page, 'result-title', 'Payment received');
    await expectNoPaymentOptions(page);
  });

  it.each([
    [390, 844],
    [1024, 768],
    [1440, 900],
  ])('at %i×%i: nothing off screen horizontally, key elements do not overlap', async (width, height) => {
    const { page } = h;
    await page.setViewportSize({ width, height });
    const { checkout } = await frozenCheckout(
      'Annual plan for the whole team, billed once a year',
      123_456_789,
    );
    await call(h.sandbox, 'POST', `/sandbox/checkouts/${checkout.id}/payments`, { amount: 23_456_789 });
    await page.goto(checkout.hosted_url);
    await waitForText(page, 'progress-text', '23.456789 of 123.456789 USDC paid');
    const chain = checkout.crypto_chains[0]!.chain;
    const layout = await page.evaluate(
      (ids) => {
        const offscreen: string[] = [];
        for (const el of Array.from(document.body.querySelectorAll('*'))) {
          const r = el.getBoundingClientRect();
          if (r.width === 0 || r.height === 0 || getComputedStyle(el).visibility === 'hidden') continue;
          if (el.closest('.sr-only')) continue;
          if (r.left < -0.5 || r.right > window.innerWidth + 0.5)
            offscreen.push(`${el.tagName}.${el.className} ${r.left}..${r.right}`);
        }
        const boxes = ids.map((id) => {
          const el = document.querySelector(`[data-testid="${id}"]`);
          const r = el?.getBoundingClientRect();
          return { id, r: r && r.width > 0 ? { l: r.left, t: r.top, r: r.right, b: r.bottom } : null };
        });
        const overlaps: string[] = [];
        for (let i = 0; i < boxes.length; i++)
          for (let j = i + 1; j < boxes.length; j++) {
            const a = boxes[i]!.r;
            const b = boxes[j]!.r;
            if (a && b && a.l < b.r - 0.5 && b.l < a.r - 0.5 && a.t < b.b - 0.5 && b.t < a.b - 0.5)
              overlaps.push(`${boxes[i]!.id} × ${boxes[j]!.id}`);
          }
        return {
          scrollWidth: document.documentElement.scrollWidth,
          innerWidth: window.innerWidth,
          offscreen,
          overlaps,
          missing: boxes.filter((b) => !b.r).map((b) => b.id),
        };
      },
      [
        'merchant',
        'env-badge',
        'title',
        'amount',
        'status',
        'countdown',
        'progress',
        `qr-${chain}`,
        `pay-amount-${chain}`,
        `copy-amount-${chain}`,
        `address-${chain}`,
        `copy-address-${chain}`,
        'simulate-full',
        'simulate-amount',
        'simulate-partial',
        'sandbox-clock',
      ],
    );
    expect(layout.missing).toEqual([]);
    expect(layout.scrollWidth).toBeLessThanOrEqual(layout.innerWidth);
    expect(layout.offscreen).toEqual([]);
    expect(layout.overlaps).toEqual([]);

    // Every deposit address reads whole: one line, nothing cut off, never broken mid-string.
    const addresses = await readAddresses(page);
    expect(addresses.length).toBeGreaterThan(0);
    for (const a of addresses) {
      expect(a.lines, `${a.id} lines`).toBe(1);
      expect(a.clipped, `${a.id} clipped`).toBe(false);
      expect(a.fontSize, `${a.id} font size`).toBeGreaterThanOrEqual(10.5);
    }

    // The summary beside the payment column is not a tall empty panel: no gap in it (above, between
    // or below its parts) takes more than a third of its height.
    const emptiest = await page.locator('.summary').evaluate((summary) => {
      const box = summary.getBoundingClientRect();
      const parts = Array.from(summary.children)
        .map((c) => c.getBoundingClientRect())
        .filter((r) => r.height > 0)
        .sort((a, b) => a.top - b.top);
      let edge = box.top;
      let widest = 0;
      for (const r of parts) {
        widest = Math.max(widest, r.top - edge);
        edge = Math.max(edge, r.bottom);
      }
      return Math.max(widest, box.bottom - edge) / box.height;
    });
    expect(emptiest).toBeLessThan(1 / 3);
    await shot(`hosted-${width}x${height}`);

    // The address is random: its EIP-55 capitals make it wider or narrower in a font that is not
    // monospace (the only font of a bare Linux Chromium is a sans-serif). The widest address this
    // font can draw, all of its widest character, fits as whole.
    const address = checkout.crypto_chains[0]!.address;
    const widest = await byTestId(`address-${chain}`).evaluate(
      (el, alphabet) => {
        const probe = document.createElement('span');
        probe.style.font = getComputedStyle(el).font;
        probe.style.whiteSpace = 'pre';
        document.body.append(probe);
        const width = (ch: string) => {
          probe.textContent = ch.repeat(20);
          return probe.getBoundingClientRect().width;
        };
        const best = [...alphabet].reduce((a, b) => (width(b) > width(a) ? b : a));
        probe.remove();
        return best;
      },
      address.startsWith('0x') ? '0123456789abcdefABCDEF' : address,
    );
    await page.route(checkout.hosted_url, async (route) => {
      const response = await route.fetch();
      const body = (await response.text()).replaceAll(address, widest.repeat(address.length));
      await route.fulfill({ response, body });
    });
    await page.goto(checkout.hosted_url);
    await waitForText(page, 'progress-text', '23.456789 of 123.456789 USDC paid');
    const worst = (await readAddresses(page)).find((a) => a.id === `address-${chain}`);
    expect(worst, `${chain} address of “${widest}”`).toMatchObject({ lines: 1, clipped: false });
  });
});

/** The shown deposit addresses: on how many lines, whether cut off, and their font size. */
function readAddresses(page: Page) {
  return page.locator('[data-testid^="address-"]').evaluateAll((els) =>
    // (the chain shown: the others' tabs are hidden)
    els
      .filter((el) => el.getBoundingClientRect().width > 0)
      .map((el) => {
        const style = getComputedStyle(el);
        const range = document.createRange();
        range.selectNodeContents(el);
        return {
          id: el.getAttribute('data-testid'),
          lines: new Set(Array.from(range.getClientRects()).map((r) => Math.round(r.top))).size,
          clipped: el.scrollWidth > el.clientWidth + 1,
          fontSize: Number.parseFloat(style.fontSize),
        };
      }),
  );
}

/** The chain's name as the page's tab or label shows it. */
async function chainWord(page: Page, chain: string): Promise<string> {
  return page.evaluate(
    (id) =>
      (
        JSON.parse(document.getElementById('checkout-state')!.textContent!) as {
          chains: { chain: string; name: string }[];
        }
      ).chains.find((c) => c.chain === id)!.name,
    chain,
  );
}

describe('KYC provider page', () => {
  it('approve from the page: the page and the API agree; a decision made elsewhere shows live', async () => {
    const { page } = h;
    const { api_key } = await call<{ api_key: { key: string } }>(h.sandbox, 'POST', '/sandbox/merchants', {
      name: 'Acme',
    });
    const holder = await call<{ id: string }>(
      h.sandbox,
      'POST',
      '/v1/cardholders',
      { name: 'Grace Hopper', email: 'grace@example.com' },
      api_key.key,
    );
    const kyc = await call<{ url: string }>(
      h.sandbox,
      'POST',
      `/v1/cardholders/${holder.id}/kyc`,
      undefined,
      api_key.key,
    );
    const verified = async () =>
      (
        await call<{ is_kyc_verified: boolean }>(
          h.sandbox,
          'GET',
          `/v1/cardholders/${holder.id}`,
          undefined,
          api_key.key,
        )
      ).is_kyc_verified;

    await page.goto(kyc.url);
    expect(await text('applicant')).toBe('Grace Hopper');
    expect(await text('kyc-status')).toBe('Pending review');
    await expect.poll(() => page.locator('link[rel="icon"]').count(), { timeout: 5_000 }).toBe(1);
    expect(await verified()).toBe(false);

    await byTestId('approve').click();
    await waitForText(page, 'kyc-status', 'Approved');
    expect(await text('outcome-title')).toBe('Identity verified');
    expect(await byTestId('approve').isDisabled()).toBe(true);
    expect(await verified()).toBe(true);
    await shot('kyc-approved');

    // The provider changes its mind through the control API: the open page follows.
    await call(h.sandbox, 'POST', `/sandbox/cardholders/${holder.id}/kyc`, { result: 'rejected' });
    await waitForText(page, 'kyc-status', 'Rejected');
    expect(await text('outcome-title')).toBe('Identity rejected');
    expect(await verified()).toBe(false);

    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});
