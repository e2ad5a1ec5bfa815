#!/usr/bin/env node
// `node scripts/bundle-size.js [dir]` (after `npm run build`): the dashboard's JS and CSS as a browser
// loads them (raw, gzip -9, brotli q11, i.e. what the prebuilt .gz/.br files weigh), for the table in
// bench/README.md ("The dashboard bundle"). kB = 1000 bytes, as Vite prints them.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dir = process.argv[2] ?? join(root, 'out/renderer/assets');
const totals = { js: [0, 0, 0], css: [0, 0, 0], 'first load (index.html references)': [0, 0, 0] };
// Pages are chunks loaded when first opened; what index.html references is what the first paint needs.
const html = readFileSync(join(dir, '..', 'index.html'), 'utf8');
const firstLoad = new Set([...html.matchAll(/(?:src|href)="\.\/assets\/([^"]+)"/g)].map((m) => m[1]));
for (const name of readdirSync(dir)) {
  const kind = name.endsWith('.js') ? 'js' : name.endsWith('.css') ? 'css' : null;
  if (!kind) continue;
  const raw = readFileSync(join(dir, name));
  const sizes = [
    raw.length,
    gzipSync(raw, { level: constants.Z_BEST_COMPRESSION }).length,
    brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY } })
      .length,
  ];
  sizes.forEach((size, i) => {
    totals[kind][i] += size;
    if (firstLoad.has(name)) totals['first load (index.html references)'][i] += size;
  });
  console.log(`${name}: ${sizes.map(kB).join(' / ')}`);
}
for (const [kind, sizes] of Object.entries(totals))
  console.log(`${kind} total (raw / gzip / brotli): ${sizes.map(kB).join(' / ')}`);

function kB(bytes) {
  return `${(bytes / 1000).toFixed(1)} kB`;
}
