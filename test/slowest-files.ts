import type { Reporter, TestModule } from 'vitest/node';

/** How many files the closing list names. */
export const SHOWN = 10;

export interface FileTime {
  file: string;
  /** import, set-up and every test and hook of the file, in milliseconds */
  ms: number;
  tests: number;
}

/** What one test file cost, from vitest's own diagnostic. */
export function fileTime(module: TestModule): FileTime {
  const d = module.diagnostic();
  const ms =
    d.environmentSetupDuration + d.prepareDuration + d.setupDuration + d.collectDuration + d.duration;
  return { file: module.relativeModuleId, ms, tests: [...module.children.allTests()].length };
}

/** The `count` costliest files, costliest first, as the lines the run prints. */
export function slowestLines(times: readonly FileTime[], count = SHOWN): string[] {
  const sorted = [...times].sort((a, b) => b.ms - a.ms).slice(0, count);
  const width = Math.max(0, ...sorted.map((t) => (t.ms / 1000).toFixed(1).length));
  return sorted.map(
    (t) =>
      `  ${(t.ms / 1000).toFixed(1).padStart(width)} s  ${t.file} (${t.tests} test${t.tests === 1 ? '' : 's'})`,
  );
}

/**
 * Closes every run with the files that took longest, so a file that grows is seen the day it
 * grows (slow checks belong in `npm run test:deep` or the bench, not in every run).
 */
export default class SlowestFiles implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    if (modules.length < 2) return;
    const total = modules.reduce((sum, m) => sum + fileTime(m).ms, 0);
    const lines = slowestLines(modules.map(fileTime));
    process.stdout.write(
      `\nslowest ${lines.length} of ${modules.length} test files (${(total / 1000).toFixed(0)} s of file time in all):\n${lines.join('\n')}\n`,
    );
  }
}
