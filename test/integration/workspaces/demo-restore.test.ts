import { describe, expect, it } from 'vitest';
import { buildDemo, DEMO_CHECKPOINT, DEMO_WORKSPACE } from '../../../server/cli/demo.js';
import type { Sandbox } from '../../../server/sandbox.js';
import { ManualTime, testSandbox } from '../../helpers/sandbox.js';

// `serve --demo` builds the demo's month of history to end at the real current time. Restored
// after a pitch (`checkpoint restore demo --workspace Demo`, however much later), it ends at the
// real current time again: the clock reads now, every stored time moved by as much, so nothing falls
// due by the move. A checkpoint saved without `restore_at` still comes back at its own time.

const DAY = 86_400_000;

interface Checkout {
  id: string;
  title: string;
  status: string;
  created_at: string;
  expires_at: string;
}

/** A control call in the Demo workspace. */
async function demo<T>(sandbox: Sandbox, method: 'GET' | 'POST', url: string, payload?: object): Promise<T> {
  const response = await sandbox.apps.test.inject({
    method,
    url,
    headers: { 'x-svc-workspace': DEMO_WORKSPACE },
    ...(payload ? { payload } : {}),
  });
  if (response.statusCode >= 300)
    throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
  return response.json() as T;
}

const listOf = <T>(answer: T[] | { items: T[] }): T[] => (Array.isArray(answer) ? answer : answer.items);

describe('the demo, restored after a pitch', () => {
  it('ends its history at the real current time again, the clock reading now', async () => {
    // Real time, driven by hand from the real current time (the demo's build reads the wall clock).
    const time = new ManualTime(Date.now());
    const sandbox = await testSandbox({ realNow: time.now });
    await sandbox.listen();
    const errors: string[] = [];
    const built = await buildDemo(sandbox.urls(), {
      fresh: false,
      print: () => {},
      printError: (line) => errors.push(line),
    });
    expect(errors).toEqual([]);
    expect(built?.workspace.name).toBe(DEMO_WORKSPACE);

    const merchants = await demo<{ id: string; name: string }[]>(sandbox, 'GET', '/sandbox/merchants');
    const northwind = merchants.find((m) => m.name === 'Northwind Coffee')!;
    const checkouts = async () =>
      listOf(
        await demo<Checkout[] | { items: Checkout[] }>(
          sandbox,
          'GET',
          `/sandbox/merchants/${northwind.id}/checkouts?env=test&limit=100`,
        ),
      );
    const newestEvent = async () =>
      Math.max(
        ...listOf(
          await demo<{ created_at: string }[] | { items: { created_at: string }[] }>(
            sandbox,
            'GET',
            `/sandbox/merchants/${northwind.id}/events?env=test&limit=100`,
          ),
        ).map((e) => Date.parse(e.created_at)),
      );
    const asBuilt = await checkouts();
    expect(asBuilt.some((c) => c.status === 'active')).toBe(true);

    // The pitch: two days later, a story played on it.
    time.tick(2 * DAY);
    await demo(sandbox, 'POST', `/sandbox/merchants/${northwind.id}/checkouts?env=test`, {
      title: 'Team lunch',
      amount: 120_000_000,
      currency: 'USDC',
      expires_at: new Date(time.ms + 3_600_000).toISOString(),
    });

    const [saved] = listOf(
      await demo<{ name: string; at: string }[] | { items: { name: string; at: string }[] }>(
        sandbox,
        'GET',
        '/sandbox/checkpoints',
      ),
    ).filter((c) => c.name === DEMO_CHECKPOINT);
    const restored = await demo<{ workspace: { clock: { now: string; frozen: boolean } } }>(
      sandbox,
      'POST',
      `/sandbox/checkpoints/${DEMO_CHECKPOINT}/restore`,
    );
    // The clock reads the real current time, running.
    expect(restored.workspace.clock.now).toBe(new Date(time.ms).toISOString());
    expect(restored.workspace.clock.frozen).toBe(false);
    const clock = await demo<{ now: string }>(sandbox, 'GET', '/sandbox/clock');
    expect(clock.now).toBe(new Date(time.ms).toISOString());

    // The history as built (the story's checkout gone), every time moved by how long ago it was saved.
    const moved = time.ms - Date.parse(saved!.at);
    // (the build ended at the wall clock's now: within moments of the time the test started from)
    expect(Math.abs(moved - 2 * DAY)).toBeLessThan(60_000);
    const back = await checkouts();
    expect(back.map((c) => [c.id, c.status])).toEqual(asBuilt.map((c) => [c.id, c.status]));
    for (const [i, checkout] of back.entries()) {
      const before = asBuilt[i]!;
      expect(Date.parse(checkout.created_at) - Date.parse(before.created_at), checkout.title).toBe(moved);
      expect(Date.parse(checkout.expires_at) - Date.parse(before.expires_at), checkout.title).toBe(moved);
    }
    // It ends now: the newest event happened in the last minutes, none after now.
    const newest = await newestEvent();
    expect(newest).toBeLessThanOrEqual(time.ms);
    expect(time.ms - newest).toBeLessThan(5 * 60_000);

    // Nothing fell due by the move: a while later the open checkouts are still open.
    time.tick(60_000);
    await sandbox.workspaces.require(DEMO_WORKSPACE).ctx.scheduler.runDue();
    expect((await checkouts()).map((c) => c.status)).toEqual(asBuilt.map((c) => c.status));

    // A checkpoint saved plainly still comes back at its own sandbox time, behind the real one.
    const plain = await demo<{ at: string }>(sandbox, 'POST', '/sandbox/checkpoints', { name: 'plain' });
    time.tick(DAY);
    const again = await demo<{ workspace: { clock: { now: string } } }>(
      sandbox,
      'POST',
      '/sandbox/checkpoints/plain/restore',
    );
    expect(again.workspace.clock.now).toBe(plain.at);
  });
});
