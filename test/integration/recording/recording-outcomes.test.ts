// biome-ignore-all lint/suspicious/noTemplateCurlyInString: scenario references (${co1.id}) are literal text here
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { RecordingStopped } from '../../../server/contract/recording.js';
import type { ScenarioRun } from '../../../server/contract/scenarios.js';
import type { Sandbox } from '../../../server/sandbox.js';
import { parseScenario } from '../../../server/scenarios/parse.js';
import { runScenario } from '../../../server/scenarios/run.js';
import { inFuture, testSandbox } from '../../helpers/sandbox.js';

/**
 * Recordings assert outcomes: after each recorded action the file expects what the answer said, the
 * events it fired, and — for simulations — the state it left. A replay against a sandbox that
 * behaves differently fails, naming the step and its line in the file.
 */

type Step = Record<string, unknown>;
type Json = Record<string, unknown>;

const VIRTUAL = '6f1c2a8e-3b4d-4c5e-9f60-7a8b9c0d1e21';

async function send(
  sandbox: Sandbox,
  method: string,
  url: string,
  payload?: object,
  key?: string,
): Promise<Json> {
  const res = await sandbox.apps.test.inject({
    method: method as 'POST',
    url,
    headers: {
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(payload ? { 'content-type': 'application/json' } : {}),
    },
    ...(payload ? { payload: JSON.stringify(payload) } : {}),
  });
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
  return res.body ? (res.json() as Json) : {};
}

/** A QA session: a paid checkout settling, and a card's authorizations settled, declined, reversed. */
async function recordSession(sandbox: Sandbox): Promise<string> {
  await send(sandbox, 'POST', '/sandbox/recording/start', { name: 'payments and card events' });
  const created = await send(sandbox, 'POST', '/sandbox/merchants', {
    name: 'Roastery',
    kyb_status: 'approved',
  });
  const merchantId = (created.merchant as Json).id as string;
  const key = (created.api_key as Json).key as string;
  await send(sandbox, 'POST', `/sandbox/merchants/${merchantId}/credit`, {
    currency: 'USDC',
    amount: 100_000_000,
  });
  const co = await send(
    sandbox,
    'POST',
    '/v1/checkouts',
    {
      title: 'Espresso beans',
      amount: 12_500_000,
      currency: 'USDC',
      expires_at: inFuture(sandbox, 3600_000),
    },
    key,
  );
  await send(sandbox, 'POST', `/sandbox/checkouts/${co.id}/payments`, { amount: 12_500_000 });
  await send(sandbox, 'POST', '/sandbox/clock/advance', { seconds: 120 });

  const holder = await send(
    sandbox,
    'POST',
    '/v1/cardholders',
    { name: 'Ann Lee', email: 'ann@example.com' },
    key,
  );
  await send(sandbox, 'POST', `/sandbox/cardholders/${holder.id}/kyc`, { result: 'approved' });
  await send(
    sandbox,
    'POST',
    `/v1/cardholders/${holder.id}/cards/apply`,
    {
      catalogue: VIRTUAL,
      account_purpose: 'business expenses',
      occupation: 'engineer',
      annual_salary: '50000_100000',
      expected_monthly_volume: '1000_5000',
    },
    key,
  );
  await send(
    sandbox,
    'POST',
    `/v1/cardholders/${holder.id}/fund`,
    { amount: 50_000_000, currency: 'USDC' },
    key,
  );
  const card = await send(
    sandbox,
    'POST',
    `/v1/cardholders/${holder.id}/cards`,
    { catalogue: VIRTUAL, type: 'virtual' },
    key,
  );
  const authorize = (amount: number) =>
    send(sandbox, 'POST', `/sandbox/cards/${card.id}/authorizations`, { amount, merchant_name: 'Cafe' });
  const settled = await authorize(10_000_000);
  await send(sandbox, 'POST', `/sandbox/card-transactions/${settled.id}/settle`);
  const declined = await authorize(5_000_000);
  await send(sandbox, 'POST', `/sandbox/card-transactions/${declined.id}/decline`);
  // More than the card holds: declined by the card rules at once.
  await authorize(500_000_000);
  const reversed = await authorize(3_000_000);
  await send(sandbox, 'POST', `/sandbox/card-transactions/${reversed.id}/reverse`);
  await send(sandbox, 'POST', '/sandbox/payouts', {
    merchant_id: merchantId,
    amount: 1_000_000,
    currency: 'USDC',
  });
  const stopped = (await send(sandbox, 'POST', '/sandbox/recording/stop')) as unknown as RecordingStopped;
  return stopped.scenario;
}

