import { describe, expect, it } from 'vitest';
import { expectAddressValidFor } from '../../helpers/addresses.js';
import {
  type Checkout,
  call,
  control,
  createMerchant,
  expectError,
  getCheckout,
  ok,
  patchSettings,
} from '../../helpers/api.js';
import {
  actor,
  at,
  DAY,
  FULL_KEYS,
  isolate,
  post,
  sandbox,
  time,
  useCheckoutSuite,
} from '../../helpers/checkouts.js';

describe('checkouts', () => {
  useCheckoutSuite();

  describe('create', () => {
    it('round-trips every field, and GET returns the same full object', async () => {
      const customer = ok<{ id: string }>(
        await call(sandbox, {
          method: 'POST',
          url: '/v1/customers',
          headers: actor.auth,
          payload: { name: 'C' },
        }),
      );
      const expiresAt = at(2 * DAY);
      const checkout = ok<Checkout>(
        await post({
          title: 'Pro plan',
          description: 'One year',
          amount: 25_000_000,
          currency: 'USDT',
          method: 'crypto',
          chains: ['Tron', 'polygon'],
          reference: 'order-42',
          success_url: 'https://shop.example/ok',
          cancel_url: 'https://shop.example/cancel',
          expires_at: expiresAt,
          customer_id: customer.id,
        }),
      );
      expect(Object.keys(checkout).sort()).toEqual(FULL_KEYS);
      expect(checkout).toMatchObject({
        merchant_id: actor.merchantId,
        title: 'Pro plan',
        description: 'One year',
        amount: 25_000_000,
        currency: 'USDT',
        method: 'crypto',
        status: 'active',
        reference: 'order-42',
        customer_id: customer.id,
        paid_amount: null,
        paid_at: null,
        payer_address: null,
        refunded_amount: 0,
        refund_status: null,
        reseller_id: null,
        reseller_fee: 0,
        platform_fee: 0,
        platform_gas_fee: 0,
        expires_at: expiresAt,
        fiat: null,
      });
      expect(checkout.created_at).toBe(sandbox.ctx.clock.nowIso());
      expect(checkout.updated_at).toBe(checkout.created_at);
      expect(new URL(checkout.hosted_url).pathname).toBe(`/pay/${checkout.id}`);
      expect(checkout.crypto_chains.map((c) => c.chain)).toEqual(['tron', 'polygon']);
      expect(await getCheckout(sandbox, actor, checkout.id)).toEqual(checkout);
    });

    it('defaults: currency USDC, method crypto, nulls for the optional fields', async () => {
      const checkout = ok<Checkout>(await post({ title: 'Min', expires_at: at(3600_000) }));
      expect(checkout).toMatchObject({
        currency: 'USDC',
        method: 'crypto',
        amount: null,
        description: null,
        reference: null,
        customer_id: null,
        fiat: null,
      });
      // an open amount is not filtered by token minimums: every stablecoin chain
      expect(checkout.crypto_chains.map((c) => c.chain)).toEqual(['ethereum', 'tron', 'polygon', 'bsc']);
    });

    it('expires_at with a timezone offset is normalised to UTC', async () => {
      const local = new Date(time.ms + 3600_000).toISOString().replace('Z', '+00:00');
      const checkout = ok<Checkout>(await post({ title: 't', expires_at: local }));
      expect(checkout.expires_at).toBe(at(3600_000));
    });

    it('one deposit address per chain, each valid for its chain, with the chain’s tokens', async () => {
      const checkout = ok<Checkout>(await post({ title: 'All', amount: 50_000_000, expires_at: at(DAY) }));
      const chains = checkout.crypto_chains.map((c) => c.chain);
      expect(chains).toEqual(['ethereum', 'tron', 'polygon', 'bsc']);
      expect(new Set(checkout.crypto_chains.map((c) => c.address)).size).toBe(chains.length);
      for (const entry of checkout.crypto_chains) {
        expectAddressValidFor(entry.chain, entry.address);
        expect(entry.tokens.length).toBeGreaterThan(0);
        for (const token of entry.tokens) {
          expect(Object.keys(token).sort()).toEqual(['contract_address', 'gas_fee', 'max', 'min', 'name']);
          expect(['USDC', 'USDT']).toContain(token.name);
        }
      }
      const eth = checkout.crypto_chains.find((c) => c.chain === 'ethereum')!;
      expect(eth.tokens.map((t) => t.name)).toEqual(['USDC', 'USDT']);
      expect(eth.tokens[0]).toEqual({
        name: 'USDC',
        contract_address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
        min: 10_000_000,
        max: 0,
        gas_fee: 2_000_000,
      });
      // addresses are not reused across checkouts
      const second = ok<Checkout>(await post({ title: 'All', amount: 50_000_000, expires_at: at(DAY) }));
      const first = new Set(checkout.crypto_chains.map((c) => c.address));
      expect(second.crypto_chains.some((c) => first.has(c.address))).toBe(false);
    });

    it('ETH and BTC checkouts get only the chain that carries that coin', async () => {
      const eth = ok<Checkout>(
        await post({ title: 'e', amount: 1_000, currency: 'ETH', expires_at: at(DAY) }),
      );
      expect(eth.crypto_chains.map((c) => [c.chain, c.tokens.map((t) => t.name)])).toEqual([
        ['ethereum', ['ETH']],
      ]);
      const btc = ok<Checkout>(
        await post({ title: 'b', amount: 1_000, currency: 'btc', expires_at: at(DAY) }),
      );
      expect(btc.currency).toBe('BTC');
      expect(btc.crypto_chains.map((c) => c.chain)).toEqual(['bitcoin']);
      expectAddressValidFor('bitcoin', btc.crypto_chains[0]!.address);
    });

    it('token minimums: 5 USDC gets no ethereum (min 10 USDC); 10 USDC does', async () => {
      const small = ok<Checkout>(await post({ title: 's', amount: 5_000_000, expires_at: at(DAY) }));
      expect(small.crypto_chains.map((c) => c.chain)).toEqual(['tron', 'polygon', 'bsc']);
      const exact = ok<Checkout>(await post({ title: 'x', amount: 10_000_000, expires_at: at(DAY) }));
      expect(exact.crypto_chains.map((c) => c.chain)).toContain('ethereum');
      // below tron's and bsc's 1 USDT minimum: only polygon (no minimum) is left
      const tiny = ok<Checkout>(await post({ title: 't', amount: 999_999, expires_at: at(DAY) }));
      expect(tiny.crypto_chains.map((c) => c.chain)).toEqual(['polygon']);
    });

    it('token maximums filter too, and a chain keeps only the tokens that admit the amount', async () => {
      await isolate();
      const settings = ok<{ chains: Checkout['crypto_chains'] }>(
        await control(sandbox, 'GET', '/sandbox/settings'),
      );
      const chains = settings.chains.map((c) =>
        c.chain === 'polygon'
          ? { ...c, tokens: c.tokens.map((t) => (t.name === 'USDC' ? { ...t, max: 100_000_000 } : t)) }
          : c,
      );
      await patchSettings(sandbox, { chains });
      const big = ok<Checkout>(
        await post({ title: 'b', amount: 100_000_001, chains: ['polygon'], expires_at: at(DAY) }),
      );
      expect(big.crypto_chains[0]!.tokens.map((t) => t.name)).toEqual(['USDT']);
      const fits = ok<Checkout>(
        await post({ title: 'f', amount: 100_000_000, chains: ['polygon'], expires_at: at(DAY) }),
      );
      expect(fits.crypto_chains[0]!.tokens.map((t) => t.name)).toEqual(['USDC', 'USDT']);
    });

    it('chains filter: names are case-insensitive and unknown names are dropped', async () => {
      const checkout = ok<Checkout>(
        await post({
          title: 'c',
          amount: 20_000_000,
          chains: ['ETHEREUM', 'Solana', 'bsc'],
          expires_at: at(DAY),
        }),
      );
      expect(checkout.crypto_chains.map((c) => c.chain)).toEqual(['ethereum', 'bsc']);
    });

    describe('the four 400 cases', () => {
      it('expires_at in the past, or exactly now', async () => {
        expectError(await post({ title: 't', expires_at: at(-1000) }), 400, 'expires_at');
        expectError(await post({ title: 't', expires_at: at(0) }), 400, 'expires_at');
        ok(await post({ title: 't', expires_at: at(1000) }));
      });

      it('expires_at more than 30 days ahead (exactly 30 days is fine)', async () => {
        expectError(await post({ title: 't', expires_at: at(30 * DAY + 1000) }), 400, '30 days');
        ok(await post({ title: 't', expires_at: at(30 * DAY) }));
      });

      it('“now” is the sandbox clock: after advancing a day, yesterday’s future is the past', async () => {
        const soon = at(3600_000);
        ok(await control(sandbox, 'POST', '/sandbox/clock/advance', { seconds: 86_400 }));
        expectError(await post({ title: 't', expires_at: soon }), 400, 'expires_at');
        ok(await post({ title: 't', expires_at: at(DAY + 3600_000) }));
      });

      it('duplicate reference for the merchant → 400; another merchant may reuse it', async () => {
        ok(await post({ title: 'a', reference: 'inv-7', expires_at: at(DAY) }));
        expectError(await post({ title: 'b', reference: 'inv-7', expires_at: at(DAY) }), 400, 'inv-7');
        const other = await createMerchant(sandbox, 'Other');
        ok(await post({ title: 'c', reference: 'inv-7', expires_at: at(DAY) }, other.auth));
        // cancelling does not free the reference
        const list = ok<Checkout[]>(
          await call(sandbox, { method: 'GET', url: '/v1/checkouts', headers: actor.auth }),
        );
        expect(list.filter((c) => c.reference === 'inv-7')).toHaveLength(1);
      });

      it('no eligible chains: chains ["solana"], or a catalogue minimum above the amount', async () => {
        await isolate();
        expectError(
          await post({ title: 't', amount: 50_000_000, chains: ['solana'], expires_at: at(DAY) }),
          400,
          'chain',
        );
        expectError(
          await post({ title: 't', amount: 50_000_000, chains: [], expires_at: at(DAY) }),
          400,
          'chain',
        );
        expectError(
          await post({ title: 't', amount: 5_000_000, chains: ['ethereum'], expires_at: at(DAY) }),
          400,
          'No eligible chains',
        );
        const settings = ok<{ chains: Checkout['crypto_chains'] }>(
          await control(sandbox, 'GET', '/sandbox/settings'),
        );
        const high = settings.chains.map((c) => ({
          ...c,
          tokens: c.tokens.map((t) => ({ ...t, min: 1_000_000_000 })),
        }));
        await patchSettings(sandbox, { chains: high });
        expectError(
          await post({ title: 't', amount: 50_000_000, expires_at: at(DAY) }),
          400,
          'No eligible chains',
        );
        // the failed attempts created nothing
        const list = ok<Checkout[]>(
          await call(sandbox, { method: 'GET', url: '/v1/checkouts', headers: actor.auth }),
        );
        expect(list).toEqual([]);
      });
    });
  });
});
