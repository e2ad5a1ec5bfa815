// svc-sandbox bench: one bounded run against 127.0.0.1. Every figure is a ratio to a baseline
// measured in the same run, in interleaved A/B rounds (bare, sandbox, bare, ...), with PASS/FAIL
// per target; the absolute numbers are kept beside them as information.
//
//   node bench/run.js [--quick] [--rounds n] [--duration s] [--warmup s] [--connections n] [--cold-starts n]
//                     [--section http|webhooks|ready|reset|workspaces|scale|bundle ...] [--cpu-prof] [--strict]
//
// Sections live in bench/sections/: each exports { name, run({ config, log }) } and resolves with
// { figures, notes? } (figures from figure() in lib.js). To add one, list it in SECTIONS below.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { CLI, fmt, installCleanup, killAll, ROOT, table } from './lib.js';
import bundle from './sections/bundle.js';
import http from './sections/http.js';
import ready from './sections/ready.js';
import reset from './sections/reset.js';
import scale from './sections/scale.js';
import webhooks from './sections/webhooks.js';
import workspaces from './sections/workspaces.js';

const SECTIONS = [bundle, http, webhooks, reset, workspaces, ready, scale];
const RESULTS_DIR = join(ROOT, 'bench/results');

function parseOptions() {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      rounds: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string', default: '10' },
      'cold-starts': { type: 'string' },
      section: { type: 'string', multiple: true },
      'cpu-prof': { type: 'boolean', default: false },
      strict: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(
      `Usage: node bench/run.js [--quick] [--rounds n] [--duration s] [--warmup s] [--connections n] [--cold-starts n] [--section ${SECTIONS.map((s) => s.name).join('|')}]... [--cpu-prof] [--strict]\n`,
    );
    process.exit(0);
  }
  const quick = values.quick;
  const rounds = Number(values.rounds ?? (quick ? 1 : 3));
  const duration = Number(values.duration ?? (quick ? 2 : 4));
  // Unmeasured load before the measured rounds (per route): the sandbox's code takes seconds of
  // load to reach full speed (V8 tiers it up), a bare server next to none.
  const warmup = Number(values.warmup ?? (quick ? 1 : 8));
  const connections = Number(values.connections);
  const coldStarts = Number(values['cold-starts'] ?? (quick ? 2 : 5));
  if (
    !(rounds >= 1 && rounds <= 5) ||
    !(duration > 0 && duration <= 10) ||
    !(warmup >= 0 && warmup <= 30) ||
    !(connections > 0) ||
    !(coldStarts > 0)
  ) {
    throw new Error(
      '--rounds must be 1-5, --duration 1-10 s, --warmup 0-30 s, --connections and --cold-starts positive',
    );
  }
  const unknown = (values.section ?? []).filter((name) => !SECTIONS.some((s) => s.name === name));
  if (unknown.length) throw new Error(`unknown section(s): ${unknown.join(', ')}`);
  const profDir = join(RESULTS_DIR, 'prof');
  return {
    quick,
    sections: values.section ?? null,
    strict: values.strict,
    rounds,
    coldStarts,
    resets: quick ? 3 : 6,
    // The floors beside GET, POST and webhook deliveries (information figures): full runs only.
    floors: !quick,
    load: { connections, duration, warmup: { connections, duration: 1 } },
    warmupSeconds: warmup,
    webhooks: quick
      ? { endpoints: 4, deposits: 250, concurrency: 8, latencySamples: 60 }
      : { endpoints: 8, deposits: 1000, concurrency: 8, latencySamples: 300 },
    // The workspaces section: samples, and the sizes of its workspaces (--quick: a smaller big one).
    workspaces: quick
      ? { samples: 15, restores: 5, restoreCheckouts: 1000, bigCheckouts: 5000, idleMax: 300 }
      : { samples: 50, restores: 9, restoreCheckouts: 1000, bigCheckouts: 100_000, idleMax: 1000 },
    // The quick run shrinks the scale section; the full one grows to 100k checkouts.
    scaleLevels: quick ? [1000, 5000] : [1000, 10_000, 100_000],
    // Sections start only within the soft budget (the rest are reported as skipped); the hard
    // limit stops a run that hangs.
    softBudgetMs: quick ? 60_000 : 420_000,
    budgetMs: quick ? 120_000 : 600_000,
    // --cpu-prof: the sandbox server of the http section writes a .cpuprofile on its clean shutdown.
    serverNodeArgs: values['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-dir', profDir] : [],
  };
}

