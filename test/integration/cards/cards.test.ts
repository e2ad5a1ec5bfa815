import { describe, expect, it } from 'vitest';
import { isLuhnValid } from '../../../server/domain/cards/pan.js';
import type { Sandbox } from '../../../server/sandbox.js';
import {
  decryptPayload,
  encryptPayload,
  newSession,
  pinBlock,
  readPinBlock,
  webDecryptPayload,
  webEncryptPayload,
  webNewSession,
} from '../../helpers/card-client.js';
import { type Actor, createMerchant, testSandbox } from '../../helpers/sandbox.js';

const VIRTUAL = '6f1c2a8e-3b4d-4c5e-9f60-7a8b9c0d1e21';
const PHYSICAL = '8d2e3f4a-5b6c-4d7e-8f90-a1b2c3d4e5f6';
const APPLY = {
  account_purpose: 'business expenses',
  occupation: 'engineer',
  annual_salary: '50000_100000',
  expected_monthly_volume: '1000_5000',
};

type Json = Record<string, unknown>;

function api(sandbox: Sandbox, actor: Actor, app: 'test' | 'production' = 'test') {
  const call = async (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: object) => {
    const res = await sandbox.apps[app].inject({
      method,
      url,
      headers: actor.auth,
      ...(payload ? { payload } : {}),
    });
    return { status: res.statusCode, body: res.body ? (res.json() as Json & Json[]) : ({} as Json & Json[]) };
  };
  return call;
}

const control = async (sandbox: Sandbox, method: 'GET' | 'POST', url: string, payload?: object) => {
  const res = await sandbox.apps.test.inject({ method, url, ...(payload ? { payload } : {}) });
  return { status: res.statusCode, body: res.json() as Json & Json[] };
};

/** A body or parameter refused by validation: 422, and the message names the field that failed. */
function refusedFor(res: { status: number; body: Json }, field: string): void {
  expect(res.status, JSON.stringify(res.body)).toBe(422);
  expect(res.body.error).toContain(field);
}

/** A KYC-verified cardholder with an approved application for `catalogue`, funded with `funds`. */
async function readyCardholder(sandbox: Sandbox, actor: Actor, catalogue = VIRTUAL, funds = 0) {
  const call = api(sandbox, actor);
  const holder = (await call('POST', '/v1/cardholders', { name: 'Jane Doe', email: 'jane@example.com' }))
    .body;
  await control(sandbox, 'POST', `/sandbox/cardholders/${holder.id}/kyc`, { result: 'approved' });
  expect(
    (await call('POST', `/v1/cardholders/${holder.id}/cards/apply`, { catalogue, ...APPLY })).status,
  ).toBe(200);
  if (funds > 0) {
    await control(sandbox, 'POST', `/sandbox/merchants/${actor.merchantId}/credit`, {
      currency: 'USDC',
      amount: funds,
    });
    expect(
      (await call('POST', `/v1/cardholders/${holder.id}/fund`, { amount: funds, currency: 'USDC' })).status,
    ).toBe(204);
  }
  return holder as unknown as { id: string };
}

async function issue(
  sandbox: Sandbox,
  actor: Actor,
  funds = 100_000_000,
  type: 'virtual' | 'physical' = 'virtual',
) {
  const holder = await readyCardholder(sandbox, actor, type === 'virtual' ? VIRTUAL : PHYSICAL, funds);
  const card = await api(sandbox, actor)('POST', `/v1/cardholders/${holder.id}/cards`, {
    catalogue: type === 'virtual' ? VIRTUAL : PHYSICAL,
    type,
  });
  expect(card.status, JSON.stringify(card.body)).toBe(200);
  return { holder, card: card.body as unknown as Json & { id: string } };
}

