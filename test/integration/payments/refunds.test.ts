import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../server/sandbox.js';
import { type Actor, createMerchant, inFuture, ManualTime, testSandbox } from '../../helpers/sandbox.js';

const DAY = 86_400;

async function setup(options: { amount?: number; method?: 'crypto' | 'fiat'; settle?: boolean } = {}) {
  const sandbox = await testSandbox({ realNow: new ManualTime().now });
  await sandbox.apps.test.inject({
    method: 'PATCH',
    url: '/sandbox/settings',
    payload: { platform_rate: 150 },
  });
  const actor = await createMerchant(sandbox);
  const created = await sandbox.apps.test.inject({
    method: 'POST',
    url: '/v1/checkouts',
    headers: actor.auth,
    payload: {
      title: 'Refundable',
      amount: options.amount ?? 20_000_000,
      expires_at: inFuture(sandbox),
      ...(options.method === 'fiat' ? { method: 'fiat' } : { chains: ['polygon'] }),
    },
  });
  expect(created.statusCode, created.body).toBe(200);
  const id = created.json().id as string;
  const paid = await sandbox.apps.test.inject({
    method: 'POST',
    url: `/sandbox/checkouts/${id}/payments`,
    payload: {},
  });
  expect(paid.statusCode, paid.body).toBe(200);
  if (options.settle !== false)
    await sandbox.apps.test.inject({ method: 'POST', url: `/sandbox/checkouts/${id}/complete` });
  return { sandbox, actor, id, payer: paid.json().checkout.payer_address as string };
}

const refund = (
  sandbox: Sandbox,
  actor: Actor | { auth: Record<string, string> },
  id: string,
  payload: object = {},
) =>
  sandbox.apps.test.inject({
    method: 'POST',
    url: `/v1/checkouts/${id}/refund`,
    headers: actor.auth,
    payload,
  });

const balance = async (sandbox: Sandbox, merchantId: string) =>
  (await sandbox.apps.test.inject({ url: `/sandbox/merchants/${merchantId}/balances` })).json()[0]
    ?.available as number;

const checkout = async (sandbox: Sandbox, actor: Actor, id: string) =>
  (await sandbox.apps.test.inject({ url: `/v1/checkouts/${id}`, headers: actor.auth })).json();

