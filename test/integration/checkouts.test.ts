import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../server/sandbox.js';
import { expectAddressValidFor } from '../helpers/addresses.js';
import {
  type Actor,
  type CheckoutJson,
  call,
  control,
  createMerchant,
  expectError,
  getCheckout,
  ok,
  pay,
  patchSettings,
  UNKNOWN_ID,
} from '../helpers/api.js';
import { ManualTime, testSandbox } from '../helpers/sandbox.js';
import { useSharedSandbox } from '../helpers/suite.js';

const DAY = 86_400_000;
const BASE_KEYS = [
  'amount',
  'created_at',
  'currency',
  'customer_id',
  'description',
  'expires_at',
  'hosted_url',
  'id',
  'merchant_id',
  'method',
  'paid_amount',
  'paid_at',
  'payer_address',
  'platform_fee',
  'platform_gas_fee',
  'reference',
  'refund_status',
  'refunded_amount',
  'reseller_fee',
  'reseller_id',
  'status',
  'title',
  'updated_at',
];
const FULL_KEYS = [...BASE_KEYS, 'crypto_chains', 'fiat'].sort();

describe('checkouts', () => {
  const time = new ManualTime();
  const shared = useSharedSandbox(() => ({ realNow: time.now }));
  let sandbox: Sandbox;
  let actor: Actor;
  const at = (ms: number) => new Date(sandbox.ctx.clock.now() + ms).toISOString();
  /** For tests that change settings or the clock: a sandbox of their own. */
  const isolate = async () => {
    sandbox = await testSandbox({ realNow: time.now });
    actor = await createMerchant(sandbox);
  };

  const post = (payload: unknown, headers: Record<string, string> = actor.auth) =>
    call(sandbox, { method: 'POST', url: '/v1/checkouts', headers, payload: payload as object });

  beforeEach(async () => {
    sandbox = shared();
    actor = await createMerchant(sandbox);
  });

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
      const checkout = ok<CheckoutJson>(
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
      const checkout = ok<CheckoutJson>(await post({ title: 'Min', expires_at: at(3600_000) }));
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
      const checkout = ok<CheckoutJson>(await post({ title: 't', expires_at: local }));
      expect(checkout.expires_at).toBe(at(3600_000));
    });

    it('one deposit address per chain, each valid for its chain, with the chain’s tokens', async () => {
      const checkout = ok<CheckoutJson>(
        await post({ title: 'All', amount: 50_000_000, expires_at: at(DAY) }),
      );
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
      const second = ok<CheckoutJson>(await post({ title: 'All', amount: 50_000_000, expires_at: at(DAY) }));
      const first = new Set(checkout.crypto_chains.map((c) => c.address));
      expect(second.crypto_chains.some((c) => first.has(c.address))).toBe(false);
    });

    it('ETH and BTC checkouts get only the chain that carries that coin', async () => {
      const eth = ok<CheckoutJson>(
        await post({ title: 'e', amount: 1_000, currency: 'ETH', expires_at: at(DAY) }),
      );
      expect(eth.crypto_chains.map((c) => [c.chain, c.tokens.map((t) => t.name)])).toEqual([
        ['ethereum', ['ETH']],
      ]);
      const btc = ok<CheckoutJson>(
        await post({ title: 'b', amount: 1_000, currency: 'btc', expires_at: at(DAY) }),
      );
      expect(btc.currency).toBe('BTC');
      expect(btc.crypto_chains.map((c) => c.chain)).toEqual(['bitcoin']);
      expectAddressValidFor('bitcoin', btc.crypto_chains[0]!.address);
    });

    it('token minimums: 5 USDC gets no ethereum (min 10 USDC); 10 USDC does', async () => {
      const small = ok<CheckoutJson>(await post({ title: 's', amount: 5_000_000, expires_at: at(DAY) }));
      expect(small.crypto_chains.map((c) => c.chain)).toEqual(['tron', 'polygon', 'bsc']);
      const exact = ok<CheckoutJson>(await post({ title: 'x', amount: 10_000_000, expires_at: at(DAY) }));
      expect(exact.crypto_chains.map((c) => c.chain)).toContain('ethereum');
      // below tron's and bsc's 1 USDT minimum: only polygon (no minimum) is left
      const tiny = ok<CheckoutJson>(await post({ title: 't', amount: 999_999, expires_at: at(DAY) }));
      expect(tiny.crypto_chains.map((c) => c.chain)).toEqual(['polygon']);
    });

    it('token maximums filter too, and a chain keeps only the tokens that admit the amount', async () => {
      await isolate();
      const settings = ok<{ chains: CheckoutJson['crypto_chains'] }>(
        await control(sandbox, 'GET', '/sandbox/settings'),
      );
      const chains = settings.chains.map((c) =>
        c.chain === 'polygon'
          ? { ...c, tokens: c.tokens.map((t) => (t.name === 'USDC' ? { ...t, max: 100_000_000 } : t)) }
          : c,
      );
      await patchSettings(sandbox, { chains });
      const big = ok<CheckoutJson>(
        await post({ title: 'b', amount: 100_000_001, chains: ['polygon'], expires_at: at(DAY) }),
      );
      expect(big.crypto_chains[0]!.tokens.map((t) => t.name)).toEqual(['USDT']);
      const fits = ok<CheckoutJson>(
        await post({ title: 'f', amount: 100_000_000, chains: ['polygon'], expires_at: at(DAY) }),
      );
      expect(fits.crypto_chains[0]!.tokens.map((t) => t.name)).toEqual(['USDC', 'USDT']);
    });

    it('chains filter: names are case-insensitive and unknown names are dropped', async () => {
      const checkout = ok<CheckoutJson>(
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
        const list = ok<CheckoutJson[]>(
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
        const settings = ok<{ chains: CheckoutJson['crypto_chains'] }>(
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
        const list = ok<CheckoutJson[]>(
          await call(sandbox, { method: 'GET', url: '/v1/checkouts', headers: actor.auth }),
        );
        expect(list).toEqual([]);
      });
    });

    describe('fiat and any', () => {
      it('fiat returns {session_url, success_url, cancel_url} and no crypto chains', async () => {
        const checkout = ok<CheckoutJson>(
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
        const checkout = ok<CheckoutJson>(
          await post({ title: 'c', amount: 1_000, method: 'fiat', expires_at: at(DAY) }),
        );
        expect(checkout.fiat).toMatchObject({ success_url: null, cancel_url: null });
      });

      it('any returns both the crypto chains and the fiat session', async () => {
        const checkout = ok<CheckoutJson>(
          await post({ title: 'Both', amount: 20_000_000, method: 'any', expires_at: at(DAY) }),
        );
        expect(checkout.crypto_chains.length).toBeGreaterThan(0);
        expect(checkout.fiat?.session_url).toBeTypeOf('string');
      });

      it('crypto returns fiat null', async () => {
        const checkout = ok<CheckoutJson>(await post({ title: 'c', method: 'crypto', expires_at: at(DAY) }));
        expect(checkout.fiat).toBeNull();
      });
    });

    describe('inline customer', () => {
      it('customer_name creates a customer visible in GET /v1/customers', async () => {
        const checkout = ok<CheckoutJson>(
          await post({
            title: 't',
            expires_at: at(DAY),
            customer_name: 'Grace',
            customer_email: 'grace@example.com',
            customer_country: 'USA',
          }),
        );
        expect(checkout.customer_id).not.toBeNull();
        const customers = ok<{ id: string; name: string; email: string; country: string }[]>(
          await call(sandbox, { method: 'GET', url: '/v1/customers', headers: actor.auth }),
        );
        expect(customers).toHaveLength(1);
        expect(customers[0]).toMatchObject({
          id: checkout.customer_id,
          name: 'Grace',
          email: 'grace@example.com',
          country: 'USA',
        });
      });

      it('customer_email of an existing customer attaches it (no new customer)', async () => {
        const existing = ok<{ id: string }>(
          await call(sandbox, {
            method: 'POST',
            url: '/v1/customers',
            headers: actor.auth,
            payload: { name: 'Lin', email: 'lin@example.com' },
          }),
        );
        const checkout = ok<CheckoutJson>(
          await post({ title: 't', expires_at: at(DAY), customer_email: 'lin@example.com' }),
        );
        expect(checkout.customer_id).toBe(existing.id);
        const withName = ok<CheckoutJson>(
          await post({
            title: 't',
            expires_at: at(DAY),
            customer_email: 'lin@example.com',
            customer_name: 'Lin',
          }),
        );
        expect(withName.customer_id).toBe(existing.id);
        const customers = ok<unknown[]>(
          await call(sandbox, { method: 'GET', url: '/v1/customers', headers: actor.auth }),
        );
        expect(customers).toHaveLength(1);
      });

      it('customer_email of another merchant’s customer does not attach it', async () => {
        const other = await createMerchant(sandbox, 'Other');
        const theirs = ok<{ id: string }>(
          await call(sandbox, {
            method: 'POST',
            url: '/v1/customers',
            headers: other.auth,
            payload: { name: 'Lin', email: 'lin@example.com' },
          }),
        );
        const checkout = ok<CheckoutJson>(
          await post({
            title: 't',
            expires_at: at(DAY),
            customer_email: 'lin@example.com',
            customer_name: 'Lin',
          }),
        );
        expect(checkout.customer_id).not.toBe(theirs.id);
        expect(checkout.customer_id).not.toBeNull();
      });

      it('customer_id attaches; another merchant’s → 403; unknown → 404', async () => {
        const mine = ok<{ id: string }>(
          await call(sandbox, {
            method: 'POST',
            url: '/v1/customers',
            headers: actor.auth,
            payload: { name: 'M' },
          }),
        );
        const attached = ok<CheckoutJson>(
          await post({ title: 't', expires_at: at(DAY), customer_id: mine.id }),
        );
        expect(attached.customer_id).toBe(mine.id);
        const other = await createMerchant(sandbox, 'Other');
        const theirs = ok<{ id: string }>(
          await call(sandbox, {
            method: 'POST',
            url: '/v1/customers',
            headers: other.auth,
            payload: { name: 'T' },
          }),
        );
        expectError(await post({ title: 't', expires_at: at(DAY), customer_id: theirs.id }), 403);
        expectError(
          await post({ title: 't', expires_at: at(DAY), customer_id: UNKNOWN_ID }),
          404,
          UNKNOWN_ID,
        );
        // the refused calls created no checkout
        const list = ok<CheckoutJson[]>(
          await call(sandbox, { method: 'GET', url: '/v1/checkouts', headers: actor.auth }),
        );
        expect(list.map((c) => c.id)).toEqual([attached.id]);
      });

      it('a failed create does not leave an inline customer behind', async () => {
        ok(await post({ title: 'a', reference: 'dup', expires_at: at(DAY) }));
        expectError(
          await post({ title: 'b', reference: 'dup', customer_name: 'Ghost', expires_at: at(DAY) }),
          400,
        );
        const customers = ok<unknown[]>(
          await call(sandbox, { method: 'GET', url: '/v1/customers', headers: actor.auth }),
        );
        expect(customers).toEqual([]);
      });
    });
  });

  describe('validation → 422 naming the field', () => {
    it.each([
      ['missing title', { expires_at: 'FUTURE' }, 'title'],
      ['empty title', { title: '', expires_at: 'FUTURE' }, 'title'],
      ['missing expires_at', { title: 't' }, 'expires_at'],
      ['amount as string "100"', { title: 't', amount: '100', expires_at: 'FUTURE' }, 'amount'],
      ['amount 0', { title: 't', amount: 0, expires_at: 'FUTURE' }, 'amount'],
      ['amount negative', { title: 't', amount: -5, expires_at: 'FUTURE' }, 'amount'],
      ['amount float 1.5', { title: 't', amount: 1.5, expires_at: 'FUTURE' }, 'amount'],
      ['amount beyond 2^53', { title: 't', amount: 2 ** 60, expires_at: 'FUTURE' }, 'amount'],
      ['currency "DOGE"', { title: 't', currency: 'DOGE', expires_at: 'FUTURE' }, 'currency'],
      ['currency "US$"', { title: 't', currency: 'US$', expires_at: 'FUTURE' }, 'currency'],
      [
        'currency ETH with method fiat',
        { title: 't', currency: 'ETH', method: 'fiat', expires_at: 'FUTURE' },
        'currency',
      ],
      ['method "cash"', { title: 't', method: 'cash', expires_at: 'FUTURE' }, 'method'],
      ['expires_at "tomorrow"', { title: 't', expires_at: 'tomorrow' }, 'expires_at'],
      ['expires_at date only', { title: 't', expires_at: '2026-01-16' }, 'expires_at'],
      ['expires_at without zone', { title: 't', expires_at: '2026-01-16T10:00:00' }, 'expires_at'],
      ['expires_at Feb 30', { title: 't', expires_at: '2026-02-30T10:00:00Z' }, 'expires_at'],
      ['expires_at as epoch number', { title: 't', expires_at: 1_800_000_000 }, 'expires_at'],
      [
        'customer_country "US"',
        { title: 't', customer_name: 'c', customer_country: 'US', expires_at: 'FUTURE' },
        'customer_country',
      ],
      [
        'customer_country "XXX"',
        { title: 't', customer_name: 'c', customer_country: 'XXX', expires_at: 'FUTURE' },
        'customer_country',
      ],
      [
        'customer_email "nope"',
        { title: 't', customer_email: 'nope', expires_at: 'FUTURE' },
        'customer_email',
      ],
      ['customer_id not a uuid', { title: 't', customer_id: '123', expires_at: 'FUTURE' }, 'customer_id'],
      ['chains not an array', { title: 't', chains: 'tron', expires_at: 'FUTURE' }, 'chains'],
      ['chains with a number', { title: 't', chains: [1], expires_at: 'FUTURE' }, 'chains'],
      [
        'chains with the fiat method',
        { title: 't', method: 'fiat', chains: ['tron'], expires_at: 'FUTURE' },
        'chains',
      ],
      [
        'success_url not a URL',
        { title: 't', success_url: 'not a url', expires_at: 'FUTURE' },
        'success_url',
      ],
      ['reference empty', { title: 't', reference: '', expires_at: 'FUTURE' }, 'reference'],
      ['title null', { title: null, expires_at: 'FUTURE' }, 'title'],
      ['description null', { title: 't', description: null, expires_at: 'FUTURE' }, 'description'],
      ['title an object', { title: { en: 'x' }, expires_at: 'FUTURE' }, 'title'],
      ['merchant_id not a uuid', { title: 't', merchant_id: 'm', expires_at: 'FUTURE' }, 'merchant_id'],
    ])('%s', async (_label, payload, field) => {
      const body = { ...payload } as Record<string, unknown>;
      if (body.expires_at === 'FUTURE') body.expires_at = at(DAY);
      const message = expectError(await post(body), 422);
      expect(message.startsWith(field) || message.includes(`${field}:`), message).toBe(true);
      const list = ok<CheckoutJson[]>(
        await call(sandbox, { method: 'GET', url: '/v1/checkouts', headers: actor.auth }),
      );
      expect(list).toEqual([]);
    });

    it('customer_email without a name and no existing customer → 422 naming customer_name', async () => {
      expectError(
        await post({ title: 't', customer_email: 'new@example.com', expires_at: at(DAY) }),
        422,
        'customer_name',
      );
    });

    it('merchant_id of another merchant (no reseller connection) → 403', async () => {
      const other = await createMerchant(sandbox, 'Other');
      expectError(
        await post({ title: 't', merchant_id: other.merchantId, expires_at: at(DAY) }),
        403,
        'merchant_id',
      );
    });

    it('expires_at with a leap second (valid date-time syntax, unparseable date) is a 4xx, not a 500', async () => {
      const res = await post({ title: 't', expires_at: '2026-06-30T23:59:60Z' });
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      expectError(res, res.statusCode, 'expires_at');
    });

    it('malformed JSON → 400; empty JSON body → 400', async () => {
      const headers = { ...actor.auth, 'content-type': 'application/json' };
      expectError(
        await call(sandbox, { method: 'POST', url: '/v1/checkouts', headers, payload: '{"title": ' }),
        400,
        'JSON',
      );
      expectError(
        await call(sandbox, { method: 'POST', url: '/v1/checkouts', headers, payload: '{bad}' }),
        400,
        'JSON',
      );
      expectError(
        await call(sandbox, { method: 'POST', url: '/v1/checkouts', headers, payload: '' }),
        400,
        'JSON',
      );
    });

    it('JSON that is not an object → 422', async () => {
      const headers = { ...actor.auth, 'content-type': 'application/json' };
      for (const payload of ['[]', '"text"', '42', 'null', 'true']) {
        expectError(
          await call(sandbox, { method: 'POST', url: '/v1/checkouts', headers, payload }),
          422,
          'body',
        );
      }
    });

    it('a __proto__ key is refused, not merged', async () => {
      const headers = { ...actor.auth, 'content-type': 'application/json' };
      const res = await call(sandbox, {
        method: 'POST',
        url: '/v1/checkouts',
        headers,
        payload: `{"title":"t","expires_at":"${at(DAY)}","__proto__":{"amount":5}}`,
      });
      expectError(res, 400);
    });

    it('text/plain, form and no content type → 415 (JSON only)', async () => {
      const body = JSON.stringify({ title: 't', expires_at: at(DAY) });
      for (const type of [
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
      ]) {
        expectError(
          await call(sandbox, {
            method: 'POST',
            url: '/v1/checkouts',
            headers: { ...actor.auth, 'content-type': type },
            payload: body,
          }),
          415,
          'application/json',
        );
      }
      const list = ok<CheckoutJson[]>(
        await call(sandbox, { method: 'GET', url: '/v1/checkouts', headers: actor.auth }),
      );
      expect(list).toEqual([]);
    });

    it('application/json with a charset parameter is accepted', async () => {
      ok(
        await call(sandbox, {
          method: 'POST',
          url: '/v1/checkouts',
          headers: { ...actor.auth, 'content-type': 'application/json; charset=utf-8' },
          payload: JSON.stringify({ title: 't', expires_at: at(DAY) }),
        }),
      );
    });

    it('odd inputs never give a 500: huge numbers, deep nesting, unicode, nulls', async () => {
      const headers = { ...actor.auth, 'content-type': 'application/json' };
      const raw = [
        `{"title":"t","amount":1e400,"expires_at":"${at(DAY)}"}`,
        `{"title":"t","amount":123456789012345678901234567890,"expires_at":"${at(DAY)}"}`,
        `{"title":"t","amount":-0,"expires_at":"${at(DAY)}"}`,
        `{"title":"t","amount":1e2,"expires_at":"${at(DAY)}"}`,
        `{"title":${'['.repeat(3000)}${']'.repeat(3000)},"expires_at":"${at(DAY)}"}`,
        `{"title":"t","expires_at":"${at(DAY)}","chains":null}`,
        `{"title":"t","expires_at":null}`,
        `{"title":"\\ud800","expires_at":"${at(DAY)}"}`,
        `{"title":"t","expires_at":"${at(DAY)}","reference":"${'r'.repeat(10_000)}"}`,
        `{"title":"t","expires_at":"${at(DAY)}","currency":"usdc"}`,
        `{"title":"t","expires_at":"${at(DAY)}","customer_name":"\u0000"}`,
        `{"title":"t","title":"twice","expires_at":"${at(DAY)}"}`,
        `{"title":"t","expires_at":"99999-01-01T00:00:00Z"}`,
        `{"title":"t","expires_at":"${at(DAY)}","chains":["${'x'.repeat(40)}"]}`,
      ];
      for (const payload of raw) {
        const res = await call(sandbox, { method: 'POST', url: '/v1/checkouts', headers, payload });
        expect(res.statusCode, `${payload.slice(0, 80)} → ${res.body}`).toBeLessThan(500);
        if (res.statusCode >= 400) expectError(res, res.statusCode);
      }
      const unicode = ok<CheckoutJson>(
        await post({ title: 'Café 💸 日本 \u202e', description: 'ü'.repeat(100), expires_at: at(DAY) }),
      );
      expect((await getCheckout(sandbox, actor, unicode.id)).title).toBe('Café 💸 日本 \u202e');
      // 1e2 is the integer 100 in JSON
      const list = ok<CheckoutJson[]>(
        await call(sandbox, { method: 'GET', url: '/v1/checkouts', headers: actor.auth }),
      );
      expect(list.some((c) => c.amount === 100)).toBe(true);
    });

    it('property: random JSON bodies to POST /v1/checkouts and /v1/customers never give a 500 or a non-{error} error', async () => {
      const field = fc.oneof(
        fc.string(),
        fc.integer(),
        fc.double(),
        fc.boolean(),
        fc.constant(null),
        fc.array(fc.string(), { maxLength: 3 }),
        fc.dictionary(fc.string({ maxLength: 5 }), fc.string(), { maxKeys: 3 }),
        fc.constantFrom(
          'USDC',
          'ETH',
          'fiat',
          'any',
          'crypto',
          'USA',
          'US',
          'tron',
          'a@b.co',
          at(DAY),
          at(-DAY),
        ),
      );
      const keys = fc.constantFrom(
        'title',
        'amount',
        'currency',
        'method',
        'chains',
        'reference',
        'expires_at',
        'customer_id',
        'customer_name',
        'customer_email',
        'customer_country',
        'success_url',
        'name',
        'email',
        'country',
        'phone',
        'notes',
        'merchant_id',
      );
      await fc.assert(
        fc.asyncProperty(fc.dictionary(keys, field), fc.boolean(), async (body, toCustomers) => {
          const res = await call(sandbox, {
            method: 'POST',
            url: toCustomers ? '/v1/customers' : '/v1/checkouts',
            headers: actor.auth,
            payload: body,
          });
          expect(res.statusCode, `${JSON.stringify(body)} → ${res.body}`).toBeLessThan(500);
          if (res.statusCode >= 400) {
            const parsed = res.json() as Record<string, unknown>;
            expect(Object.keys(parsed)).toEqual(['error']);
            expect(typeof parsed.error).toBe('string');
          }
        }),
        { numRuns: 150, seed: 42 },
      );
    });
  });

  describe('list', () => {
    it('returns base objects without crypto_chains and fiat, newest first', async () => {
      const made: CheckoutJson[] = [];
      for (let i = 0; i < 3; i++) {
        made.push(
          ok<CheckoutJson>(
            await post({ title: `c${i}`, method: i === 1 ? 'any' : 'crypto', expires_at: at(DAY) }),
          ),
        );
        time.tick(1000);
      }
      const list = ok<Record<string, unknown>[]>(
        await call(sandbox, { method: 'GET', url: '/v1/checkouts', headers: actor.auth }),
      );
      expect(list.map((c) => c.title)).toEqual(['c2', 'c1', 'c0']);
      for (const item of list) {
        expect(Object.keys(item).sort()).toEqual([...BASE_KEYS].sort());
        const full = made.find((m) => m.id === item.id)!;
        const { crypto_chains: _c, fiat: _f, ...base } = full;
        expect(item).toEqual(base);
      }
    });

    it('limit and starting_after paginate without gaps or repeats', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 7; i++)
        ids.unshift(ok<CheckoutJson>(await post({ title: `c${i}`, expires_at: at(DAY) })).id);
      const seen: string[] = [];
      let cursor: string | undefined;
      for (;;) {
        const query = `?limit=3${cursor ? `&starting_after=${cursor}` : ''}`;
        const page = ok<CheckoutJson[]>(
          await call(sandbox, { method: 'GET', url: `/v1/checkouts${query}`, headers: actor.auth }),
        );
        expect(page.length).toBeLessThanOrEqual(3);
        if (page.length === 0) break;
        seen.push(...page.map((c) => c.id));
        cursor = page[page.length - 1]!.id;
      }
      expect(seen).toEqual(ids);
    });

    it('default limit is 100', async () => {
      for (let i = 0; i < 101; i++) ok(await post({ title: `c${i}`, expires_at: at(DAY) }));
      const list = ok<CheckoutJson[]>(
        await call(sandbox, { method: 'GET', url: '/v1/checkouts', headers: actor.auth }),
      );
      expect(list).toHaveLength(100);
      expect(list[0]!.title).toBe('c100');
      const all = ok<CheckoutJson[]>(
        await call(sandbox, { method: 'GET', url: '/v1/checkouts?limit=1000', headers: actor.auth }),
      );
      expect(all).toHaveLength(101);
    });

    it.each([
      ['limit=0', 'limit'],
      ['limit=1001', 'limit'],
      ['limit=abc', 'limit'],
      ['limit=', 'limit'],
      ['limit=1.5', 'limit'],
      ['limit=-1', 'limit'],
      ['starting_after=xyz', 'starting_after'],
      [`starting_after=${UNKNOWN_ID}`, 'starting_after'],
    ])('%s → 422 naming the parameter', async (query, field) => {
      expectError(
        await call(sandbox, { method: 'GET', url: `/v1/checkouts?${query}`, headers: actor.auth }),
        422,
        field,
      );
    });

  });

  describe('cancel (DELETE)', () => {
    it('active → 204 with no body, then status cancelled', async () => {
      const checkout = ok<CheckoutJson>(await post({ title: 't', amount: 25_000_000, expires_at: at(DAY) }));
      time.tick(2000);
      const res = await call(sandbox, {
        method: 'DELETE',
        url: `/v1/checkouts/${checkout.id}`,
        headers: actor.auth,
      });
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      const after = await getCheckout(sandbox, actor, checkout.id);
      expect(after.status).toBe('cancelled');
      expect(Date.parse(after.updated_at) - Date.parse(checkout.updated_at)).toBe(2000);
      expect({ ...after, status: 'active', updated_at: checkout.updated_at }).toEqual(checkout);
    });

    it('DELETE again → 400 naming the status', async () => {
      const checkout = ok<CheckoutJson>(await post({ title: 't', expires_at: at(DAY) }));
      expect(
        (await call(sandbox, { method: 'DELETE', url: `/v1/checkouts/${checkout.id}`, headers: actor.auth }))
          .statusCode,
      ).toBe(204);
      expectError(
        await call(sandbox, { method: 'DELETE', url: `/v1/checkouts/${checkout.id}`, headers: actor.auth }),
        400,
        'cancelled',
      );
    });

    it.each([
      ['paid', async (id: string) => ok(await pay(sandbox, id))],
      [
        'completed',
        async (id: string) => {
          ok(await pay(sandbox, id));
          ok(await control(sandbox, 'POST', `/sandbox/checkouts/${id}/complete`));
        },
      ],
      [
        'expired',
        async (id: string) => ok(await control(sandbox, 'POST', `/sandbox/checkouts/${id}/expire`)),
      ],
      [
        'partial',
        async (id: string) => {
          ok(await pay(sandbox, id, { amount: 1_000_000 }));
          ok(await control(sandbox, 'POST', `/sandbox/checkouts/${id}/expire`));
        },
      ],
    ])('DELETE of a %s checkout → 400 naming the status, nothing changes', async (status, prepare) => {
      const checkout = ok<CheckoutJson>(await post({ title: 't', amount: 25_000_000, expires_at: at(DAY) }));
      await prepare(checkout.id);
      const before = await getCheckout(sandbox, actor, checkout.id);
      expect(before.status).toBe(status);
      expectError(
        await call(sandbox, { method: 'DELETE', url: `/v1/checkouts/${checkout.id}`, headers: actor.auth }),
        400,
        status,
      );
      expect(await getCheckout(sandbox, actor, checkout.id)).toEqual(before);
    });

    it('a cancelled checkout cannot be paid and does not expire later', async () => {
      const checkout = ok<CheckoutJson>(
        await post({ title: 't', amount: 25_000_000, expires_at: at(3600_000) }),
      );
      await call(sandbox, { method: 'DELETE', url: `/v1/checkouts/${checkout.id}`, headers: actor.auth });
      expectError(await pay(sandbox, checkout.id), 400, 'cancelled');
      ok(await control(sandbox, 'POST', '/sandbox/clock/advance', { seconds: 7200 }));
      expect((await getCheckout(sandbox, actor, checkout.id)).status).toBe('cancelled');
    });
  });

  describe('hosted pages', () => {
    it('hosted_url serves an HTML page with the title, amount and every deposit address', async () => {
      const checkout = ok<CheckoutJson>(
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
      const checkout = ok<CheckoutJson>(
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
