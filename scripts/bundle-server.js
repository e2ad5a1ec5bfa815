#!/usr/bin/env node
// `node scripts/bundle-server.js` (the last step of `npm run build:server`, after tsc): replaces
// dist/server/cli.js, the entry every user and test runs, with one bundled ES module (plus chunks
// in dist/server/chunks/ for what it imports on demand). Why: the time to the ready line was mostly
// Node resolving, reading and compiling ~1,500 module files (TypeBox alone is ~700); one file of
// the same code starts in about half the time (bench `ready`). The rest of tsc's dist/server stays
// as it was (the scenario library next to it, and nothing else imports it at run time).
//
// What stays outside the bundle, loaded from node_modules as before:
// - better-sqlite3: a native addon that finds its .node file relative to its own package;
// - what server/lazy-require.ts loads on first use (undici, qrcode, node-forge), and
//   i18n-iso-countries' JSON: they are require()d at run time by name, so the bundler never sees them.
// Bundled CommonJS code that reads `__dirname` (undefined in an ES module) only does so on paths the
// sandbox never takes (pino's transports; @fastify/swagger's fallback title, which our info replaces).
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const serverDir = join(root, 'server');
const outDir = join(root, 'dist/server');
const entry = join(serverDir, 'cli.ts');
const lazyRequire = join(serverDir, 'lazy-require.ts');
const chunksDir = 'chunks';
const HERE = '__SVC_SANDBOX_DIST__';

/**
 * Modules that find files next to themselves (`new URL('./library/x.yaml', import.meta.url)`, the
 * dashboard at `../out/renderer`) keep finding them: in each server module but the entry, whose own
 * URL `main`'s "invoked directly" test compares with argv, `import.meta.url` becomes the URL tsc's
 * output of that module has in dist/server. The chunk's depth under dist/server is only known once
 * chunks are made, hence a placeholder filled in by renderChunk.
 */
const moduleUrls = {
  name: 'svc-sandbox-module-urls',
  transform(code, id) {
    if (!id.startsWith(serverDir) || id === entry || !code.includes('import.meta.url')) return null;
    const built = relative(serverDir, id).replace(/\\/g, '/').replace(/\.ts$/, '.js');
    return {
      code: code.replaceAll(
        'import.meta.url',
        `new URL(${JSON.stringify(HERE + built)}, import.meta.url).href`,
      ),
      map: null,
    };
  },
  renderChunk(code, chunk) {
    if (!code.includes(HERE)) return null;
    const up = chunk.fileName.split('/').length - 1;
    return { code: code.replaceAll(HERE, up === 0 ? './' : '../'.repeat(up)), map: null };
  },
};

/**
 * server/lazy-require.ts require()s packages by name on first use. TypeBox's compiler is the one
 * such package the server also imports statically: loading it by name would load a second TypeBox
 * (~700 files, on the first validated request) beside the bundled one. In the bundle it is imported
 * from the bundled TypeBox instead; the other names still load from node_modules on first use.
 */
const bundledTypeboxCompile = {
  name: 'svc-sandbox-lazy-require',
  transform(code, id) {
    if (id !== lazyRequire) return null;
    if (!code.includes('export function lazy<T>(specifier: string): () => T {')) {
      throw new Error(
        'scripts/bundle-server.js: server/lazy-require.ts changed; update bundledTypeboxCompile',
      );
    }
    return {
      code: `import * as typeboxCompile from 'typebox/compile';\n${code.replace(
        'loaded ??= require(specifier) as T;',
        "loaded ??= (specifier === 'typebox/compile' ? typeboxCompile : require(specifier)) as T;",
      )}`,
      map: null,
    };
  },
};

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const started = performance.now();
// tsc's cli.js and its map are replaced; old chunks would only pile up.
rmSync(join(outDir, chunksDir), { recursive: true, force: true });
rmSync(join(outDir, 'cli.js.map'), { force: true });
const result = await build({
  input: { cli: entry },
  platform: 'node',
  cwd: root,
  external: [/^better-sqlite3(\/|$)/],
  plugins: [moduleUrls, bundledTypeboxCompile],
  // Dead-code elimination is on by default; a failed import must fail the build, not run time.
  onLog(level, log, handler) {
    if (level === 'warn' && log.code === 'MISSING_EXPORT') handler('error', log);
    else handler(level, log);
  },
  output: {
    dir: outDir,
    format: 'esm',
    entryFileNames: '[name].js',
    chunkFileNames: `${chunksDir}/[name]-[hash].js`,
    sourcemap: true,
    // Less to read and compile at start-up. Names are kept: Fastify and avvio show plugin and
    // function names in errors, and stack traces stay readable.
    minify: { compress: false, mangle: { keepNames: true }, codegen: { removeWhitespace: true } },
    keepNames: true,
  },
});
const files = result.output.filter((o) => o.type === 'chunk');
const bytes = files.reduce((sum, f) => sum + f.code.length, 0);
process.stdout.write(
  `bundle-server: dist/server/cli.js + ${files.length - 1} chunks, ${(bytes / 1e6).toFixed(2)} MB (${pkg.name} ${pkg.version}), ${Math.round(performance.now() - started)} ms\n`,
);
