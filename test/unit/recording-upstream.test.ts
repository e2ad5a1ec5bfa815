// biome-ignore-all lint/suspicious/noTemplateCurlyInString: scenario references (${co1.id}) are literal text here
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { luhn, REDACTED, Secrets } from '../../server/recording/redact.js';
import { type ProxiedExchange, UpstreamRecorder } from '../../server/recording/upstream.js';
import { parseScenario } from '../../server/scenarios/parse.js';

/**
 * The proxy recorder without the proxy: exchanges and webhooks as the CLI hands them over, and the
 * file they make. What the end-to-end tests (integration/recording/record-*.test.ts) do not reach:
 * inference from GET answers alone, settlement, the card network, deposits with no address known,
 * redaction by field name.
 */
const KEY = 'svcb_test_0123456789abcdef';
const MERCHANT = '5b1f1c9e-8d6a-4c1e-9a55-3f2e1d0c9b8a';
const CO = '0e7c3f7a-2b1d-4e5f-8a9b-1c2d3e4f5a6b';
const HOLDER = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const CARD = '1f2e3d4c-5b6a-4978-8a6b-5c4d3e2f1a0b';
const TX = 'c0ffee00-1234-4abc-9def-0123456789ab';
const T0 = Date.parse('2026-03-01T10:00:00.000Z');

type Json = Record<string, unknown>;

function recorder(webhooks = true) {
  const r = new UpstreamRecorder({
    upstream: 'https://api-test.example.com',
    startedAt: new Date(T0),
    webhooks,
  });
  const call = (method: string, url: string, status: number, response?: unknown, body?: unknown, at = T0) =>
    r.exchange({
      method,
      url,
      authorization: `Bearer ${KEY}`,
      requestBody: Buffer.from(body === undefined ? '' : JSON.stringify(body)),
      status,
      responseBody: Buffer.from(response === undefined ? '' : JSON.stringify(response)),
      at,
    } satisfies ProxiedExchange);
  const hook = (event: string, data: Json, id: string = crypto.randomUUID()) =>
    r.webhook(Buffer.from(JSON.stringify({ id, event, data })));
  const file = () => {
    const text = r.render()!;
    expect(parseScenario(text).ok, text).toBe(true);
    return { text, steps: (parse(text) as { steps: Json[] }).steps };
  };
  return { r, call, hook, file };
}

const checkout = (fields: Json = {}): Json => ({
  id: CO,
  merchant_id: MERCHANT,
  title: 'Order',
  amount: 10_000_000,
  currency: 'USDC',
  status: 'active',
  paid_amount: null,
  created_at: new Date(T0).toISOString(),
  expires_at: new Date(T0 + 3600_000).toISOString(),
  ...fields,
});

