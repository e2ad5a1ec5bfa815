import { describe, expect, it } from 'vitest';
import { type Checkout, call, expectError, ok, pay, UNKNOWN_ID } from '../helpers/api.js';
import { at, DAY, post, sandbox, useCheckoutSuite } from '../helpers/checkouts.js';
import { createMerchant, inFuture, testSandbox } from '../helpers/sandbox.js';

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
      for (const chain of checkout.crypto_chains) expect(page.body).toContain(chain.address);
      const status = ok<{ status: string; paid_amount: number | null }>(
        await call(sandbox, { method: 'GET', url: `/pay/${checkout.id}/status` }),
      );
      expect(status).toEqual({ status: 'active', paid_amount: null });
      ok(await pay(sandbox, checkout.id));
      const paid = ok<{ status: string; paid_amount: number | null }>(
        await call(sandbox, { method: 'GET', url: `/pay/${checkout.id}/status` }),
      );
      expect(paid).toEqual({ status: 'paid', paid_amount: 25_500_000 });
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
    const checkout = (
      await sandbox.apps.test.inject({
        method: 'POST',
        url: '/v1/checkouts',
        headers: actor.auth,
        payload: { title: 'QR', amount: 20_000_000, expires_at: inFuture(sandbox) },
      })
    ).json();
    const page = await sandbox.apps.test.inject({ url: new URL(checkout.hosted_url).pathname });
    expect(page.statusCode).toBe(200);
    for (const chain of checkout.crypto_chains) {
      expect(page.body).toContain(`data-testid="qr-${chain.chain}"><svg`);
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
    const checkout = (
      await sandbox.apps.test.inject({
        method: 'POST',
        url: '/v1/checkouts',
        headers: actor.auth,
        payload: { title: 'Later', amount: 20_000_000, expires_at: inFuture(sandbox) },
      })
    ).json();
    const page = await sandbox.apps.test.inject({ url: new URL(checkout.hosted_url).pathname });
    const embedded = /Date\.parse\("([^"]+)"\) - Date\.now\(\)/.exec(page.body)?.[1];
    expect(Math.abs(Date.parse(embedded!) - sandbox.ctx.clock.now())).toBeLessThan(5_000);
    expect(Date.parse(embedded!) - Date.now()).toBeGreaterThan(86_000_000);
  });
});