describe('cardholders and onboarding', () => {
  it('creates, lists with non-zero balances, gets; username generated; not verified at first', async () => {
    const sandbox = await testSandbox();
    const actor = await createMerchant(sandbox);
    const call = api(sandbox, actor);
    const created = await call('POST', '/v1/cardholders', { name: 'Jane Doe', email: 'jane@example.com' });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      name: 'Jane Doe',
      email: 'jane@example.com',
      is_kyc_verified: false,
      balances: [],
    });
    expect(created.body.username).toMatch(/^jane\.doe\.\d{6}$/);
    await control(sandbox, 'POST', `/sandbox/merchants/${actor.merchantId}/credit`, {
      currency: 'USDC',
      amount: 5_000_000,
    });
    expect(
      (await call('POST', `/v1/cardholders/${created.body.id}/fund`, { amount: 2_500_000, currency: 'USDC' }))
        .status,
    ).toBe(204);
    await call('POST', '/v1/cardholders', { name: 'Empty' });
    const list = (await call('GET', '/v1/cardholders')).body;
    expect(list.map((h) => h.name)).toEqual(['Empty', 'Jane Doe']);
    expect(list[1]!.balances).toEqual([{ currency: 'USDC', balance: 2_500_000, rate: 1, value: 2_500_000 }]);
    expect(list[0]!.balances).toEqual([]);
    expect((await call('GET', `/v1/cardholders/${created.body.id}`)).body.balances).toHaveLength(1);
    refusedFor(await call('POST', '/v1/cardholders', {}), 'name');
    refusedFor(await call('POST', '/v1/cardholders', { name: 'X', email: 'nope' }), 'email');
  });

  it('KYC: token and hosted provider page; approval flips is_kyc_verified', async () => {
    const sandbox = await testSandbox();
    const actor = await createMerchant(sandbox);
    const call = api(sandbox, actor);
    const holder = (await call('POST', '/v1/cardholders', { name: 'Kay' })).body;
    const kyc = await call('POST', `/v1/cardholders/${holder.id}/kyc`);
    expect(kyc.status).toBe(200);
    expect(kyc.body.token).toMatch(/^kyc_/);
    const page = await sandbox.apps.test.inject({ url: new URL(kyc.body.url as string).pathname });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Kay');
    expect(page.body).toContain('data-testid="approve"');
    const apply = await call('POST', `/v1/cardholders/${holder.id}/cards/apply`, {
      catalogue: VIRTUAL,
      ...APPLY,
    });
    expect(apply.status).toBe(400);
    expect(apply.body.error).toContain('KYC');
    const approved = await control(sandbox, 'POST', `/sandbox/cardholders/${holder.id}/kyc`, {
      result: 'approved',
    });
    expect(approved.body).toMatchObject({ is_kyc_verified: true, kyc_status: 'approved' });
    expect((await call('GET', `/v1/cardholders/${holder.id}`)).body.is_kyc_verified).toBe(true);
    refusedFor(
      await control(sandbox, 'POST', `/sandbox/cardholders/${holder.id}/kyc`, { result: 'maybe' }),
      'result',
    );
    expect((await sandbox.apps.test.inject({ url: '/kyc/kyc_unknown' })).statusCode).toBe(404);
  });

  it('applications: bands validated, auto approval, manual review through the control API', async () => {
    const sandbox = await testSandbox();
    const actor = await createMerchant(sandbox);
    const call = api(sandbox, actor);
    const holder = (await call('POST', '/v1/cardholders', { name: 'Ann' })).body;
    await control(sandbox, 'POST', `/sandbox/cardholders/${holder.id}/kyc`, { result: 'approved' });
    for (const [patch, field] of [
      [{ annual_salary: '50000-100000' }, 'annual_salary'],
      [{ expected_monthly_volume: 'lots' }, 'expected_monthly_volume'],
      [{ annual_salary: '100_50' }, 'annual_salary'],
      [{ catalogue: 'not-a-uuid' }, 'catalogue'],
      [{ catalogue: '00000000-0000-4000-8000-000000000000' }, 'catalogue'],
      [{ occupation: undefined }, 'occupation'],
    ] as const) {
      const res = await call('POST', `/v1/cardholders/${holder.id}/cards/apply`, {
        catalogue: VIRTUAL,
        ...APPLY,
        ...patch,
      });
      expect(res.status, JSON.stringify(patch)).toBe(422);
      expect(res.body.error).toContain(field);
    }
    const auto = await call('POST', `/v1/cardholders/${holder.id}/cards/apply`, {
      catalogue: VIRTUAL,
      ...APPLY,
    });
    expect(auto.body.status).toBe('approved');

    await sandbox.apps.test.inject({
      method: 'PATCH',
      url: '/sandbox/settings',
      payload: { application_review: 'manual' },
    });
    const manual = await call('POST', `/v1/cardholders/${holder.id}/cards/apply`, {
      catalogue: PHYSICAL,
      ...APPLY,
    });
    expect(manual.body.status).toBe('pending');
    const early = await call('POST', `/v1/cardholders/${holder.id}/cards`, {
      catalogue: PHYSICAL,
      type: 'physical',
    });
    expect(early.status).toBe(400);
    const reviewed = await control(sandbox, 'POST', `/sandbox/card-applications/${manual.body.id}`, {
      status: 'approved',
    });
    expect(reviewed.body.status).toBe('approved');
    expect(
      (await control(sandbox, 'POST', `/sandbox/card-applications/${manual.body.id}`, { status: 'rejected' }))
        .status,
    ).toBe(400);
    expect(
      (await call('POST', `/v1/cardholders/${holder.id}/cards`, { catalogue: PHYSICAL, type: 'physical' }))
        .status,
    ).toBe(200);
  });
});

