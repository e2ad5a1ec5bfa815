import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** Text files worth compressing; images and fonts are compressed already. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|map)$/;

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

/**
 * Writes `file.br` and `file.gz` beside every compressible file under `dir`, at the highest levels
 * (once, at build time, so their cost does not matter), for @fastify/static's `preCompressed`.
 * A variant that does not save at least 10% is not written: the server then sends the file as is.
 * Returns the files it compressed.
 */
export function precompressDir(dir: string): string[] {
  const done: string[] = [];
  for (const file of walk(dir)) {
    if (!COMPRESSIBLE.test(file)) continue;
    const raw = readFileSync(file);
    const br = brotliCompressSync(raw, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    });
    const gz = gzipSync(raw, { level: constants.Z_BEST_COMPRESSION });
    if (br.length < raw.length * 0.9) writeFileSync(`${file}.br`, br);
    if (gz.length < raw.length * 0.9) writeFileSync(`${file}.gz`, gz);
    done.push(file);
  }
  return done;
}

/** The Vite plugin: precompresses the build's output directory once the bundle is written. */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'svc-sandbox:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      precompressDir(outDir);
    },
  };
}
