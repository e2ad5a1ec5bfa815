import { beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../server/sandbox.js';
import { expectAddressValidFor } from '../../helpers/addresses.js';
import {
  type Actor,
  advance,
  type Checkout,
  call,
  control,
  createCheckout,
  createMerchant,
  events,
  eventsFor,
  expectError,
  getCheckout,
  ok,
  patchSettings,
  pay,
  UNKNOWN_ID,
} from '../../helpers/api.js';
import { ManualTime, testSandbox } from '../../helpers/sandbox.js';
import { useSharedSandbox } from '../../helpers/suite.js';

interface PaymentJson {
  id: string;
  checkout_id: string;
  method: string;
  chain: string | null;
  token: string | null;
  amount: number;
  payer_address: string | null;
  txid: string | null;
  created_at: string;
}
interface PayResult {
  checkout: Checkout;
  payment: PaymentJson;
}

const HOUR = 3600_000;

describe('payment simulation (control API)', () => {
  const time = new ManualTime();
  const shared = useSharedSandbox(() => ({ realNow: time.now }));
  let sandbox: Sandbox;
  let actor: Actor;
  const isolate = async () => {
    sandbox = await testSandbox({ realNow: time.now });
    actor = await createMerchant(sandbox);
  };
  const at = (ms: number) => new Date(sandbox.ctx.clock.now() + ms).toISOString();
  const checkout = (body: Record<string, unknown> = {}) =>
    createCheckout(sandbox, actor, { expires_at: at(HOUR), ...body });
  /** A per-merchant platform_rate override: leaves the shared sandbox's settings alone. */
  const setMerchantRate = async (rate: number) =>
    ok(await control(sandbox, 'PATCH', `/sandbox/merchants/${actor.merchantId}`, { platform_rate: rate }));
  const payOk = async (id: string, body?: Record<string, unknown>) =>
    ok<PayResult>(await pay(sandbox, id, body));

  beforeEach(async () => {
    sandbox = shared();
    actor = await createMerchant(sandbox);
  });

  describe('payments', () => {
    it('a full payment → paid, with paid_amount, paid_at, a payer address valid for the chain and the token gas fee', async () => {
      const c = await checkout({ amount: 25_000_000 });
      time.tick(1500);
      const { checkout: paid, payment } = await payOk(c.id);
      const now = sandbox.ctx.clock.nowIso();
      expect(paid).toMatchObject({
        id: c.id,
        status: 'paid',
        paid_amount: 25_000_000,
        paid_at: now,
        platform_gas_fee: 2_000_000, // ethereum USDC, the first eligible chain and token
        platform_fee: 0,
        updated_at: now,
      });
      expectAddressValidFor('ethereum', paid.payer_address!);
      expect(payment).toMatchObject({
        checkout_id: c.id,
        method: 'crypto',
        chain: 'ethereum',
        token: 'USDC',
        amount: 25_000_000,
        payer_address: paid.payer_address,
        created_at: now,
      });
      expect(payment.txid).toMatch(/^0x[0-9a-f]{64}$/);
      expect(await getCheckout(sandbox, actor, c.id)).toEqual(paid);
      const view = ok<{
        checkout: Checkout;
        env: string;
        received_amount: number;
        payments: PaymentJson[];
      }>(await control(sandbox, 'GET', `/sandbox/checkouts/${c.id}`));
      expect(view).toMatchObject({
        checkout: paid,
        env: 'test',
        received_amount: 25_000_000,
        payments: [payment],
      });
    });

    it.each([
      ['tron', 'USDT', 1_000_000],
      ['polygon', 'USDT', 10_000],
      ['bsc', 'USDT', 100_000],
      ['Ethereum', 'usdt', 2_000_000],
    ])('paying on %s with %s charges that token’s gas fee (%i)', async (chain, token, gas) => {
      const c = await checkout({ amount: 25_000_000 });
      const { checkout: paid, payment } = await payOk(c.id, { chain, token });
      expect(paid.platform_gas_fee).toBe(gas);
      expect(payment.chain).toBe(chain.toLowerCase());
      expect(payment.token).toBe(token.toUpperCase());
      expectAddressValidFor(chain.toLowerCase(), paid.payer_address!);
      if (chain === 'tron') expect(payment.txid).toMatch(/^[0-9a-f]{64}$/);
    });

    it('a bitcoin payment on a BTC checkout gets a bech32 payer', async () => {
      const c = await checkout({ amount: 50_000, currency: 'BTC' });
      const { checkout: paid } = await payOk(c.id);
      expect(paid.platform_gas_fee).toBe(20);
      expectAddressValidFor('bitcoin', paid.payer_address!);
    });

    it('keeps a given payer_address and txid; an invalid payer_address → 422', async () => {
      const c = await checkout({ amount: 25_000_000 });
      expectError(
        await pay(sandbox, c.id, {
          chain: 'tron',
          payer_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
        }),
        422,
        'payer_address',
      );
      expectError(
        await pay(sandbox, c.id, { payer_address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' }),
        422,
        'payer_address',
      );
      expect((await getCheckout(sandbox, actor, c.id)).status).toBe('active');
      const { checkout: paid, payment } = await payOk(c.id, {
        chain: 'tron',
        payer_address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
        txid: 'abc123',
      });
      expect(paid.payer_address).toBe('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t');
      expect(payment.txid).toBe('abc123');
    });

    it('an over payment → paid with paid_amount = what arrived', async () => {
      const c = await checkout({ amount: 25_000_000 });
      const { checkout: paid } = await payOk(c.id, { amount: 30_000_000 });
      expect(paid.status).toBe('paid');
      expect(paid.paid_amount).toBe(30_000_000);
    });

    it('partial payments accumulate while active (paid_amount stays null), then the last one pays it', async () => {
      const c = await checkout({ amount: 25_000_000 });
      const first = await payOk(c.id, { amount: 10_000_000, chain: 'polygon' });
      expect(first.checkout).toMatchObject({
        status: 'active',
        paid_amount: null,
        paid_at: null,
        platform_gas_fee: 0,
      });
      time.tick(1000);
      const second = await payOk(c.id, { amount: 5_000_000, chain: 'polygon' });
      expect(second.checkout).toMatchObject({ status: 'active', paid_amount: null });
      time.tick(1000);
      const last = await payOk(c.id, { amount: 10_000_000, chain: 'polygon' });
      expect(last.checkout).toMatchObject({
        status: 'paid',
        paid_amount: 25_000_000,
        paid_at: sandbox.ctx.clock.nowIso(),
      });
      const view = ok<{ received_amount: number; payments: PaymentJson[] }>(
        await control(sandbox, 'GET', `/sandbox/checkouts/${c.id}`),
      );
      expect(view.received_amount).toBe(25_000_000);
      expect(view.payments.map((p) => p.amount)).toEqual([10_000_000, 5_000_000, 10_000_000]);
      // only one checkout.paid, at the end
      expect((await eventsFor(sandbox, actor.merchantId, c.id, 'checkout.paid')).length).toBe(1);
    });

    it('without an amount, a payment covers what is still missing', async () => {
      const c = await checkout({ amount: 25_000_000 });
      await payOk(c.id, { amount: 20_000_000 });
      const { checkout: paid, payment } = await payOk(c.id);
      expect(payment.amount).toBe(5_000_000);
      expect(paid.paid_amount).toBe(25_000_000);
    });

    it('a partial then an over payment → paid with the sum', async () => {
      const c = await checkout({ amount: 25_000_000 });
      await payOk(c.id, { amount: 10_000_000 });
      const { checkout: paid } = await payOk(c.id, { amount: 20_000_000 });
      expect(paid).toMatchObject({ status: 'paid', paid_amount: 30_000_000 });
    });

    it('an open-amount checkout is paid by any transfer; the amount is required (422 without)', async () => {
      const c = await checkout({ amount: undefined });
      expect(c.amount).toBeNull();
      expectError(await pay(sandbox, c.id), 422, 'amount');
      expectError(await pay(sandbox, c.id, {}), 422, 'amount');
      const { checkout: paid } = await payOk(c.id, { amount: 1 });
      expect(paid).toMatchObject({ status: 'paid', paid_amount: 1, amount: null });
    });

    it.each([
      ['amount 0', { amount: 0 }, 'amount'],
      ['amount "5"', { amount: '5' }, 'amount'],
      ['amount 1.5', { amount: 1.5 }, 'amount'],
      ['method "cash"', { method: 'cash' }, 'method'],
      ['chain ""', { chain: '' }, 'chain'],
    ])('payment body with %s → 422', async (_label, body, field) => {
      const c = await checkout({ amount: 25_000_000 });
      expectError(await pay(sandbox, c.id, body), 422, field);
    });

    it('wrong chain or token → 400, and nothing is recorded', async () => {
      const c = await checkout({ amount: 5_000_000 }); // tron, polygon, bsc (no ethereum below its minimum)
      expectError(await pay(sandbox, c.id, { chain: 'ethereum' }), 400, 'ethereum');
      expectError(await pay(sandbox, c.id, { chain: 'bitcoin' }), 400, 'bitcoin');
      expectError(await pay(sandbox, c.id, { chain: 'solana' }), 400, 'solana');
      expectError(await pay(sandbox, c.id, { chain: 'tron', token: 'USDC' }), 400, 'USDC');
      expectError(await pay(sandbox, c.id, { chain: 'polygon', token: 'ETH' }), 400, 'ETH');
      const view = ok<{ received_amount: number; payments: unknown[]; checkout: Checkout }>(
        await control(sandbox, 'GET', `/sandbox/checkouts/${c.id}`),
      );
      expect(view).toMatchObject({ received_amount: 0, payments: [] });
      expect(view.checkout.status).toBe('active');
    });

    it('paying a checkout that is not active → 400 naming the status', async () => {
      const paid = await checkout({ amount: 25_000_000 });
      await payOk(paid.id);
      expectError(await pay(sandbox, paid.id), 400, 'paid');
      ok(await control(sandbox, 'POST', `/sandbox/checkouts/${paid.id}/complete`));
      expectError(await pay(sandbox, paid.id), 400, 'completed');
      const expired = await checkout({ amount: 25_000_000 });
      ok(await control(sandbox, 'POST', `/sandbox/checkouts/${expired.id}/expire`));
      expectError(await pay(sandbox, expired.id), 400, 'expired');
      const cancelled = await checkout({ amount: 25_000_000 });
      await call(sandbox, { method: 'DELETE', url: `/v1/checkouts/${cancelled.id}`, headers: actor.auth });
      expectError(await pay(sandbox, cancelled.id), 400, 'cancelled');
    });

    it('fiat: a fiat payment pays a fiat checkout (no payer, no gas); crypto and fiat do not mix', async () => {
      const fiat = await checkout({ amount: 1_000, currency: 'USD', method: 'fiat' });
      expectError(await pay(sandbox, fiat.id, { method: 'crypto' }), 400, 'crypto');
      const { checkout: paid, payment } = await payOk(fiat.id);
      expect(paid).toMatchObject({
        status: 'paid',
        paid_amount: 1_000,
        payer_address: null,
        platform_gas_fee: 0,
      });
      expect(payment).toMatchObject({ method: 'fiat', chain: null, token: null, txid: null });
      const crypto = await checkout({ amount: 25_000_000 });
      expectError(await pay(sandbox, crypto.id, { method: 'fiat' }), 400, 'fiat');
      const any = await checkout({ amount: 25_000_000, method: 'any' });
      expect((await payOk(any.id, { method: 'fiat' })).checkout.platform_gas_fee).toBe(0);
    });

    it('unknown checkout → 404 on payments, complete, expire and the control view; bad id → 422', async () => {
      for (const path of ['payments', 'complete', 'expire']) {
        expectError(
          await control(sandbox, 'POST', `/sandbox/checkouts/${UNKNOWN_ID}/${path}`),
          404,
          UNKNOWN_ID,
        );
        expectError(await control(sandbox, 'POST', `/sandbox/checkouts/nope/${path}`), 422, 'id');
      }
      expectError(await control(sandbox, 'GET', `/sandbox/checkouts/${UNKNOWN_ID}`), 404);
    });
  });

  describe('settlement', () => {
    it('settles settlement_delay_seconds (60) after paid: not at 59 s, completed at 60 s', async () => {
      const c = await checkout({ amount: 25_000_000 });
      await payOk(c.id);
      const paidAt = sandbox.ctx.clock.now();
      await advance(sandbox, 59);
      expect((await getCheckout(sandbox, actor, c.id)).status).toBe('paid');
      await advance(sandbox, 1);
      const done = await getCheckout(sandbox, actor, c.id);
      expect(done).toMatchObject({ status: 'completed', paid_amount: 25_000_000, platform_fee: 0 });
      expect(Date.parse(done.updated_at)).toBe(paidAt + 60_000);
    });

    it('work that fell due while real time passed runs on the next advance, even of 0 s', async () => {
      const c = await checkout({ amount: 25_000_000 });
      await payOk(c.id);
      time.tick(120_000);
      await advance(sandbox, 0);
      expect((await getCheckout(sandbox, actor, c.id)).status).toBe('completed');
    });

    it('platform_fee = paid × platform_rate / 10000, floored (rate from PATCH /sandbox/settings)', async () => {
      await isolate();
      await patchSettings(sandbox, { platform_rate: 333 });
      const c = await checkout({ amount: 33_333_333, chains: ['polygon'] });
      await payOk(c.id);
      await advance(sandbox, 60);
      const done = await getCheckout(sandbox, actor, c.id);
      // 33_333_333 × 333 / 10000 = 1_109_999.98… → 1_109_999
      expect(done).toMatchObject({ status: 'completed', platform_fee: 1_109_999, platform_gas_fee: 10_000 });
    });

    it('a merchant platform_rate override wins over the setting; null goes back to the setting', async () => {
      await isolate();
      await patchSettings(sandbox, { platform_rate: 333 });
      const patched = ok<{ platform_rate: number | null }>(
        await control(sandbox, 'PATCH', `/sandbox/merchants/${actor.merchantId}`, { platform_rate: 125 }),
      );
      expect(patched.platform_rate).toBe(125);
      const a = await checkout({ amount: 12_345_679 });
      await payOk(a.id, { amount: 12_345_679 });
      await advance(sandbox, 60);
      // 12_345_679 × 125 / 10000 = 154_320.98… → 154_320
      expect((await getCheckout(sandbox, actor, a.id)).platform_fee).toBe(154_320);

      // another merchant still pays the settings rate
      const other = await createMerchant(sandbox, 'Other');
      const b = await createCheckout(sandbox, other, { amount: 10_000_000, expires_at: at(HOUR) });
      await payOk(b.id);
      await advance(sandbox, 60);
      expect((await getCheckout(sandbox, other, b.id)).platform_fee).toBe(333_000);

      ok(await control(sandbox, 'PATCH', `/sandbox/merchants/${actor.merchantId}`, { platform_rate: null }));
      const c = await checkout({ amount: 10_000_000 });
      await payOk(c.id);
      await advance(sandbox, 60);
      expect((await getCheckout(sandbox, actor, c.id)).platform_fee).toBe(333_000);
    });

    it('platform_rate 10000 takes everything', async () => {
      await setMerchantRate(10_000);
      const c = await checkout({ amount: 25_000_000 });
      await payOk(c.id, { amount: 26_000_000 });
      ok(await control(sandbox, 'POST', `/sandbox/checkouts/${c.id}/complete`));
      expect((await getCheckout(sandbox, actor, c.id)).platform_fee).toBe(26_000_000);
    });

    it('settlement_delay_seconds is honoured when changed', async () => {
      await isolate();
      await patchSettings(sandbox, { settlement_delay_seconds: 300 });
      const c = await checkout({ amount: 25_000_000 });
      await payOk(c.id);
      await advance(sandbox, 299);
      expect((await getCheckout(sandbox, actor, c.id)).status).toBe('paid');
      await advance(sandbox, 1);
      expect((await getCheckout(sandbox, actor, c.id)).status).toBe('completed');
    });

    it('/complete settles now, once; only a paid checkout can be completed', async () => {
      const c = await checkout({ amount: 25_000_000 });
      expectError(await control(sandbox, 'POST', `/sandbox/checkouts/${c.id}/complete`), 400, 'active');
      await payOk(c.id);
      const done = ok<Checkout>(await control(sandbox, 'POST', `/sandbox/checkouts/${c.id}/complete`));
      expect(done.status).toBe('completed');
      expect(done.crypto_chains.length).toBeGreaterThan(0);
      expectError(await control(sandbox, 'POST', `/sandbox/checkouts/${c.id}/complete`), 400, 'completed');
      // the settlement job does not fire a second time
      await advance(sandbox, 120);
      expect(await eventsFor(sandbox, actor.merchantId, c.id, 'checkout.completed')).toHaveLength(1);
    });

    it('a paid checkout does not expire when its expires_at passes', async () => {
      const c = await checkout({ amount: 25_000_000, expires_at: at(30_000) });
      await payOk(c.id);
      await advance(sandbox, 3600);
      expect((await getCheckout(sandbox, actor, c.id)).status).toBe('completed');
      expect(await eventsFor(sandbox, actor.merchantId, c.id, 'checkout.expired')).toEqual([]);
    });
  });

  describe('expiry', () => {
    it('advancing past expires_at → expired (not one second before)', async () => {
      const c = await checkout({ amount: 25_000_000, expires_at: at(600_000) });
      await advance(sandbox, 599);
      expect((await getCheckout(sandbox, actor, c.id)).status).toBe('active');
      await advance(sandbox, 1);
      const expired = await getCheckout(sandbox, actor, c.id);
      expect(expired).toMatchObject({ status: 'expired', paid_amount: null, paid_at: null, platform_fee: 0 });
    });

    it('a partial payment then expiry → partial with paid_amount = what arrived', async () => {
      await setMerchantRate(100);
      const c = await checkout({ amount: 25_000_000, expires_at: at(600_000) });
      await payOk(c.id, { amount: 7_000_000, chain: 'tron' });
      const paymentAt = sandbox.ctx.clock.nowIso();
      await advance(sandbox, 600);
      const partial = await getCheckout(sandbox, actor, c.id);
      expect(partial).toMatchObject({
        status: 'partial',
        paid_amount: 7_000_000,
        paid_at: paymentAt,
        platform_gas_fee: 1_000_000,
        platform_fee: 70_000,
      });
      expectAddressValidFor('tron', partial.payer_address!);
    });

    it('/expire expires now: expired, or partial when something arrived; only an active checkout', async () => {
      const a = await checkout({ amount: 25_000_000 });
      const expired = ok<Checkout>(await control(sandbox, 'POST', `/sandbox/checkouts/${a.id}/expire`));
      expect(expired.status).toBe('expired');
      expectError(await control(sandbox, 'POST', `/sandbox/checkouts/${a.id}/expire`), 400, 'expired');
      const b = await checkout({ amount: 25_000_000 });
      await payOk(b.id, { amount: 1_000_000 });
      const partial = ok<Checkout>(await control(sandbox, 'POST', `/sandbox/checkouts/${b.id}/expire`));
      expect(partial).toMatchObject({ status: 'partial', paid_amount: 1_000_000 });
      const c = await checkout({ amount: 25_000_000 });
      await payOk(c.id);
      expectError(await control(sandbox, 'POST', `/sandbox/checkouts/${c.id}/expire`), 400, 'paid');
      // the expiry job does not fire again later
      await advance(sandbox, 7200);
      expect(await eventsFor(sandbox, actor.merchantId, a.id, 'checkout.expired')).toHaveLength(1);
    });

    it('several checkouts due in one advance all run, in due order', async () => {
      const late = await checkout({ amount: 25_000_000, expires_at: at(300_000) });
      const early = await checkout({ amount: 25_000_000, expires_at: at(100_000) });
      const paid = await checkout({ amount: 25_000_000, expires_at: at(HOUR) });
      await payOk(paid.id);
      await advance(sandbox, 400);
      expect((await getCheckout(sandbox, actor, late.id)).status).toBe('expired');
      expect((await getCheckout(sandbox, actor, early.id)).status).toBe('expired');
      expect((await getCheckout(sandbox, actor, paid.id)).status).toBe('completed');
      const ids = new Set([late.id, early.id, paid.id]);
      const log = (await events(sandbox, actor.merchantId))
        .reverse()
        .filter(
          (e) => ids.has(e.resource_id ?? '') && e.type !== 'checkout.created' && e.type !== 'checkout.paid',
        );
      expect(log.map((e) => [e.type, e.resource_id])).toEqual([
        ['checkout.completed', paid.id],
        ['checkout.expired', early.id],
        ['checkout.expired', late.id],
      ]);
    });
  });

  describe('events carry the spec payloads', () => {
    it('checkout.created: exactly the spec fields', async () => {
      const c = await checkout({ amount: 25_000_000, reference: 'r-1', customer_name: 'Cy' });
      const [created, ...rest] = await eventsFor(sandbox, actor.merchantId, c.id);
      expect(rest).toEqual([]);
      expect(created!.type).toBe('checkout.created');
      expect(created!.env).toBe('test');
      expect(created!.merchant_id).toBe(actor.merchantId);
      expect(created!.data).toEqual({
        id: c.id,
        merchant_id: actor.merchantId,
        hosted_url: c.hosted_url,
        amount: 25_000_000,
        currency: 'USDC',
        method: 'crypto',
        reference: 'r-1',
        customer_id: c.customer_id,
        reseller_id: null,
        expires_at: c.expires_at,
        status: 'active',
        crypto_chains: c.crypto_chains.map(({ chain, address }) => ({ chain, address })),
        fiat: null,
      });
    });

    it('checkout.created for a fiat checkout: empty crypto_chains and the fiat object', async () => {
      const c = await checkout({ amount: 1_000, method: 'fiat', success_url: 'https://s.example/ok' });
      const [created] = await eventsFor(sandbox, actor.merchantId, c.id, 'checkout.created');
      expect(created!.data.crypto_chains).toEqual([]);
      expect(created!.data.fiat).toEqual(c.fiat);
    });

    it('checkout.paid and checkout.completed: exactly the spec fields, in order', async () => {
      await setMerchantRate(250);
      const c = await checkout({ amount: 25_000_000 });
      await payOk(c.id, { amount: 26_000_000 });
      await advance(sandbox, 60);
      const list = await eventsFor(sandbox, actor.merchantId, c.id);
      expect(list.map((e) => e.type)).toEqual(['checkout.created', 'checkout.paid', 'checkout.completed']);
      expect(list[1]!.data).toEqual({
        id: c.id,
        merchant_id: actor.merchantId,
        amount: 25_000_000,
        currency: 'USDC',
        status: 'paid',
      });
      expect(list[2]!.data).toEqual({
        id: c.id,
        merchant_id: actor.merchantId,
        amount: 25_000_000,
        currency: 'USDC',
        status: 'completed',
        reseller_fee: 0,
        platform_fee: 650_000,
        reseller_id: null,
        referral_fee: 0,
        referred_by: null,
      });
      const times = list.map((e) => Date.parse(e.created_at));
      expect(times[2]! - times[1]!).toBe(60_000);
    });

    it('checkout.expired, checkout.partial and checkout.cancelled carry the full checkout resource', async () => {
      const expired = await checkout({ amount: 25_000_000, expires_at: at(60_000) });
      const partial = await checkout({ amount: 25_000_000, expires_at: at(60_000) });
      await payOk(partial.id, { amount: 2_000_000 });
      const cancelled = await checkout({ amount: 25_000_000 });
      expect(
        (await call(sandbox, { method: 'DELETE', url: `/v1/checkouts/${cancelled.id}`, headers: actor.auth }))
          .statusCode,
      ).toBe(204);
      await advance(sandbox, 60);
      for (const [c, type] of [
        [expired, 'checkout.expired'],
        [partial, 'checkout.partial'],
        [cancelled, 'checkout.cancelled'],
      ] as const) {
        const found = await eventsFor(sandbox, actor.merchantId, c.id, type);
        expect(found, type).toHaveLength(1);
        expect(found[0]!.data).toEqual(await getCheckout(sandbox, actor, c.id));
      }
    });

    it('the event log is newest first, per merchant and environment, with a limit', async () => {
      const a = await checkout({ amount: 25_000_000 });
      await payOk(a.id);
      const list = ok<{ type: string; merchant_id: string }[]>(
        await control(sandbox, 'GET', `/sandbox/merchants/${actor.merchantId}/events`),
      );
      expect(list.map((e) => e.type)).toEqual(['checkout.paid', 'checkout.created']);
      expect(list.every((e) => e.merchant_id === actor.merchantId)).toBe(true);
      const one = ok<unknown[]>(
        await control(sandbox, 'GET', `/sandbox/merchants/${actor.merchantId}/events?limit=1`),
      );
      expect(one).toHaveLength(1);
      const prod = ok<unknown[]>(
        await control(sandbox, 'GET', `/sandbox/merchants/${actor.merchantId}/events?env=production`),
      );
      expect(prod).toEqual([]);
      expectError(
        await control(sandbox, 'GET', `/sandbox/merchants/${actor.merchantId}/events?env=staging`),
        422,
        'env',
      );
      expectError(await control(sandbox, 'GET', `/sandbox/merchants/${UNKNOWN_ID}/events`), 404);
    });
  });
});
