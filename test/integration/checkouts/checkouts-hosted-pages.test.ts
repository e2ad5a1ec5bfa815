import { describe, expect, it } from 'vitest';
import { formatTimestamp } from '../../../server/format/dates.js';
import { type Checkout, call, createCheckout, expectError, ok, pay, UNKNOWN_ID } from '../../helpers/api.js';
import { at, DAY, post, sandbox, useCheckoutSuite } from '../../helpers/checkouts.js';
import { createMerchant, testSandbox } from '../../helpers/sandbox.js';

describe('checkouts', () => {
  useCheckoutSuite();

  describe('hosted pages', () => {
    it('hosted_url serves an HTML page with the title, amount and every deposit address', async () => {
      const checkout = ok<Checkout>(
        await post({
          title: 'Blue Widget',
          description: 'Two of them',
          amount: 25_500_000,
          expires_at: at(DAY),
        }),
      );
      const page = await call(sandbox, { method: 'GET', url: new URL(checkout.hosted_url).pathname });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.body).toContain('Blue Widget');
      expect(page.body).toContain('Two of them');
      expect(page.body).toContain('25.50 USDC');
      // The dashboard's date format ("03 Dec 2026, 01:45 UTC"), not the browser locale's.
      expect(page.body).toContain(`data-testid="expires-at">${formatTimestamp(checkout.expires_at)}<`);
      expect(formatTimestamp(checkout.expires_at)).toMatch(/^\d{2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} UTC$/);
      for (const chain of checkout.crypto_chains) expect(page.body).toContain(chain.address);
      const statusOf = async () =>
        ok<Record<string, unknown>>(
          await call(sandbox, { method: 'GET', url: `/pay/${checkout.id}/status` }),
        );
      const status = await statusOf();
      expect(status).toEqual({
        id: checkout.id,
        status: 'active',
        amount: 25_500_000,
        currency: 'USDC',
        received_amount: 0,
        paid_amount: null,
        refunded_amount: 0,
        expires_at: checkout.expires_at,
        paid_at: null,
        now: expect.any(String),
        frozen: false,
      });
      expect(Math.abs(Date.parse(status.now as string) - sandbox.ctx.clock.now())).toBeLessThan(5_000);
      ok(await pay(sandbox, checkout.id, { amount: 5_000_000 }));
      expect(await statusOf()).toMatchObject({
        status: 'active',
        received_amount: 5_000_000,
        paid_amount: null,
      });
      ok(await pay(sandbox, checkout.id));
      expect(await statusOf()).toMatchObject({
        status: 'paid',
        received_amount: 25_500_000,
        paid_amount: 25_500_000,
      });
    });

    it('escapes the merchant’s text (no HTML injection)', async () => {
      const checkout = ok<Checkout>(
        await post({
          title: '<script>alert(1)</script>',
          description: '"><img src=x onerror=alert(1)>',
          expires_at: at(DAY),
        }),
      );
      const page = await call(sandbox, { method: 'GET', url: `/pay/${checkout.id}` });
      expect(page.body).not.toContain('<script>alert(1)</script>');
      expect(page.body).not.toContain('<img src=x');
      expect(page.body).toContain('&#60;script&#62;');
    });

    it('unknown checkout page → 404', async () => {
      expectError(await call(sandbox, { method: 'GET', url: `/pay/${UNKNOWN_ID}` }), 404);
      expectError(await call(sandbox, { method: 'GET', url: `/pay/${UNKNOWN_ID}/fiat` }), 404);
    });
  });
});

describe('hosted checkout page', () => {
  it('shows a QR code for every deposit address', async () => {
    const sandbox = await testSandbox();
    const actor = await createMerchant(sandbox);
    const checkout = await createCheckout(sandbox, actor, { title: 'QR', amount: 20_000_000 });
    const page = await sandbox.apps.test.inject({ url: new URL(checkout.hosted_url).pathname });
    expect(page.statusCode).toBe(200);
    for (const chain of checkout.crypto_chains) {
      expect(page.body).toMatch(new RegExp(`data-testid="qr-${chain.chain}"[^>]*><svg`));
      expect(page.body).toContain(chain.address);
    }
  });
});

