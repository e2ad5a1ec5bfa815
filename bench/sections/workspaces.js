// Workspaces: what an isolated world costs. Every time is a ratio to a GET /sandbox/health round
// trip of the same sandbox, measured one at a time in between the operations (a few before each
// sample), so both see the same machine:
// - create + delete of an empty ephemeral workspace (median);
// - restore of a checkpoint of a workspace holding 1,000 checkouts (median);
// - delete, and reset, of a workspace holding 100,000 checkouts (5,000 in --quick), filled over
//   HTTP right before (the delete on a fork of it, from a checkpoint, so both see the same data);
// - RSS of the sandbox at rest with 0, 100 and 1,000 idle ephemeral workspaces (judged at 100).
import { join } from 'node:path';
import { api, figure, fmt, load, median, rssMb, startSandbox, stop, tempDir } from '../lib.js';

const TARGETS = { createDelete: 10, restore: 100, bigDelete: 200, idleMb: 100 };
const HEADER = 'x-svc-workspace';
/** RSS is read at rest: the address worker stops 2 s after the last address drawn. */
const AT_REST_MS = 3_000;
/** The idle workspaces stop growing past this RSS (the figure then says how many it reached). */
const MAX_RSS_MB = 1024;
/** Health round trips timed before each measured operation. */
const RTTS_PER_SAMPLE = 3;

