// svc-sandbox bench: one bounded run against 127.0.0.1, load from a separate autocannon process.
//
//   node bench/run.js [--duration 6] [--connections 10] [--cold-starts 5] [--section name ...]
//                     [--cpu-prof] [--strict]
//
// Sections live in bench/sections/: each exports { name, run(ctx) } and returns rows, either
// { kind: 'load', name, result, target?: { minRatio } } (ratio to the bare baseline's req/s) or
// { kind: 'time', name, ms, samples, target?: { maxMs } }. To add a figure, add a section file
// and list it in SECTIONS below. The baseline runs first and again after the load sections; the
// reference is the mean of the two.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { CLI, installCleanup, killAll, ROOT, table } from './lib.js';
import baseline from './sections/baseline.js';
import checkouts from './sections/checkouts.js';
import ready from './sections/ready.js';
import webhooks from './sections/webhooks.js';

const SECTIONS = [baseline, checkouts, baseline, webhooks, ready];
const BUDGET_MS = 115_000;
const RESULTS_DIR = join(ROOT, 'bench/results');

function parseOptions() {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string', default: '6' },
      connections: { type: 'string', default: '10' },
      'cold-starts': { type: 'string', default: '5' },
      section: { type: 'string', multiple: true },
      'cpu-prof': { type: 'boolean', default: false },
      strict: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(
      `Usage: node bench/run.js [--duration s] [--connections n] [--cold-starts n] [--section ${[...new Set(SECTIONS.map((s) => s.name))].join('|')}]... [--cpu-prof] [--strict]\n`,
    );
    process.exit(0);
  }
  const duration = Number(values.duration);
  const connections = Number(values.connections);
  const coldStarts = Number(values['cold-starts']);
  if (!(duration > 0 && duration <= 15) || !(connections > 0) || !(coldStarts > 0)) {
    throw new Error(
      '--duration must be 1-15 s (the run has a 115 s budget), --connections and --cold-starts positive',
    );
  }
  const unknown = (values.section ?? []).filter((name) => !SECTIONS.some((s) => s.name === name));
  if (unknown.length) throw new Error(`unknown section(s): ${unknown.join(', ')}`);
  const profDir = join(RESULTS_DIR, 'prof');
  return {
    sections: values.section ?? null,
    strict: values.strict,
    coldStarts,
    load: { connections, duration, warmup: { connections, duration: 1 } },
    // --cpu-prof: the sandbox server writes a .cpuprofile there on its clean shutdown.
    serverNodeArgs: values['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-dir', profDir] : [],
  };
}

const fmt = (n, digits = 0) => (n === undefined || n === null ? '-' : n.toFixed(digits));

/** The reference req/s (mean of the baseline runs) and how far apart those runs were. */
function reference(rows) {
  const runs = rows.filter((r) => r.baseline).map((r) => r.result.rps);
  if (runs.length === 0) return { rps: null, spread: null };
  const rps = runs.reduce((a, b) => a + b, 0) / runs.length;
  return { rps, spread: runs.length > 1 ? (Math.max(...runs) - Math.min(...runs)) / rps : null };
}

function evaluate(rows) {
  const base = reference(rows).rps;
  for (const row of rows) {
    if (row.kind === 'load') {
      row.rps = row.result.rps;
      row.p99_ms = row.result.latency_ms.p99;
      row.cpu_us_per_req = row.result.server_cpu_us_per_req ?? null;
      row.ratio = base ? row.rps / base : null;
      // A route that answered anything but 2xx did not do the work being measured.
      row.clean = row.result.non2xx === 0 && row.result.errors === 0 && row.result.total > 0;
      // No baseline in this run (--section): no ratio, so no verdict either.
      if (row.target?.minRatio !== undefined && row.ratio !== null) {
        row.pass = row.clean && row.ratio >= row.target.minRatio;
      }
    } else if (row.kind === 'webhook') {
      row.pass = row.clean && row.rate >= row.target.minRate && row.p50_ms <= row.target.maxP50Ms;
    } else if (row.target?.maxMs !== undefined) {
      row.pass = row.ms <= row.target.maxMs;
    }
  }
  return rows;
}

function verdict(row) {
  if (row.pass === undefined) return '';
  if (row.kind === 'load' && !row.clean)
    return `FAIL (non-2xx ${row.result.non2xx}, errors ${row.result.errors})`;
  return row.pass ? 'PASS' : 'FAIL';
}

