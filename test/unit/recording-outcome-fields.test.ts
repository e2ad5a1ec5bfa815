// biome-ignore-all lint/suspicious/noTemplateCurlyInString: scenario references (${co1.id}) are literal text here
import { describe, expect, it } from 'vitest';
import { describeFailure, resourceLabel, resourceLabels } from '../../renderer/pages/Scenarios/labels.js';
import { outcome, stateReads } from '../../server/recording/outcomes.js';
import { interleaves } from '../../server/scenarios/expect.js';

// What a recording expects after an action, how a replay compares the events a step fired, and how
// the dashboard names recorded objects and shows a long failure.

describe('outcome: the key fields of an answer', () => {
  const refs = new Map([
    ['c0ffee00-0000-4000-8000-000000000001', 'co1.id'],
    ['m0000000-0000-4000-8000-000000000002', 'acme.id'],
  ]);
  const refOf = (v: string) => refs.get(v);

  it('keeps statuses, amounts, fees and known ids (as references); drops time, text and noise', () => {
    expect(
      outcome(
        {
          id: 'new00000-0000-4000-8000-000000000003',
          checkout_id: 'c0ffee00-0000-4000-8000-000000000001',
          status: 'paid',
          amount: 12_500_000,
          paid_amount: 12_500_000,
          platform_fee: 0,
          currency: 'USDC',
          title: 'Espresso beans',
          hosted_url: 'http://127.0.0.1/pay/x',
          created_at: '2026-01-01T00:00:00.000Z',
          paid_at: null,
          decline_reason: null,
          items: [{ status: 'x' }],
          nested: {
            merchant_id: 'm0000000-0000-4000-8000-000000000002',
            status: 'ok',
            deeper: { status: 'no' },
          },
        },
        refOf,
      ),
    ).toEqual({
      checkout_id: '${co1.id}',
      status: 'paid',
      amount: 12_500_000,
      paid_amount: 12_500_000,
      platform_fee: 0,
      currency: 'USDC',
      decline_reason: null,
      nested: { merchant_id: '${acme.id}', status: 'ok' },
    });
  });

  it('leaves links out of a state read back, and says nothing for an answer with nothing to expect', () => {
    expect(
      outcome({ checkout_id: 'c0ffee00-0000-4000-8000-000000000001', status: 'x' }, refOf, false),
    ).toEqual({
      status: 'x',
    });
    expect(outcome({ title: 'x' }, refOf)).toBeUndefined();
    expect(outcome([{ status: 'x' }], refOf)).toBeUndefined();
    // A literal `${` in a value stays literal in the file.
    expect(outcome({ status: '${not a ref}' }, refOf)).toEqual({ status: '$${not a ref}' });
  });
});

describe('stateReads: what a simulation left', () => {
  const exchange = (
    route: string,
    params: Record<string, string> = {},
    response: unknown = {},
    body: unknown = {},
  ) => ({
    route,
    params,
    query: {},
    body,
    response,
  });

  it('reads the checkout and its balance after a payment, the transaction after the card network acts', () => {
    const payment = stateReads(exchange('/sandbox/checkouts/:id/payments', { id: 'c1' }));
    expect(payment.get).toBe('/sandbox/checkouts/c1');
    expect(
      payment.balance?.({ env: 'production', checkout: { merchant_id: 'm1', currency: 'USDC' } }),
    ).toEqual({ merchantId: 'm1', env: 'production', currency: 'USDC' });
    expect(stateReads(exchange('/sandbox/cards/:id/authorizations', { id: 'card' }, { id: 't1' })).get).toBe(
      '/sandbox/card-transactions/t1',
    );
    expect(stateReads(exchange('/sandbox/card-transactions/:id/reverse', { id: 't1' })).get).toBe(
      '/sandbox/card-transactions/t1',
    );
    expect(stateReads(exchange('/sandbox/cardholders/:id/kyc', { id: 'h1' })).get).toBe(
      '/sandbox/cardholders/h1',
    );
    expect(
      stateReads(
        exchange('/sandbox/payouts', {}, { merchant_id: 'm1', env: 'test', currency: 'USDC' }),
      ).balance?.(undefined),
    ).toEqual({ merchantId: 'm1', env: 'test', currency: 'USDC' });
    expect(
      stateReads(
        exchange('/sandbox/merchants/:id/credit', { id: 'm1' }, [], { currency: 'usdc', env: 'production' }),
      ).balance?.(undefined),
    ).toEqual({ merchantId: 'm1', env: 'production', currency: 'USDC' });
    // Not a simulation: its answer is its outcome.
    expect(stateReads(exchange('/v1/checkouts'))).toEqual({});
  });
});