describe('the proxy recorder', () => {
  it('infers a payment from a GET alone (active, then paid), and settlement from a later one', () => {
    const { call, file } = recorder(false);
    call('POST', '/v1/checkouts', 200, checkout(), {
      title: 'Order',
      amount: 10_000_000,
      expires_at: new Date(T0 + 3600_000).toISOString(),
    });
    call('GET', `/v1/checkouts/${CO}`, 200, checkout());
    call('GET', `/v1/checkouts/${CO}`, 200, checkout({ status: 'paid', paid_amount: 10_000_000 }));
    call('GET', `/v1/checkouts/${CO}`, 200, checkout({ status: 'completed', paid_amount: 10_000_000 }));
    const { steps } = file();
    expect(steps.map((s) => s.call ?? s.control ?? s.clock ?? s.merchant)).toEqual([
      'merchant',
      'POST /v1/checkouts',
      'GET /v1/checkouts/${co1.id}',
      'POST /sandbox/checkouts/${co1.id}/payments',
      'GET /v1/checkouts/${co1.id}',
      { advance: '1m' },
      'GET /v1/checkouts/${co1.id}',
    ]);
    expect(steps[3]).toMatchObject({
      body: { amount: 10_000_000 },
      inferred: expect.stringContaining('GET /v1/checkouts/{id}'),
    });
    expect(steps[1]).toMatchObject({ body: { expires_at: '${clock.in.1h}' }, recorded: { status: 200 } });
    expect(steps[1]!.recorded).not.toHaveProperty('webhooks');
  });

  it('plays a part payment the answer shows only by its payer, then the rest from the paid total', () => {
    const { call, file } = recorder(false);
    call('POST', '/v1/checkouts', 200, checkout(), {
      title: 'Order',
      amount: 10_000_000,
      expires_at: new Date(T0 + 3600_000).toISOString(),
    });
    const payer = '0x4062071fDC9039BC182C02B02C229082d9776A4E';
    // 4 USDC arrived: the checkout stays active, with a payer and no paid amount.
    call('GET', `/v1/checkouts/${CO}`, 200, checkout({ payer_address: payer }));
    call('GET', `/v1/checkouts/${CO}`, 200, checkout({ payer_address: payer }));
    call(
      'GET',
      `/v1/checkouts/${CO}`,
      200,
      checkout({ status: 'paid', paid_amount: 10_000_000, payer_address: payer }),
    );
    const { steps } = file();
    expect(steps.map((s) => s.call ?? s.control ?? s.merchant)).toEqual([
      'merchant',
      'POST /v1/checkouts',
      'POST /sandbox/checkouts/${co1.id}/payments',
      'GET /v1/checkouts/${co1.id}',
      'GET /v1/checkouts/${co1.id}',
      'POST /sandbox/checkouts/${co1.id}/payments',
      'GET /v1/checkouts/${co1.id}',
    ]);
    expect(steps[2]).toMatchObject({
      body: { amount: 1 },
      inferred: expect.stringContaining('payer_address'),
    });
    // The total the paid answer shows, less what stood for the part.
    expect(steps[5]).toMatchObject({ body: { amount: 9_999_999 } });
  });

  it("plays a refund made in the dashboard (more refunded than the refund calls made), not the calls' own", () => {
    const { call, hook, file } = recorder();
    call('POST', '/v1/checkouts', 200, checkout(), {
      title: 'Order',
      amount: 10_000_000,
      expires_at: new Date(T0 + 3600_000).toISOString(),
    });
    hook('checkout.paid', checkout({ status: 'paid', paid_amount: 10_000_000 }));
    // The integration's own refund of 3, and its webhook: the replay makes it by the same call.
    call(
      'POST',
      `/v1/checkouts/${CO}/refund`,
      200,
      {
        id: CO,
        status: 'partially_refunded',
        refund_status: 'partially_refunded',
        refunded_amount: 3_000_000,
      },
      { amount: 3_000_000 },
    );
    const refunded = (amount: number, total: number, reason: string | null) => ({
      id: CO,
      merchant_id: MERCHANT,
      refund_amount: amount,
      refunded_amount: total,
      currency: 'USDC',
      reason,
      status: 'partially_refunded',
    });
    hook('checkout.refunded', refunded(3_000_000, 3_000_000, null));
    // Then 2 more, refunded by someone in the service's dashboard.
    hook('checkout.refunded', refunded(2_000_000, 5_000_000, 'Goodwill'));
    // A later GET shows the same total: nothing more to play.
    call(
      'GET',
      `/v1/checkouts/${CO}`,
      200,
      checkout({ status: 'partially_refunded', paid_amount: 10_000_000, refunded_amount: 5_000_000 }),
    );
    const { steps } = file();
    expect(steps.map((s) => s.call ?? s.control ?? s.merchant)).toEqual([
      'merchant',
      'POST /v1/checkouts',
      'POST /sandbox/checkouts/${co1.id}/payments',
      'POST /v1/checkouts/${co1.id}/refund',
      'POST /sandbox/checkouts/${co1.id}/refund',
      'GET /v1/checkouts/${co1.id}',
    ]);
    expect(steps[4]).toMatchObject({
      body: { amount: 2_000_000, reason: 'Goodwill' },
      inferred: expect.stringContaining('refunded_amount 3000000 → 5000000'),
      recorded: { webhooks: [expect.objectContaining({ type: 'checkout.refunded' })] },
    });
  });

  it('plays a cancellation made in the dashboard, not the one a DELETE made', () => {
    const { call, hook, file } = recorder();
    const CO2 = '7d6c5b4a-3f2e-4d1c-8b0a-9f8e7d6c5b4a';
    const body = { title: 'Order', amount: 10_000_000, expires_at: new Date(T0 + 3600_000).toISOString() };
    call('POST', '/v1/checkouts', 200, checkout(), body);
    call('POST', '/v1/checkouts', 200, checkout({ id: CO2 }), body);
    // The integration cancels the first itself; its webhook follows.
    call('DELETE', `/v1/checkouts/${CO}`, 204);
    hook('checkout.cancelled', checkout({ status: 'cancelled' }));
    // The second is cancelled in the service's dashboard: its webhook, then a GET, show it.
    hook('checkout.cancelled', checkout({ id: CO2, status: 'cancelled' }));
    call('GET', `/v1/checkouts/${CO2}`, 200, checkout({ id: CO2, status: 'cancelled' }));
    const { steps } = file();
    expect(steps.map((s) => s.call ?? s.control ?? s.merchant)).toEqual([
      'merchant',
      'POST /v1/checkouts',
      'POST /v1/checkouts',
      'DELETE /v1/checkouts/${co1.id}',
      'POST /sandbox/checkouts/${co2.id}/cancel',
      'GET /v1/checkouts/${co2.id}',
    ]);
    expect(steps[4]).toMatchObject({
      inferred: expect.stringContaining('no cancelling call'),
      recorded: { webhooks: [expect.objectContaining({ type: 'checkout.cancelled' })] },
    });
  });

  it('plays the card network: an authorization, then its settlement; a refund; an unknown card is left alone', () => {
    const { call, hook, file } = recorder();
    call('POST', '/v1/cardholders', 200, { id: HOLDER, merchant_id: MERCHANT, is_kyc_verified: false });
    call('POST', `/v1/cardholders/${HOLDER}/cards`, 200, {
      id: CARD,
      user_id: HOLDER,
      status: 'active',
      last4: '4242',
      exp_month: '04',
      exp_year: '2030',
    });
    const tx = {
      id: TX,
      card_id: CARD,
      amount: -12_500_000,
      currency: 'USDC',
      local_amount: -1150,
      local_currency: 'EUR',
      merchant_name: 'Coffee',
      type: 'card_payment',
    };
    hook('card.transaction', { ...tx, status: 'requested' });
    hook('card.transaction', { ...tx, status: 'completed' });
    hook('card.transaction', {
      ...tx,
      id: crypto.randomUUID(),
      amount: 2_000_000,
      type: 'card_refund',
      status: 'completed',
    });
    hook('card.transaction', {
      ...tx,
      id: crypto.randomUUID(),
      card_id: crypto.randomUUID(),
      status: 'requested',
    });
    const { steps, text } = file();
    const inferred = steps.filter((s) => s.inferred);
    expect(inferred.map((s) => [s.control, s.body, s.as])).toEqual([
      [
        'POST /sandbox/cards/${card1.id}/authorizations',
        {
          amount: 12_500_000,
          currency: 'USDC',
          merchant_name: 'Coffee',
          local_amount: 1150,
          local_currency: 'EUR',
        },
        'auth1',
      ],
      ['POST /sandbox/card-transactions/${auth1.id}/settle', undefined, undefined],
      // named: the webhook that followed it refers to it
      ['POST /sandbox/cards/${card1.id}/refunds', expect.objectContaining({ amount: 2_000_000 }), 'refund1'],
    ]);
    expect(inferred[1]!.recorded).toEqual({
      webhooks: [
        {
          type: 'card.transaction',
          data: expect.objectContaining({ id: '${auth1.id}', status: 'completed' }),
        },
      ],
    });
    // Card expiry is card data: not written.
    expect(text).not.toMatch(/exp_(month|year): "?\d/);
  });

  it('plays a deposit at the merchant when no static address was read; a retried delivery is recorded once', () => {
    const { call, hook, file } = recorder();
    call('POST', '/v1/checkouts', 200, checkout());
    const id = crypto.randomUUID();
    const deposit = { merchant_id: MERCHANT, amount: 5_000_000, currency: 'USDT', txid: '0xabc' };
    hook('deposit.received', deposit, id);
    expect(hook('deposit.received', deposit, id).skipped).toContain('retry');
    const { steps } = file();
    expect(steps.filter((s) => s.inferred)).toEqual([
      {
        control: 'POST /sandbox/deposits',
        body: {
          merchant_id: '${merchant.id}',
          chain: 'ethereum',
          currency: 'USDT',
          amount: 5_000_000,
          txid: '0xabc',
        },
        inferred: expect.stringContaining('deposit.received'),
        recorded: {
          webhooks: [{ type: 'deposit.received', data: { ...deposit, merchant_id: '${merchant.id}' } }],
        },
      },
    ]);
  });

  it('plays a payout made in the dashboard with its outcome, once; one a note made is not played again', () => {
    const { r, call, hook, file } = recorder();
    call('POST', '/v1/checkouts', 200, checkout());
    const payout = {
      id: crypto.randomUUID(),
      merchant_id: MERCHANT,
      env: 'test',
      amount: 7_000_000,
      currency: 'USDC',
      destination: null,
      status: 'failed',
      failure_reason: 'Destination account closed',
      created_at: new Date(T0).toISOString(),
    };
    const delivery = crypto.randomUUID();
    hook('payout.failed', payout, delivery);
    expect(hook('payout.failed', payout, delivery).skipped).toContain('retry');
    // Told by a note first, then its webhook: the note is the step.
    expect(
      'steps' in
        r.note(
          `control POST /sandbox/payouts {"merchant_id":"${MERCHANT}","amount":3000000,"currency":"USDC"}`,
        ),
    ).toBe(true);
    hook('payout.completed', {
      ...payout,
      id: crypto.randomUUID(),
      amount: 3_000_000,
      status: 'completed',
      failure_reason: null,
    });
    const { steps } = file();
    expect(steps.filter((s) => s.control === 'POST /sandbox/payouts')).toEqual([
      {
        control: 'POST /sandbox/payouts',
        body: {
          merchant_id: '${merchant.id}',
          amount: 7_000_000,
          currency: 'USDC',
          outcome: 'failed',
          failure_reason: 'Destination account closed',
        },
        inferred: expect.stringContaining('payout.failed'),
        recorded: { webhooks: [expect.objectContaining({ type: 'payout.failed' })] },
      },
      expect.objectContaining({
        body: { merchant_id: '${merchant.id}', amount: 3_000_000, currency: 'USDC' },
        inferred: expect.stringMatching(/^a note/),
        recorded: { webhooks: [expect.objectContaining({ type: 'payout.completed' })] },
      }),
    ]);
  });

  it('makes one merchant step per API key and skips what a replay cannot reproduce', () => {
    const { r, call } = recorder();
    expect(call('GET', '/v1/checkouts', 401, { error: 'Invalid API key' }).skipped).toContain('401');
    expect(call('GET', '/v1/checkouts', 503, { error: 'down' }).skipped).toContain('503');
    // A malformed body would replay as none (another answer): not a step.
    const malformed = r.exchange({
      method: 'POST',
      url: '/v1/checkouts',
      authorization: `Bearer ${KEY}`,
      requestBody: Buffer.from('{bad json'),
      status: 400,
      responseBody: Buffer.from(JSON.stringify({ error: 'Malformed JSON body' })),
      at: T0,
    });
    expect(malformed).toEqual({ steps: [], skipped: expect.stringContaining('not JSON') });
    call('GET', '/v1/checkouts', 200, []);
    r.exchange({
      method: 'GET',
      url: '/v1/checkouts',
      authorization: 'Bearer svcb_test_other_key_123',
      requestBody: Buffer.alloc(0),
      status: 200,
      responseBody: Buffer.from('[]'),
      at: T0,
    });
    expect(r.session.steps.filter((s) => 'merchant' in s && !('call' in s))).toEqual([
      { merchant: 'merchant', body: { name: 'Merchant', kyb_status: 'approved' } },
      { merchant: 'merchant2', body: { name: 'Merchant 2', kyb_status: 'approved' } },
    ]);
  });
});

describe('redaction', () => {
  it('drops secrets and card data by field name, and keys, secrets and card numbers by their look', () => {
    const secrets = new Secrets();
    secrets.addAuthorization(`Bearer ${KEY}`);
    expect(
      secrets.value({
        encryptedPan: { iv: 'aXY=', data: 'ZGF0YQ==' },
        encryptedCvc: { iv: 'aXY=', data: 'ZGF0YQ==' },
        encrypted_data: { iv: 'aXY=', data: 'cGlu' },
        session: 'c2Vzc2lvbg==',
        token: 'sdk-token',
        exp_month: '04',
        last4: '4242',
        note: `key ${KEY}, whsec_abcdefghijklmnop1234, 5555-5555-5555-4444, order 1234567890123`,
      }),
    ).toEqual({
      encryptedPan: REDACTED,
      encryptedCvc: REDACTED,
      encrypted_data: REDACTED,
      session: REDACTED,
      token: REDACTED,
      exp_month: REDACTED,
      last4: '4242',
      // a 13-digit order number that fails the Luhn check stays
      note: `key ${REDACTED}, ${REDACTED}, ${REDACTED}, order 1234567890123`,
    });
    expect(luhn('4111111111111111')).toBe(true);
    expect(luhn('4111111111111112')).toBe(false);
  });
});
