import { beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../server/sandbox.js';
import {
  type Actor,
  advance,
  type Checkout,
  call,
  createMerchant,
  events,
  expectError,
  ok,
} from '../../helpers/api.js';
import {
  available,
  connect,
  income,
  paidAndSettled,
  patchMerchant,
  postCheckout,
  type ResellerConnection,
  v1,
} from '../../helpers/resellers.js';
import { ManualTime, testSandbox } from '../../helpers/sandbox.js';
import { useSharedSandbox } from '../../helpers/suite.js';

// spec: Reseller connection, Fee rules 1–5; Refund rule 6 (clawback within 7 days); checkout.completed.
// PRODUCT.md Fees and Refunds. Every number below is computed by hand in the comment beside it.
// Checkouts are fiat (no gas), so the merchant's balance is exactly amount − gross.

const DAY = 86_400;
const A = 100_000_000; // 100 USDC

interface Terms {
  rate: number;
  min_fee?: number | null;
  max_fee?: number | null;
}

interface FeeCase {
  amount: number;
  platformRate: number | null;
  terms: Terms;
  reseller_fee: number;
  platform_fee: number;
  net: number;
}

const CASES: [string, FeeCase][] = [
  // gross = 100M × 500 / 10000 = 5M; platform = 100M × 100 / 10000 = 1M; reseller = 5M − 1M.
  [
    'no caps',
    {
      amount: A,
      platformRate: 100,
      terms: { rate: 500 },
      reseller_fee: 4_000_000,
      platform_fee: 1_000_000,
      net: 95_000_000,
    },
  ],
  // 5M below the floor 6M → 6M.
  [
    'below min_fee: the floor',
    {
      amount: A,
      platformRate: 100,
      terms: { rate: 500, min_fee: 6_000_000, max_fee: 8_000_000 },
      reseller_fee: 5_000_000,
      platform_fee: 1_000_000,
      net: 94_000_000,
    },
  ],
  // 6M = the floor.
  [
    'exactly min_fee',
    {
      amount: A,
      platformRate: 100,
      terms: { rate: 600, min_fee: 6_000_000, max_fee: 8_000_000 },
      reseller_fee: 5_000_000,
      platform_fee: 1_000_000,
      net: 94_000_000,
    },
  ],
  // 7M between 6M and 8M.
  [
    'between the caps',
    {
      amount: A,
      platformRate: 100,
      terms: { rate: 700, min_fee: 6_000_000, max_fee: 8_000_000 },
      reseller_fee: 6_000_000,
      platform_fee: 1_000_000,
      net: 93_000_000,
    },
  ],
  // 8M = the ceiling.
  [
    'exactly max_fee',
    {
      amount: A,
      platformRate: 100,
      terms: { rate: 800, min_fee: 6_000_000, max_fee: 8_000_000 },
      reseller_fee: 7_000_000,
      platform_fee: 1_000_000,
      net: 92_000_000,
    },
  ],
  // 9M above the ceiling 8M → 8M.
  [
    'above max_fee: the ceiling',
    {
      amount: A,
      platformRate: 100,
      terms: { rate: 900, min_fee: 6_000_000, max_fee: 8_000_000 },
      reseller_fee: 7_000_000,
      platform_fee: 1_000_000,
      net: 92_000_000,
    },
  ],
  // A floor alone: 1M → 3M.
  [
    'a floor only',
    {
      amount: A,
      platformRate: 100,
      terms: { rate: 100, min_fee: 3_000_000 },
      reseller_fee: 2_000_000,
      platform_fee: 1_000_000,
      net: 97_000_000,
    },
  ],
  // A ceiling alone: 50M → 10M.
  [
    'a ceiling only',
    {
      amount: A,
      platformRate: 100,
      terms: { rate: 5_000, max_fee: 10_000_000 },
      reseller_fee: 9_000_000,
      platform_fee: 1_000_000,
      net: 90_000_000,
    },
  ],
  // gross 0 < platform 1M: the platform keeps its fee, the reseller gets 0 (never negative).
  [
    'rate 0',
    {
      amount: A,
      platformRate: 100,
      terms: { rate: 0 },
      reseller_fee: 0,
      platform_fee: 1_000_000,
      net: 99_000_000,
    },
  ],
  // gross = the whole amount: 100M − 1M to the reseller, nothing to the merchant.
  [
    'rate 10000',
    {
      amount: A,
      platformRate: 100,
      terms: { rate: 10_000 },
      reseller_fee: 99_000_000,
      platform_fee: 1_000_000,
      net: 0,
    },
  ],
  // platform 3M > gross 2M: reseller 0, merchant pays the platform fee only.
  [
    'reseller gross below the platform fee',
    {
      amount: A,
      platformRate: 300,
      terms: { rate: 200 },
      reseller_fee: 0,
      platform_fee: 3_000_000,
      net: 97_000_000,
    },
  ],
  // gross 3M = platform 3M: reseller 0.
  [
    'reseller gross equal to the platform fee',
    {
      amount: A,
      platformRate: 300,
      terms: { rate: 300 },
      reseller_fee: 0,
      platform_fee: 3_000_000,
      net: 97_000_000,
    },
  ],
  // 12 345 678 × 333 / 10000 = 411 111.07… → 411 111; × 100 / 10000 = 123 456.78 → 123 456.
  [
    'integer division floors',
    {
      amount: 12_345_678,
      platformRate: 100,
      terms: { rate: 333 },
      reseller_fee: 287_655,
      platform_fee: 123_456,
      net: 11_934_567,
    },
  ],
  // The floor 5M exceeds the 1M paid: the commission is capped at the amount (1M); platform 10 000.
  [
    'a floor above the amount paid',
    {
      amount: 1_000_000,
      platformRate: 100,
      terms: { rate: 0, min_fee: 5_000_000 },
      reseller_fee: 990_000,
      platform_fee: 10_000,
      net: 0,
    },
  ],
  // No platform rate (the merchant's unset, the setting's default 0): platform 0, the reseller all of 5M.
  [
    'platform rate unset (0)',
    {
      amount: A,
      platformRate: null,
      terms: { rate: 500 },
      reseller_fee: 5_000_000,
      platform_fee: 0,
      net: 95_000_000,
    },
  ],
];

describe('reseller fees', () => {
  describe('fee rules 1–4 with hand-computed numbers', () => {
    const shared = useSharedSandbox();
    let sandbox: Sandbox;
    let reseller: Actor;
    let target: Actor;
    beforeEach(async () => {
      sandbox = shared();
      reseller = await createMerchant(sandbox, 'Reseller');
      target = await createMerchant(sandbox, 'Target');
    });

    it.each(CASES)('%s', async (_label, c) => {
      await patchMerchant(sandbox, target.merchantId, { platform_rate: c.platformRate });
      await connect(sandbox, reseller, target.merchantId, c.terms);
      const created = ok<Checkout>(
        await postCheckout(sandbox, reseller, { merchant_id: target.merchantId, amount: c.amount }),
      );
      // Fees are 0 until paid.
      expect(created).toMatchObject({ reseller_fee: 0, platform_fee: 0, reseller_id: reseller.merchantId });
      const settled = await paidAndSettled(sandbox, created.id);
      expect(settled).toMatchObject({
        status: 'completed',
        paid_amount: c.amount,
        reseller_id: reseller.merchantId,
        reseller_fee: c.reseller_fee,
        platform_fee: c.platform_fee,
        platform_gas_fee: 0,
      });
      // Rule 4: the target merchant is credited amount − gross (here: amount − both fees).
      expect(c.amount - c.reseller_fee - c.platform_fee).toBe(c.net);
      expect(await available(sandbox, target.merchantId)).toBe(c.net);
      // The reseller's and the platform's fees are held 7 days: pending income, nothing earned yet.
      expect(await available(sandbox, reseller.merchantId)).toBe(0);
      expect(await income(sandbox, reseller.merchantId)).toEqual(
        c.reseller_fee === 0 ? [] : [{ currency: 'USDC', earned: 0, pending: c.reseller_fee }],
      );

      // checkout.completed: the spec's fields, and merchant net = amount − reseller_fee − platform_fee − referral_fee.
      const completed = (await events(sandbox, target.merchantId)).find(
        (e) => e.type === 'checkout.completed' && e.resource_id === created.id,
      );
      expect(completed?.data).toEqual({
        id: created.id,
        merchant_id: target.merchantId,
        amount: c.amount,
        currency: 'USDC',
        status: 'completed',
        reseller_fee: c.reseller_fee,
        platform_fee: c.platform_fee,
        reseller_id: reseller.merchantId,
        referral_fee: 0,
        referred_by: null,
      });
    });

    it('a partial payment credited at expiry pays fees on what arrived', async () => {
      await patchMerchant(sandbox, target.merchantId, { platform_rate: 100 });
      await connect(sandbox, reseller, target.merchantId, { rate: 500 });
      const created = ok<Checkout>(await postCheckout(sandbox, reseller, { merchant_id: target.merchantId }));
      ok(
        await call(sandbox, {
          method: 'POST',
          url: `/sandbox/checkouts/${created.id}/payments`,
          payload: { method: 'fiat', amount: 40_000_000 },
        }),
      );
      ok(await call(sandbox, { method: 'POST', url: `/sandbox/checkouts/${created.id}/expire` }));
      // 40M × 5% = 2M gross; platform 400 000; reseller 1 600 000; merchant 38M.
      const partial = ok<Checkout>(await v1(sandbox, target, 'GET', `/v1/checkouts/${created.id}`));
      expect(partial).toMatchObject({
        status: 'partial',
        paid_amount: 40_000_000,
        reseller_fee: 1_600_000,
        platform_fee: 400_000,
      });
      expect(await available(sandbox, target.merchantId)).toBe(38_000_000);
      expect(await income(sandbox, reseller.merchantId)).toEqual([
        { currency: 'USDC', earned: 0, pending: 1_600_000 },
      ]);
    });

    it('a checkout without merchant_id has no reseller: platform fee only', async () => {
      await patchMerchant(sandbox, target.merchantId, { platform_rate: 100 });
      await connect(sandbox, reseller, target.merchantId, { rate: 500 });
      const own = ok<Checkout>(await postCheckout(sandbox, target));
      const settled = await paidAndSettled(sandbox, own.id);
      expect(settled).toMatchObject({ reseller_id: null, reseller_fee: 0, platform_fee: 1_000_000 });
      expect(await available(sandbox, target.merchantId)).toBe(99_000_000);
      expect(await income(sandbox, reseller.merchantId)).toEqual([]);
    });
  });

  describe('rule 5: the checkout keeps the terms it was created with', () => {
    const shared = useSharedSandbox();
    let sandbox: Sandbox;
    let reseller: Actor;
    let target: Actor;
    let connection: ResellerConnection;
    beforeEach(async () => {
      sandbox = shared();
      reseller = await createMerchant(sandbox, 'Reseller');
      target = await createMerchant(sandbox, 'Target');
      await patchMerchant(sandbox, target.merchantId, { platform_rate: 100 });
      connection = await connect(sandbox, reseller, target.merchantId, { rate: 500 });
    });

    it('PUT after creation does not touch an in-flight checkout; checkouts created afterwards use the new terms', async () => {
      const before = ok<Checkout>(await postCheckout(sandbox, reseller, { merchant_id: target.merchantId }));
      ok(
        await v1(sandbox, reseller, 'PUT', `/v1/reseller/connections/${connection.id}`, {
          rate: 1_000,
          max_fee: 7_000_000,
        }),
      );
      const after = ok<Checkout>(await postCheckout(sandbox, reseller, { merchant_id: target.merchantId }));
      // Old terms: 5M gross → reseller 4M. New: 10M capped at 7M → reseller 6M.
      expect(await paidAndSettled(sandbox, before.id)).toMatchObject({
        reseller_fee: 4_000_000,
        platform_fee: 1_000_000,
      });
      expect(await paidAndSettled(sandbox, after.id)).toMatchObject({
        reseller_fee: 6_000_000,
        platform_fee: 1_000_000,
      });
      expect(await available(sandbox, target.merchantId)).toBe(95_000_000 + 93_000_000);
      expect(await income(sandbox, reseller.merchantId)).toEqual([
        { currency: 'USDC', earned: 0, pending: 10_000_000 },
      ]);
    });

    it('re-creating (POST) after creation does not touch it either', async () => {
      const before = ok<Checkout>(await postCheckout(sandbox, reseller, { merchant_id: target.merchantId }));
      await connect(sandbox, reseller, target.merchantId, { rate: 2_000 });
      expect(await paidAndSettled(sandbox, before.id)).toMatchObject({ reseller_fee: 4_000_000 });
    });

    it('revoking or removing the connection stops new checkouts, not the commission of in-flight ones', async () => {
      const first = ok<Checkout>(await postCheckout(sandbox, reseller, { merchant_id: target.merchantId }));
      ok(
        await v1(
          sandbox,
          target,
          'DELETE',
          `/v1/merchants/${target.merchantId}/reseller-connections/${connection.id}`,
        ),
      );
      expectError(await postCheckout(sandbox, reseller, { merchant_id: target.merchantId }), 403);
      expect(await paidAndSettled(sandbox, first.id)).toMatchObject({
        reseller_id: reseller.merchantId,
        reseller_fee: 4_000_000,
      });

      const again = await connect(sandbox, reseller, target.merchantId, { rate: 500 });
      const second = ok<Checkout>(await postCheckout(sandbox, reseller, { merchant_id: target.merchantId }));
      expect((await v1(sandbox, reseller, 'DELETE', `/v1/reseller/connections/${again.id}`)).statusCode).toBe(
        204,
      );
      expect(await paidAndSettled(sandbox, second.id)).toMatchObject({ reseller_fee: 4_000_000 });
      expect(await income(sandbox, reseller.merchantId)).toEqual([
        { currency: 'USDC', earned: 0, pending: 8_000_000 },
      ]);
    });
  });

  describe('the 7-day hold: release to reseller:{id}:fees, and refund clawback (rule 6)', () => {
    let sandbox: Sandbox;
    let reseller: Actor;
    let target: Actor;
    let checkoutId: string;

    const refund = (body: object) => v1(sandbox, target, 'POST', `/v1/checkouts/${checkoutId}/refund`, body);
    const get = async () => ok<Checkout>(await v1(sandbox, target, 'GET', `/v1/checkouts/${checkoutId}`));

    beforeEach(async () => {
      sandbox = await testSandbox({ realNow: new ManualTime().now });
      reseller = await createMerchant(sandbox, 'Reseller');
      target = await createMerchant(sandbox, 'Target');
      await patchMerchant(sandbox, target.merchantId, { platform_rate: 100 });
      await connect(sandbox, reseller, target.merchantId, { rate: 500 });
      checkoutId = ok<Checkout>(await postCheckout(sandbox, reseller, { merchant_id: target.merchantId })).id;
      // Settled: platform 1M, reseller 4M held; merchant 95M.
      await paidAndSettled(sandbox, checkoutId);
    });

    it('after 7 days the reseller fee is released: earned, no longer pending', async () => {
      expect(await income(sandbox, reseller.merchantId)).toEqual([
        { currency: 'USDC', earned: 0, pending: 4_000_000 },
      ]);
      await advance(sandbox, 7 * DAY - 120);
      expect(await income(sandbox, reseller.merchantId)).toEqual([
        { currency: 'USDC', earned: 0, pending: 4_000_000 },
      ]);
      await advance(sandbox, 120);
      expect(await income(sandbox, reseller.merchantId)).toEqual([
        { currency: 'USDC', earned: 4_000_000, pending: 0 },
      ]);
      // The target merchant's own balance never held the reseller's fee.
      expect(await available(sandbox, target.merchantId)).toBe(95_000_000);
      // Nothing in the production environment.
      expect(await income(sandbox, reseller.merchantId, 'production')).toEqual([]);
    });

    it('a refund within 7 days claws back a proportional share of both fees; the merchant repays its net part', async () => {
      // X = 40M (fiat: no gas). Held fees 5M of 100M refundable: clawback = 40M × 5M / 100M = 2M,
      // platform 2M × 1M / 5M = 400 000, reseller 1 600 000; the merchant is debited 38M.
      const first = ok<{ status: string; remaining_amount: number }>(await refund({ amount: 40_000_000 }));
      expect(first).toMatchObject({ status: 'partially_refunded', remaining_amount: 60_000_000 });
      expect(await get()).toMatchObject({
        reseller_fee: 2_400_000,
        platform_fee: 600_000,
        refunded_amount: 40_000_000,
      });
      expect(await available(sandbox, target.merchantId)).toBe(95_000_000 - 38_000_000);
      expect(await income(sandbox, reseller.merchantId)).toEqual([
        { currency: 'USDC', earned: 0, pending: 2_400_000 },
      ]);

      // What is left of the fees is released at the end of the hold.
      await advance(sandbox, 7 * DAY + 1);
      expect(await income(sandbox, reseller.merchantId)).toEqual([
        { currency: 'USDC', earned: 2_400_000, pending: 0 },
      ]);

      // After the hold nothing is reversed: the merchant pays all of X = 10M.
      ok(await refund({ amount: 10_000_000 }));
      expect(await get()).toMatchObject({
        reseller_fee: 2_400_000,
        platform_fee: 600_000,
        refunded_amount: 50_000_000,
      });
      expect(await available(sandbox, target.merchantId)).toBe(57_000_000 - 10_000_000);
      expect(await income(sandbox, reseller.merchantId)).toEqual([
        { currency: 'USDC', earned: 2_400_000, pending: 0 },
      ]);
    });

    it('a full refund within 7 days claws back all of both fees', async () => {
      ok(await refund({}));
      expect(await get()).toMatchObject({ status: 'refunded', reseller_fee: 0, platform_fee: 0 });
      expect(await available(sandbox, target.merchantId)).toBe(0);
      expect(await income(sandbox, reseller.merchantId)).toEqual([]);
      await advance(sandbox, 8 * DAY);
      expect(await income(sandbox, reseller.merchantId)).toEqual([]);
    });

    it('a refund after 7 days reverses no fee', async () => {
      await advance(sandbox, 8 * DAY);
      ok(await refund({ amount: 20_000_000 }));
      expect(await get()).toMatchObject({ reseller_fee: 4_000_000, platform_fee: 1_000_000 });
      expect(await available(sandbox, target.merchantId)).toBe(75_000_000);
      expect(await income(sandbox, reseller.merchantId)).toEqual([
        { currency: 'USDC', earned: 4_000_000, pending: 0 },
      ]);
    });
  });

  describe('the production address', () => {
    it('connections, on-behalf checkouts, fees and income there, apart from test', async () => {
      const sandbox = await testSandbox({ realNow: new ManualTime().now });
      const reseller = await createMerchant(sandbox, 'Reseller');
      const target = await createMerchant(sandbox, 'Target');
      await patchMerchant(sandbox, target.merchantId, { platform_rate: 100 });
      await connect(sandbox, reseller, target.merchantId, { rate: 250, min_fee: 3_000_000 }, 'production');
      const created = ok<Checkout>(
        await postCheckout(
          sandbox,
          reseller,
          { merchant_id: target.merchantId, currency: 'USDT' },
          'production',
        ),
      );
      expect(created.hosted_url.startsWith(sandbox.urls().production)).toBe(true);
      // 2.5M below the 3M floor → 3M gross; platform 1M; reseller 2M; merchant 97M.
      expect(await paidAndSettled(sandbox, created.id)).toMatchObject({
        reseller_fee: 2_000_000,
        platform_fee: 1_000_000,
      });
      expect(await available(sandbox, target.merchantId, 'production', 'USDT')).toBe(97_000_000);
      expect(await available(sandbox, target.merchantId, 'test', 'USDT')).toBe(0);
      expect(await income(sandbox, reseller.merchantId, 'production')).toEqual([
        { currency: 'USDT', earned: 0, pending: 2_000_000 },
      ]);
      expect(await income(sandbox, reseller.merchantId, 'test')).toEqual([]);
      await advance(sandbox, 7 * DAY + 1);
      expect(await income(sandbox, reseller.merchantId, 'production')).toEqual([
        { currency: 'USDT', earned: 2_000_000, pending: 0 },
      ]);
      const completed = (await events(sandbox, target.merchantId, 'production')).find(
        (e) => e.type === 'checkout.completed',
      );
      expect(completed?.data).toMatchObject({ reseller_id: reseller.merchantId, reseller_fee: 2_000_000 });
    });
  });
});