describe('cards', () => {
  it('issues virtual cards active and physical ones notActivated, with card.created', async () => {
    const sandbox = await testSandbox();
    const actor = await createMerchant(sandbox);
    const call = api(sandbox, actor);
    const { holder, card } = await issue(sandbox, actor, 0);
    expect(card).toMatchObject({
      user_id: holder.id,
      catalogue_id: VIRTUAL,
      status: 'active',
      ctype: 'virtual',
    });
    expect(card.last4).toMatch(/^\d{4}$/);
    expect(card.exp_month).toMatch(/^\d{2}$/);
    expect(card.exp_year).toMatch(/^\d{4}$/);
    expect(card).not.toHaveProperty('pan');
    const events = (await control(sandbox, 'GET', `/sandbox/merchants/${actor.merchantId}/events`)).body;
    expect(events[0]!.data).toEqual({
      id: card.id,
      cardholder_id: holder.id,
      status: 'active',
      ctype: 'virtual',
      last4: card.last4,
      exp_month: card.exp_month,
      exp_year: card.exp_year,
      created_at: card.created_at,
    });
    const wrongType = await call('POST', `/v1/cardholders/${holder.id}/cards`, {
      catalogue: VIRTUAL,
      type: 'physical',
    });
    expect(wrongType.status).toBe(400);
    const noApp = await call('POST', `/v1/cardholders/${holder.id}/cards`, {
      catalogue: PHYSICAL,
      type: 'physical',
    });
    expect(noApp.status).toBe(400);
    expect(noApp.body.error).toContain('No approved card application');

    const physical = await issue(sandbox, actor, 0, 'physical');
    expect(physical.card.status).toBe('notActivated');
    const activated = await control(sandbox, 'POST', `/sandbox/cards/${physical.card.id}/activate`);
    expect(activated.body.status).toBe('active');
    expect((await control(sandbox, 'POST', `/sandbox/cards/${physical.card.id}/activate`)).status).toBe(400);

    expect((await call('GET', `/v1/cardholders/${holder.id}/cards`)).body).toHaveLength(1);
    expect((await call('GET', `/v1/cardholders/${holder.id}/cards/${card.id}`)).body.id).toBe(card.id);
    expect((await call('GET', `/v1/cardholders/${holder.id}/cards/${physical.card.id}`)).status).toBe(404);
  });

  it('PATCH moves active ⇄ locked only; limits update any subset', async () => {
    const sandbox = await testSandbox();
    const actor = await createMerchant(sandbox);
    const call = api(sandbox, actor);
    const { holder, card } = await issue(sandbox, actor, 0);
    const url = `/v1/cardholders/${holder.id}/cards/${card.id}`;
    expect((await call('PATCH', url, { status: 'locked' })).body.status).toBe('locked');
    expect((await call('PATCH', url, { status: 'active' })).body.status).toBe('active');
    refusedFor(await call('PATCH', url, { status: 'canceled' }), 'status');
    await control(sandbox, 'POST', `/sandbox/cards/${card.id}/cancel`);
    const fromCanceled = await call('PATCH', url, { status: 'active' });
    expect(fromCanceled.status).toBe(400);
    expect(fromCanceled.body.error).toContain('canceled');

    const limits = await call('PUT', `${url}/limits`, {
      spend_tx_max: 1_000_000,
      spend_online_enabled: false,
    });
    expect(limits.body).toMatchObject({
      spend_tx_max: 1_000_000,
      spend_online_enabled: false,
      spend_present_enabled: true,
    });
    expect((await call('PUT', `${url}/limits`, {})).body.spend_tx_max).toBe(1_000_000);
    refusedFor(await call('PUT', `${url}/limits`, { spend_daily_max: -1 }), 'spend_daily_max');
    refusedFor(await call('PUT', `${url}/limits`, { spend_present_enabled: 'yes' }), 'spend_present_enabled');
  });

  it('fund and recall move money between the business and cardholder wallets', async () => {
    const sandbox = await testSandbox();
    const actor = await createMerchant(sandbox);
    const call = api(sandbox, actor);
    const holder = (await call('POST', '/v1/cardholders', { name: 'Wallet' })).body;
    const short = await call('POST', `/v1/cardholders/${holder.id}/fund`, { amount: 1, currency: 'USDC' });
    expect(short.status).toBe(400);
    expect(short.body.error).toContain('Insufficient business wallet balance');
    await control(sandbox, 'POST', `/sandbox/merchants/${actor.merchantId}/credit`, {
      currency: 'USDC',
      amount: 10_000_000,
    });
    expect(
      (
        await call('POST', `/v1/cardholders/${holder.id}/fund`, {
          amount: 6_000_000,
          currency: 'usdc',
          remark: 'x',
        })
      ).status,
    ).toBe(204);
    expect(
      (await call('POST', `/v1/cardholders/${holder.id}/recall`, { amount: 7_000_000, currency: 'USDC' }))
        .status,
    ).toBe(400);
    expect(
      (await call('POST', `/v1/cardholders/${holder.id}/recall`, { amount: 2_000_000, currency: 'USDC' }))
        .status,
    ).toBe(204);
    refusedFor(
      await call('POST', `/v1/cardholders/${holder.id}/fund`, { amount: 1, currency: 'BTC' }),
      'currency',
    );
    refusedFor(
      await call('POST', `/v1/cardholders/${holder.id}/fund`, { amount: 0, currency: 'USDC' }),
      'amount',
    );
    const balances = (await control(sandbox, 'GET', `/sandbox/merchants/${actor.merchantId}/balances`)).body;
    expect(balances).toEqual([{ currency: 'USDC', available: 6_000_000, held: 0 }]);
    expect((await call('GET', `/v1/cardholders/${holder.id}`)).body.balances).toEqual([
      { currency: 'USDC', balance: 4_000_000, rate: 1, value: 4_000_000 },
    ]);
  });
});

