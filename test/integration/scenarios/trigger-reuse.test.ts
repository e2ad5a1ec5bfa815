import { describe, expect, it } from 'vitest';
import type { LibraryRun } from '../../../server/contract/scenario-library.js';
import { LIBRARY } from '../../../server/scenarios/library.js';
import { call, ok } from '../../helpers/api.js';
import { testSandbox } from '../../helpers/sandbox.js';

// A library run with reuse_merchants (what `svc-sandbox trigger` asks for): its merchants are
// taken by name instead of made again, its expectations judge only what this run did, and the
// answer says what it changed.

describe('library runs that reuse their merchants', () => {
  it('every built-in scenario holds twice in a row in one sandbox, making its merchants once', {
    timeout: 240_000,
  }, async () => {
    const sandbox = await testSandbox();
    await sandbox.listen();
    const failures: string[] = [];
    for (const { name } of LIBRARY.filter((e) => e.name !== 'demo')) {
      for (const round of [1, 2]) {
        const run = ok<LibraryRun>(
          await call(sandbox, {
            method: 'POST',
            url: `/sandbox/scenarios/library/${name}/run`,
            payload: { reuse_merchants: true },
          }),
        );
        if (!run.ok)
          failures.push(
            `${name} round ${round}: ${run.steps
              .filter((s) => !s.ok)
              .map((s) => `${s.label}: ${s.error}`)
              .join('; ')}`,
          );
      }
    }
    expect(failures).toEqual([]);
    const merchants = ok<{ name: string }[]>(await call(sandbox, { url: '/sandbox/merchants' }));
    const names = merchants.map((m) => m.name);
    // One of each name, except where a `get` expectation reads a merchant's totals (made fresh).
    expect(names.filter((n) => n === 'Demo Coffee Roasters')).toHaveLength(1);
    expect(new Set(names).size).toBeGreaterThanOrEqual(names.length - 2);
  });

  it('says what it changed: merchants made then reused, the clock moved, the events fired', async () => {
    const sandbox = await testSandbox();
    await sandbox.listen();
    const run = (body: Record<string, unknown>) =>
      call(sandbox, {
        method: 'POST',
        url: '/sandbox/scenarios/library/checkout.partial/run',
        payload: body,
      });
    const first = ok<LibraryRun>(await run({ reuse_merchants: true }));
    expect(first.ok).toBe(true);
    expect(first.changes!.merchants).toEqual([
      { step: 'shop', name: 'Demo Coffee Roasters', id: expect.any(String), made: true },
    ]);
    expect(first.changes!.clock.moved_seconds).toBe(7200);
    // In the order they happened.
    expect(first.changes!.events).toEqual([
      { type: 'checkout.created', count: 1 },
      { type: 'checkout.partial', count: 1 },
    ]);
    const second = ok<LibraryRun>(await run({ reuse_merchants: true }));
    expect(second.ok).toBe(true);
    expect(second.changes!.merchants).toEqual([{ ...first.changes!.merchants[0], made: false }]);
    expect(second.changes!.events).toEqual(first.changes!.events);
    // Without the flag a run makes its own merchant and reports nothing more than its steps.
    const plain = ok<LibraryRun>(await run({}));
    expect(plain.changes).toBeUndefined();
    const merchants = ok<{ name: string }[]>(await call(sandbox, { url: '/sandbox/merchants' }));
    expect(merchants.filter((m) => m.name === 'Demo Coffee Roasters')).toHaveLength(2);
  });
});