function report(rows, options) {
  const loads = rows.filter((r) => r.kind === 'load');
  const times = rows.filter((r) => r.kind === 'time');
  const hooks = rows.filter((r) => r.kind === 'webhook');
  const out = [];
  if (loads.length) {
    out.push(
      table(
        ['route', 'req/s', 'p99 ms', 'server CPU µs/req', 'vs bare', 'target', 'result'],
        loads.map((r) => [
          r.name,
          fmt(r.rps),
          fmt(r.p99_ms),
          fmt(r.cpu_us_per_req),
          r.ratio === null ? '-' : fmt(r.ratio, 2),
          r.target?.minRatio !== undefined ? `>= ${r.target.minRatio.toFixed(2)}` : '',
          verdict(r),
        ]),
      ),
    );
  }
  if (hooks.length) {
    out.push(
      table(
        ['webhooks', 'deliveries/s', 'p50 ms', 'p99 ms', 'target', 'result'],
        hooks.map((r) => [
          r.name,
          fmt(r.rate),
          fmt(r.p50_ms, 2),
          fmt(r.p99_ms, 2),
          `>= ${r.target.minRate}/s, p50 <= ${r.target.maxP50Ms} ms`,
          r.clean ? (r.pass ? 'PASS' : 'FAIL') : `FAIL (${r.delivered}/${r.expected} delivered)`,
        ]),
      ),
    );
  }
  if (times.length) {
    out.push(
      table(
        ['startup', `median ms (of ${options.coldStarts})`, 'samples ms', 'target', 'result'],
        times.map((r) => [
          r.name,
          fmt(r.ms),
          r.samples.map((s) => fmt(s)).join(' '),
          r.target?.maxMs !== undefined ? `<= ${r.target.maxMs} ms` : '',
          verdict(r),
        ]),
      ),
    );
  }
  const { rps, spread } = reference(rows);
  if (rps !== null) {
    let note = `vs bare = req/s ÷ ${fmt(rps)} (mean of the bare runs)`;
    if (spread !== null) note += `; the bare runs differ by ${fmt(100 * spread)}%`;
    if (spread !== null && spread > 0.15) note += ' — the machine was not steady, ratios are rough';
    out.push(note);
  }
  return out.join('\n\n');
}

async function main() {
  installCleanup(BUDGET_MS);
  const options = parseOptions();
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build:server first`);
  const { connections, duration } = options.load;
  process.stdout.write(
    `svc-sandbox bench: ${connections} connections, ${duration} s per route (+1 s warmup), node ${process.version}, ${cpus().length} CPUs\n`,
  );
  const started = Date.now();
  const rows = [];
  const sections = SECTIONS.filter((s) => !options.sections || options.sections.includes(s.name));
  const [load1] = loadavg();
  if (load1 > cpus().length / 2) {
    process.stdout.write(
      `  note: load average ${load1.toFixed(1)} on ${cpus().length} CPUs; figures will be noisy\n`,
    );
  }
  for (const section of sections) {
    process.stdout.write(`  ${section.name}...\n`);
    for (const row of await section.run({ config: options })) rows.push({ section: section.name, ...row });
  }
  evaluate(rows);
  process.stdout.write(`\n${report(rows, options)}\n`);
  const failed = rows.filter((r) => r.pass === false);
  const judged = rows.filter((r) => r.pass !== undefined);
  process.stdout.write(
    `\ntargets: ${judged.length - failed.length}/${judged.length} pass; ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
  );

  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = join(RESULTS_DIR, 'latest.json');
  const json = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    cpu_model: cpus()[0]?.model,
    loadavg_at_start: loadavg(),
    reference_rps: reference(rows).rps,
    reference_spread: reference(rows).spread,
    config: {
      connections,
      duration_s: duration,
      warmup_s: options.load.warmup.duration,
      cold_starts: options.coldStarts,
    },
    elapsed_s: (Date.now() - started) / 1000,
    pass: failed.length === 0,
    rows,
  };
  writeFileSync(file, `${JSON.stringify(json, null, 2)}\n`);
  process.stdout.write(`results: ${file}\n`);
  killAll();
  process.exitCode = options.strict && failed.length ? 1 : 0;
}

main().catch((error) => {
  process.stderr.write(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  killAll();
  process.exit(1);
});
