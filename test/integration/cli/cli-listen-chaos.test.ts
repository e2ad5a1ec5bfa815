import { createInterface } from 'node:readline';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseChaos } from '../../../server/cli/chaos-option.js';
import { UsageError } from '../../../server/cli/common.js';
import { ensureBuilt, runCli, spawnCli } from '../../helpers/cli.js';
import { startReceiver } from '../../helpers/receiver.js';
import { createMerchant, inFuture, testSandbox } from '../../helpers/sandbox.js';

// `svc-sandbox listen --chaos ...` as a real child process against a sandbox in this process.

beforeAll(() => ensureBuilt(), 120_000);

describe('listen --chaos: the option', () => {
  it('reads every setting, with the short names', () => {
    expect(parseChaos('duplicate=0.3,reorder=5,delay=100-500,drop=0.1,bad_signature=0.05,seed=abc')).toEqual({
      duplicate: 0.3,
      reorder_window: 5,
      delay: { min_ms: 100, max_ms: 500 },
      drop: 0.1,
      bad_signature: 0.05,
      seed: 'abc',
    });
    expect(parseChaos('delay=250, bad-signature=1')).toEqual({
      delay: { min_ms: 250, max_ms: 250 },
      bad_signature: 1,
    });
  });

  it('refuses what the sandbox would refuse, naming the setting', () => {
    for (const [text, message] of [
      ['drop=2', /drop must be a probability/],
      ['duplicate=-0.1', /duplicate must be a probability/],
      ['reorder=51', /reorder must be a whole number/],
      ['delay=500-100', /delay must be ms or a range/],
      ['delay=a', /delay must be ms or a range/],
      ['speed=1', /unknown setting speed/],
      ['seed', /seed needs a value/],
      ['', /at least one setting/],
    ] as const)
      expect(() => parseChaos(text), text).toThrow(message);
    expect(() => parseChaos('drop=2')).toThrow(UsageError);
  });
});

describe('listen --chaos', () => {
  it('sets chaos on the endpoint it creates and prints it; duplicates reach the app twice', async () => {
    const sandbox = await testSandbox();
    const url = (await sandbox.listen()).test;
    const actor = await createMerchant(sandbox, 'Chaos Co');
    const receiver = await startReceiver();
    const child = spawnCli([
      'listen',
      '--forward-to',
      receiver.url,
      '--merchant',
      actor.merchantId,
      '--chaos',
      'duplicate=1,seed=abc',
      '--url',
      url,
    ]);
    const lines: string[] = [];
    const chaosLine = new Promise<string>((resolve) => {
      createInterface({ input: child.stdout! }).on('line', (line) => {
        lines.push(line);
        if (line.startsWith('Chaos on')) resolve(line);
      });
    });
    const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
    const line = await Promise.race([
      chaosLine,
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error(`no chaos line: ${lines.join('\n')}`)), 8000),
      ),
    ]);
    expect(line).toBe("Chaos on Chaos Co's endpoint: duplicate=1,seed=abc");
    const endpoints = (
      await sandbox.apps.test.inject({ url: `/sandbox/merchants/${actor.merchantId}/webhook-endpoints` })
    ).json() as { chaos: { seed: string; duplicate: number } | null }[];
    expect(endpoints[0]!.chaos).toMatchObject({ seed: 'abc', duplicate: 1 });

    const res = await sandbox.apps.test.inject({
      method: 'POST',
      url: '/v1/checkouts',
      headers: actor.auth,
      payload: { title: 'Order', amount: 1_000_000, expires_at: inFuture(sandbox) },
    });
    expect(res.statusCode).toBe(200);
    await receiver.count(2);
    const [first, second] = receiver.received;
    expect(second!.raw.equals(first!.raw)).toBe(true);
    expect(second!.headers['x-svc-delivery-id']).toBe(first!.headers['x-svc-delivery-id']);
    expect(second!.headers['x-svc-signature']).toBe(first!.headers['x-svc-signature']);

    child.kill('SIGINT');
    expect(await exited).toBe(0);
  });

  it('a bad --chaos is a usage error before anything is created', async () => {
    const sandbox = await testSandbox();
    const url = (await sandbox.listen()).test;
    const actor = await createMerchant(sandbox);
    const result = await runCli(
      ['listen', '--forward-to', 'http://127.0.0.1:9/x', '--chaos', 'drop=2', '--url', url],
      { timeoutMs: 8000 },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--chaos: drop must be a probability from 0 to 1, got 2/);
    const endpoints = (
      await sandbox.apps.test.inject({ url: `/sandbox/merchants/${actor.merchantId}/webhook-endpoints` })
    ).json() as unknown[];
    expect(endpoints).toEqual([]);
  });
});