export default {
  name: 'workspaces',
  async run({ config, log }) {
    const sizes = config.workspaces;
    const sandbox = await startSandbox({ dbPath: join(tempDir(), 'bench-workspaces.db'), timeoutMs: 20_000 });
    const pid = sandbox.child.pid;
    const base = sandbox.urls.test;
    const inWorkspace = (id) => ({ [HEADER]: id });
    const create = (body = {}) => api(base, 'POST', '/sandbox/workspaces', { body });
    const remove = (id) => api(base, 'DELETE', `/sandbox/workspaces/${id}`);
    const health = async () => {
      const res = await fetch(`${base}/sandbox/health`);
      await res.text();
      if (!res.ok) throw new Error(`GET /sandbox/health: ${res.status}`);
    };
    /** `count` timed runs of `op`, each after RTTS_PER_SAMPLE timed health round trips. */
    const interleaved = async (count, op) => {
      const rtts = [];
      const times = [];
      for (let i = 0; i < count; i++) {
        for (let r = 0; r < RTTS_PER_SAMPLE; r++) rtts.push(await timed(health));
        times.push(await timed(() => op(i)));
      }
      return { rtts, times, rtt: median(rtts), ms: median(times) };
    };
    /** Fills a workspace's merchant with `count` checkouts over HTTP (autocannon, 10 connections). */
    const fill = async (id, count) => {
      // A new workspace has the default limits, which would throttle the fill.
      await api(base, 'PATCH', '/sandbox/settings', {
        headers: inWorkspace(id),
        body: { rate_limit_per_minute: 0, concurrency_limit: 0 },
      });
      const { api_key } = await api(base, 'POST', '/sandbox/merchants', {
        headers: inWorkspace(id),
        body: { name: 'Bench' },
      });
      const result = await load(
        {
          url: `${base}/v1/checkouts`,
          method: 'POST',
          headers: { authorization: `Bearer ${api_key.key}`, 'content-type': 'application/json' },
          bodyTemplate: JSON.stringify({
            title: 'Bench {{seq}}',
            amount: 5_000_000,
            expires_at: new Date(Date.now() + 25 * 86_400_000).toISOString(),
          }),
          connections: 10,
          amount: count,
        },
        { timeoutMs: 240_000 },
      );
      if (result.non2xx || result.errors)
        throw new Error(`workspaces: ${result.non2xx} non-2xx while filling`);
      return result;
    };
    const figures = [];
    try {
      // Unmeasured warm-up: V8 compiles the routes first (see the http section).
      for (let i = 0; i < 30; i++) await health();
      for (let i = 0; i < 10; i++) await remove((await create({ ephemeral: true })).id);

      // Idle workspaces: RSS at rest before, with 100, with 1,000.
      const rss = async () => {
        await new Promise((resolve) => setTimeout(resolve, AT_REST_MS));
        return rssMb(pid);
      };
      const idle = [];
      const rss0 = await rss();
      // Grown 100 at a time, and no further once the process passes MAX_RSS_MB: on a shared
      // machine a costly workspace must not take the memory of everything else.
      const grow = async (to) => {
        while (idle.length < to && rssMb(pid) < MAX_RSS_MB) {
          const step = Math.min(idle.length + 100, to);
          while (idle.length < step) idle.push((await create({ ephemeral: true })).id);
        }
        return rss();
      };
      const rss100 = await grow(100);
      const rss1000 = await grow(sizes.idleMax);
      const idleCount = idle.length;
      const deleteAll = await timed(async () => {
        for (const id of idle.splice(0)) await remove(id);
      });
      const added100 = rss100 - rss0;
      const perWorkspace = (rss1000 - rss0) / idleCount;
      log(
        `    idle workspaces: RSS ${fmt(rss0)} MB, +${fmt(added100, 1)} MB with 100, +${fmt(rss1000 - rss0, 1)} MB with ${fmt(idleCount)} (${fmt(perWorkspace * 1024)} KB each; deleted in ${fmt(deleteAll)} ms)`,
      );

      const cd = await interleaved(sizes.samples, async () => remove((await create({ ephemeral: true })).id));
      log(`    create + delete: ${fmt(cd.ms, 2)} ms, health ${fmt(cd.rtt, 2)} ms`);

      // A checkpoint of 1,000 checkouts.
      const small = await create({ name: 'bench-restore' });
      await fill(small.id, sizes.restoreCheckouts);
      await api(base, 'POST', '/sandbox/checkpoints', {
        headers: inWorkspace(small.id),
        body: { name: 'saved' },
      });
      // Each restore after a change (a clock move), which is not timed: the restore alone is.
      const restore = { rtts: [], times: [] };
      for (let i = 0; i < sizes.restores; i++) {
        for (let r = 0; r < RTTS_PER_SAMPLE; r++) restore.rtts.push(await timed(health));
        await api(base, 'POST', '/sandbox/clock/advance', {
          headers: inWorkspace(small.id),
          body: { seconds: 60 },
        });
        restore.times.push(
          await timed(() =>
            api(base, 'POST', '/sandbox/checkpoints/saved/restore', { headers: inWorkspace(small.id) }),
          ),
        );
      }
      restore.rtt = median(restore.rtts);
      restore.ms = median(restore.times);
      log(
        `    restore (${fmt(sizes.restoreCheckouts)} checkouts): ${fmt(restore.ms, 1)} ms, health ${fmt(restore.rtt, 2)} ms`,
      );
      await remove(small.id);

      // A workspace holding many checkouts, filled just now: delete (a fork of it) and reset.
      const big = await create({ name: 'bench-big' });
      const filled = await fill(big.id, sizes.bigCheckouts);
      log(`    filled ${fmt(filled.total)} checkouts at ${fmt(filled.rps)}/s`);
      const saveMs = await timed(() =>
        api(base, 'POST', '/sandbox/checkpoints', { headers: inWorkspace(big.id), body: { name: 'full' } }),
      );
      let fork;
      const forkMs = await timed(async () => {
        fork = await create({ name: 'bench-big-fork', from: { workspace_id: big.id, checkpoint: 'full' } });
      });
      const bigRtts = [];
      for (let r = 0; r < 10; r++) bigRtts.push(await timed(health));
      const deleteMs = await timed(() => remove(fork.id));
      for (let r = 0; r < 10; r++) bigRtts.push(await timed(health));
      const resetMs = await timed(() =>
        api(base, 'POST', '/sandbox/reset', { headers: inWorkspace(big.id) }),
      );
      for (let r = 0; r < 10; r++) bigRtts.push(await timed(health));
      const bigRtt = median(bigRtts);
      log(
        `    ${fmt(sizes.bigCheckouts)} checkouts: delete ${fmt(deleteMs, 1)} ms, reset ${fmt(resetMs, 1)} ms (checkpoint ${fmt(saveMs)} ms, fork ${fmt(forkMs)} ms), health ${fmt(bigRtt, 2)} ms`,
      );
      await remove(big.id);

      const rttFigure = (name, ms, rtt, target, data) =>
        figure({
          name,
          measured: `${fmt(ms, 2)} ms`,
          baseline: `GET /sandbox/health round trip: ${fmt(rtt, 2)} ms`,
          ratio: ms / rtt,
          target: `<= ${target}`,
          pass: ms / rtt <= target,
          data,
        });
      figures.push(
        rttFigure(
          `workspaces: create + delete, empty ephemeral (median of ${sizes.samples})`,
          cd.ms,
          cd.rtt,
          TARGETS.createDelete,
          cd,
        ),
        rttFigure(
          `workspaces: restore a checkpoint of ${fmt(sizes.restoreCheckouts)} checkouts (median of ${sizes.restores})`,
          restore.ms,
          restore.rtt,
          TARGETS.restore,
          restore,
        ),
        rttFigure(
          `workspaces: delete a workspace of ${fmt(sizes.bigCheckouts)} checkouts`,
          deleteMs,
          bigRtt,
          TARGETS.bigDelete,
          { deleteMs, bigRtts, saveMs, forkMs, fill: filled },
        ),
        rttFigure(
          `workspaces: reset a workspace of ${fmt(sizes.bigCheckouts)} checkouts (right after filling it)`,
          resetMs,
          bigRtt,
          TARGETS.bigDelete,
          { resetMs },
        ),
        figure({
          name: 'workspaces: RSS added by 100 idle ephemeral workspaces',
          measured: `+${fmt(added100, 1)} MB (${fmt(rss0)} → ${fmt(rss100)} MB at rest)`,
          baseline: `the same sandbox with none: ${fmt(rss0)} MB`,
          ratio: rss100 / rss0,
          target: `<= +${TARGETS.idleMb} MB`,
          pass: added100 <= TARGETS.idleMb,
          data: { rss0, rss100, rss1000 },
        }),
        figure({
          name: `workspaces: RSS added by ${fmt(sizes.idleMax)} idle ephemeral workspaces`,
          measured:
            idleCount < sizes.idleMax
              ? `stopped at ${fmt(idleCount)} (past ${MAX_RSS_MB} MB): +${fmt(rss1000 - rss0, 1)} MB, ~${fmt(perWorkspace * sizes.idleMax)} MB for ${fmt(sizes.idleMax)} at ${fmt(perWorkspace * 1024)} KB each`
              : `+${fmt(rss1000 - rss0, 1)} MB (${fmt(rss1000)} MB at rest, ${fmt(perWorkspace * 1024)} KB each; all deleted in ${fmt(deleteAll)} ms)`,
          baseline: `the same sandbox with none: ${fmt(rss0)} MB`,
          ratio: rss1000 / rss0,
          data: { rss0, rss1000, idleCount, deleteAll },
        }),
      );
      return { figures };
    } finally {
      await stop(sandbox.child, 15_000);
    }
  },
};

async function timed(fn) {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}
