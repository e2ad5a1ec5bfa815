import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import type { ClockState } from '../../../server/contract/sandbox-state.js';
import type { Workspace } from '../../../server/contract/workspaces.js';
import { startSandbox, type TestSandbox } from '../../../server/testing/index.js';
import { tempDir } from '../../helpers/sandbox.js';
import { LANES, type LaneReport, laneStart, laneStep } from '../../parallel/lane.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const vitestBin = join(root, 'node_modules/vitest/vitest.mjs');

let sandbox: TestSandbox | undefined;
afterEach(() => sandbox?.close());

/** Runs test/parallel's suite (eight worker processes) against `url`; resolves with its exit and output. */
function runLanes(url: string, out: string): Promise<{ code: number | null; output: string }> {
  // The outer run's own variables would make the inner Vitest think it is a worker of this one.
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!name.startsWith('VITEST') && !name.startsWith('SVC_SANDBOX_')) env[name] = value;
  }
  Object.assign(env, { SVC_SANDBOX_URL: url, SVC_PARALLEL_OUT: out, NODE_ENV: 'test' });
  const child = spawn(
    process.execPath,
    [vitestBin, 'run', '--config', 'test/parallel/vitest.config.ts', '--reporter', 'dot'],
    { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 80_000);
  return new Promise((resolve) =>
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    }),
  );
}

it('eight workers, one sandbox: each worker its own workspace, clock, data and webhooks', async () => {
  sandbox = await startSandbox({ setEnv: false });
  const out = tempDir();
  const started = performance.now();
  const { code, output } = await runLanes(sandbox.urls.test, out);
  const seconds = (performance.now() - started) / 1000;
  expect(code, output).toBe(0);

  const reports = readdirSync(out).map((f) => JSON.parse(readFileSync(join(out, f), 'utf8')) as LaneReport);
  expect(reports.map((r) => r.lane).sort()).toEqual(Array.from({ length: LANES }, (_, i) => i + 1));
  // Eight processes at once, not one after another: each lane's work overlapped every other's.
  expect(new Set(reports.map((r) => r.pid)).size).toBe(LANES);
  expect(Math.max(...reports.map((r) => r.began))).toBeLessThan(Math.min(...reports.map((r) => r.ended)));
  expect(new Set(reports.map((r) => r.workspace)).size).toBe(LANES);
  expect(new Set(reports.map((r) => r.merchant)).size).toBe(LANES);
  for (const report of reports) {
    // Where each lane's clock ended: its own start and its own steps, nothing of the others'.
    expect(report.clocks.at(-1)).toBe(
      new Date(laneStart(report.lane) + 4 * laneStep(report.lane) * 1000).toISOString(),
    );
  }

  // The lanes closed their workspaces; the default one was never touched.
  const control = `${sandbox.urls.test}/sandbox`;
  const left = (await (await fetch(`${control}/workspaces`)).json()) as Workspace[];
  expect(left.map((w) => w.id)).toEqual(['default']);
  const clock = (await (await fetch(`${control}/clock`)).json()) as ClockState;
  expect(Math.abs(clock.offset_ms)).toBeLessThan(5000);
  expect(await (await fetch(`${control}/merchants`)).json()).toEqual([]);
  // Information for whoever reads the log: the suite's own target is 30 s on a quiet machine.
  console.log(`parallel lanes: ${LANES} workers in ${seconds.toFixed(1)} s`);
}, 90_000);
