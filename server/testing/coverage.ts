import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addCoverage } from '../contract/coverage.js';
import type { CoverageCounts as Coverage } from './types.js';

/**
 * Coverage over a whole test run: each workspace's report is kept as it closes, in a directory
 * every worker finds through SVC_SANDBOX_COVERAGE_DIR (set by startSandbox({ coverage: true }));
 * coverageReport() adds them up at the end of the run.
 */
export const COVERAGE_DIR_ENV: string = 'SVC_SANDBOX_COVERAGE_DIR';

/** A fresh directory for a run's reports. */
export function coverageDir(): string {
  return mkdtempSync(join(tmpdir(), 'svc-sandbox-coverage-'));
}

/** Keeps one workspace's report (called as it closes), when the run collects coverage. */
export function keepCoverage(
  report: Coverage,
  dir: string | undefined = process.env[COVERAGE_DIR_ENV],
): void {
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${randomUUID()}.json`), JSON.stringify(report));
}

/** Every report kept in `dir`, added up. */
export function readCoverage(dir: string): { coverage: Coverage; workspaces: number } {
  const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
  const reports = files.map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as Coverage);
  // The reports are GET /sandbox/coverage answers, the contract's shape.
  return { coverage: addCoverage(reports as Parameters<typeof addCoverage>[0]), workspaces: reports.length };
}

/** The report as Markdown: a summary, the events, then one table per state machine; unreached in bold. */
export function coverageMarkdown(coverage: Coverage, workspaces?: number): string {
  const reached = (n: number) => (n === 0 ? '**0 (unreached)**' : String(n));
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  const events = coverage.events.filter((e) => e.count > 0).length;
  const moves = coverage.transitions.filter((t) => t.count > 0).length;
  const lines = [
    '# svc-sandbox coverage',
    '',
    `${events} of ${coverage.events.length} event types and ${moves} of ${coverage.transitions.length} state transitions reached${
      workspaces === undefined ? '' : `, over ${workspaces} workspace${workspaces === 1 ? '' : 's'}`
    }.`,
    '',
    '## Events',
    '',
    '| event | count |',
    '|---|---|',
    ...coverage.events.map((e) => `| ${e.type} | ${reached(e.count)} |`),
  ];
  for (const machine of [...new Set(coverage.transitions.map((t) => t.machine))]) {
    lines.push('', `## ${machine}`, '', '| from | to | via | count |', '|---|---|---|---|');
    for (const t of coverage.transitions.filter((x) => x.machine === machine))
      lines.push(`| ${cell(t.from)} | ${cell(t.to)} | ${cell(t.via)} | ${reached(t.count)} |`);
  }
  return `${lines.join('\n')}\n`;
}
