import { beforeAll, describe, expect, it } from 'vitest';
import { freshSandboxOptions } from '../../../server/cli/fresh.js';
import type {
  CheckoutInspection,
  CheckoutPayment,
  PaymentResult,
} from '../../../server/contract/checkouts.js';
import type { DepositBurst } from '../../../server/contract/funds.js';
import type { Sandbox, Urls } from '../../../server/sandbox.js';
import { parseScenario } from '../../../server/scenarios/parse.js';
import { runScenario } from '../../../server/scenarios/run.js';
import { type Checkout, createCheckout, events, expectError, ok, pay } from '../../helpers/api.js';
import { type Actor, createMerchant, ManualTime, testSandbox } from '../../helpers/sandbox.js';
import { useSharedSandbox } from '../../helpers/suite.js';

/**
 * The outside world misbehaving the ways the spec's state machines admit, over real HTTP on
 * 127.0.0.1: a transfer after expiry, partial transfers racing the expiry, a transfer on a chain
 * the checkout does not offer, an authorization reversed while its settlement was expected, and a
 * burst of deposits to a static address. The sandbox clock is frozen, so time moves only when a
 * test says.
 */

interface Answer<T = unknown> {
  status: number;
  body: T;
}
type Json = Record<string, unknown>;

const HOUR = 3_600;
const CATALOGUE = '6f1c2a8e-3b4d-4c5e-9f60-7a8b9c0d1e21';