describe('card network simulator', () => {
  const events = async (sandbox: Sandbox, actor: Actor) =>
    (await control(sandbox, 'GET', `/sandbox/merchants/${actor.merchantId}/events`)).body
      .filter((e) => e.type === 'card.transaction')
      .map((e) => e.data as Json)
      .reverse();

  it('authorization then settlement, decline, reversal: same data.id, holds released', async () => {
    const sandbox = await testSandbox();
    const actor = await createMerchant(sandbox);
    const call = api(sandbox, actor);
    const { holder, card } = await issue(sandbox, actor, 100_000_000);
    const balance = async () =>
      ((await call('GET', `/v1/cardholders/${holder.id}`)).body.balances as Json[])[0]?.balance;

    const sequences: [string, string][] = [
      ['settle', 'completed'],
      ['decline', 'declined'],
      ['reverse', 'reversed'],
    ];
    for (const [action, status] of sequences) {
      const auth = await control(sandbox, 'POST', `/sandbox/cards/${card.id}/authorizations`, {
        amount: 10_000_000,
        merchant_name: 'Coffee',
        local_amount: 950,
        local_currency: 'EUR',
        channel: 'present',
      });
      expect(auth.body.status).toBe('requested');
      expect(await balance()).toBe(90_000_000);
      const done = await control(sandbox, 'POST', `/sandbox/card-transactions/${auth.body.id}/${action}`);
      expect(done.body.status).toBe(status);
      // The transaction reads back as it was left.
      const read = await control(sandbox, 'GET', `/sandbox/card-transactions/${auth.body.id}`);
      expect(read.status).toBe(200);
      expect(read.body).toEqual(done.body);
      expect(await balance()).toBe(status === 'completed' ? 90_000_000 : 100_000_000);
      if (status === 'completed') {
        // Spent for good: top the wallet back up to 100 for the next sequence.
        await control(sandbox, 'POST', `/sandbox/merchants/${actor.merchantId}/credit`, {
          currency: 'USDC',
          amount: 10_000_000,
        });
        await call('POST', `/v1/cardholders/${holder.id}/fund`, { amount: 10_000_000, currency: 'USDC' });
      }
      const again = await control(sandbox, 'POST', `/sandbox/card-transactions/${auth.body.id}/settle`);
      expect(again.status).toBe(400);
    }
    const unknown = await control(
      sandbox,
      'GET',
      '/sandbox/card-transactions/00000000-0000-4000-8000-000000000000',
    );
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatch(/Card transaction/);
    refusedFor(await control(sandbox, 'GET', '/sandbox/card-transactions/not-an-id'), 'id');
    const seen = await events(sandbox, actor);
    expect(seen.map((e) => e.status)).toEqual([
      'requested',
      'completed',
      'requested',
      'declined',
      'requested',
      'reversed',
    ]);
    expect(seen[0]!.id).toBe(seen[1]!.id);
    expect(seen[2]!.id).toBe(seen[3]!.id);
    expect(Object.keys(seen[0]!).sort()).toEqual(
      ['amount', 'card_id', 'created_at', 'id', 'local_amount', 'local_currency', 'merchant_name', 'type']
        .concat('status')
        .sort(),
    );
    expect(seen[0]).toMatchObject({
      card_id: card.id,
      amount: -10_000_000,
      local_amount: -950,
      local_currency: 'EUR',
      type: 'card_payment',
    });

    const list = (await call('GET', `/v1/cardholders/${holder.id}/cards/${card.id}/transactions`)).body;
    expect(list.map((t) => t.status)).toEqual(['reversed', 'declined', 'completed']);
    expect(list[2]).toMatchObject({
      amount: -10_000_000,
      currency: 'USDC',
      description: 'Card payment: Coffee',
    });
    expect(sandbox.ctx.repos.ledger.unbalanced()).toEqual([]);
  });

  it('declines at once by the card rules: status, channel, limits, balance', async () => {
    const sandbox = await testSandbox();
    const actor = await createMerchant(sandbox);
    const call = api(sandbox, actor);
    const { holder, card } = await issue(sandbox, actor, 50_000_000);
    const url = `/v1/cardholders/${holder.id}/cards/${card.id}`;
    const authorize = async (body: object) =>
      (
        await control(sandbox, 'POST', `/sandbox/cards/${card.id}/authorizations`, {
          amount: 1_000_000,
          ...body,
        })
      ).body;

    await call('PUT', `${url}/limits`, {
      spend_tx_max: 5_000_000,
      spend_daily_max: 8_000_000,
      spend_monthly_max: 12_000_000,
    });
    expect(await authorize({ amount: 6_000_000 })).toMatchObject({
      status: 'declined',
      decline_reason: expect.stringContaining('spend_tx_max'),
    });
    const first = await authorize({ amount: 5_000_000 });
    expect(first.status, first.decline_reason as string).toBe('requested');
    await control(sandbox, 'POST', `/sandbox/card-transactions/${first.id}/settle`);
    expect((await authorize({ amount: 4_000_000 })).decline_reason).toContain('spend_daily_max');
    expect((await authorize({ amount: 3_000_000 })).status).toBe('requested');
    await sandbox.apps.test.inject({
      method: 'POST',
      url: '/sandbox/clock/advance',
      payload: { seconds: 86_400 },
    });
    // A new day but (usually) the same month: 8 spent of 12.
    const next = await authorize({ amount: 5_000_000 });
    expect(['declined', 'requested']).toContain(next.status);
    if (next.status === 'declined') expect(next.decline_reason).toContain('spend_monthly_max');

    await call('PUT', `${url}/limits`, {
      spend_tx_max: 0,
      spend_daily_max: 0,
      spend_monthly_max: 0,
      spend_online_enabled: false,
    });
    expect((await authorize({ channel: 'online' })).decline_reason).toContain('online');
    expect((await authorize({ channel: 'present' })).status).toBe('requested');
    await call('PUT', `${url}/limits`, { spend_present_enabled: false });
    expect((await authorize({ channel: 'present' })).decline_reason).toContain('in-person');
    await call('PUT', `${url}/limits`, { spend_present_enabled: true, spend_online_enabled: true });
    expect((await authorize({ amount: 1_000_000_000 })).decline_reason).toContain('insufficient funds');
    await call('PATCH', url, { status: 'locked' });
    expect((await authorize({})).decline_reason).toContain('locked');
    const seen = await events(sandbox, actor);
    const declined = seen.filter((e) => e.status === 'declined');
    for (const d of declined)
      expect(seen.find((e) => e.id === d.id && e.status === 'requested')).toBeTruthy();
    expect(sandbox.ctx.repos.ledger.unbalanced()).toEqual([]);
  });

  it('refunds on any card; deposits and withdrawals on physical cards only, single completed events', async () => {
    const sandbox = await testSandbox();
    const actor = await createMerchant(sandbox);
    const call = api(sandbox, actor);
    const virtual = await issue(sandbox, actor, 10_000_000);
    const refund = await control(sandbox, 'POST', `/sandbox/cards/${virtual.card.id}/refunds`, {
      amount: 2_000_000,
      merchant_name: 'Shop',
    });
    expect(refund.body).toMatchObject({ type: 'card_refund', status: 'completed', amount: 2_000_000 });
    expect(
      (await control(sandbox, 'POST', `/sandbox/cards/${virtual.card.id}/deposits`, { amount: 1 })).status,
    ).toBe(400);

    const physical = await issue(sandbox, actor, 10_000_000, 'physical');
    expect(
      (await control(sandbox, 'POST', `/sandbox/cards/${physical.card.id}/deposits`, { amount: 1 })).status,
    ).toBe(400);
    await control(sandbox, 'POST', `/sandbox/cards/${physical.card.id}/activate`);
    const deposit = await control(sandbox, 'POST', `/sandbox/cards/${physical.card.id}/deposits`, {
      amount: 3_000_000,
    });
    expect(deposit.body).toMatchObject({
      type: 'card_deposit',
      status: 'completed',
      amount: 3_000_000,
      local_amount: 300,
    });
    const withdraw = await control(sandbox, 'POST', `/sandbox/cards/${physical.card.id}/withdrawals`, {
      amount: 4_000_000,
    });
    expect(withdraw.body).toMatchObject({
      type: 'card_withdraw',
      status: 'completed',
      amount: -4_000_000,
      local_amount: -400,
    });
    expect(
      (
        await control(sandbox, 'POST', `/sandbox/cards/${physical.card.id}/withdrawals`, {
          amount: 100_000_000,
        })
      ).status,
    ).toBe(400);
    const balance = (await call('GET', `/v1/cardholders/${physical.holder.id}`)).body.balances as Json[];
    expect(balance[0]!.balance).toBe(10_000_000 + 3_000_000 - 4_000_000);
    const seen = await events(sandbox, actor);
    expect(seen.filter((e) => e.id === deposit.body.id)).toHaveLength(1);
    expect(sandbox.ctx.repos.ledger.unbalanced()).toEqual([]);
  });
});

