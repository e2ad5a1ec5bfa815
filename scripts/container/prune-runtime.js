#!/usr/bin/env node
// `node scripts/container/prune-runtime.js` (the Dockerfile's build stage, after `npm prune
// --omit=dev`): removes from node_modules every package the built server cannot load. The server
// runs from bundles (scripts/bundle-server.js), so most production dependencies are inside them;
// what stays outside is loaded by name at run time (better-sqlite3, what server/lazy-require.ts
// loads, JSON read through createRequire). Those names are found in the bundles themselves: every
// `require("x")`, `import … from "x"`, `import("x")`, `lazy("x")` and `createRequire(…)("x")` of an
// installed package, then everything those packages depend on. Why: the image must stay under
// 200 MB with Node 24's larger binary. Prints what it kept and removed; fails when better-sqlite3 is
// not among them (the scan no longer sees the bundles' loads).
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

const app = process.argv[2] ?? process.cwd();
const modules = join(app, 'node_modules');
const dist = join(app, 'dist/server');

const bundles = [
  join(dist, 'cli.js'),
  join(dist, 'sandbox.bundle.cjs'),
  // A worker thread's script, started by URL (server/addresses/prefetcher.ts); bundled too.
  join(dist, 'addresses', 'address-worker.js'),
  ...readdirSync(join(dist, 'chunks')).map((f) => join(dist, 'chunks', f)),
].filter((f) => f.endsWith('.js') || f.endsWith('.cjs'));

/** Installed top-level package names: `x` and `@scope/x`. */
function installed() {
  const names = [];
  for (const entry of readdirSync(modules)) {
    if (entry.startsWith('.')) continue;
    if (entry.startsWith('@')) {
      for (const sub of readdirSync(join(modules, entry))) names.push(`${entry}/${sub}`);
    } else names.push(entry);
  }
  return names;
}

const all = new Set(installed());
const roots = new Set();
const load =
  /(?:\b(?:require|lazy|import)\s*\(|\)\s*\(|\bfrom\s*)\s*["'`]((?:@[a-z0-9._-]+\/)?[a-z0-9._-]+)(?:\/[^"'`\s]*)?["'`]/gi;
for (const file of bundles) {
  for (const match of readFileSync(file, 'utf8').matchAll(load)) {
    if (all.has(match[1])) roots.add(match[1]);
  }
}

/** Node's resolution of a dependency from a package folder: nested node_modules first, upwards. */
function resolveFrom(dir, name) {
  let at = dir;
  while (at.startsWith(modules)) {
    const candidate = join(at, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    at = dirname(at);
  }
  const top = join(modules, name);
  return existsSync(join(top, 'package.json')) ? top : undefined;
}

// Loaded by name in the sources but taken from the bundle instead (scripts/bundle-server.js:
// bundledTypeboxCompile); node-addon-api is better-sqlite3's build-time headers.
const NOT_AT_RUN_TIME = new Set(['typebox', 'node-addon-api']);
for (const name of NOT_AT_RUN_TIME) roots.delete(name);

if (!roots.has('better-sqlite3')) {
  console.error('prune-runtime: better-sqlite3 is not among the loads found in the bundles; nothing removed');
  process.exit(1);
}

const kept = new Set();
const queue = [...roots].map((name) => join(modules, name));
while (queue.length > 0) {
  const dir = queue.pop();
  if (kept.has(dir)) continue;
  kept.add(dir);
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const deps = { ...pkg.dependencies, ...pkg.optionalDependencies, ...pkg.peerDependencies };
  for (const name of Object.keys(deps)) {
    if (NOT_AT_RUN_TIME.has(name)) continue;
    const found = resolveFrom(dir, name);
    if (found) queue.push(found);
  }
}

let removedBytes = 0;
const size = (path) => {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(path).reduce((sum, entry) => sum + size(join(path, entry)), 0);
};
const removed = [];
for (const name of all) {
  const dir = join(modules, name);
  if (kept.has(dir)) continue;
  removedBytes += size(dir);
  rmSync(dir, { recursive: true, force: true });
  removed.push(name);
}
for (const entry of readdirSync(modules)) {
  if (entry.startsWith('@') && readdirSync(join(modules, entry)).length === 0)
    rmSync(join(modules, entry), { recursive: true });
}
console.log(
  `prune-runtime: kept ${[...roots].sort().join(', ')} and their dependencies (${kept.size} packages)`,
);
console.log(`prune-runtime: removed ${removed.length} packages, ${(removedBytes / 1e6).toFixed(1)} MB`);
