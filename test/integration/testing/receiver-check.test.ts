import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { Coverage } from '../../../server/contract/coverage.js';
import { EVENT_TYPES } from '../../../server/contract/events.js';
import type { ReceiverCheckResult } from '../../../server/contract/receiver-checks.js';
import { call, events, expectError, ok } from '../../helpers/api.js';
import { startGradedReceiver } from '../../helpers/graded-receivers.js';
import { startReceiver } from '../../helpers/receiver.js';
import { createMerchant, testSandbox } from '../../helpers/sandbox.js';

// The receiver check (POST /sandbox/receiver-checks) grading three real receivers on 127.0.0.1.

const SECRET = 'whsec_0123456789abcdefABCDEF';

async function check(body: Record<string, unknown>): Promise<ReceiverCheckResult> {
  const sandbox = await testSandbox();
  return ok<ReceiverCheckResult>(
    await call(sandbox, { method: 'POST', url: '/sandbox/receiver-checks', payload: body }),
  );
}

const failedNames = (result: ReceiverCheckResult) => result.cases.filter((c) => !c.ok).map((c) => c.name);

describe('receiver check', () => {
  it('passes every case of a correct receiver, with what was sent, what came back and the time', async () => {
    const receiver = await startGradedReceiver('correct', SECRET);
    const result = await check({ url: receiver.url, secret: SECRET, effects_url: receiver.effectsUrl });
    expect(failedNames(result)).toEqual([]);
    expect(result.failed).toBe(0);
    expect(result.passed).toBe(result.cases.length);
    const names = result.cases.map((c) => c.name);
    for (const type of EVENT_TYPES) expect(names).toContain(`signed ${type}`);
    for (const name of [
      'wrong signature',
      'missing signature',
      'raw body bytes',
      'duplicate delivery',
      'out of order',
      'unknown event type',
      'large payload',
      'answers in time',
    ])
      expect(names).toContain(name);
    const signed = result.cases.find((c) => c.name === 'signed checkout.paid')!;
    expect(signed).toMatchObject({ status: 200, expected: 'a 2xx answer' });
    expect(signed.actual).toMatch(/^200 in \d+ ms, body: "\{\\"received\\":true\}"$/);
    expect(signed.sent).toContain('checkout.paid');
    const wrong = result.cases.find((c) => c.name === 'wrong signature')!;
    expect(wrong.status).toBe(400);
    expect(wrong.actual).toContain('bad signature');
    const duplicate = result.cases.find((c) => c.name === 'duplicate delivery')!;
    expect(duplicate.actual).toContain('(1 processed)');
    const speed = result.cases.find((c) => c.name === 'answers in time')!;
    expect(speed.expected).toContain(`${result.timeout_ms} ms`);
    expect(speed.ms).toBeLessThan(result.timeout_ms);
  });

  it('fails the raw-bytes case of a receiver that signs re-serialized JSON', async () => {
    const receiver = await startGradedReceiver('reserializing', SECRET);
    const result = await check({ url: receiver.url, secret: SECRET });
    expect(failedNames(result)).toEqual(['raw body bytes']);
    const raw = result.cases.find((c) => c.name === 'raw body bytes')!;
    expect(raw.status).toBe(400);
    expect(raw.expected).toContain('re-serialized JSON');
  });

  it('fails the signature cases of a receiver that never checks them', async () => {
    const receiver = await startGradedReceiver('trusting', SECRET);
    const result = await check({ url: receiver.url, secret: SECRET });
    expect(failedNames(result)).toEqual(['wrong signature', 'missing signature']);
    expect(result.failed).toBe(2);
  });

  it('stops after the first case when nothing answers, says so, and gives no timing verdict', async () => {
    // A port that was free a moment ago: nothing listens there.
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as { port: number };
        probe.close(() => resolve(free));
      });
    });
    const url = `http://127.0.0.1:${port}/webhooks`;
    const result = await check({ url, secret: SECRET });
    expect(result.cases.map((c) => c.name)).toEqual(['reachable']);
    expect(result).toMatchObject({ passed: 0, failed: 1 });
    expect(result.cases[0]!.actual).toMatch(/ECONNREFUSED/);
    expect(result.hints).toEqual([
      `nothing answers at ${url}: is your receiver running, and on that address and port?`,
    ]);
  });

  it('fails "answers in time" for a receiver that hangs past the delivery timeout', async () => {
    const sandbox = await testSandbox();
    ok(
      await call(sandbox, {
        method: 'PATCH',
        url: '/sandbox/settings',
        payload: { webhook_timeout_ms: 200 },
      }),
    );
    const receiver = await startGradedReceiver('hanging', SECRET);
    const result = ok<ReceiverCheckResult>(
      await call(sandbox, {
        method: 'POST',
        url: '/sandbox/receiver-checks',
        payload: { url: receiver.url, secret: SECRET, events: ['checkout.paid'] },
      }),
    );
    const speed = result.cases.find((c) => c.name === 'answers in time')!;
    expect(speed.ok).toBe(false);
    expect(speed.actual).toMatch(/^\d+ deliveries had no answer within 200 ms$/);
    // It was answered by nobody, not refused: no case passed.
    expect(result.passed).toBe(0);
  });

  it('says the secret is probably wrong when every signed delivery is refused', async () => {
    const receiver = await startGradedReceiver('correct', SECRET);
    const result = await check({ url: receiver.url, secret: 'whsec_not-the-receivers' });
    expect(failedNames(result)).toContain('signed checkout.paid');
    expect(result.hints).toHaveLength(1);
    expect(result.hints[0]).toMatch(
      /^every correctly signed delivery was refused \(400\): the secret given is probably not the one your receiver verifies with/,
    );
    expect(result.hints[0]).toContain('--secret');
    // A receiver that refuses only some signed deliveries has another problem: no such hint.
    const reserializing = await check({
      url: (await startGradedReceiver('reserializing', SECRET)).url,
      secret: SECRET,
    });
    expect(reserializing.hints).toEqual([]);
  });

  it('fails the duplicate case of a receiver that acts on a repeat, naming the header to deduplicate on', async () => {
    const receiver = await startGradedReceiver('repeating', SECRET);
    const result = await check({ url: receiver.url, secret: SECRET, effects_url: receiver.effectsUrl });
    expect(failedNames(result)).toEqual(['duplicate delivery']);
    const duplicate = result.cases.find((c) => c.name === 'duplicate delivery')!;
    expect(duplicate.actual).toContain('(2 processed)');
    expect(result.hints).toEqual([
      'the same delivery was processed more than once: deduplicate on the x-svc-delivery-id header (keep the ids you have processed, and answer 2xx to a repeat without acting again).',
    ]);
    // Without the effects URL the repeat is only seen answered: the case holds.
    const unseen = await check({ url: receiver.url, secret: SECRET });
    expect(failedNames(unseen)).toEqual([]);
    expect(unseen.hints).toEqual([]);
  });

  it('sends the same bodies for the same seed, only to the URL, and records nothing', async () => {
    const sandbox = await testSandbox();
    const actor = await createMerchant(sandbox);
    const receiver = await startReceiver();
    const other = await startReceiver();
    ok(
      await call(sandbox, {
        method: 'POST',
        url: `/sandbox/merchants/${actor.merchantId}/webhook-endpoints`,
        payload: { url: other.url },
      }),
    );
    const before = (await events(sandbox, actor.merchantId)).length;
    const run = async () => {
      const from = receiver.received.length;
      const result = ok<ReceiverCheckResult>(
        await call(sandbox, {
          method: 'POST',
          url: '/sandbox/receiver-checks',
          payload: { url: receiver.url, secret: SECRET, seed: 'seed-1', events: ['checkout.paid'] },
        }),
      );
      expect(result.seed).toBe('seed-1');
      return receiver.received.slice(from).map((r) => r.raw.toString('utf8'));
    };
    const first = await run();
    const second = await run();
    expect(first.length).toBeGreaterThan(5);
    expect(second).toEqual(first);
    expect(other.received).toHaveLength(0);
    expect((await events(sandbox, actor.merchantId)).length).toBe(before);
    const deliveries = ok<unknown[]>(
      await call(sandbox, { url: `/sandbox/deliveries?merchant_id=${actor.merchantId}` }),
    );
    expect(deliveries).toHaveLength(0);
    const coverage = ok<Coverage>(await call(sandbox, { url: '/sandbox/coverage' }));
    expect(coverage.events.every((e) => e.count === 0)).toBe(true);
  });

  it('refuses bad input with 422 naming the field', async () => {
    const sandbox = await testSandbox();
    const post = (payload: Record<string, unknown>) =>
      call(sandbox, { method: 'POST', url: '/sandbox/receiver-checks', payload });
    expectError(await post({ secret: SECRET }), 422, 'url');
    expectError(await post({ url: 'ftp://example.com/x', secret: SECRET }), 422, 'url');
    expectError(await post({ url: 'http://127.0.0.1:9/x' }), 422, 'secret');
    expectError(await post({ url: 'http://127.0.0.1:9/x', secret: SECRET, events: ['nope'] }), 422, 'events');
    expectError(await post({ url: 'http://127.0.0.1:9/x', secret: SECRET, events: [] }), 422, 'events');
  });
});
