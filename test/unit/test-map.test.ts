import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// test/README.md maps each feature to its test files; a map that misses files stops being the place
// to look, so a new test file must join a row (or match one of its globs) to pass.
const TEST_DIR = join(import.meta.dirname, '..');

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : testFiles(path);
    return entry.name.endsWith('.test.ts') ? [relative(TEST_DIR, path).split('\\').join('/')] : [];
  });
}

/** The test paths named in the map's table, globs included (`*` stands for any part of a name). */
function mapEntries(readme: string): string[] {
  const rows = readme.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| ---'));
  return rows.flatMap((row) => row.match(/[a-z0-9*./-]+\.test\.ts/g) ?? []);
}

const globToRegExp = (glob: string): RegExp =>
  new RegExp(`^${glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`);

function unmapped(files: string[], entries: string[]): string[] {
  const patterns = entries.map(globToRegExp);
  return files.filter((file) => !patterns.some((pattern) => pattern.test(file)));
}

function stale(files: string[], entries: string[]): string[] {
  return entries.filter((entry) => !files.some((file) => globToRegExp(entry).test(file)));
}

describe('the test map (test/README.md)', () => {
  const files = testFiles(TEST_DIR);
  const entries = mapEntries(readFileSync(join(TEST_DIR, 'README.md'), 'utf8'));

  it('names every test file, directly or by a glob', () => {
    expect(files.length).toBeGreaterThan(150);
    expect(unmapped(files, entries)).toEqual([]);
  });

  it('names no file that does not exist', () => {
    expect(stale(files, entries)).toEqual([]);
  });

  it('catches a missing file and a stale entry', () => {
    expect(unmapped(['unit/a.test.ts', 'integration/x/b.test.ts'], ['integration/x/*.test.ts'])).toEqual([
      'unit/a.test.ts',
    ]);
    expect(unmapped(['integration/x/y/b.test.ts'], ['integration/x/*.test.ts'])).toEqual([
      'integration/x/y/b.test.ts',
    ]);
    expect(stale(['unit/a.test.ts'], ['unit/a.test.ts', 'unit/gone.test.ts'])).toEqual(['unit/gone.test.ts']);
  });

  it('gives each test file a base name no other tier uses', () => {
    const names = files.map((file) => file.split('/').pop());
    expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
  });
});
