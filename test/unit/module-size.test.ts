import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// One concern per module: no server module is over MAX_LINES. Migrations (applied once, never
// edited) and the contract (one schema per resource, long by nature) are outside the rule.
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const MAX_LINES = 450;
const EXEMPT_DIRS = ['server/db/migrations/', 'server/contract/'];

const isModule = (name: string) => /\.(ts|tsx|mts|cts|js|mjs|cjs)$/.test(name) && !name.endsWith('.d.ts');

function modules(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return modules(path);
    return isModule(entry.name) ? [relative(repoRoot, path).split('\\').join('/')] : [];
  });
}

/** Lines as an editor numbers them (a final newline does not start another line). */
const lineCount = (text: string): number => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

/** The modules over the limit, with their length, outside the exempt folders. */
function oversized(files: { path: string; text: string }[]): string[] {
  return files
    .filter(({ path }) => !EXEMPT_DIRS.some((dir) => path.startsWith(dir)))
    .map(({ path, text }) => ({ path, lines: lineCount(text) }))
    .filter(({ lines }) => lines > MAX_LINES)
    .map(({ path, lines }) => `${path}: ${lines} lines`);
}

const serverModules = () =>
  modules(join(repoRoot, 'server')).map((path) => ({
    path,
    text: readFileSync(join(repoRoot, path), 'utf8'),
  }));

describe(`no server module is over ${MAX_LINES} lines`, () => {
  const long = (lines: number) => 'x\n'.repeat(lines);

  it('flags a long module anywhere in server/, and only past the limit', () => {
    const files = [
      { path: 'server/domain/checkouts/big.ts', text: long(MAX_LINES + 1) },
      { path: 'server/at-limit.ts', text: long(MAX_LINES) },
      { path: 'server/no-final-newline.ts', text: long(MAX_LINES).slice(0, -1) },
    ];
    expect(oversized(files)).toEqual([`server/domain/checkouts/big.ts: ${MAX_LINES + 1} lines`]);
  });

  it('leaves out migrations and the contract', () => {
    const files = [
      { path: 'server/db/migrations/001-init.ts', text: long(2000) },
      { path: 'server/contract/checkouts.ts', text: long(2000) },
      { path: 'server/db/other.ts', text: long(2000) },
    ];
    expect(oversized(files)).toEqual(['server/db/other.ts: 2000 lines']);
  });

  it('holds for every module in server/', () => {
    expect(oversized(serverModules())).toEqual([]);
  });
});
