import { createHook } from 'node:async_hooks';

/** The entry held for the life of the process (one small object). */
let held: object | undefined;

/**
 * Keeps one of `process.nextTick`'s queue entries alive for the life of the process, so that V8
 * keeps the hidden classes ("maps") of those entries.
 *
 * Why: Node's stream and HTTP code calls `process.nextTick` several times per request, and V8
 * inlines it, including the object literal it builds for each entry. A major GC that runs while no
 * such entry is alive frees their maps; V8 then makes new ones, and from that point the optimized
 * stream code builds every entry through runtime calls instead (`DefineKeyedOwnPropertyInLiteral`,
 * `MigrateToMap`: ~4% of the CPU of a `GET /v1/checkouts/{id}`, 5-10 µs per request in A/B runs).
 * A bare Fastify process rarely has a major GC; the sandbox has them at start-up (migrations, its
 * schemas, `--heap-growing-percent`) and whenever data grows. A live entry keeps its maps, and the
 * transitions to them, from being freed, so the inlined literal stays on the fast path.
 *
 * The entry is captured with an `init` hook enabled around one `process.nextTick` and disabled
 * straight after (no hook stays installed). If a Node version names its entries differently,
 * nothing is captured and nothing changes but speed. Called once by the process entry points
 * (`serve`, the Electron shell) before the server loads; returns whether an entry is held.
 */
export function holdTickShape(): boolean {
  if (held !== undefined) return true;
  const hook = createHook({
    init(_asyncId, type, _triggerAsyncId, resource) {
      if (type === 'TickObject' && held === undefined) held = resource;
    },
  });
  hook.enable();
  try {
    process.nextTick(() => {});
  } finally {
    hook.disable();
  }
  return held !== undefined;
}
