import { performance } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * How much V8 lets the old generation grow past what survived the last major collection (%).
 * V8's own factor is up to 4× for a fast-allocating process; 10% keeps a long-running sandbox's
 * heap close to its live size.
 */
export const HEAP_GROWING_PERCENT = 10;

/**
 * How much V8 grows the young generation each time a scavenge finds much of it alive. V8's own
 * factor (2) lets it double up to 16 MB a semi-space (~50 MB with the copy) under write load, and
 * Node 24's V8 keeps it there at rest: RSS 265 MB at 100,000 checkouts against 140 MB on Node 20.
 * `--max-semi-space-size` would cap it, but only from the command line (V8 reads it once, when the
 * heap is made); this factor is read on each growth, so set at run time it holds the young
 * generation at its starting size. See bench/README.md for what it costs per request.
 */
export const SEMI_SPACE_GROWTH_FACTOR = 1;

/**
 * Keeps a long-running sandbox process's memory flat as data grows. Without it the old
 * generation let dead objects pile up between major collections under write load (20k checkouts:
 * RSS 191 MB, 29 MB of it live); with it RSS stays ~140 MB at 100k checkouts.
 *
 * `--heap-growing-percent`, not `--optimize-for-size`: the latter held RSS near 105 MB but also
 * made V8's compiled code slower — +25 µs of main-thread CPU on a ~80 µs GET, +60 µs on a POST,
 * and busier GC threads (A/B of the same build, alternating runs).
 *
 * Called by the process entry points (`serve`, the Electron shell) after the server's code is
 * loaded — a V8 code cache is checked against the flags it was made with — never by a library
 * caller of createSandbox (a test runner's heap is its own business).
 */
export function favourMemory(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  setFlagsFromString(`--semi-space-growth-factor=${SEMI_SPACE_GROWTH_FACTOR}`);
  releaseAtRest();
}

/** V8's own factor (`--semi-space-growth-factor`'s default). */
const V8_SEMI_SPACE_GROWTH_FACTOR = 2;

/** The young generation's size now (bytes). */
const youngSize = (): number =>
  getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;

/** How often the event loop's load is looked at (ms). */
const REST_TICK_MS = 500;
/** A tick busier than this (share of the tick the loop was running) counts as work. */
const BUSY = 0.2;
/** Ticks quieter than this, this many in a row, are a rest. */
const QUIET = 0.02;
const QUIET_TICKS = 2;
/** At most one release in this long (ms), however the load comes and goes. */
const RELEASE_SPACING_MS = 5_000;

export type Collect = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

/**
 * Gives back the memory a burst of work left behind once the process has gone quiet: one full,
 * memory-reducing collection (V8's "last resort" flavour: it compacts the old generation, shrinks
 * the young one and returns the freed pages at once) about a second after the work stops. V8's own
 * memory reducer does the same when it sees the process idle, but at a time of its own choosing (2
 * to 10 s and more); a desktop app or a CI sandbox at rest should not keep ~25 MB of a finished
 * load. It costs one 25–50 ms collection per rest, never on a request: the event loop is idle when
 * it runs. What it costs after: that flavour also drops the bytecode V8 compiled, so the first
 * requests after a rest run a little slower while V8 compiles again (measured: the first POST
 * after a 2.5 s rest ~1 ms slower, the next 25 ~0.4 ms each). It also shrinks the young generation
 * to its least, which the growth factor held at 1 would keep there (the next load scavenged 4–8
 * times as often), so V8's own factor is back until the young generation has regrown to the size it
 * had. Nothing is watched per request, only the loop's utilisation, twice a second, on an unref'd
 * timer.
 */
export function releaseAtRest({
  tickMs = REST_TICK_MS,
  collect,
}: {
  tickMs?: number;
  collect?: Collect;
} = {}): () => void {
  let last = performance.eventLoopUtilization();
  let worked = false;
  let quiet = 0;
  let releasedAt = -Infinity;
  /** While the young generation grows back after a release: the size it had before it. */
  let regrowTo = 0;
  const timer = setInterval(() => {
    const tick = performance.eventLoopUtilization(last);
    last = performance.eventLoopUtilization();
    if (regrowTo > 0 && youngSize() >= regrowTo) {
      setFlagsFromString(`--semi-space-growth-factor=${SEMI_SPACE_GROWTH_FACTOR}`);
      regrowTo = 0;
    }
    if (tick.utilization > BUSY) {
      worked = true;
      quiet = 0;
      return;
    }
    if (!worked) return;
    quiet = tick.utilization < QUIET ? quiet + 1 : 0;
    if (quiet < QUIET_TICKS || performance.now() - releasedAt < RELEASE_SPACING_MS) return;
    worked = false;
    quiet = 0;
    releasedAt = performance.now();
    collect ??= collector();
    const young = youngSize();
    collect({ type: 'major', execution: 'sync', flavor: 'last-resort' });
    // The collection shrinks the young generation to its least, and with the growth factor held
    // at 1 it would stay there: 4–8× as many scavenges under the next load. V8's own factor lets
    // it grow back as the load needs, up to the size it had; the tick that sees it there holds it.
    if (regrowTo === 0 && youngSize() < young) {
      regrowTo = young;
      setFlagsFromString(`--semi-space-growth-factor=${V8_SEMI_SPACE_GROWTH_FACTOR}`);
    }
    // The collection itself is not work to rest from.
    last = performance.eventLoopUtilization();
  }, tickMs);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * V8's `gc` function, from a context made while `--expose-gc` is on, the flag then set back: the
 * code cache of a chunk loaded later is checked against the flags it was made with.
 */
export function collector(): Collect {
  setFlagsFromString('--expose-gc');
  try {
    return runInNewContext('gc') as Collect;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}
