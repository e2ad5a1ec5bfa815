// biome-ignore-all lint/suspicious/noTemplateCurlyInString: scenario references (${co1.id}) are literal text here
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { ParityReport } from '../../../server/contract/parity.js';
import { parseScenario } from '../../../server/scenarios/parse.js';
import { ensureBuilt, ROOT, runCli } from '../../helpers/cli.js';
import { json, recordAgainstSandbox, signatureHolds, upstreamTime } from '../../helpers/record.js';

/**
 * `svc-sandbox record` through the built CLI, against a second sandbox on loopback as the real
 * service: the integration calls /v1 through the proxy; the outside world (payments, the clock, a
 * deposit, the KYC provider) is the test calling the upstream's control API directly. The file holds
 * every request as a step with what the service answered, the webhooks after each, and the
 * control and clock steps inferred for what the outside world did; `svc-sandbox run` replays it green.
 */
beforeAll(() => ensureBuilt([join(ROOT, 'dist/server/cli/record.js')]), 180_000);

type Json = Record<string, unknown>;
type FileStep = Json & {
  recorded?: { status?: number; body?: unknown; webhooks?: { type: string; data?: Json }[] };
};

const label = (step: FileStep) =>
  (step.call as string | undefined) ??
  (step.control
    ? `control ${step.control as string}`
    : step.clock
      ? `clock ${JSON.stringify(step.clock)}`
      : `merchant ${step.merchant as string}`);

