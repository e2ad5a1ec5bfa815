import { setFlagsFromString } from 'node:v8';

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
}
