import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../server/sandbox.js';
import { createMerchant, inFuture, testSandbox } from '../../helpers/sandbox.js';

async function post(sandbox: Sandbox, url: string, payload: unknown) {
  return sandbox.apps.test.inject({ method: 'POST', url, payload: payload as Record<string, unknown> });
}

describe('deposits and payouts', () => {
  it('a deposit to a static address credits the merchant and emits deposit.received', async () => {
    const sandbox = await testSandbox();
    const actor = await createMerchant(sandbox);
    const res = await post(sandbox, '/sandbox/deposits', {
      merchant_id: actor.merchantId,
      chain: 'ethereum',
      currency: 'USDC',
      amount: 7_000_000,
      txid: '0xabc',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      amount: 7_000_000,
      currency: 'USDC',
      chain: 'ethereum',
      txid: '0xabc',
    });
    const addresses = (
      await sandbox.apps.test.inject({ url: '/v1/static-addresses', headers: actor.auth })
    ).json();
    const tron = addresses.find((a: { chain: string }) => a.chain === 'tron');
    expect(res.json().address).toBe(addresses.find((a: { chain: string }) => a.chain === 'ethereum').address);

    // Also reachable from the static address itself ("send to this address").
    const viaAddress = await post(sandbox, `/sandbox/static-addresses/${tron.address}/deposits`, {
      currency: 'USDT',
      amount: 3_000_000,
    });
    expect(viaAddress.statusCode, viaAddress.body).toBe(200);
    expect(viaAddress.json().txid).toMatch(/^[0-9a-f]{64}$/);

    const balances = (
      await sandbox.apps.test.inject({ url: `/sandbox/merchants/${actor.merchantId}/balances` })
    ).json();
    expect(balances).toEqual(
      expect.arrayContaining([
        { currency: 'USDC', available: 7_000_000, held: 0 },
        { currency: 'USDT', available: 3_000_000, held: 0 },
      ]),
    );
    const events = (
      await sandbox.apps.test.inject({ url: `/sandbox/merchants/${actor.merchantId}/events` })
    ).json();
    const deposit = events.find((e: { type: string }) => e.type === 'deposit.received');
    expect(deposit.data).toEqual({
      merchant_id: actor.merchantId,
      amount: 3_000_000,
      currency: 'USDT',
      txid: viaAddress.json().txid,
    });
    // Production balances are separate.
    const prod = (
      await sandbox.apps.test.inject({
        url: `/sandbox/merchants/${actor.merchantId}/balances?env=production`,
      })
    ).json();
    expect(prod).toEqual([]);
  });

  it('validates deposits against the chain catalogue', async () => {
    const sandbox = await testSandbox();
    const actor = await createMerchant(sandbox);
    const cases: [Record<string, unknown>, number, string][] = [
      [{ chain: 'tron', currency: 'USDC', amount: 1 }, 422, 'currency'],
      [{ chain: 'bitcoin', currency: 'USDT', amount: 1 }, 422, 'currency'],
      [{ chain: 'solana', currency: 'USDC', amount: 1 }, 422, 'chain'],
      [{ chain: 'tron', currency: 'USDT', amount: 0 }, 422, 'amount'],
      [{ chain: 'tron', currency: 'USDT', amount: 1.5 }, 422, 'amount'],
      [{ chain: 'tron', currency: 'USDT' }, 422, 'amount'],
    ];
    for (const [body, status, field] of cases) {
      const res = await post(sandbox, '/sandbox/deposits', { merchant_id: actor.merchantId, ...body });
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json().error).toContain(field);
    }
    const unknown = await post(sandbox, '/sandbox/deposits', {
      merchant_id: '00000000-0000-4000-8000-000000000000',
      chain: 'tron',
      currency: 'USDT',
      amount: 1,
    });
    expect(unknown.statusCode).toBe(404);
    const noAddress = await post(sandbox, '/sandbox/static-addresses/0xnope/deposits', {
      currency: 'USDT',
      amount: 1,
    });
    expect(noAddress.statusCode).toBe(404);
  });

  it('payouts debit the balance, fail when larger than it, and emit payout events', async () => {
    const sandbox = await testSandbox();
    const actor = await createMerchant(sandbox);
    await post(sandbox, `/sandbox/merchants/${actor.merchantId}/credit`, {
      currency: 'USDC',
      amount: 10_000_000,
    });
    const ok = await post(sandbox, '/sandbox/payouts', {
      merchant_id: actor.merchantId,
      amount: 4_000_000,
      currency: 'USDC',
      destination: 'IBAN DE89 3704 0044 0532 0130 00',
      outcome: 'completed',
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ status: 'completed', failure_reason: null, amount: 4_000_000 });
    const tooBig = await post(sandbox, '/sandbox/payouts', {
      merchant_id: actor.merchantId,
      amount: 7_000_000,
      currency: 'USDC',
    });
    expect(tooBig.json().status).toBe('failed');
    expect(tooBig.json().failure_reason).toContain('Insufficient balance: available 6.00 USDC');
    const rejected = await post(sandbox, '/sandbox/payouts', {
      merchant_id: actor.merchantId,
      amount: 1_000_000,
      currency: 'USDC',
      outcome: 'failed',
    });
    expect(rejected.json().status).toBe('failed');

    const balances = (
      await sandbox.apps.test.inject({ url: `/sandbox/merchants/${actor.merchantId}/balances` })
    ).json();
    expect(balances).toEqual([{ currency: 'USDC', available: 6_000_000, held: 0 }]);
    const events = (
      await sandbox.apps.test.inject({ url: `/sandbox/merchants/${actor.merchantId}/events` })
    ).json();
    expect(events.map((e: { type: string }) => e.type)).toEqual([
      'payout.failed',
      'payout.failed',
      'payout.completed',
    ]);
    expect(events[2].data).toEqual(ok.json());
    const bad = await post(sandbox, '/sandbox/payouts', {
      merchant_id: actor.merchantId,
      amount: 1,
      currency: 'USDC',
      outcome: 'maybe',
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error).toContain('outcome');
  });

  it('checkout money flows through the ledger: pending when paid, available less fees when settled', async () => {
    const sandbox = await testSandbox();
    await sandbox.apps.test.inject({
      method: 'PATCH',
      url: '/sandbox/settings',
      payload: { platform_rate: 150 },
    });
    const actor = await createMerchant(sandbox);
    const checkout = (
      await sandbox.apps.test.inject({
        method: 'POST',
        url: '/v1/checkouts',
        headers: actor.auth,
        payload: { title: 'Ledger', amount: 20_000_000, expires_at: inFuture(sandbox), chains: ['polygon'] },
      })
    ).json();
    await post(sandbox, `/sandbox/checkouts/${checkout.id}/payments`, {});
    const held = (
      await sandbox.apps.test.inject({ url: `/sandbox/merchants/${actor.merchantId}/balances` })
    ).json();
    expect(held).toEqual([{ currency: 'USDC', available: 0, held: 20_000_000 }]);
    const done = (await post(sandbox, `/sandbox/checkouts/${checkout.id}/complete`, {})).json();
    expect(done.platform_fee).toBe(300_000);
    expect(done.platform_gas_fee).toBe(10_000);
    const balances = (
      await sandbox.apps.test.inject({ url: `/sandbox/merchants/${actor.merchantId}/balances` })
    ).json();
    expect(balances).toEqual([{ currency: 'USDC', available: 20_000_000 - 300_000 - 10_000, held: 0 }]);
    const ledger = (
      await sandbox.apps.test.inject({ url: `/sandbox/merchants/${actor.merchantId}/ledger` })
    ).json();
    expect(ledger.map((t: { kind: string }) => t.kind)).toEqual(['checkout.settlement', 'checkout.payment']);
    for (const tx of ledger) {
      expect(tx.entries.reduce((sum: number, e: { amount: number }) => sum + e.amount, 0)).toBe(0);
    }
    expect(sandbox.ctx.repos.ledger.unbalanced()).toEqual([]);
  });
  it('a deposit repeating a txid returns the first deposit and credits nothing more', async () => {
    const sandbox = await testSandbox();
    const actor = await createMerchant(sandbox);
    const other = await createMerchant(sandbox, 'Other');
    const body = {
      merchant_id: actor.merchantId,
      chain: 'ethereum',
      currency: 'USDC',
      amount: 5_000_000,
      txid: '0xsame',
    };
    const first = await post(sandbox, '/sandbox/deposits', body);
    expect(first.statusCode, first.body).toBe(200);
    const again = await post(sandbox, '/sandbox/deposits', body);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toEqual(first.json());
    // Reported again with another amount, it is still the same transfer.
    const changed = await post(sandbox, '/sandbox/deposits', { ...body, amount: 9_000_000 });
    expect(changed.json()).toEqual(first.json());
    // Through the static address too.
    const via = await post(sandbox, `/sandbox/static-addresses/${first.json().address}/deposits`, {
      currency: 'USDC',
      amount: 5_000_000,
      txid: '0xsame',
    });
    expect(via.json()).toEqual(first.json());
    // The same txid named for another merchant is a contradiction, refused naming the field.
    const elsewhere = await post(sandbox, '/sandbox/deposits', { ...body, merchant_id: other.merchantId });
    expect(elsewhere.statusCode).toBe(422);
    expect(elsewhere.json().error).toMatch(/txid/);

    const balances = (
      await sandbox.apps.test.inject({ url: `/sandbox/merchants/${actor.merchantId}/balances` })
    ).json();
    expect(balances).toEqual([{ currency: 'USDC', available: 5_000_000, held: 0 }]);
    const deposits = (
      await sandbox.apps.test.inject({ url: `/sandbox/merchants/${actor.merchantId}/deposits` })
    ).json();
    expect(deposits).toHaveLength(1);
    const events = (
      await sandbox.apps.test.inject({ url: `/sandbox/merchants/${actor.merchantId}/events` })
    ).json();
    expect(events.filter((e: { type: string }) => e.type === 'deposit.received')).toHaveLength(1);
  });

  it('a checkout payment repeating a txid returns the first payment and credits nothing more', async () => {
    const sandbox = await testSandbox();
    const actor = await createMerchant(sandbox);
    const create = (title: string) =>
      sandbox.apps.test.inject({
        method: 'POST',
        url: '/v1/checkouts',
        headers: actor.auth,
        payload: { title, amount: 20_000_000, expires_at: inFuture(sandbox), chains: ['polygon'] },
      });
    const checkout = (await create('Once')).json();
    const other = (await create('Other')).json();
    const url = `/sandbox/checkouts/${checkout.id}/payments`;
    const inspect = async () =>
      (await sandbox.apps.test.inject({ url: `/sandbox/checkouts/${checkout.id}` })).json();
    const first = await post(sandbox, url, { amount: 8_000_000, txid: '0xpay' });
    expect(first.statusCode, first.body).toBe(200);
    const again = await post(sandbox, url, { amount: 8_000_000, txid: '0xpay' });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().payment).toEqual(first.json().payment);
    expect(again.json().checkout.status).toBe('active');
    expect((await inspect()).received_amount).toBe(8_000_000);

    // Paid in full, then the first transfer reported once more: still no second credit, and
    // the repeat is answered although the checkout no longer accepts payments.
    const rest = await post(sandbox, url, { txid: '0xrest' });
    expect(rest.json().checkout.status).toBe('paid');
    const late = await post(sandbox, url, { amount: 8_000_000, txid: '0xpay' });
    expect(late.statusCode, late.body).toBe(200);
    expect(late.json().payment).toEqual(first.json().payment);
    const seen = await inspect();
    expect(seen.received_amount).toBe(20_000_000);
    expect(seen.payments).toHaveLength(2);
    const balances = (
      await sandbox.apps.test.inject({ url: `/sandbox/merchants/${actor.merchantId}/balances` })
    ).json();
    expect(balances).toEqual([{ currency: 'USDC', available: 0, held: 20_000_000 }]);

    // The txid of one checkout's transfer named for another: refused naming the field.
    const elsewhere = await post(sandbox, `/sandbox/checkouts/${other.id}/payments`, { txid: '0xpay' });
    expect(elsewhere.statusCode).toBe(422);
    expect(elsewhere.json().error).toMatch(/txid/);
  });
});
