#!/usr/bin/env node
// `node scripts/bundle-server.js` (the last step of `npm run build:server`, after tsc): replaces
// dist/server/cli.js, the entry every user and test runs, with a bundle. Why: the time to the ready
// line was mostly Node resolving, reading and compiling ~1,500 module files (TypeBox alone is ~700).
// The outputs:
// - dist/server/cli.js (+ dist/server/chunks/): the CLI as one ES module, each client command a
//   chunk loaded when run (as before: --help and the client commands never load the server);
// - dist/server/sandbox.bundle.cjs (+ .cache): what `serve` runs, server/sandbox.ts and everything
//   it imports as one script, with a V8 code cache made here (see sandboxLoader below);
// - dist/server/testing.js (+ dist/server/testing/*.d.ts): `svc-sandbox/testing`, one ES module
//   whose in-process sandbox is that script too;
// - dist/server/addresses/address-worker.js: the address worker thread's script, self-contained;
// - dist/server/db/schema-template.db: the empty database with today's schema a start reads.
// The rest of tsc's dist/server stays as it was (the scenario library is read from there).
//
// What stays outside the bundles, loaded from node_modules as before:
// - better-sqlite3: a native addon that finds its .node file relative to its own package;
// - what server/lazy-require.ts loads on first use (undici, qrcode, node-forge), and
//   i18n-iso-countries' JSON: they are require()d at run time by name, so the bundler never sees them.
// Bundled CommonJS packages that read `__dirname` only do so on paths the sandbox never takes
// (pino's transports; @fastify/swagger's fallback title, which our info replaces).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'rolldown';
import ts from 'typescript';
import { pageAssets } from './page-assets.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const serverDir = join(root, 'server');
const outDir = join(root, 'dist/server');
// The CLI's source entry (server/cli/index.ts); the bundle keeps the public name dist/server/cli.js.
const entry = join(serverDir, 'cli', 'index.ts');
const lazyRequire = join(serverDir, 'runtime', 'lazy-require.ts');
const sandboxModule = join(serverDir, 'sandbox.ts');
const testingDir = join(serverDir, 'testing');
const testingEntry = join(testingDir, 'index.ts');
const addressWorker = join(serverDir, 'addresses', 'address-worker.ts');
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
    if (!code.includes('loaded ??= require(specifier) as T;')) {
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

/**
 * `serve` (and `run`) load the server through this module, in place of server/sandbox.ts: a CommonJS
 * bundle of server/sandbox.ts run as a vm.Script with the V8 code cache the build made, so the
 * process skips compiling most of the code it runs at start-up (about a quarter of the CPU to
 * the ready line). A cache from another Node or V8 is rejected by V8 and the code compiles as
 * usual: same code, only slower. Nothing is written at run time.
 */
const SCRIPT = 'sandbox.bundle.cjs';
/** The CommonJS wrapper around the script (its first line is the head's own: lineOffset -1). */
const WRAP = ['(function (exports, require, module, __filename, __dirname) {\n', '\n})'];
const LOADER = '\0svc-sandbox:sandbox-loader';
const loaderSource = `
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

const file = fileURLToPath(new URL('${HERE}${SCRIPT}', import.meta.url));
let cachedData;
try {
  cachedData = readFileSync(\`\${file}.cache\`);
} catch {
  // no cache: compiled as usual
}
const script = new Script(${JSON.stringify(WRAP[0])} + readFileSync(file, 'utf8') + ${JSON.stringify(WRAP[1])}, {
  filename: file,
  lineOffset: -1,
  cachedData,
});
const module = { exports: {} };
script.runInThisContext().call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
export const createSandbox = module.exports.createSandbox;
`;

const sandboxLoader = {
  name: 'svc-sandbox-sandbox-loader',
  // Every import of server/sandbox.ts: `serve`, and `run`'s fresh sandbox per scenario file
  // (server/cli/fresh.ts).
  resolveId(source, importer) {
    if (!importer?.startsWith(serverDir) || !source.startsWith('.')) return null;
    return join(dirname(importer), source).replace(/\.js$/, '.ts') === sandboxModule ? LOADER : null;
  },
  load(id) {
    return id === LOADER ? loaderSource : null;
  },
};

/**
 * The declarations of svc-sandbox/testing (dist/server/testing/*.d.ts), file by file: its public
 * types are written out in server/testing/types.ts, so no file needs the rest of the server's
 * types (whose inferred TypeBox and better-sqlite3 types tsc cannot always name in a .d.ts).
 */
function writeTestingDeclarations() {
  const into = join(outDir, 'testing');
  mkdirSync(into, { recursive: true });
  for (const name of readdirSync(testingDir).filter((f) => f.endsWith('.ts'))) {
    const file = join(testingDir, name);
    const { outputText, diagnostics } = ts.transpileDeclaration(readFileSync(file, 'utf8'), {
      fileName: file,
      compilerOptions: { module: ts.ModuleKind.NodeNext, target: ts.ScriptTarget.ES2023, strict: true },
    });
    if (diagnostics?.length) {
      const text = diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')).join('\n');
      throw new Error(`scripts/bundle-server.js: declarations of server/testing/${name}:\n${text}`);
    }
    writeFileSync(join(into, name.replace(/\.ts$/, '.d.ts')), outputText);
  }
}

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const started = performance.now();
// tsc's output for the CLI is replaced; old chunks would only pile up.
rmSync(join(outDir, chunksDir), { recursive: true, force: true });
rmSync(join(outDir, 'cli.js.map'), { force: true });
rmSync(join(outDir, `${SCRIPT}.cache`), { force: true });
const common = {
  platform: 'node',
  cwd: root,
  external: [/^better-sqlite3(\/|$)/],
  // Dead-code elimination is on by default; a failed import must fail the build, not run time.
  onLog(level, log, handler) {
    if (level === 'warn' && log.code === 'MISSING_EXPORT') handler('error', log);
    else handler(level, log);
  },
};
// Less to read and compile at start-up. Names are kept: Fastify and avvio show plugin and function
// names in errors, and stack traces stay readable.
const minify = { compress: false, mangle: { keepNames: true }, codegen: { removeWhitespace: true } };
const result = await build({
  ...common,
  input: { cli: entry },
  plugins: [pageAssets(), moduleUrls, bundledTypeboxCompile, sandboxLoader],
  output: {
    dir: outDir,
    format: 'esm',
    entryFileNames: '[name].js',
    chunkFileNames: `${chunksDir}/[name]-[hash].js`,
    sourcemap: true,
    minify,
    keepNames: true,
  },
});
const script = await build({
  ...common,
  input: { sandbox: sandboxModule },
  plugins: [pageAssets(), moduleUrls, bundledTypeboxCompile],
  output: {
    dir: outDir,
    format: 'cjs',
    entryFileNames: SCRIPT,
    // One script: a vm.Script has no loader for import() (checked below).
    codeSplitting: false,
    // The sources are ES modules: strict, as they are everywhere else.
    strict: true,
    sourcemap: true,
    minify,
    keepNames: true,
  },
});
// svc-sandbox/testing (package.json `exports`): one ES module; its in-process sandbox loads through
// the same code-cached script as `serve`.
const testing = await build({
  ...common,
  input: { testing: testingEntry },
  plugins: [pageAssets(), moduleUrls, bundledTypeboxCompile, sandboxLoader],
  output: {
    dir: outDir,
    format: 'esm',
    entryFileNames: '[name].js',
    codeSplitting: false,
    sourcemap: true,
    minify,
    keepNames: true,
  },
});
// The address worker (server/addresses/prefetcher.ts starts `./address-worker.js` beside it): one
// self-contained module in place of tsc's output, so it loads nothing from node_modules (the
// container image keeps only what the bundles load by name: scripts/container/prune-runtime.js).
const worker = await build({
  ...common,
  input: { 'addresses/address-worker': addressWorker },
  output: {
    dir: outDir,
    format: 'esm',
    entryFileNames: '[name].js',
    codeSplitting: false,
    minify,
    keepNames: true,
  },
});
if (worker.output.some((o) => o.type === 'chunk' && /\bfrom\s*["'`](?!node:)/.test(o.code))) {
  throw new Error('scripts/bundle-server.js: the address worker must import nothing but node: modules');
}
rmSync(join(outDir, 'addresses/address-worker.js.map'), { force: true });
writeTestingDeclarations();
const scriptCode = script.output[0].code;
if (/\bimport\s*\(\s*["'`]/.test(scriptCode) || scriptCode.includes('import.meta')) {
  throw new Error(
    `scripts/bundle-server.js: ${SCRIPT} uses import() or import.meta, which a vm.Script cannot`,
  );
}

// The schema template (server/db/template.ts): an empty database with today's schema, made once
// here by tsc's output of the migrations, so a start reads it instead of running them (~34 ms).
// Before the code cache: the start it records is a start that finds the template.
{
  const { openDatabase } = await import(pathToFileURL(join(outDir, 'db', 'connection.js')).href);
  const { SCHEMA_TEMPLATE_FILE } = await import(pathToFileURL(join(outDir, 'db', 'template.js')).href);
  const db = openDatabase(':memory:');
  writeFileSync(join(outDir, 'db', SCHEMA_TEMPLATE_FILE), db.serialize());
  db.close();
}

// The code cache: the script compiled as the loader compiles it, then a sandbox started (new
// database file, both listeners) and closed, so the cache holds what start-up compiles. In a child
// process with no Node flags: V8 rejects a cache made under other flags.
const scratch = mkdtempSync(join(tmpdir(), 'svc-sandbox-bundle-'));
try {
  const file = join(outDir, SCRIPT);
  execFileSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Script } from 'node:vm';
const file = ${JSON.stringify(file)};
const script = new Script(${JSON.stringify(WRAP[0])} + readFileSync(file, 'utf8') + ${JSON.stringify(WRAP[1])}, { filename: file, lineOffset: -1 });
const module = { exports: {} };
script.runInThisContext().call(module.exports, module.exports, createRequire(file), module, file, ${JSON.stringify(outDir)});
const sandbox = await module.exports.createSandbox({ dbPath: ${JSON.stringify(join(scratch, 'cache.db'))}, ports: { test: 0, production: 0 } });
await sandbox.listen();
await sandbox.close();
writeFileSync(file + '.cache', script.createCachedData());`,
    ],
    { cwd: root, stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, NODE_OPTIONS: '' } },
  );
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

const files = [...result.output, ...script.output, ...testing.output, ...worker.output].filter(
  (o) => o.type === 'chunk',
);
const bytes = files.reduce((sum, f) => sum + f.code.length, 0);
const cacheBytes = statSync(join(outDir, `${SCRIPT}.cache`)).size;
process.stdout.write(
  `bundle-server: dist/server/cli.js + ${files.length - 1} files, ${(bytes / 1e6).toFixed(2)} MB, code cache ${(cacheBytes / 1e6).toFixed(2)} MB (${pkg.name} ${pkg.version}), ${Math.round(performance.now() - started)} ms\n`,
);
