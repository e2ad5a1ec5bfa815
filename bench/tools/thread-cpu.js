// Per-thread CPU of a sandbox under one route's load: where the process's CPU per request goes
// between the main thread, the address worker, V8's helper threads and libuv's pool.
//
//   node bench/tools/thread-cpu.js get|post [--duration 5]
//
// The load runs 3 s unmeasured first, so V8's compiler threads' warm-up is left out.
// THREAD_NODE_ARGS="--trace-opt --trace-deopt" also counts the functions V8 (re)compiled or
// deoptimised during the measured load: a steady server shows almost none.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { checkoutLoads, installCleanup, killAll, load, startSandbox, stop, tempDir } from '../lib.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { duration: { type: 'string', default: '5' } },
});
const what = positionals[0] ?? 'post';
installCleanup(60_000);
const nodeArgs = (process.env.THREAD_NODE_ARGS ?? '').split(' ').filter(Boolean);
const sandbox = await startSandbox({ dbPath: join(tempDir(), 'threads.db'), nodeArgs });
const traced = new Map();
let counting = false;
sandbox.child.stdout.on('data', (chunk) => {
  if (!counting) return;
  for (const line of String(chunk).split('\n')) {
    const m =
      /(deoptimizing|completed compiling|completed optimizing|bailout|marking)[^<]*<JSFunction ([^ >]+)/.exec(
        line,
      );
    if (m) traced.set(`${m[1]} ${m[2]}`, (traced.get(`${m[1]} ${m[2]}`) ?? 0) + 1);
  }
});
const pid = sandbox.child.pid;
const base = sandbox.urls.test;
const { specs, common } = await checkoutLoads(base, { name: 'Threads', duration: Number(values.duration) });

/** CPU ticks (user + system) of each thread, by name. */
function threads() {
  const out = new Map();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ticks = Number(fields[11]) + Number(fields[12]);
      out.set(`${name}#${tid}`, ticks);
    } catch {}
  }
  return out;
}
await load({ ...specs[what], duration: 3 }, { serverPid: pid });
counting = true;
const before = threads();
const result = await load(specs[what], { serverPid: pid });
const after = threads();
const requests = result.rps * common.duration;
process.stdout.write(
  `${what}: ${result.rps.toFixed(0)} req/s, ${result.server_cpu_us_per_req?.toFixed(0)} µs CPU/req (warmup included)\n`,
);
const rows = [...after]
  .map(([k, t]) => [k, ((t - (before.get(k) ?? 0)) * 10_000) / requests])
  .filter(([, us]) => us > 0.5);
for (const [k, us] of rows.sort((a, b) => b[1] - a[1]))
  process.stdout.write(`  ${us.toFixed(1).padStart(7)} µs/req  ${k}\n`);
counting = false;
for (const [k, n] of [...traced].sort((a, b) => b[1] - a[1]).slice(0, 30))
  process.stdout.write(`  ${String(n).padStart(5)}  ${k}\n`);
await stop(sandbox.child, 10_000);
killAll();