/** Replays `text` in a fresh sandbox made the way `svc-sandbox run` makes one, after `prepare`. */
async function replay(text: string, prepare?: (sandbox: Sandbox) => Promise<void>): Promise<ScenarioRun> {
  const parsed = parseScenario(text);
  if (!parsed.ok) throw new Error(`invalid scenario: ${JSON.stringify(parsed.errors)}`);
  const { scenario } = parsed;
  const sandbox = await testSandbox({
    seed: scenario.seed,
    clock: { at: Date.parse(scenario.clock.start), frozen: scenario.clock.frozen },
  });
  await prepare?.(sandbox);
  return runScenario({ urls: await sandbox.listen() }, scenario, { waitMs: 300 });
}

/** The first failed step, and the text of the file's line it names. */
function firstFailure(run: ScenarioRun, text: string) {
  const failed = run.steps.find((s) => !s.ok);
  if (!failed) throw new Error('the replay passed');
  return { ...failed, text: text.split('\n')[failed.line - 1] ?? '' };
}

describe('recordings assert outcomes', () => {
  let recorded: string;
  const session = async () => {
    recorded ??= await recordSession(await testSandbox());
    if (process.env.PRINT_RECORDING) console.log(recorded);
    return recorded;
  };

  it('expects the answer, the events and the state each action left', async () => {
    const text = await session();
    const steps = (parse(text) as { steps: Step[] }).steps;
    const find = (prefix: string) =>
      steps.filter((s) => String(s.control ?? s.call ?? '').startsWith(prefix));

    const [payment] = find('POST /sandbox/checkouts/${co1.id}/payments');
    expect(payment!.expect).toEqual({
      status: 200,
      body: expect.objectContaining({
        checkout: expect.objectContaining({ id: '${co1.id}', status: 'paid', paid_amount: 12_500_000 }),
      }),
      events: ['checkout.paid'],
    });
    // The state it left, read back, then the balance it moved (held until settlement).
    const after = steps[steps.indexOf(payment!) + 1]!;
    expect(after).toEqual({
      expect: {
        get: '/sandbox/checkouts/${co1.id}',
        body: expect.objectContaining({
          checkout: expect.objectContaining({
            status: 'paid',
            platform_fee: 0,
            paid_amount: 12_500_000,
          }),
          received_amount: 12_500_000,
        }),
      },
    });
    expect(steps[steps.indexOf(payment!) + 2]).toEqual({
      expect: {
        balance: { merchant: 'roastery', currency: 'USDC', available: 100_000_000, held: expect.any(Number) },
      },
    });
    // Time moving fires what fell due.
    expect(steps.find((s) => s.clock)).toEqual({
      clock: { advance: '2m' },
      expect: { events: expect.any(Array) },
    });

    // Card network: each authorization and what became of it, read back by id.
    const auths = find('POST /sandbox/cards/${card1.id}/authorizations');
    expect(auths.map((s) => (s.expect as { body: Json }).body.status)).toEqual([
      'requested',
      'requested',
      'declined',
      'requested',
    ]);
    expect(auths.map((s) => (s.expect as { events: string[] }).events)).toEqual([
      ['card.transaction'],
      ['card.transaction'],
      // requested, then declined by the card rules
      ['card.transaction', 'card.transaction'],
      ['card.transaction'],
    ]);
    const states = steps
      .map((s) => (s.expect as { get?: string; body?: Json } | undefined) ?? {})
      .filter((e) => e.get?.startsWith('/sandbox/card-transactions/'))
      .map((e) => [e.get, e.body?.status]);
    expect(states).toEqual([
      ['/sandbox/card-transactions/${auth1.id}', 'requested'],
      ['/sandbox/card-transactions/${auth1.id}', 'completed'],
      ['/sandbox/card-transactions/${auth2.id}', 'requested'],
      ['/sandbox/card-transactions/${auth2.id}', 'declined'],
      ['/sandbox/card-transactions/${auth3.id}', 'declined'],
      ['/sandbox/card-transactions/${auth4.id}', 'requested'],
      ['/sandbox/card-transactions/${auth4.id}', 'reversed'],
    ]);
    // KYC: the cardholder as it was left.
    const kyc = steps[steps.findIndex((s) => String(s.control).endsWith('/kyc')) + 1];
    expect(kyc).toMatchObject({ expect: { get: '/sandbox/cardholders/${holder1.id}' } });
    expect(JSON.stringify(kyc)).toContain('"kyc_status":"approved"');
    // The payout: its answer and the balance it left.
    const [payout] = find('POST /sandbox/payouts');
    expect(payout!.expect).toMatchObject({ status: 200, body: { status: 'completed', amount: 1_000_000 } });
    expect(steps[steps.indexOf(payout!) + 1]).toMatchObject({
      expect: { balance: { merchant: 'roastery' } },
    });
    // No literal id of the recording sandbox anywhere: every id is a reference (the card product's
    // id is the same in every sandbox: it comes from the default settings).
    expect(text.replaceAll(VIRTUAL, '')).not.toMatch(
      /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i,
    );
  });

  it('replays green against a sandbox that behaves the same', async () => {
    const run = await replay(await session());
    expect(run.steps.filter((s) => !s.ok)).toEqual([]);
    expect(run.ok).toBe(true);
  });

  it('fails on a sandbox keeping a platform fee, naming the payment step and its line', async () => {
    const text = await session();
    const run = await replay(text, async (s) => {
      await send(s, 'PATCH', '/sandbox/settings', { platform_rate: 250 });
    });
    expect(run.ok).toBe(false);
    const failed = firstFailure(run, text);
    expect(failed.text).toBe('  - control: POST /sandbox/checkouts/${co1.id}/payments');
    expect(failed.label).toBe('POST /sandbox/checkouts/${co1.id}/payments');
    expect(failed.error).toMatch(/body\.checkout\.platform_fee: expected 0, actual 312500/);
  });

  it('fails on a sandbox settling later, naming the clock step whose settlement did not come', async () => {
    const text = await session();
    const run = await replay(text, async (s) => {
      await send(s, 'PATCH', '/sandbox/settings', { settlement_delay_seconds: 600 });
    });
    const failed = firstFailure(run, text);
    expect(failed.kind).toBe('clock');
    expect(failed.text).toBe('  - clock:');
    expect(failed.error).toBe('events fired: expected checkout.completed; actual none');
  });

  it('fails when an expectation in the file is edited, naming that step and line', async () => {
    const text = await session();
    // The settled authorization's state, read back after the settle: say it was reversed instead.
    const get = '      get: /sandbox/card-transactions/${auth1.id}\n';
    const at = text.indexOf('status: completed', text.indexOf(get, text.indexOf(get) + 1));
    expect(at).toBeGreaterThan(0);
    const edited = `${text.slice(0, at)}status: reversed${text.slice(at + 'status: completed'.length)}`;
    const run = await replay(edited);
    const failed = firstFailure(run, edited);
    expect(failed.label).toBe('expect GET /sandbox/card-transactions/${auth1.id}');
    expect(edited.split('\n')[failed.line]).toBe('      get: /sandbox/card-transactions/${auth1.id}');
    expect(failed.error).toMatch(
      /^GET \/sandbox\/card-transactions\/\S+: body\.status: expected "reversed", actual "completed"$/,
    );
    // A failed expectation does not end the run: it is the only failure.
    expect(run.steps.filter((s) => !s.ok)).toHaveLength(1);
    // The events a step fired are checked too: a file saying the payment fired none fails there.
    const none = text.replace('      events:\n        - checkout.paid\n', '      events: []\n');
    expect(none).not.toBe(text);
    const missing = firstFailure(await replay(none), none);
    expect(missing.text).toBe('  - control: POST /sandbox/checkouts/${co1.id}/payments');
    expect(missing.error).toBe('events fired: expected none; actual checkout.paid');
  });
});
