#!/usr/bin/env node
// `npm run serve -- <flags>`: `svc-sandbox serve` from the checkout. It rebuilds the server only when
// a source is newer than the build (or there is none), so a start with nothing changed is as fast
// as the built CLI's rather than a full build's.
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { requireSupportedNode } from '../bin/supported-node.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** What `npm run build:server` reads: a change to any of them makes the build stale. */
const SOURCES = [
  'server',
  'scripts/bundle-server.js',
  'scripts/page-assets.js',
  'package.json',
  'package-lock.json',
  'tsconfig.base.json',
  'tsconfig.server.json',
];
/** What it writes that `serve` runs. */
const OUTPUTS = ['dist/server/cli.js', 'dist/server/sandbox.bundle.cjs'];

/** The newest modification time under `path` (a file or a directory), 0 when it does not exist. */
function newest(path) {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs; // a deleted file shows as its directory's change
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)));
  return latest;
}

/** Whether the server build under `dir` is missing or older than one of its sources. */
export function buildIsStale(dir = root) {
  let built = Number.POSITIVE_INFINITY;
  for (const output of OUTPUTS) {
    try {
      built = Math.min(built, statSync(join(dir, output)).mtimeMs);
    } catch {
      return true;
    }
  }
  return SOURCES.some((source) => newest(join(dir, source)) > built);
}

const invokedDirectly =
  process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (invokedDirectly) {
  requireSupportedNode();
  if (buildIsStale()) {
    process.stderr.write('svc-sandbox: sources changed since the last build; building the server\n');
    execFileSync('npm', ['run', 'build:server', '--silent'], { cwd: root, stdio: 'inherit' });
  }
  const { main } = await import(pathToFileURL(join(root, 'dist/server/cli.js')).href);
  await main(['serve', ...process.argv.slice(2)]);
}
