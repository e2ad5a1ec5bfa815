// Cold start vs a bare Fastify process, interleaved (bare, sandbox, bare, sandbox, ...): from
// spawning the process to its ready line. The sandbox opens a new DB file each time (creating it
// and running the migrations is included); reopening an existing one is shown for information.
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { figure, fmt, median, startBaseline, startSandbox, stop, tempDir } from '../lib.js';

const TARGET = 2;

export default {
  name: 'ready',
  async run({ config, log }) {
    const dir = tempDir();
    const bare = [];
    const fresh = [];
    const existing = [];
    for (let i = 0; i < config.coldStarts; i++) {
      const started = performance.now();
      const baseline = await startBaseline();
      bare.push(performance.now() - started);
      await stop(baseline.child);
      const sandbox = await startSandbox({ dbPath: join(dir, `fresh-${i}.db`) });
      fresh.push(sandbox.readyMs);
      await stop(sandbox.child);
      const again = await startSandbox({ dbPath: join(dir, `fresh-${i}.db`) });
      existing.push(again.readyMs);
      await stop(again.child);
      log(
        `    bare ${fmt(bare.at(-1))} ms, sandbox ${fmt(fresh.at(-1))} ms (new DB), ${fmt(existing.at(-1))} ms (existing)`,
      );
    }
    const bareMs = median(bare);
    const baseline = `bare Fastify start → listen: ${fmt(bareMs)} ms (median of ${bare.length})`;
    const ratio = median(fresh) / bareMs;
    return {
      figures: [
        figure({
          name: 'ready (process start → ready line, new DB)',
          measured: `${fmt(median(fresh))} ms (median of ${fresh.length})`,
          baseline,
          ratio,
          target: `<= ${TARGET.toFixed(2)}`,
          pass: ratio <= TARGET,
          data: { bare, fresh },
        }),
        figure({
          name: 'ready, existing DB (information)',
          measured: `${fmt(median(existing))} ms`,
          baseline,
          ratio: median(existing) / bareMs,
          data: { existing },
        }),
      ],
    };
  },
};