describe('hosted page countdown', () => {
  it('counts down on the sandbox clock, not the host clock', async () => {
    const sandbox = await testSandbox();
    const actor = await createMerchant(sandbox);
    await sandbox.apps.test.inject({
      method: 'POST',
      url: '/sandbox/clock/advance',
      payload: { seconds: 86_400 },
    });
    const checkout = await createCheckout(sandbox, actor, { title: 'Later', amount: 20_000_000 });
    const page = await sandbox.apps.test.inject({ url: new URL(checkout.hosted_url).pathname });
    const embedded = JSON.parse(
      /<script type="application\/json" id="checkout-state">(.*?)<\/script>/.exec(page.body)![1]!,
    ) as { now: string; frozen: boolean };
    expect(Math.abs(Date.parse(embedded.now) - sandbox.ctx.clock.now())).toBeLessThan(5_000);
    expect(Date.parse(embedded.now) - Date.now()).toBeGreaterThan(86_000_000);
    expect(embedded.frozen).toBe(false);
    // Frozen: the page's status route says so, and its `now` stands still.
    await sandbox.apps.test.inject({ method: 'POST', url: '/sandbox/clock/freeze' });
    const status = async () =>
      (await sandbox.apps.test.inject({ url: `/pay/${checkout.id}/status` })).json() as {
        now: string;
        frozen: boolean;
      };
    const first = await status();
    expect(first.frozen).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect((await status()).now).toBe(first.now);
  });
});

describe('hosted checkout page states', () => {
  const open = async () => {
    const sandbox = await testSandbox();
    const actor = await createMerchant(sandbox, 'Northwind Coffee');
    const checkout = await createCheckout(sandbox, actor, { title: 'Beans', amount: 10_000_000 });
    const page = async () => (await sandbox.apps.test.inject({ url: `/pay/${checkout.id}` })).body;
    return { sandbox, actor, checkout, page };
  };

  it('an open checkout: merchant name, chains in words, copy buttons, sandbox tools, favicon', async () => {
    const { page } = await open();
    const body = await page();
    expect(body).toContain('data-testid="merchant">Northwind Coffee<');
    expect(body).toContain('data-testid="payment-options"');
    expect(body).toContain('data-testid="simulate-full"');
    expect(body).toMatch(/data-testid="copy-address-[a-z]+"/);
    expect(body).toMatch(/data-testid="copy-amount-[a-z]+"/);
    expect(body).toContain('<link rel="icon" type="image/svg+xml" href="data:image/svg+xml,');
    expect(body).not.toMatch(/>Bsc</);
    // Nothing the page needs comes from another address (the app works offline).
    expect(body).not.toMatch(/(?:src|href)="https?:/);
  });

  it.each([
    ['expired', 'expire'],
    ['cancelled', 'cancel'],
    ['paid', 'payments'],
  ] as const)(
    '%s: no payment options at all (no QR, no address, no Pay or simulate button)',
    async (status, action) => {
      const { sandbox, checkout, page } = await open();
      const res = await sandbox.apps.test.inject({
        method: 'POST',
        url: `/sandbox/checkouts/${checkout.id}/${action}`,
      });
      expect(res.statusCode).toBe(200);
      const body = await page();
      expect(body).toContain(`data-status="${status}"`);
      expect(body).not.toContain('data-testid="payment-options"');
      expect(body).not.toContain('data-testid="qr-');
      expect(body).not.toContain('data-testid="pay-card"');
      expect(body).toContain('data-testid="simulate-controls" hidden');
    },
  );

  it('past its expiry on the sandbox clock the page offers nothing, even before the scheduler ran', async () => {
    const { sandbox, checkout, page } = await open();
    sandbox.ctx.clock.advance(2 * 3600_000); // the clock alone: no due work run yet
    const body = await page();
    expect(body).toContain('data-status="active"');
    expect(body).not.toContain('data-testid="qr-');
    const status = (await sandbox.apps.test.inject({ url: `/pay/${checkout.id}/status` })).json();
    expect(Date.parse(status.now)).toBeGreaterThan(Date.parse(status.expires_at));
  });

  it('another environment’s checkout and unknown ids: 404 {error} on the page and its status route', async () => {
    const { sandbox, checkout } = await open();
    for (const url of [`/pay/${checkout.id}`, `/pay/${checkout.id}/status`, `/pay/${checkout.id}/fiat`]) {
      expectError(await call(sandbox, { method: 'GET', url }, 'production'), 404);
    }
    expectError(await call(sandbox, { method: 'GET', url: `/pay/${UNKNOWN_ID}/status` }), 404);
    expectError(await call(sandbox, { method: 'GET', url: '/pay/not-a-uuid/status' }), 422, 'id');
  });

  it('a title that says </script> cannot end the page’s state script', async () => {
    const sandbox = await testSandbox();
    const actor = await createMerchant(sandbox);
    const checkout = await createCheckout(sandbox, actor, { title: '</script><script>alert(1)</script>' });
    const body = (await sandbox.apps.test.inject({ url: `/pay/${checkout.id}` })).body;
    expect(body).not.toContain('</script><script>alert(1)');
    expect(body.match(/<script/g)).toHaveLength(2);
  });
});
