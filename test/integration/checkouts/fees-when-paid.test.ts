import { beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../server/sandbox.js';
import {
  type Actor,
  advance,
  type Checkout,
  call,
  control,
  createMerchant,
  eventsFor,
  inFuture,
  ok,
} from '../../helpers/api.js';
import { connect, patchMerchant, v1 } from '../../helpers/resellers.js';
import { useSharedSandbox } from '../../helpers/suite.js';

// spec: Checkout (platform_fee "0 until paid"), Fee rules 1–4, checkout.completed, Refund rule 6;
// PRODUCT.md Fees and Refunds. A checkout's fees and gas fee are fixed when its payment is
// detected: shown from `paid` on, and carried unchanged into checkout.completed and the ledger.
// Every number below is computed by hand in the comment beside it.

const A = 20_000_000; // 20 USDC

interface Figures {
  platform_fee: number;
  reseller_fee: number;
  platform_gas_fee: number;
}

const figures = (c: Checkout): Figures => ({
  platform_fee: c.platform_fee,
  reseller_fee: c.reseller_fee,
  platform_gas_fee: c.platform_gas_fee,
});

interface Case {
  chain: string;
  /** reseller terms, or none: the merchant's own checkout */
  terms: { rate: number; min_fee?: number; max_fee?: number } | null;
  expected: Figures;
}

// The merchant's platform rate is 150 bps: platform_fee = 20M × 150 / 10000 = 300 000.
const CASES: [string, Case][] = [
  [
    'without a reseller',
    // polygon USDC gas 0.01
    {
      chain: 'polygon',
      terms: null,
      expected: { platform_fee: 300_000, reseller_fee: 0, platform_gas_fee: 10_000 },
    },
  ],
  [
    'with a reseller, the commission between min_fee and max_fee',
    {
      chain: 'polygon',
      // gross = 20M × 5% = 1M, inside [0.5M, 2M]; reseller = 1M − 0.3M
      terms: { rate: 500, min_fee: 500_000, max_fee: 2_000_000 },
      expected: { platform_fee: 300_000, reseller_fee: 700_000, platform_gas_fee: 10_000 },
    },
  ],
  [
    'with a reseller, the commission raised to min_fee',
    {
      chain: 'polygon',
      // gross = 20M × 1% = 0.2M → floor 1.5M; reseller = 1.5M − 0.3M
      terms: { rate: 100, min_fee: 1_500_000, max_fee: 3_000_000 },
      expected: { platform_fee: 300_000, reseller_fee: 1_200_000, platform_gas_fee: 10_000 },
    },
  ],
  [
    'with a reseller, the commission cut to max_fee',
    {
      chain: 'polygon',
      // gross = 20M × 20% = 4M → ceiling 3M; reseller = 3M − 0.3M
      terms: { rate: 2_000, min_fee: 1_500_000, max_fee: 3_000_000 },
      expected: { platform_fee: 300_000, reseller_fee: 2_700_000, platform_gas_fee: 10_000 },
    },
  ],
  [
    'a commission that leaves the merchant less than the gas fee',
    {
      chain: 'ethereum',
      // gross = 20M × 95% = 19M; reseller = 19M − 0.3M; the merchant is left 1M, less than
      // ethereum USDC's 2M gas fee: the gas fee is 1M, at paid as at completed.
      terms: { rate: 9_500 },
      expected: { platform_fee: 300_000, reseller_fee: 18_700_000, platform_gas_fee: 1_000_000 },
    },
  ],
];

describe('fees are fixed when the payment is detected', () => {
  const shared = useSharedSandbox();
  let sandbox: Sandbox;
  let merchant: Actor;
  let reseller: Actor;
  beforeEach(async () => {
    sandbox = shared();
    merchant = await createMerchant(sandbox, 'Merchant');
    reseller = await createMerchant(sandbox, 'Reseller');
    await patchMerchant(sandbox, merchant.merchantId, { platform_rate: 150 });
  });

  const create = async (chain: string, onBehalf: boolean, amount = A): Promise<Checkout> =>
    ok<Checkout>(
      await v1(sandbox, onBehalf ? reseller : merchant, 'POST', '/v1/checkouts', {
        title: 'Order',
        amount,
        expires_at: inFuture(sandbox),
        chains: [chain],
        ...(onBehalf ? { merchant_id: merchant.merchantId } : {}),
      }),
    );
  const payment = async (id: string, body: Record<string, unknown> = {}) =>
    ok<{ checkout: Checkout }>(await control(sandbox, 'POST', `/sandbox/checkouts/${id}/payments`, body))
      .checkout;
  /** The checkout as every reader sees it: GET /v1, the /v1 list, the control API's view. */
  const everywhere = async (id: string): Promise<Figures[]> => {
    const got = ok<Checkout>(await v1(sandbox, merchant, 'GET', `/v1/checkouts/${id}`));
    const listed = ok<Checkout[]>(await v1(sandbox, merchant, 'GET', '/v1/checkouts')).find(
      (c) => c.id === id,
    );
    const inspected = ok<{ checkout: Checkout }>(await control(sandbox, 'GET', `/sandbox/checkouts/${id}`));
    return [figures(got), figures(listed!), figures(inspected.checkout)];
  };
  /** The settlement's ledger entries, by account. */
  const settlement = (id: string): Record<string, number> =>
    Object.fromEntries(
      sandbox.ctx.db
        .prepare<[string], { account: string; amount: number }>(
          `SELECT e.account, e.amount FROM ledger_entries e JOIN ledger_transactions t ON t.id = e.tx_id
           WHERE t.kind = 'checkout.settlement' AND t.ref_id = ? ORDER BY e.id`,
        )
        .all(id)
        .map((e) => [e.account, e.amount]),
    );
  const balance = (account: string) => sandbox.ctx.ledger.balance('test', account, 'USDC');

  it.each(CASES)(
    '%s: the figures at paid are those at completed, in the events and the ledger',
    async (_, c) => {
      if (c.terms) await connect(sandbox, reseller, merchant.merchantId, c.terms);
      const created = await create(c.chain, c.terms !== null);
      expect(figures(created)).toEqual({ platform_fee: 0, reseller_fee: 0, platform_gas_fee: 0 });

      const paid = await payment(created.id);
      expect(paid.status).toBe('paid');
      expect(figures(paid)).toEqual(c.expected);
      expect(await everywhere(created.id)).toEqual([c.expected, c.expected, c.expected]);
      // Still in pending, whole: nothing is credited before settlement.
      expect(balance(`merchant:${merchant.merchantId}:pending`)).toBe(A);
      expect(balance(`merchant:${merchant.merchantId}:available`)).toBe(0);

      // A rate changed between payment and settlement does not touch a checkout already paid.
      await patchMerchant(sandbox, merchant.merchantId, { platform_rate: 1_000 });
      await advance(sandbox, 60);
      const [completed] = await everywhere(created.id).then((all) => {
        expect(all).toEqual([c.expected, c.expected, c.expected]);
        return all;
      });
      expect(completed).toEqual(c.expected);
      const done = ok<Checkout>(await v1(sandbox, merchant, 'GET', `/v1/checkouts/${created.id}`));
      expect(done.status).toBe('completed');

      // checkout.paid has the spec's five fields; checkout.completed carries the figures fixed at paid.
      const [paidEvent] = await eventsFor(sandbox, merchant.merchantId, created.id, 'checkout.paid');
      expect(paidEvent?.data).toEqual({
        id: created.id,
        merchant_id: merchant.merchantId,
        amount: A,
        currency: 'USDC',
        status: 'paid',
      });
      const completedEvents = await eventsFor(sandbox, merchant.merchantId, created.id, 'checkout.completed');
      expect(completedEvents).toHaveLength(1);
      expect(completedEvents[0]?.data).toMatchObject({
        status: 'completed',
        platform_fee: c.expected.platform_fee,
        reseller_fee: c.expected.reseller_fee,
        reseller_id: c.terms ? reseller.merchantId : null,
      });

      // The ledger at settlement: the same figures, balanced.
      const { platform_fee: platform, reseller_fee: resellerFee, platform_gas_fee: gas } = c.expected;
      // (A zero entry is not written: here, the merchant's available when nothing is left for it.)
      const entries = {
        [`merchant:${merchant.merchantId}:pending`]: -A,
        [`merchant:${merchant.merchantId}:available`]: A - platform - resellerFee - gas,
        [`merchant:${merchant.merchantId}:fees_held`]: platform + resellerFee,
        'platform:gas': gas,
      };
      expect(settlement(created.id)).toEqual(
        Object.fromEntries(Object.entries(entries).filter(([, amount]) => amount !== 0)),
      );
      expect(balance(`merchant:${merchant.merchantId}:available`)).toBe(A - platform - resellerFee - gas);
      expect(balance(`merchant:${merchant.merchantId}:pending`)).toBe(0);
      expect(sandbox.ctx.repos.ledger.unbalanced()).toEqual([]);
      expect(sandbox.ctx.repos.ledger.driftedBalances()).toEqual([]);
    },
  );

  it('transfers that complete the amount: fixed at the transfer that makes it paid, on the total', async () => {
    const created = await create('polygon', false);
    const first = await payment(created.id, { amount: 8_000_000 });
    // Still active: nothing is paid yet, so nothing is fixed.
    expect(first.status).toBe('active');
    expect(figures(first)).toEqual({ platform_fee: 0, reseller_fee: 0, platform_gas_fee: 0 });
    const paid = await payment(created.id, { amount: 12_000_000 });
    // 20M × 150 / 10000 = 300 000; one gas fee, the completing transfer's token's.
    const expected = { platform_fee: 300_000, reseller_fee: 0, platform_gas_fee: 10_000 };
    expect(paid).toMatchObject({ status: 'paid', paid_amount: A, ...expected });
    ok(await control(sandbox, 'POST', `/sandbox/checkouts/${created.id}/complete`));
    expect(await everywhere(created.id)).toEqual([expected, expected, expected]);
    expect(balance(`merchant:${merchant.merchantId}:available`)).toBe(A - 310_000);
  });

  it('an overpayment: the fees are on what was paid', async () => {
    await connect(sandbox, reseller, merchant.merchantId, { rate: 500 });
    const created = await create('polygon', true);
    const paid = await payment(created.id, { amount: 25_000_000 });
    // 25M × 150 / 10000 = 375 000; gross 25M × 5% = 1 250 000; reseller 875 000.
    const expected = { platform_fee: 375_000, reseller_fee: 875_000, platform_gas_fee: 10_000 };
    expect(paid).toMatchObject({ status: 'paid', paid_amount: 25_000_000, ...expected });
    ok(await control(sandbox, 'POST', `/sandbox/checkouts/${created.id}/complete`));
    expect(await everywhere(created.id)).toEqual([expected, expected, expected]);
    expect(balance(`merchant:${merchant.merchantId}:available`)).toBe(25_000_000 - 1_260_000);
  });

  it('a refund inside the hold, before settlement, claws back from the figures fixed when paid', async () => {
    const created = await create('polygon', false);
    await payment(created.id);
    // The rate changes before the refund settles the checkout: the figures stay those of paid.
    await patchMerchant(sandbox, merchant.merchantId, { platform_rate: 1_000 });
    const refund = await v1(sandbox, merchant, 'POST', `/v1/checkouts/${created.id}/refund`, {
      amount: 5_000_000,
    });
    expect(ok(refund)).toMatchObject({ status: 'partially_refunded', refund_fee: 10_000 });
    // X = 5M − 10 000 gas = 4 990 000; clawback = X × 300 000 / 20M = 74 850.
    const after = ok<Checkout>(await v1(sandbox, merchant, 'GET', `/v1/checkouts/${created.id}`));
    expect(figures(after)).toEqual({
      platform_fee: 300_000 - 74_850,
      reseller_fee: 0,
      platform_gas_fee: 10_000,
    });
    // Settled with the paid figures (20M − 300 000 − 10 000), then debited X − clawback.
    expect(balance(`merchant:${merchant.merchantId}:available`)).toBe(A - 310_000 - (4_990_000 - 74_850));
    expect(balance(`merchant:${merchant.merchantId}:fees_held`)).toBe(300_000 - 74_850);
    expect(settlement(created.id)[`merchant:${merchant.merchantId}:fees_held`]).toBe(300_000);
    // The settlement job finds nothing left to do.
    await advance(sandbox, 60);
    expect(await eventsFor(sandbox, merchant.merchantId, created.id, 'checkout.completed')).toEqual([]);
    expect(sandbox.ctx.repos.ledger.unbalanced()).toEqual([]);
  });

  it('the dashboard’s list (GET /sandbox/merchants/{id}/checkouts) shows them from paid on', async () => {
    await connect(sandbox, reseller, merchant.merchantId, { rate: 500 });
    const created = await create('polygon', true);
    await payment(created.id);
    const listed = ok<Checkout[]>(
      await call(sandbox, {
        method: 'GET',
        url: `/sandbox/merchants/${merchant.merchantId}/checkouts?env=test`,
      }),
    ).find((c) => c.id === created.id);
    // gross 1M, platform 300 000, reseller 700 000
    expect(listed && figures(listed)).toEqual({
      platform_fee: 300_000,
      reseller_fee: 700_000,
      platform_gas_fee: 10_000,
    });
  });
});
