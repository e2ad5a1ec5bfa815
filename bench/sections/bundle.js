// The dashboard bundle, raw, gzip (level 9) and brotli (quality 11), computed with node:zlib.
// Pages are split into chunks loaded when first opened, so the targets (<= 350 KB minified,
// <= 110 KB compressed: gzip, what every browser accepts; brotli shown beside it) apply to the first
// load: the JS and CSS index.html references (entry, modulepreloads, stylesheet). Every chunk
// together is reported as information.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { figure, fmt, ROOT } from '../lib.js';

const OUT = join(ROOT, 'out/renderer');
const KB = 1024;
const TARGETS = { raw: 350 * KB, compressed: 110 * KB };

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return /\.(js|css|mjs)$/.test(name) ? [path] : [];
  });
}

export default {
  name: 'bundle',
  async run() {
    if (!existsSync(OUT)) {
      return {
        figures: [
          figure({
            name: 'dashboard bundle',
            measured: 'out/renderer is missing (run npm run build)',
            target: `<= ${TARGETS.raw / KB} KB`,
            pass: false,
          }),
        ],
      };
    }
    const html = readFileSync(join(OUT, 'index.html'), 'utf8');
    const firstLoad = new Set([...html.matchAll(/(?:src|href)="\.\/([^"]+\.(?:js|css))"/g)].map((m) => m[1]));
    const all = files(OUT).map((path) => {
      const data = readFileSync(path);
      return {
        file: relative(OUT, path),
        raw: data.length,
        gzip: gzipSync(data, { level: 9 }).length,
        brotli: brotliCompressSync(data, {
          params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length },
        }).length,
      };
    });
    const sizes = all.filter((s) => firstLoad.has(s.file.split('\\').join('/')));
    const sum = (key, list = sizes) => list.reduce((a, s) => a + s[key], 0);
    const raw = sum('raw');
    const gzip = sum('gzip');
    const brotli = sum('brotli');
    const kb = (n) => `${fmt(n / KB, 1)} KB`;
    return {
      figures: [
        figure({
          name: `dashboard first load raw (${sizes.length} files)`,
          measured: kb(raw),
          baseline: `target ${kb(TARGETS.raw)}`,
          ratio: raw / TARGETS.raw,
          target: '<= 1.00',
          pass: raw <= TARGETS.raw,
          data: { files: sizes },
        }),
        figure({
          name: 'dashboard first load compressed',
          measured: `gzip ${kb(gzip)}, brotli ${kb(brotli)}`,
          baseline: `target ${kb(TARGETS.compressed)}`,
          ratio: gzip / TARGETS.compressed,
          target: '<= 1.00 (gzip)',
          pass: gzip <= TARGETS.compressed,
          data: { gzip, brotli },
        }),
        figure({
          name: `dashboard, every chunk (${all.length} files, information)`,
          measured: `raw ${kb(sum('raw', all))}, gzip ${kb(sum('gzip', all))}, brotli ${kb(sum('brotli', all))}`,
          data: { files: all },
        }),
      ],
    };
  },
};