function verdict(figure) {
  if (figure.pass === undefined) return '';
  return figure.pass ? 'PASS' : 'FAIL';
}

function report(figures) {
  return table(
    ['figure', 'measured', 'baseline (same run)', 'ratio', 'target', 'result'],
    figures.map((f) => [
      f.name,
      f.measured,
      f.baseline,
      f.ratio === null || f.ratio === undefined ? '' : fmt(f.ratio, 2),
      f.target,
      verdict(f),
    ]),
  );
}

async function main() {
  const options = parseOptions();
  installCleanup(options.budgetMs);
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build:server first`);
  const { connections, duration } = options.load;
  process.stdout.write(
    `svc-sandbox bench${options.quick ? ' --quick' : ''}: ${options.rounds} round(s), ${duration} s per load run (+1 s warmup), ${options.warmupSeconds} s warm-up per route first, ${connections} connections, node ${process.version}, ${cpus().length} CPUs, load average ${loadavg()[0].toFixed(1)}\n`,
  );
  const started = Date.now();
  const figures = [];
  const notes = [];
  const data = {};
  const sections = SECTIONS.filter((s) => !options.sections || options.sections.includes(s.name));
  const log = (line) => process.stdout.write(`${line}\n`);
  const skipped = [];
  for (const section of sections) {
    if (Date.now() - started > options.softBudgetMs) {
      skipped.push(section.name);
      continue;
    }
    const sectionStarted = Date.now();
    log(`  ${section.name}...`);
    const result = await section.run({ config: options, log });
    for (const f of result.figures) figures.push({ section: section.name, ...f });
    notes.push(...(result.notes ?? []));
    data[section.name] = { ...(result.data ?? {}), seconds: (Date.now() - sectionStarted) / 1000 };
  }
  process.stdout.write(`\n${report(figures)}\n`);
  for (const note of notes) process.stdout.write(`\n${note}`);
  if (skipped.length) {
    process.stdout.write(
      `\nskipped (the run was past its ${options.softBudgetMs / 1000} s budget; load average ${loadavg()[0].toFixed(1)}): ${skipped.join(', ')}`,
    );
  }
  const judged = figures.filter((f) => f.pass !== undefined);
  const failed = judged.filter((f) => !f.pass);
  const elapsed = (Date.now() - started) / 1000;
  process.stdout.write(
    `\n\ntargets: ${judged.length - failed.length}/${judged.length} pass; ${elapsed.toFixed(1)} s; load average now ${loadavg()[0].toFixed(1)}\n`,
  );

  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = join(RESULTS_DIR, options.quick ? 'latest-quick.json' : 'latest.json');
  const json = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    cpu_model: cpus()[0]?.model,
    loadavg_at_end: loadavg(),
    quick: options.quick,
    config: { rounds: options.rounds, connections, duration_s: duration, cold_starts: options.coldStarts },
    elapsed_s: elapsed,
    pass: failed.length === 0 && skipped.length === 0,
    skipped,
    figures,
    data,
  };
  writeFileSync(file, `${JSON.stringify(json, null, 2)}\n`);
  process.stdout.write(`results: ${file}\n`);
  killAll();
  process.exitCode = options.strict && (failed.length || skipped.length) ? 1 : 0;
}

main().catch((error) => {
  process.stderr.write(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  killAll();
  process.exit(1);
});
