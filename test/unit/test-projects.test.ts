import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ISOLATED } from '../projects.js';
import { slowestLines } from '../slowest-files.js';

const ROOT = join(import.meta.dirname, '..', '..');

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.ts') ? [relative(ROOT, path).split('\\').join('/')] : [];
  });
}

describe('the suite runs files side by side in shared workers', () => {
  it('every file that mocks a module, reads what the process loaded or measures its memory runs in a worker of its own (test/projects.ts)', () => {
    const files = testFiles(join(ROOT, 'test')).filter((file) => !file.startsWith('test/parallel/'));
    const needing = files.filter((file) => {
      const source = readFileSync(join(ROOT, file), 'utf8');
      return (
        /\bvi\.(?:mock|doMock|unmock)\(/.test(source) ||
        /require\)?\.cache\b|createRequire\([^)]*\)\.cache/.test(source) ||
        /process\.memoryUsage\(/.test(source)
      );
    });
    expect(needing.length).toBeGreaterThan(0);
    expect(needing.filter((file) => !ISOLATED.includes(file))).toEqual([]);
    // and the list names files that exist and need it
    expect(ISOLATED.filter((file) => !needing.includes(file))).toEqual([]);
  });

  it('no helper registers a hook of its own (it would run for the first file of a worker only)', () => {
    const helpers = readdirSync(join(ROOT, 'test', 'helpers')).map((name) => `test/helpers/${name}`);
    const hooked = helpers.filter((file) =>
      /^(?:before|after)(?:Each|All)\(/m.test(readFileSync(join(ROOT, file), 'utf8')),
    );
    expect(hooked).toEqual([]);
  });
});

describe('the run closes with its slowest files', () => {
  it('names the costliest first, at most ten, in seconds', () => {
    const times = Array.from({ length: 14 }, (_, i) => ({
      file: `test/f${i}.test.ts`,
      ms: i * 1000 + 100,
      tests: i,
    }));
    const lines = slowestLines(times);
    expect(lines).toHaveLength(10);
    expect(lines[0]).toBe('  13.1 s  test/f13.test.ts (13 tests)');
    expect(lines[9]).toBe('   4.1 s  test/f4.test.ts (4 tests)');
    expect(slowestLines([{ file: 'a.test.ts', ms: 900, tests: 1 }])).toEqual(['  0.9 s  a.test.ts (1 test)']);
  });
});
