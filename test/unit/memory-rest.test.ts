import { afterEach, describe, expect, it } from 'vitest';
import { type Collect, collector, releaseAtRest } from '../../server/runtime/memory.js';

/** Keeps the event loop busy for `ms` (one synchronous run). */
function work(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) Math.sqrt(Math.random());
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('memory given back at rest', () => {
  let stop: (() => void) | undefined;
  afterEach(() => stop?.());

  it('collects once when work is followed by quiet, and not while the process only idles', async () => {
    const calls: Parameters<Collect>[0][] = [];
    stop = releaseAtRest({ tickMs: 100, collect: (options) => void calls.push(options) });
    // Idle from the start: nothing to give back.
    await sleep(450);
    expect(calls).toHaveLength(0);
    // A burst of work spanning ticks, then quiet: one collection, of the memory-reducing kind.
    for (let i = 0; i < 4; i++) {
      work(90);
      await sleep(10);
    }
    await sleep(600);
    expect(calls).toEqual([{ type: 'major', execution: 'sync', flavor: 'last-resort' }]);
    // Quiet goes on: no second one.
    await sleep(400);
    expect(calls).toHaveLength(1);
  });

  it("V8's collector is reachable without --expose-gc on the command line, which stays off", () => {
    const collect = collector();
    expect(typeof collect).toBe('function');
    collect({ type: 'major', execution: 'sync', flavor: 'last-resort' });
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
  });
});