describe('outside-world chaos (control API over HTTP)', () => {
  let sandbox: Sandbox;
  let urls: Urls;

  const http = async <T = Json>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer<T>> => {
    const res = await fetch(`${urls.test}${path}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: (text === '' ? undefined : JSON.parse(text)) as T };
  };
  const must = async <T = Json>(method: string, path: string, body?: unknown, status = 200): Promise<T> => {
    const answer = await http<T>(method, path, body);
    expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBe(status);
    return answer.body;
  };
  const refused = async (
    method: string,
    path: string,
    body: unknown,
    status: number,
    ...mentions: string[]
  ) => {
    const answer = await http<{ error: string }>(method, path, body);
    expect(answer.status, JSON.stringify(answer.body)).toBe(status);
    expect(Object.keys(answer.body as object)).toEqual(['error']);
    for (const mention of mentions) expect(answer.body.error).toContain(mention);
    return answer.body.error;
  };
  const advance = (seconds: number) => must('POST', '/sandbox/clock/advance', { seconds });
  const inspect = (id: string) => must<CheckoutInspection>('GET', `/sandbox/checkouts/${id}`);
  const payments = (id: string, body: Json) =>
    must<PaymentResult>('POST', `/sandbox/checkouts/${id}/payments`, body);
  const typesOf = async (actor: Actor, id: string) =>
    (await events(sandbox, actor.merchantId)).filter((e) => e.resource_id === id).map((e) => e.type);
  const balances = (actor: Actor) =>
    must<{ currency: string; available: number; held: number }[]>(
      'GET',
      `/sandbox/merchants/${actor.merchantId}/balances`,
    );
  const checkout = async (actor: Actor, body: Json = {}): Promise<Checkout> => {
    const clock = await must<{ now: string }>('GET', '/sandbox/clock');
    const expiresAt = new Date(Date.parse(clock.now) + HOUR * 1000).toISOString();
    return createCheckout(sandbox, actor, { amount: 25_000_000, expires_at: expiresAt, ...body });
  };

  const shared = useSharedSandbox();
  beforeAll(async () => {
    sandbox = shared();
    urls = await sandbox.listen();
    await must('POST', '/sandbox/clock/freeze');
  });

  describe('a payment arriving after expiry', () => {
    it('is refused without late: true, naming the flag; nothing is recorded', async () => {
      const actor = await createMerchant(sandbox);
      const co = await checkout(actor);
      await advance(2 * HOUR);
      expect((await inspect(co.id)).checkout.status).toBe('expired');
      await refused('POST', `/sandbox/checkouts/${co.id}/payments`, {}, 400, 'status: expired', 'late: true');
      expect((await inspect(co.id)).payments).toEqual([]);
    });

    it('with late: true is recorded as late, credited to no one; the checkout does not move and no event fires', async () => {
      const actor = await createMerchant(sandbox);
      const co = await checkout(actor);
      await advance(2 * HOUR);
      const before = await inspect(co.id);
      const { checkout: after, payment } = await payments(co.id, { late: true, amount: 25_000_000 });
      expect(after).toEqual(before.checkout);
      expect(payment).toMatchObject({ checkout_id: co.id, outcome: 'late', amount: 25_000_000 });
      expect(payment.txid).toMatch(/^0x[0-9a-f]{64}$/);
      const view = await inspect(co.id);
      expect(view).toMatchObject({ received_amount: 0, payments: [payment] });
      expect(view.checkout).toEqual(before.checkout);
      expect(await typesOf(actor, co.id)).toEqual(['checkout.expired', 'checkout.created']);
      expect(await balances(actor)).toEqual([]);
      // The spec allows refunds only of paid, completed, partial and partially_refunded checkouts.
      const refund = await http<{ error: string }>('POST', `/v1/checkouts/${co.id}/refund`, {}, actor.auth);
      expect(refund.status).toBe(400);
      expect(refund.body.error).toMatch(/^Cannot refund a checkout with status expired/);
    });

    it('late: true on a still active checkout reaches its expiry first: expired, checkout.expired once', async () => {
      const actor = await createMerchant(sandbox);
      const co = await checkout(actor);
      const { checkout: after, payment } = await payments(co.id, { late: true });
      expect(after.status).toBe('expired');
      expect(payment).toMatchObject({ outcome: 'late', amount: 25_000_000 });
      await advance(2 * HOUR); // the expiry job was cancelled with the move
      expect(await typesOf(actor, co.id)).toEqual(['checkout.expired', 'checkout.created']);
    });

    it('late transfers after a checkout was paid or cancelled are recorded and do not count toward a refund', async () => {
      const actor = await createMerchant(sandbox);
      const paid = await checkout(actor);
      await payments(paid.id, {});
      await refused('POST', `/sandbox/checkouts/${paid.id}/payments`, { amount: 1_000_000 }, 400, 'paid');
      const late = await payments(paid.id, { late: true, amount: 5_000_000 });
      expect(late.checkout).toMatchObject({ status: 'paid', paid_amount: 25_000_000 });
      expect(late.payment.outcome).toBe('late');
      // Fully received already: a late transfer needs its amount.
      await refused('POST', `/sandbox/checkouts/${paid.id}/payments`, { late: true }, 422, 'amount');
      const refund = await http<{ error: string }>(
        'POST',
        `/v1/checkouts/${paid.id}/refund`,
        { amount: 30_000_000 },
        actor.auth,
      );
      expect(refund.status).toBe(400);
      expect(refund.body.error).toMatch(/^Invalid refund amount\. Max refundable:/);

      const cancelled = await checkout(actor);
      await must('POST', `/sandbox/checkouts/${cancelled.id}/cancel`);
      const result = await payments(cancelled.id, { late: true });
      expect(result.checkout.status).toBe('cancelled');
      expect((await inspect(cancelled.id)).received_amount).toBe(0);
      expect(await balances(actor)).toEqual([{ currency: 'USDC', available: 0, held: 25_000_000 }]);
    });
  });

  describe('several partial payments racing the expiry', () => {
    it('those before the expiry count, the checkout ends partial with them; the one after is late', async () => {
      const actor = await createMerchant(sandbox);
      const co = await checkout(actor, { amount: 30_000_000, chains: ['polygon'] });
      await advance(HOUR - 60);
      for (const amount of [10_000_000, 10_000_000]) {
        const result = await payments(co.id, { amount });
        expect(result).toMatchObject({ checkout: { status: 'active' }, payment: { outcome: 'received' } });
      }
      await advance(60);
      const last = await payments(co.id, { amount: 10_000_000, late: true });
      expect(last.checkout).toMatchObject({ status: 'partial', paid_amount: 20_000_000 });
      expect(last.payment.outcome).toBe('late');
      const view = await inspect(co.id);
      expect(view.received_amount).toBe(20_000_000);
      expect(view.payments.map((p: CheckoutPayment) => p.outcome)).toEqual(['received', 'received', 'late']);
      expect(await typesOf(actor, co.id)).toEqual(['checkout.partial', 'checkout.created']);
      // Credited: the 20 USDC less the fees fixed at expiry (polygon USDC gas), nothing pending.
      const [usdc] = await balances(actor);
      expect(usdc).toEqual({
        currency: 'USDC',
        available: 20_000_000 - view.checkout.platform_fee - view.checkout.platform_gas_fee,
        held: 0,
      });
    });
  });

  describe('a payment on a chain the checkout does not offer', () => {
    it('is refused without unsupported_chain: true, naming the flag', async () => {
      const actor = await createMerchant(sandbox);
      const co = await checkout(actor, { chains: ['ethereum'] });
      await refused(
        'POST',
        `/sandbox/checkouts/${co.id}/payments`,
        { chain: 'bsc' },
        400,
        'unsupported_chain',
      );
    });

    it('with unsupported_chain: true is recorded, never credited; the checkout later expires unpaid', async () => {
      const actor = await createMerchant(sandbox);
      const co = await checkout(actor, { chains: ['ethereum'] });
      const { checkout: after, payment } = await payments(co.id, {
        chain: 'BSC',
        token: 'usdt',
        unsupported_chain: true,
      });
      expect(after).toEqual((await inspect(co.id)).checkout);
      expect(after).toMatchObject({ status: 'active', paid_amount: null, payer_address: null });
      expect(payment).toMatchObject({
        outcome: 'unsupported_chain',
        chain: 'bsc',
        token: 'USDT',
        amount: 25_000_000,
      });
      expect((await inspect(co.id)).received_amount).toBe(0);
      await advance(2 * HOUR);
      expect((await inspect(co.id)).checkout.status).toBe('expired');
      expect(await typesOf(actor, co.id)).toEqual(['checkout.expired', 'checkout.created']);
      expect(await balances(actor)).toEqual([]);
      // Whatever the status: the service never sees it.
      const again = await payments(co.id, { chain: 'polygon', unsupported_chain: true, amount: 1_000_000 });
      expect(again.payment.outcome).toBe('unsupported_chain');
    });

    it('refuses what no chain could carry, and says which rule', async () => {
      const actor = await createMerchant(sandbox);
      const co = await checkout(actor, { chains: ['ethereum'] });
      const path = `/sandbox/checkouts/${co.id}/payments`;
      await refused('POST', path, { unsupported_chain: true }, 422, 'chain');
      await refused('POST', path, { unsupported_chain: true, chain: 'solana' }, 422, 'chain', 'solana');
      await refused('POST', path, { unsupported_chain: true, chain: 'ethereum' }, 400, 'offers ethereum');
      // A Bitcoin address format is not an EVM one: the customer cannot send there at all.
      await refused('POST', path, { unsupported_chain: true, chain: 'bitcoin' }, 400, 'valid on bitcoin');
      await refused('POST', path, { unsupported_chain: true, chain: 'bsc', token: 'USDC' }, 422, 'token');
      await refused('POST', path, { unsupported_chain: true, late: true, chain: 'bsc' }, 422, 'late');
      await refused('POST', path, { unsupported_chain: 'yes', chain: 'bsc' }, 422, 'unsupported_chain');
      await refused('POST', path, { late: 1 }, 422, 'late');
      const fiat = await checkout(actor, { amount: 1_000, currency: 'USD', method: 'fiat' });
      await refused(
        'POST',
        `/sandbox/checkouts/${fiat.id}/payments`,
        { unsupported_chain: true, chain: 'bsc' },
        422,
        'unsupported_chain',
      );
      await refused(
        'POST',
        '/sandbox/checkouts/00000000-0000-4000-8000-000000000000/payments',
        { unsupported_chain: true, chain: 'bsc' },
        404,
        'Checkout not found',
      );
      expect((await inspect(co.id)).payments).toEqual([]);
    });
  });

  describe('a card authorization reversed after settlement was expected', () => {
    const issueCard = async () => {
      const actor = await createMerchant(sandbox);
      await must('POST', `/sandbox/merchants/${actor.merchantId}/credit`, {
        currency: 'USDC',
        amount: 200_000_000,
      });
      const holder = await http<{ id: string }>('POST', '/v1/cardholders', { name: 'Jane Doe' }, actor.auth);
      await must('POST', `/sandbox/cardholders/${holder.body.id}/kyc`, { result: 'approved' });
      const apply = await http(
        'POST',
        `/v1/cardholders/${holder.body.id}/cards/apply`,
        {
          catalogue: CATALOGUE,
          account_purpose: 'travel',
          occupation: 'engineer',
          annual_salary: '50000_100000',
          expected_monthly_volume: '1000_5000',
        },
        actor.auth,
      );
      expect(apply.status).toBe(200);
      const fund = await http(
        'POST',
        `/v1/cardholders/${holder.body.id}/fund`,
        { amount: 100_000_000, currency: 'USDC' },
        actor.auth,
      );
      expect(fund.status).toBe(204);
      const card = await http<{ id: string }>(
        'POST',
        `/v1/cardholders/${holder.body.id}/cards`,
        { catalogue: CATALOGUE, type: 'virtual' },
        actor.auth,
      );
      expect(card.status, JSON.stringify(card.body)).toBe(200);
      const wallet = async () => {
        const view = await http<{ balances: { currency: string; balance: number }[] }>(
          'GET',
          `/v1/cardholders/${holder.body.id}`,
          undefined,
          actor.auth,
        );
        return view.body.balances.find((b) => b.currency === 'USDC')?.balance ?? 0;
      };
      return { actor, card: card.body.id, wallet };
    };
    const statuses = async (actor: Actor, txId: string) =>
      (await events(sandbox, actor.merchantId))
        .filter((e) => e.type === 'card.transaction' && (e.data as { id: string }).id === txId)
        .map((e) => (e.data as { status: string }).status)
        .reverse();

    it('the expected settlement comes on the sandbox clock when nothing intervenes', async () => {
      const { actor, card, wallet } = await issueCard();
      const auth = await must<{ id: string; status: string }>(
        'POST',
        `/sandbox/cards/${card}/authorizations`,
        {
          amount: 40_000_000,
          settle_after_seconds: 86_400,
        },
      );
      expect(auth.status).toBe('requested');
      await advance(86_399);
      expect(await statuses(actor, auth.id)).toEqual(['requested']);
      await advance(1);
      expect(await statuses(actor, auth.id)).toEqual(['requested', 'completed']);
      expect(await wallet()).toBe(60_000_000);
    });

    it('a reversal before it: reversed, the hold returns, and the expected settlement never comes', async () => {
      const { actor, card, wallet } = await issueCard();
      const auth = await must<{ id: string }>('POST', `/sandbox/cards/${card}/authorizations`, {
        amount: 40_000_000,
        merchant_name: 'Grand Hotel',
        settle_after_seconds: 86_400,
      });
      await advance(12 * HOUR);
      expect(await wallet()).toBe(60_000_000);
      const reversed = await must<{ status: string }>(
        'POST',
        `/sandbox/card-transactions/${auth.id}/reverse`,
      );
      expect(reversed.status).toBe('reversed');
      await advance(3 * 86_400);
      expect(await statuses(actor, auth.id)).toEqual(['requested', 'reversed']);
      expect(await wallet()).toBe(100_000_000);
      const due = sandbox.db
        .prepare<[string], { n: number }>(
          "SELECT COUNT(*) AS n FROM jobs WHERE kind = 'card.settle' AND ref = ?",
        )
        .get(auth.id);
      expect(due?.n).toBe(0);
    });

    it('a reversal once settled is refused: money back after settlement is a card refund', async () => {
      const { card } = await issueCard();
      const auth = await must<{ id: string }>('POST', `/sandbox/cards/${card}/authorizations`, {
        amount: 10_000_000,
        settle_after_seconds: 60,
      });
      await advance(60);
      await refused(
        'POST',
        `/sandbox/card-transactions/${auth.id}/reverse`,
        undefined,
        400,
        'status: completed',
        `/sandbox/cards/${card}/refunds`,
      );
    });

    it('validates settle_after_seconds; a declined authorization schedules nothing', async () => {
      const { card } = await issueCard();
      const path = `/sandbox/cards/${card}/authorizations`;
      for (const value of [-1, 1.5, 30 * 86_400 + 1, '60', null])
        await refused(
          'POST',
          path,
          { amount: 1_000_000, settle_after_seconds: value },
          422,
          'settle_after_seconds',
        );
      await refused(
        'POST',
        '/sandbox/cards/00000000-0000-4000-8000-000000000000/authorizations',
        { amount: 1_000_000, settle_after_seconds: 60 },
        404,
      );
      const declined = await must<{ id: string; status: string }>('POST', path, {
        amount: 900_000_000,
        settle_after_seconds: 60,
      });
      expect(declined.status).toBe('declined');
      const due = sandbox.db
        .prepare<[string], { n: number }>(
          "SELECT COUNT(*) AS n FROM jobs WHERE kind = 'card.settle' AND ref = ?",
        )
        .get(declined.id);
      expect(due?.n).toBe(0);
    });
  });

  describe('a burst of deposits to a static address', () => {
    it('count transfers in one block: each its own txid, credited, with its own deposit.received in order', async () => {
      const actor = await createMerchant(sandbox);
      const burst = await must<DepositBurst>('POST', '/sandbox/deposits/bursts', {
        merchant_id: actor.merchantId,
        chain: 'tron',
        currency: 'USDT',
        amount: 2_000_000,
        count: 25,
      });
      expect(burst).toMatchObject({ count: 25, total: 50_000_000 });
      expect(burst.deposits).toHaveLength(25);
      expect(new Set(burst.deposits.map((d) => d.txid)).size).toBe(25);
      expect(new Set(burst.deposits.map((d) => d.address)).size).toBe(1);
      expect(new Set(burst.deposits.map((d) => d.created_at)).size).toBe(1);
      const received = (await events(sandbox, actor.merchantId))
        .filter((e) => e.type === 'deposit.received')
        .reverse();
      expect(received.map((e) => (e.data as { txid: string }).txid)).toEqual(
        burst.deposits.map((d) => d.txid),
      );
      expect(await balances(actor)).toEqual([{ currency: 'USDT', available: 50_000_000, held: 0 }]);
      const listed = await must<unknown[]>(
        'GET',
        `/sandbox/merchants/${actor.merchantId}/deposits?limit=100`,
      );
      expect(listed).toHaveLength(25);
    });

    it('refuses bad bursts whole: nothing is credited and no event fires', async () => {
      const actor = await createMerchant(sandbox);
      const base = { merchant_id: actor.merchantId, chain: 'tron', currency: 'USDT', amount: 1_000_000 };
      for (const count of [0, 501, 2.5, '3', undefined])
        await refused('POST', '/sandbox/deposits/bursts', { ...base, count }, 422, 'count');
      await refused(
        'POST',
        '/sandbox/deposits/bursts',
        { ...base, currency: 'USDC', count: 3 },
        422,
        'currency',
      );
      await refused('POST', '/sandbox/deposits/bursts', { ...base, chain: 'solana', count: 3 }, 422, 'chain');
      await refused(
        'POST',
        '/sandbox/deposits/bursts',
        { ...base, amount: Number.MAX_SAFE_INTEGER, count: 2 },
        422,
        'count',
      );
      await refused(
        'POST',
        '/sandbox/deposits/bursts',
        { ...base, merchant_id: '00000000-0000-4000-8000-000000000000', count: 3 },
        404,
        'Merchant not found',
      );
      expect(await balances(actor)).toEqual([]);
      expect(await events(sandbox, actor.merchantId)).toEqual([]);
    });

    it('lands in the environment asked for', async () => {
      const actor = await createMerchant(sandbox);
      const body = { merchant_id: actor.merchantId, chain: 'ethereum', currency: 'ETH', amount: 5, count: 3 };
      const burst = await must<DepositBurst>('POST', '/sandbox/deposits/bursts?env=production', body);
      expect(burst.deposits.map((d) => d.env)).toEqual(['production', 'production', 'production']);
      expect(await balances(actor)).toEqual([]);
      await refused('POST', '/sandbox/deposits/bursts?env=test', { ...body, env: 'production' }, 422, 'env');
    });
  });
});

describe('the expiry wins a tie with a transfer', () => {
  // No listener: the scheduler's ticker is not running, so time reaches expires_at with the expiry
  // job still due, as it is between two ticks of a live sandbox.
  const time = new ManualTime();

  it('a transfer at expires_at, before the expiry job ran: the checkout expires first (partial), the transfer is late', async () => {
    const sandbox = await testSandbox({ realNow: time.now });
    const actor = await createMerchant(sandbox);
    const expiresAt = new Date(sandbox.ctx.clock.now() + 3_600_000).toISOString();
    const co = await createCheckout(sandbox, actor, { amount: 25_000_000, expires_at: expiresAt });
    ok(await pay(sandbox, co.id, { amount: 10_000_000 }));
    time.tick(3_600_000);
    // 15 more would have made it paid, had it come first.
    const result = ok<PaymentResult>(await pay(sandbox, co.id, { amount: 15_000_000 }));
    expect(result.checkout).toMatchObject({ status: 'partial', paid_amount: 10_000_000 });
    expect(result.payment.outcome).toBe('late');
    const types = (await events(sandbox, actor.merchantId)).map((e) => e.type);
    expect(types).toEqual(['checkout.partial', 'checkout.created']);
    // The job that was due finds the checkout moved on and does nothing.
    await sandbox.ctx.scheduler.settle();
    expect((await events(sandbox, actor.merchantId)).length).toBe(2);
    expectError(await pay(sandbox, co.id, { amount: 1 }), 400, 'status: partial');
  });

  it('a millisecond before expires_at the transfer still counts', async () => {
    const sandbox = await testSandbox({ realNow: time.now });
    const actor = await createMerchant(sandbox);
    const expiresAt = new Date(sandbox.ctx.clock.now() + 3_600_000).toISOString();
    const co = await createCheckout(sandbox, actor, { amount: 25_000_000, expires_at: expiresAt });
    time.tick(3_599_999);
    const result = ok<PaymentResult>(await pay(sandbox, co.id, {}));
    expect(result.checkout.status).toBe('paid');
    expect(result.payment.outcome).toBe('received');
  });
});

describe('the new simulations behind a control token', () => {
  it('refuse a caller without the token (401) and serve one with it', async () => {
    const sandbox = await testSandbox({ controlToken: 'chaos-token' });
    const urls = await sandbox.listen();
    const actor = await createMerchant(sandbox).catch(() => null);
    expect(actor).toBeNull(); // inject carries no token either
    const send = (path: string, body: unknown, token?: string) =>
      fetch(`${urls.test}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { 'x-svc-control-token': token } : {}) },
        body: JSON.stringify(body),
      });
    const made = await send('/sandbox/merchants', { name: 'Token shop' }, 'chaos-token');
    expect(made.status).toBe(200);
    const merchantId = ((await made.json()) as { merchant: { id: string } }).merchant.id;
    const burst = { merchant_id: merchantId, chain: 'tron', currency: 'USDT', amount: 1, count: 2 };
    for (const path of [
      '/sandbox/deposits/bursts',
      '/sandbox/checkouts/00000000-0000-4000-8000-000000000000/payments',
      '/sandbox/cards/00000000-0000-4000-8000-000000000000/authorizations',
    ]) {
      const res = await send(path, path.endsWith('bursts') ? burst : { late: true, amount: 1 });
      expect(res.status, path).toBe(401);
    }
    expect((await send('/sandbox/deposits/bursts', burst, 'chaos-token')).status).toBe(200);
  });
});