describe('refunds', () => {
  it('walks the spec: partial refunds with clawback inside 7 days, full debit after, until fully refunded', async () => {
    const { sandbox, actor, id } = await setup();
    // Settled: 20 USDC − 1.5% platform fee (300 000) − polygon gas (10 000).
    expect(await balance(sandbox, actor.merchantId)).toBe(19_690_000);

    // 1. 5 USDC, gas deducted: customer gets 4.99; X = 4 990 000; fees' share = X × 300 000 / 20 000 000.
    const first = await refund(sandbox, actor, id, { amount: 5_000_000, reason: 'damaged' });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({
      id,
      status: 'partially_refunded',
      refund_status: 'partially_refunded',
      refunded_amount: 5_000_000,
      refund_fee: 10_000,
      remaining_amount: 15_000_000,
    });
    expect(await balance(sandbox, actor.merchantId)).toBe(19_690_000 - 4_915_150);
    expect((await checkout(sandbox, actor, id)).platform_fee).toBe(300_000 - 74_850);

    // 2. 5 USDC, merchant pays gas: X = 5 010 000; share = floor(X × 225 150 / 15 000 000) = 75 200.
    const second = await refund(sandbox, actor, id, { amount: 5_000_000, gas_fee_payer: 'merchant' });
    expect(second.json().refunded_amount).toBe(10_000_000);
    expect(await balance(sandbox, actor.merchantId)).toBe(14_774_850 - 4_934_800);
    expect((await checkout(sandbox, actor, id)).platform_fee).toBe(225_150 - 75_200);

    // 3. After 7 days the fees are released: the merchant is debited all of X, fees stay.
    await sandbox.apps.test.inject({
      method: 'POST',
      url: '/sandbox/clock/advance',
      payload: { seconds: 8 * DAY },
    });
    const short = await refund(sandbox, actor, id);
    expect(short.statusCode).toBe(400);
    expect(short.json().error).toBe(
      'Merchant balance insufficient to cover refund (required: 9.99 USDC, available: 9.84005 USDC)',
    );
    await sandbox.apps.test.inject({
      method: 'POST',
      url: `/sandbox/merchants/${actor.merchantId}/credit`,
      payload: { currency: 'USDC', amount: 1_000_000 },
    });
    const last = await refund(sandbox, actor, id);
    expect(last.json()).toMatchObject({
      status: 'refunded',
      refund_status: 'refunded',
      refunded_amount: 20_000_000,
      remaining_amount: 0,
    });
    expect(await balance(sandbox, actor.merchantId)).toBe(9_840_050 + 1_000_000 - 9_990_000);
    const final = await checkout(sandbox, actor, id);
    expect(final).toMatchObject({ status: 'refunded', refund_status: 'refunded', platform_fee: 149_950 });

    const again = await refund(sandbox, actor, id, { amount: 1 });
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toMatch(/^Checkout already fully refunded/);

    // Every refund is recorded, and emitted with the spec's payload.
    const control = (await sandbox.apps.test.inject({ url: `/sandbox/checkouts/${id}` })).json();
    expect(control.refunds.map((r: { merchant_debit: number }) => r.merchant_debit)).toEqual([
      4_915_150, 4_934_800, 9_990_000,
    ]);
    const events = (
      await sandbox.apps.test.inject({ url: `/sandbox/merchants/${actor.merchantId}/events` })
    ).json();
    const refunded = events.filter((e: { type: string }) => e.type === 'checkout.refunded').reverse();
    expect(refunded[0].data).toEqual({
      id,
      merchant_id: actor.merchantId,
      refund_amount: 5_000_000,
      refunded_amount: 5_000_000,
      refund_fee: 10_000,
      remaining_amount: 15_000_000,
      currency: 'USDC',
      reason: 'damaged',
      status: 'partially_refunded',
    });
    expect(refunded[2].data).toMatchObject({
      refund_amount: 10_000_000,
      remaining_amount: 0,
      status: 'refunded',
      reason: null,
    });
    expect(sandbox.ctx.repos.ledger.unbalanced()).toEqual([]);
  });

  it('the five 400 messages begin exactly as the spec says', async () => {
    const { sandbox, actor, id } = await setup();
    for (const amount of [0, -5, 20_000_001]) {
      const res = await refund(sandbox, actor, id, { amount });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('Invalid refund amount. Max refundable: 20.00 USDC');
    }
    const tooSmall = await refund(sandbox, actor, id, { amount: 10_000 });
    expect(tooSmall.statusCode).toBe(400);
    expect(tooSmall.json().error).toMatch(/^Refund amount too small to cover gas fee \(gas: 0.01 USDC/);
    // Merchant pays gas: the same small amount goes through.
    expect((await refund(sandbox, actor, id, { amount: 10_000, gas_fee_payer: 'merchant' })).statusCode).toBe(
      200,
    );

    const active = await sandbox.apps.test.inject({
      method: 'POST',
      url: '/v1/checkouts',
      headers: actor.auth,
      payload: { title: 'Unpaid', amount: 1_000_000, expires_at: inFuture(sandbox) },
    });
    const res = await refund(sandbox, actor, active.json().id);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/^Cannot refund a checkout with status active/);
  });

  it('needs the owner or admin role; auth, ownership and environment paths', async () => {
    const { sandbox, actor, id } = await setup();
    const key = async (role: string) => {
      const res = await sandbox.apps.test.inject({
        method: 'POST',
        url: `/sandbox/merchants/${actor.merchantId}/api-keys`,
        payload: { name: role, role },
      });
      return { auth: { authorization: `Bearer ${res.json().key}` } };
    };
    const developer = await refund(sandbox, await key('developer'), id, { amount: 1_000_000 });
    expect(developer.statusCode).toBe(403);
    expect(developer.json().error).toContain('owner or admin');
    expect((await refund(sandbox, await key('admin'), id, { amount: 1_000_000 })).statusCode).toBe(200);
    expect((await refund(sandbox, { auth: {} }, id)).statusCode).toBe(401);
    const other = await createMerchant(sandbox, 'Other');
    expect((await refund(sandbox, other, id)).statusCode).toBe(403);
    expect((await refund(sandbox, actor, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    const prod = await sandbox.apps.production.inject({
      method: 'POST',
      url: `/v1/checkouts/${id}/refund`,
      headers: actor.auth,
      payload: {},
    });
    expect(prod.statusCode).toBe(404);
    const bad = await refund(sandbox, actor, id, { amount: '5' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error).toContain('amount');
  });

  it('receiver defaults to the payer, can be set, must be valid for the chain', async () => {
    const { sandbox, actor, id, payer } = await setup();
    const invalid = await refund(sandbox, actor, id, { amount: 1_000_000, receiver: 'TNotAnEvmAddress' });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json().error).toContain('receiver');
    await refund(sandbox, actor, id, { amount: 1_000_000 });
    const other = '0x52908400098527886E0F7030069857D2E4169EE7';
    await refund(sandbox, actor, id, { amount: 1_000_000, receiver: other });
    const control = (await sandbox.apps.test.inject({ url: `/sandbox/checkouts/${id}` })).json();
    expect(control.refunds.map((r: { receiver: string }) => r.receiver)).toEqual([payer, other]);
    expect(control.refunds[0].txid).toMatch(/^0x[0-9a-f]{64}$/);
  });

  it('fiat: no gas, receiver ignored', async () => {
    const { sandbox, actor, id } = await setup({ method: 'fiat' });
    const res = await refund(sandbox, actor, id, {
      amount: 1_000,
      receiver: 'anything',
      gas_fee_payer: 'merchant',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ refund_fee: 0, refunded_amount: 1_000 });
    const control = (await sandbox.apps.test.inject({ url: `/sandbox/checkouts/${id}` })).json();
    expect(control.refunds[0]).toMatchObject({ receiver: null, customer_amount: 1_000, refund_fee: 0 });
  });

  it('a refund before settlement settles first; the settlement job then has nothing to do', async () => {
    const { sandbox, actor, id } = await setup({ settle: false });
    const res = await refund(sandbox, actor, id, { amount: 2_000_000 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().status).toBe('partially_refunded');
    await sandbox.apps.test.inject({
      method: 'POST',
      url: '/sandbox/clock/advance',
      payload: { seconds: 120 },
    });
    const after = await checkout(sandbox, actor, id);
    expect(after.status).toBe('partially_refunded');
    const balances = (
      await sandbox.apps.test.inject({ url: `/sandbox/merchants/${actor.merchantId}/balances` })
    ).json();
    expect(balances[0].held).toBe(0);
    // 19 690 000 credited, then 1 990 000 × (1 − 300 000 / 20 000 000) = 1 960 150 debited.
    expect(balances[0].available).toBe(19_690_000 - 1_960_150);
    const events = (
      await sandbox.apps.test.inject({ url: `/sandbox/merchants/${actor.merchantId}/events` })
    ).json();
    expect(events.some((e: { type: string }) => e.type === 'checkout.completed')).toBe(false);
  });

  it('partial checkouts can be refunded up to what arrived', async () => {
    const sandbox = await testSandbox({ realNow: new ManualTime().now });
    const actor = await createMerchant(sandbox);
    const created = await sandbox.apps.test.inject({
      method: 'POST',
      url: '/v1/checkouts',
      headers: actor.auth,
      payload: { title: 'Partly', amount: 20_000_000, expires_at: inFuture(sandbox), chains: ['tron'] },
    });
    const id = created.json().id;
    await sandbox.apps.test.inject({
      method: 'POST',
      url: `/sandbox/checkouts/${id}/payments`,
      payload: { amount: 8_000_000 },
    });
    await sandbox.apps.test.inject({ method: 'POST', url: `/sandbox/checkouts/${id}/expire` });
    const over = await refund(sandbox, actor, id, { amount: 8_000_001 });
    expect(over.json().error).toBe('Invalid refund amount. Max refundable: 8.00 USDC');
    const all = await refund(sandbox, actor, id);
    expect(all.json()).toMatchObject({
      status: 'refunded',
      refunded_amount: 8_000_000,
      refund_fee: 1_000_000,
    });
  });
});

describe('fee hold', () => {
  it('holds platform fees for 7 days from paid_at, then moves them to the platform account', async () => {
    const { sandbox, actor, id } = await setup();
    const ledger = sandbox.ctx.ledger;
    const held = () => ledger.balance('test', `merchant:${actor.merchantId}:fees_held`, 'USDC');
    const platform = () => ledger.balance('test', 'platform:fees', 'USDC');
    expect(held()).toBe(300_000);
    expect(platform()).toBe(0);
    // Settlement happened at once (/complete); the hold counts from paid_at.
    await sandbox.apps.test.inject({
      method: 'POST',
      url: '/sandbox/clock/advance',
      payload: { seconds: 7 * DAY - 1 },
    });
    expect(held()).toBe(300_000);
    await sandbox.apps.test.inject({
      method: 'POST',
      url: '/sandbox/clock/advance',
      payload: { seconds: 1 },
    });
    expect(held()).toBe(0);
    expect(platform()).toBe(300_000);
    expect(ledger.balance('test', 'platform:gas', 'USDC')).toBe(10_000);
    const released = (
      await sandbox.apps.test.inject({ url: `/sandbox/merchants/${actor.merchantId}/ledger` })
    ).json();
    expect(released[0].kind).toBe('fees.release');
    expect((await checkout(sandbox, actor, id)).platform_fee).toBe(300_000);
  });
});
