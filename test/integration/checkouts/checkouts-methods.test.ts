import { describe, expect, it } from 'vitest';
import { type Checkout, call, ok } from '../../helpers/api.js';
import { at, DAY, post, sandbox, useCheckoutSuite } from '../../helpers/checkouts.js';

describe('checkouts', () => {
  useCheckoutSuite();

  describe('create', () => {
    describe('fiat and any', () => {
      it('fiat returns {session_url, success_url, cancel_url} and no crypto chains', async () => {
        const checkout = ok<Checkout>(
          await post({
            title: 'Card',
            amount: 1_000,
            currency: 'USD',
            method: 'fiat',
            success_url: 'https://shop.example/ok',
            cancel_url: 'https://shop.example/no',
            expires_at: at(DAY),
          }),
        );
        expect(checkout.crypto_chains).toEqual([]);
        expect(checkout.fiat).toEqual({
          session_url: expect.stringMatching(/^http:\/\/.+/),
          success_url: 'https://shop.example/ok',
          cancel_url: 'https://shop.example/no',
        });
        expect(Object.keys(checkout.fiat!).sort()).toEqual(['cancel_url', 'session_url', 'success_url']);
        const page = await call(sandbox, {
          method: 'GET',
          url: new URL(checkout.fiat!.session_url).pathname,
        });
        expect(page.statusCode).toBe(200);
        expect(page.headers['content-type']).toMatch(/^text\/html/);
        expect(page.body).toContain('Card payment');
      });

      it('fiat without redirect URLs has them null', async () => {
        const checkout = ok<Checkout>(
          await post({ title: 'c', amount: 1_000, method: 'fiat', expires_at: at(DAY) }),
        );
        expect(checkout.fiat).toMatchObject({ success_url: null, cancel_url: null });
      });

      it('any returns both the crypto chains and the fiat session', async () => {
        const checkout = ok<Checkout>(
          await post({ title: 'Both', amount: 20_000_000, method: 'any', expires_at: at(DAY) }),
        );
        expect(checkout.crypto_chains.length).toBeGreaterThan(0);
        expect(checkout.fiat?.session_url).toBeTypeOf('string');
      });

      it('crypto returns fiat null', async () => {
        const checkout = ok<Checkout>(await post({ title: 'c', method: 'crypto', expires_at: at(DAY) }));
        expect(checkout.fiat).toBeNull();
      });
    });
  });
});