describe('svc-sandbox record', () => {
  it('records a realistic session: steps, inferred outside world, webhooks; run replays it green', async () => {
    const { upstream, receiver, dir, rec, acme } = await recordAgainstSandbox('session.yaml');
    expect(rec.stdout()).toContain(`register ${rec.url}/webhooks as your webhook endpoint at the service`);
    const v1 = (method: string, path: string, body?: unknown) =>
      json(`${rec.url}${path}`, method, body, acme.auth);
    const outside = (path: string, body?: unknown) => json(`${upstream}${path}`, 'POST', body ?? {});
    const delivered = (type: string, n = 1) =>
      receiver.waitFor((r) => r.filter((d) => d.body.event === type).length >= n, 10_000);
    /** A USDC checkout open for an hour of the upstream's time: its id. */
    const checkout = async (title: string, amount: number) => {
      const made = await v1('POST', '/v1/checkouts', {
        title,
        amount,
        currency: 'USDC',
        expires_at: await upstreamTime(upstream, 3600_000),
      });
      expect(made.status).toBe(200);
      return (made.body as Json).id as string;
    };

    // A checkout, paid on chain in two transfers (4 + 6 USDC): one checkout.paid.
    const co1Id = await checkout('Order 1', 10_000_000);
    await delivered('checkout.created');
    expect((await outside(`/sandbox/checkouts/${co1Id}/payments`, { amount: 4_000_000 })).status).toBe(200);
    expect((await outside(`/sandbox/checkouts/${co1Id}/payments`, { amount: 6_000_000 })).status).toBe(200);
    await delivered('checkout.paid');
    expect(((await v1('GET', `/v1/checkouts/${co1Id}`)).body as Json).status).toBe('paid');
    expect(
      (await v1('POST', `/v1/checkouts/${co1Id}/refund`, { amount: 3_000_000, reason: 'duplicate' })).status,
    ).toBe(200);
    await delivered('checkout.refunded');
    // Then one more made in the service's dashboard: only its webhook shows it.
    const goodwill = await outside(`/sandbox/checkouts/${co1Id}/refund`, {
      amount: 2_500_000,
      reason: 'Goodwill',
    });
    expect(goodwill.status, JSON.stringify(goodwill.body)).toBe(200);
    await delivered('checkout.refunded', 2);

    // A second checkout paid in part, then expiring: checkout.partial.
    const co2Id = await checkout('Order 2', 5_000_000);
    await delivered('checkout.created', 2);
    await outside(`/sandbox/checkouts/${co2Id}/payments`, { amount: 2_000_000 });
    await outside('/sandbox/clock/advance', { seconds: 2 * 3600 });
    await delivered('checkout.partial');

    // A static address and a deposit to it.
    const addresses = (await v1('GET', '/v1/static-addresses')).body as { chain: string; address: string }[];
    const ethereum = addresses.find((a) => a.chain === 'ethereum')!;
    expect(
      (
        await outside(`/sandbox/static-addresses/${ethereum.address}/deposits`, {
          currency: 'USDC',
          amount: 25_000_000,
        })
      ).status,
    ).toBe(200);
    await delivered('deposit.received');

    // A payout made in the service's dashboard: its webhook is all the session sees of it.
    expect(
      (
        await outside('/sandbox/payouts', {
          merchant_id: acme.id,
          amount: 5_000_000,
          currency: 'USDC',
          destination: 'bank account ending 4242',
        })
      ).status,
    ).toBe(200);
    await delivered('payout.completed');

    // A cardholder through KYC: the provider's approval shows only in the next GET.
    const holder = await v1('POST', '/v1/cardholders', { name: 'Jane Doe', email: 'jane@example.com' });
    const holderId = (holder.body as Json).id as string;
    expect((await v1('POST', `/v1/cardholders/${holderId}/kyc`)).status).toBe(200);
    expect((await outside(`/sandbox/cardholders/${holderId}/kyc`, { result: 'approved' })).status).toBe(200);
    expect(((await v1('GET', `/v1/cardholders/${holderId}`)).body as Json).is_kyc_verified).toBe(true);

    // A checkout cancelled in the service's dashboard: its webhook shows it first, then a GET.
    const co3Id = await checkout('Order 3', 5_000_000);
    expect((await outside(`/sandbox/checkouts/${co3Id}/cancel`)).status).toBe(200);
    await delivered('checkout.cancelled');
    expect(((await v1('GET', `/v1/checkouts/${co3Id}`)).body as Json).status).toBe('cancelled');

    // Forwarded byte for byte: the signature made with the upstream's secret verifies at the receiver.
    expect(receiver.received.length).toBeGreaterThanOrEqual(6);
    for (const d of receiver.received)
      expect(signatureHolds(d.raw, d.headers['x-svc-signature'], acme.secret!)).toBe(true);

    expect(await rec.stop()).toBe(0);
    const text = readFileSync(join(dir, 'session.yaml'), 'utf8');
    const parsed = parseScenario(text);
    expect(parsed.ok, JSON.stringify(parsed)).toBe(true);
    const file = parse(text) as { recorded: Json; steps: FileStep[] };
    expect(file.recorded.upstream).toBe(upstream);
    expect(file.steps.map(label)).toEqual([
      'merchant merchant',
      'POST /v1/checkouts',
      'control POST /sandbox/checkouts/${co1.id}/payments',
      'GET /v1/checkouts/${co1.id}',
      'POST /v1/checkouts/${co1.id}/refund',
      'control POST /sandbox/checkouts/${co1.id}/refund',
      'POST /v1/checkouts',
      'control POST /sandbox/checkouts/${co2.id}/payments',
      'clock {"advance":"1h1s"}',
      'GET /v1/static-addresses',
      'control POST /sandbox/static-addresses/${addr1.0.address}/deposits',
      'control POST /sandbox/payouts',
      'POST /v1/cardholders',
      'POST /v1/cardholders/${holder1.id}/kyc',
      'control POST /sandbox/cardholders/${holder1.id}/kyc',
      'GET /v1/cardholders/${holder1.id}',
      'POST /v1/checkouts',
      'control POST /sandbox/checkouts/${co3.id}/cancel',
      'GET /v1/checkouts/${co3.id}',
    ]);
    const [
      ,
      create1,
      pay1,
      get1,
      refund,
      dashboardRefund,
      create2,
      pay2,
      expiry,
      ,
      deposit,
      payout,
      ,
      ,
      kyc,
    ] = file.steps as FileStep[];
    // Inferred steps say why; the amounts are the paid_amount deltas.
    expect(pay1).toMatchObject({
      body: { amount: 10_000_000 },
      inferred: expect.stringContaining('checkout.paid webhook'),
    });
    expect(pay2).toMatchObject({
      body: { amount: 2_000_000 },
      inferred: expect.stringContaining('checkout.partial webhook'),
    });
    expect(expiry!.inferred).toContain('expired');
    expect(deposit).toMatchObject({
      body: { currency: 'USDC', amount: 25_000_000 },
      inferred: expect.stringContaining('deposit.received'),
    });
    expect(dashboardRefund).toMatchObject({
      body: { amount: 2_500_000, reason: 'Goodwill' },
      inferred: expect.stringContaining('no refund call'),
    });
    expect(dashboardRefund!.recorded!.webhooks!.map((w) => w.type)).toEqual(['checkout.refunded']);
    expect(file.steps.at(-2)).toMatchObject({ inferred: expect.stringContaining('no cancelling call') });
    expect(payout).toMatchObject({
      body: {
        merchant_id: '${merchant.id}',
        amount: 5_000_000,
        currency: 'USDC',
        destination: 'bank account ending 4242',
        outcome: 'completed',
      },
      inferred: expect.stringContaining('payout.completed'),
    });
    expect(payout!.recorded!.webhooks!.map((w) => w.type)).toEqual(['payout.completed']);
    expect(kyc).toMatchObject({
      body: { result: 'approved' },
      inferred: expect.stringContaining('is_kyc_verified'),
    });
    // What the service answered, whole, with ids as references; and expect as the recorder writes it.
    expect(create1!.recorded).toMatchObject({
      status: 200,
      body: { id: '${co1.id}', merchant_id: '${merchant.id}', title: 'Order 1' },
    });
    expect(create1!.expect).toMatchObject({ status: 200, body: { status: 'active', amount: 10_000_000 } });
    expect(create1!.body).toMatchObject({ expires_at: '${clock.in.1h}' });
    expect(get1!.expect).toMatchObject({ body: { status: 'paid', paid_amount: 10_000_000 } });
    // Each webhook on the step before it, its data with references.
    expect(create1!.recorded!.webhooks).toEqual([expect.objectContaining({ type: 'checkout.created' })]);
    expect(pay1!.recorded!.webhooks).toEqual([
      { type: 'checkout.paid', data: expect.objectContaining({ id: '${co1.id}', status: 'paid' }) },
    ]);
    expect(refund!.recorded!.webhooks!.map((w) => w.type)).toContain('checkout.refunded');
    expect(create2!.recorded!.webhooks!.map((w) => w.type)).toEqual(['checkout.created']);
    expect(expiry!.recorded!.webhooks!.map((w) => w.type)).toContain('checkout.partial');
    expect(deposit!.recorded!.webhooks!.map((w) => w.type)).toEqual(['deposit.received']);
    // The KYC token is not written.
    expect(text).not.toContain(acme.key);

    const run = await runCli(['run', 'session.yaml'], { cwd: dir, timeoutMs: 60_000 });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    // The service was a sandbox: the whole session, its outside world and webhooks included, holds.
    const parity = await runCli(['parity', 'session.yaml', '--json'], { cwd: dir, timeoutMs: 60_000 });
    const report = JSON.parse(parity.stdout.trim().split('\n').at(-1) ?? '{}') as ParityReport;
    expect(report.differences, parity.stdout + parity.stderr).toEqual([]);
    expect(parity.code).toBe(0);
  }, 120_000);
});
