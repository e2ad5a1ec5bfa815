import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildIsStale } from '../../scripts/serve.js';

// `npm run serve` (scripts/serve.js) rebuilds the server only when a source is newer than the build.

/** A checkout in miniature: a source file and the two outputs, each with a modification time. */
function checkout(times: { source: number; cli?: number; bundle?: number }): string {
  const dir = mkdtempSync(join(tmpdir(), 'serve-script-'));
  const write = (path: string, at: number | undefined) => {
    if (at === undefined) return;
    const file = join(dir, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, '');
    utimesSync(file, at, at);
  };
  write('server/http/app.ts', times.source);
  utimesSync(join(dir, 'server/http'), times.source, times.source);
  utimesSync(join(dir, 'server'), times.source, times.source);
  write('dist/server/cli.js', times.cli);
  write('dist/server/sandbox.bundle.cjs', times.bundle);
  return dir;
}

describe('npm run serve', () => {
  it('builds when there is no build', () => {
    expect(buildIsStale(checkout({ source: 1000 }))).toBe(true);
    expect(buildIsStale(checkout({ source: 1000, cli: 2000 }))).toBe(true);
  });

  it('builds when a source is newer than an output, and not when every output is newer', () => {
    expect(buildIsStale(checkout({ source: 3000, cli: 2000, bundle: 2000 }))).toBe(true);
    expect(buildIsStale(checkout({ source: 2500, cli: 3000, bundle: 2000 }))).toBe(true);
    expect(buildIsStale(checkout({ source: 1000, cli: 2000, bundle: 2000 }))).toBe(false);
  });
});