describe('card secrets and PIN', () => {
  it('publishes one RSA key per environment and round-trips PAN, CVC and PIN (node:crypto client)', async () => {
    const sandbox = await testSandbox();
    const actor = await createMerchant(sandbox);
    const call = api(sandbox, actor);
    const { holder, card } = await issue(sandbox, actor, 0);
    const testKey = (await control(sandbox, 'GET', '/sandbox/keys?env=test')).body;
    const prodKey = (await control(sandbox, 'GET', '/sandbox/keys?env=production')).body;
    expect(testKey.public_key_pem).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect(testKey.public_key_pem).not.toBe(prodKey.public_key_pem);
    expect((await control(sandbox, 'GET', '/sandbox/keys?env=test')).body.public_key_pem).toBe(
      testKey.public_key_pem,
    );

    const url = `/v1/cardholders/${holder.id}/cards/${card.id}`;
    const { key, session } = newSession(testKey.public_key_pem as string);
    const secrets = await call('POST', `${url}/secrets`, { session });
    expect(secrets.status, JSON.stringify(secrets.body)).toBe(200);
    const enc = secrets.body as unknown as {
      encryptedPan: { iv: string; data: string };
      encryptedCvc: { iv: string; data: string };
    };
    expect(Buffer.from(enc.encryptedPan.iv, 'base64')).toHaveLength(16);
    const pan = decryptPayload(key, enc.encryptedPan);
    expect(pan).toMatch(/^\d{16}$/);
    expect(isLuhnValid(pan)).toBe(true);
    expect(pan.endsWith(card.last4 as string)).toBe(true);
    expect(decryptPayload(key, enc.encryptedCvc)).toMatch(/^\d{3}$/);

    const set = await call('PUT', `${url}/pin`, {
      session,
      encrypted_data: encryptPayload(key, pinBlock('904512')),
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    const pinRes = await sandbox.apps.test.inject({
      method: 'GET',
      url: `${url}/pin`,
      headers: { ...actor.auth, 'content-type': 'application/json' },
      payload: JSON.stringify({ session }),
    });
    expect(pinRes.statusCode, pinRes.body).toBe(200);
    expect(readPinBlock(decryptPayload(key, pinRes.json().encryptedPin))).toBe('904512');

    // The production key cannot open a test session: a 400, never a 500.
    const prodSession = newSession(prodKey.public_key_pem as string);
    expect((await call('POST', `${url}/secrets`, prodSession)).status).toBe(400);
  });

  it('round-trips with WebCrypto as an independent client', async () => {
    const sandbox = await testSandbox();
    const actor = await createMerchant(sandbox);
    const call = api(sandbox, actor);
    const { holder, card } = await issue(sandbox, actor, 0);
    const pem = (await control(sandbox, 'GET', '/sandbox/keys?env=test')).body.public_key_pem as string;
    const { key, session } = await webNewSession(pem);
    const url = `/v1/cardholders/${holder.id}/cards/${card.id}`;
    const secrets = (await call('POST', `${url}/secrets`, { session })).body as unknown as {
      encryptedPan: { iv: string; data: string };
    };
    const pan = await webDecryptPayload(key, secrets.encryptedPan);
    expect(pan.endsWith(card.last4 as string)).toBe(true);
    const encrypted = await webEncryptPayload(key, pinBlock('1234'));
    expect((await call('PUT', `${url}/pin`, { session, encrypted_data: encrypted })).status).toBe(200);
  });

  it('bad sessions, payloads and PIN blocks are 400s; missing fields 422; auth and ownership paths', async () => {
    const sandbox = await testSandbox();
    const actor = await createMerchant(sandbox);
    const call = api(sandbox, actor);
    const { holder, card } = await issue(sandbox, actor, 0);
    const url = `/v1/cardholders/${holder.id}/cards/${card.id}`;
    const pem = (await control(sandbox, 'GET', '/sandbox/keys?env=test')).body.public_key_pem as string;
    expect((await call('POST', `${url}/secrets`, { session: 'bm90IHJzYQ==' })).status).toBe(400);
    expect((await call('POST', `${url}/secrets`, { session: '!!!' })).status).toBe(400);
    refusedFor(await call('POST', `${url}/secrets`, {}), 'session');
    const short = newSession(pem, Buffer.alloc(16, 1));
    const res = await call('POST', `${url}/secrets`, { session: short.session });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('32');

    const { key, session } = newSession(pem);
    for (const block of [
      '1234',
      '2412345FFFFFFFFF',
      '2312AFFFFFFFFFFF',
      '24123FFFFFFFFFFF',
      '2D1234567890123F',
    ]) {
      const bad = await call('PUT', `${url}/pin`, { session, encrypted_data: encryptPayload(key, block) });
      expect(bad.status, block).toBe(400);
    }
    const tampered = encryptPayload(key, pinBlock('1234'));
    tampered.data = Buffer.from(
      Buffer.from(tampered.data, 'base64').map((b, i) => (i === 0 ? b ^ 1 : b)),
    ).toString('base64');
    expect((await call('PUT', `${url}/pin`, { session, encrypted_data: tampered })).status).toBe(400);
    refusedFor(await call('PUT', `${url}/pin`, { session }), 'encrypted_data');
    const noBody = await sandbox.apps.test.inject({ method: 'GET', url: `${url}/pin`, headers: actor.auth });
    expect(noBody.statusCode).toBe(422);

    const other = await createMerchant(sandbox, 'Other');
    expect((await api(sandbox, other)('POST', `${url}/secrets`, { session })).status).toBe(403);
    expect(
      (await sandbox.apps.test.inject({ method: 'POST', url: `${url}/secrets`, payload: { session } }))
        .statusCode,
    ).toBe(401);
    expect((await api(sandbox, actor, 'production')('POST', `${url}/secrets`, { session })).status).toBe(404);
  });

  it('cardholders and cards are invisible across environments', async () => {
    const sandbox = await testSandbox();
    const actor = await createMerchant(sandbox);
    const { holder } = await issue(sandbox, actor, 0);
    const prod = api(sandbox, actor, 'production');
    expect((await prod('GET', `/v1/cardholders/${holder.id}`)).status).toBe(404);
    expect((await prod('GET', '/v1/cardholders')).body).toEqual([]);
    expect((await prod('GET', `/v1/cardholders/${holder.id}/cards`)).status).toBe(404);
    const other = await createMerchant(sandbox, 'Other');
    expect((await api(sandbox, other)('GET', `/v1/cardholders/${holder.id}`)).status).toBe(403);
    expect(
      (await api(sandbox, other)('GET', '/v1/cardholders/00000000-0000-4000-8000-000000000000')).status,
    ).toBe(404);
  });
});

describe('acting as a merchant from the control API (both environments)', () => {
  it('creates and refunds checkouts, runs the card journey in production without a key', async () => {
    const sandbox = await testSandbox();
    const actor = await createMerchant(sandbox);
    const base = `/sandbox/merchants/${actor.merchantId}`;
    const checkout = await control(sandbox, 'POST', `${base}/checkouts?env=production`, {
      title: 'Prod order',
      amount: 20_000_000,
      expires_at: new Date(sandbox.ctx.clock.now() + 3600_000).toISOString(),
    });
    expect(checkout.status, JSON.stringify(checkout.body)).toBe(200);
    expect((await api(sandbox, actor, 'production')('GET', `/v1/checkouts/${checkout.body.id}`)).status).toBe(
      200,
    );
    expect((await api(sandbox, actor)('GET', `/v1/checkouts/${checkout.body.id}`)).status).toBe(404);
    await control(sandbox, 'POST', `/sandbox/checkouts/${checkout.body.id}/payments`, {});
    const refund = await control(sandbox, 'POST', `/sandbox/checkouts/${checkout.body.id}/refund`, {
      amount: 5_000_000,
    });
    expect(refund.body).toMatchObject({ status: 'partially_refunded', refunded_amount: 5_000_000 });

    const holder = (
      await control(sandbox, 'POST', `${base}/cardholders?env=production`, { name: 'Prod Holder' })
    ).body;
    await control(sandbox, 'POST', `/sandbox/cardholders/${holder.id}/kyc`, { result: 'approved' });
    const application = await control(sandbox, 'POST', `/sandbox/cardholders/${holder.id}/applications`, {
      catalogue: VIRTUAL,
      ...APPLY,
    });
    expect(application.body.status).toBe('approved');
    const card = await control(sandbox, 'POST', `/sandbox/cardholders/${holder.id}/cards`, {
      catalogue: VIRTUAL,
      type: 'virtual',
    });
    expect(card.body.status).toBe('active');
    await control(sandbox, 'POST', `${base}/credit`, {
      env: 'production',
      currency: 'USDC',
      amount: 3_000_000,
    });
    const funded = await sandbox.apps.test.inject({
      method: 'POST',
      url: `/sandbox/cardholders/${holder.id}/fund`,
      payload: { amount: 3_000_000, currency: 'USDC' },
    });
    expect(funded.statusCode).toBe(204);
    const locked = await sandbox.apps.test.inject({
      method: 'PATCH',
      url: `/sandbox/cards/${card.body.id}`,
      payload: { status: 'locked' },
    });
    expect(locked.json().status).toBe('locked');
    const detail = (await control(sandbox, 'GET', `/sandbox/cardholders/${holder.id}`)).body as unknown as {
      cardholder: { env: string; balances: { balance: number }[] };
    };
    expect(detail.cardholder.env).toBe('production');
    expect(detail.cardholder.balances[0]!.balance).toBe(3_000_000);
    const unknown = await control(
      sandbox,
      'POST',
      '/sandbox/merchants/00000000-0000-4000-8000-000000000000/checkouts',
      {
        title: 'x',
        expires_at: new Date(sandbox.ctx.clock.now() + 3600_000).toISOString(),
      },
    );
    expect(unknown.status).toBe(404);
    expect((await control(sandbox, 'POST', `${base}/cardholders?env=staging`, { name: 'x' })).status).toBe(
      422,
    );
  });
});
