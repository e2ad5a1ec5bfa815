// The dashboard bundle: every .js and .css file under out/renderer, raw, gzip (level 9) and
// brotli (quality 11), computed with node:zlib. Targets: <= 350 KB minified, <= 110 KB compressed
// (gzip, what every browser accepts; brotli shown beside it).
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
    const sizes = files(OUT).map((path) => {
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
    const sum = (key) => sizes.reduce((a, s) => a + s[key], 0);
    const raw = sum('raw');
    const gzip = sum('gzip');
    const brotli = sum('brotli');
    const kb = (n) => `${fmt(n / KB, 1)} KB`;
    return {
      figures: [
        figure({
          name: `dashboard JS+CSS raw (${sizes.length} files)`,
          measured: kb(raw),
          baseline: `target ${kb(TARGETS.raw)}`,
          ratio: raw / TARGETS.raw,
          target: '<= 1.00',
          pass: raw <= TARGETS.raw,
          data: { files: sizes },
        }),
        figure({
          name: 'dashboard JS+CSS compressed',
          measured: `gzip ${kb(gzip)}, brotli ${kb(brotli)}`,
          baseline: `target ${kb(TARGETS.compressed)}`,
          ratio: gzip / TARGETS.compressed,
          target: '<= 1.00 (gzip)',
          pass: gzip <= TARGETS.compressed,
          data: { gzip, brotli },
        }),
      ],
    };
  },
};
