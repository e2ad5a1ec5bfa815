import { type ChildProcess, spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../server/sandbox.js';
import { startReceiver } from '../../helpers/receiver.js';
import { createMerchant, testSandbox } from '../../helpers/sandbox.js';

/**
 * Reorder chaos reproduces under load: the same seed and the same calls give the same arrival
 * order in two fresh sandboxes, one with its calls back to back on a quiet process, the other with
 * its calls 150 ms apart while a CPU-burning process runs beside it (a slow CI machine).
 */

const DEPOSITS = 10;
let burner: ChildProcess | undefined;

afterEach(() => {
  burner?.kill('SIGKILL');
  burner = undefined;
});

async function inject(sandbox: Sandbox, method: 'POST' | 'PATCH', url: string, payload: object) {
  const res = await sandbox.apps.test.inject({ method, url, payload });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** Ten deposits to a merchant whose endpoint reorders in windows of 4; the txids in arrival order. */
async function arrivalOrder(gapMs: number): Promise<string[]> {
  const sandbox = await testSandbox({ seed: 'same-seed' });
  const receiver = await startReceiver();
  const actor = await createMerchant(sandbox);
  const endpoint = await inject(sandbox, 'POST', `/sandbox/merchants/${actor.merchantId}/webhook-endpoints`, {
    url: receiver.url,
    events: ['deposit.received'],
  });
  await inject(sandbox, 'PATCH', `/sandbox/webhook-endpoints/${endpoint.id}`, {
    chaos: { seed: 'reorder', reorder_window: 4 },
  });
  for (let i = 0; i < DEPOSITS; i++) {
    await inject(sandbox, 'POST', '/sandbox/deposits', {
      merchant_id: actor.merchantId,
      chain: 'ethereum',
      currency: 'USDC',
      amount: 1_000_000 + i,
      txid: `tx-${i}`,
    });
    if (gapMs > 0) await new Promise((resolve) => setTimeout(resolve, gapMs));
  }
  // The last window (2 of 4) is released by an explicit flush: a clock advance of 0 s.
  await inject(sandbox, 'POST', '/sandbox/clock/advance', { seconds: 0 });
  await receiver.count(DEPOSITS, 10_000);
  return receiver.received.map((r) => String(r.body.data.txid));
}

describe('reorder chaos under load', () => {
  it('the same seed and calls give the same arrival order, with a CPU burner beside one and calls 150 ms apart', async () => {
    const quiet = await arrivalOrder(0);
    expect([...quiet].sort()).toEqual(Array.from({ length: DEPOSITS }, (_, i) => `tx-${i}`).sort());
    // shuffled for real: the seed's order is not the order of the calls
    expect(quiet).not.toEqual(Array.from({ length: DEPOSITS }, (_, i) => `tx-${i}`));

    burner = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
    const loaded = await arrivalOrder(150);
    expect(loaded).toEqual(quiet);
  }, 40_000);
});