describe('interleaves: the events a step fired, across merchants', () => {
  it('keeps each log in order and allows any interleaving of two logs', () => {
    expect(interleaves(['a', 'b'], [['a', 'b']])).toBe(true);
    expect(interleaves(['b', 'a'], [['a', 'b']])).toBe(false);
    expect(
      interleaves(
        ['x', 'a', 'y', 'b'],
        [
          ['a', 'b'],
          ['x', 'y'],
        ],
      ),
    ).toBe(true);
    expect(interleaves(['a', 'a', 'b'], [['a', 'b'], ['a']])).toBe(true);
    expect(interleaves([], [])).toBe(true);
    expect(interleaves(['a'], [])).toBe(false);
    expect(interleaves([], [['a']])).toBe(false);
  });
});

describe('the dashboard: recorded objects and failures', () => {
  const checkout = {
    name: 'co1',
    id: 'c1',
    path: '/v1/checkouts/c1',
    env: 'test' as const,
    kind: 'checkout',
    title: 'Espresso beans',
    amount: 12_500_000,
    currency: 'USDC',
  };

  it('names an object as the pages do, and two alike by their name in the file', () => {
    expect(resourceLabel(checkout)).toBe('Checkout · Espresso beans · 12.50 USDC');
    expect(resourceLabel({ ...checkout, amount: null, env: 'production' })).toBe(
      'Checkout · Espresso beans · Any amount · USDC · production',
    );
    expect(
      resourceLabel({ name: 'holder1', id: 'h', path: '/v1/cardholders/h', env: 'test', kind: 'cardholder' }),
    ).toBe('Cardholder');
    const twice = resourceLabels([
      checkout,
      { ...checkout, name: 'co2', id: 'c2', path: '/v1/checkouts/c2' },
    ]);
    expect([...twice.values()]).toEqual([
      'Checkout · Espresso beans · 12.50 USDC (co1)',
      'Checkout · Espresso beans · 12.50 USDC (co2)',
    ]);
  });

  it('cuts a long failure to a summary and splits its expected and actual', () => {
    const short = describeFailure('body.status: expected "paid", actual "expired"');
    expect(short).toMatchObject({
      summary: 'body.status: expected "paid", actual "expired"',
      complete: true,
    });
    const list = JSON.stringify(Array.from({ length: 40 }, (_, i) => ({ chain: `chain-${i}` })));
    const long = describeFailure(`GET /sandbox/settings: body.chains: expected [], actual ${list}`);
    expect(long.complete).toBe(false);
    expect(long.summary.length).toBeLessThanOrEqual(181);
    expect(long.summary.endsWith('…')).toBe(true);
    expect(long.diff?.where).toBe('GET /sandbox/settings: body.chains');
    expect(long.diff?.expected).toBe('[]');
    expect(long.diff?.actual).toBe(JSON.stringify(JSON.parse(list), null, 2));
    const counted = describeFailure('body.items: expected 0 items, actual 2: [1,2]');
    expect(counted.diff).toEqual({
      where: 'body.items',
      expected: '0 items',
      actual: '2 items: [\n  1,\n  2\n]',
    });
  });
});