describe('each simulation records and replays', () => {
  it('a recording of all five replays green in a fresh sandbox, with the same outcomes', {
    timeout: 60_000,
  }, async () => {
    const sandbox = await testSandbox();
    const urls = await sandbox.listen();
    const send = async <T = Json>(method: string, path: string, body?: unknown, key?: string) => {
      const res = await fetch(`${urls.test}${path}`, {
        method,
        headers: {
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(key ? { authorization: `Bearer ${key}` } : {}),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      expect(res.status, `${method} ${path}: ${text}`).toBeLessThan(300);
      return (text === '' ? undefined : JSON.parse(text)) as T;
    };
    await send('POST', '/sandbox/recording/start', { name: 'world chaos' });
    await send('POST', '/sandbox/clock/freeze');
    const shop = await send<{ merchant: { id: string }; api_key: { key: string } }>(
      'POST',
      '/sandbox/merchants',
      {
        name: 'Chaos Shop',
        kyb_status: 'approved',
      },
    );
    const key = shop.api_key.key;
    const now = Date.parse((await send<{ now: string }>('GET', '/sandbox/clock')).now);
    const expires = new Date(now + HOUR * 1000).toISOString();
    const create = (body: Json) =>
      send<{ id: string }>('POST', '/v1/checkouts', { title: 'Order', expires_at: expires, ...body }, key);
    const late = await create({ amount: 25_000_000 });
    const race = await create({ amount: 30_000_000, chains: ['polygon'] });
    const wrong = await create({ amount: 25_000_000, chains: ['ethereum'] });
    await send('POST', `/sandbox/checkouts/${race.id}/payments`, { amount: 10_000_000 });
    await send('POST', `/sandbox/checkouts/${wrong.id}/payments`, {
      chain: 'bsc',
      token: 'USDT',
      unsupported_chain: true,
    });
    await send('POST', '/sandbox/clock/advance', { seconds: 2 * HOUR });
    await send('POST', `/sandbox/checkouts/${late.id}/payments`, { late: true });
    await send('POST', `/sandbox/checkouts/${race.id}/payments`, { amount: 20_000_000, late: true });
    await send('POST', `/sandbox/merchants/${shop.merchant.id}/credit`, {
      currency: 'USDC',
      amount: 100_000_000,
    });
    const holder = await send<{ id: string }>('POST', '/v1/cardholders', { name: 'Jane Doe' }, key);
    await send('POST', `/sandbox/cardholders/${holder.id}/kyc`, { result: 'approved' });
    await send(
      'POST',
      `/v1/cardholders/${holder.id}/cards/apply`,
      {
        catalogue: CATALOGUE,
        account_purpose: 'travel',
        occupation: 'engineer',
        annual_salary: '50000_100000',
        expected_monthly_volume: '1000_5000',
      },
      key,
    );
    await send('POST', `/v1/cardholders/${holder.id}/fund`, { amount: 50_000_000, currency: 'USDC' }, key);
    const card = await send<{ id: string }>(
      'POST',
      `/v1/cardholders/${holder.id}/cards`,
      { catalogue: CATALOGUE, type: 'virtual' },
      key,
    );
    const auth = await send<{ id: string }>('POST', `/sandbox/cards/${card.id}/authorizations`, {
      amount: 20_000_000,
      settle_after_seconds: 86_400,
    });
    await send('POST', '/sandbox/clock/advance', { seconds: 12 * HOUR });
    await send('POST', `/sandbox/card-transactions/${auth.id}/reverse`);
    await send('POST', '/sandbox/deposits/bursts', {
      merchant_id: shop.merchant.id,
      chain: 'tron',
      currency: 'USDT',
      amount: 1_000_000,
      count: 7,
    });
    const stopped = await send<{ scenario: string }>('POST', '/sandbox/recording/stop');
    for (const text of [
      'late: true',
      'unsupported_chain: true',
      'settle_after_seconds: 86400',
      'control: POST /sandbox/deposits/bursts',
      'count: 7',
      'advance: 2h',
    ])
      expect(stopped.scenario).toContain(text);

    const parsed = parseScenario(stopped.scenario);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    const replay = await testSandbox(freshSandboxOptions(parsed.scenario));
    const run = await runScenario({ urls: await replay.listen() }, parsed.scenario);
    expect(run.steps.filter((s) => !s.ok).map((s) => `${s.index} ${s.label}: ${s.error}`)).toEqual([]);
    // The same outcomes, read from the replaying sandbox's own database.
    const outcomes = (db: Sandbox['db']) =>
      db
        .prepare<[], { outcome: string; amount: number }>(
          'SELECT outcome, amount FROM checkout_payments ORDER BY rowid',
        )
        .all();
    expect(outcomes(replay.db)).toEqual(outcomes(sandbox.db));
    expect(outcomes(replay.db).map((p) => p.outcome)).toEqual([
      'received',
      'unsupported_chain',
      'late',
      'late',
    ]);
    const statuses = (db: Sandbox['db']) =>
      db.prepare<[], { status: string }>('SELECT status FROM checkouts ORDER BY created_at, rowid').all();
    expect(statuses(replay.db)).toEqual(statuses(sandbox.db));
    const types = (db: Sandbox['db']) =>
      db.prepare<[], { type: string }>('SELECT type FROM events ORDER BY rowid').all();
    expect(types(replay.db)).toEqual(types(sandbox.db));
    expect(types(replay.db).filter((t) => t.type === 'deposit.received')).toHaveLength(7);
  });
});
