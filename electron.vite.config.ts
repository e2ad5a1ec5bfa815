import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import { pageAssets } from './scripts/page-assets.js';
import { precompress } from './scripts/precompress.js';

const root = import.meta.dirname;

/** React and its DOM renderer change far less often than the app: their own long-cached chunk. */
const VENDOR = /[\\/]node_modules[\\/](?:react|react-dom|scheduler)[\\/]/;

/**
 * Three builds, one per Electron process:
 * - main: the shell (main/index.ts). The server (server/**) is bundled into it; npm dependencies
 *   (better-sqlite3, fastify, ...) stay external, so the native module loads from node_modules.
 *   A second entry, the address worker's script, lands beside it.
 * - preload: a sandboxed preload must be CommonJS, whatever package.json's "type" says.
 * - renderer: the React dashboard. Fastify serves out/renderer at `/`, so the base stays relative
 *   and the same files work in the Electron window and in any browser. Minified, React in a vendor
 *   chunk of its own, and every text file precompressed (.br, .gz) for the server to send as is.
 */
export default defineConfig({
  main: {
    // The hosted pages import their client (server/http/pages/client/) as text.
    plugins: [pageAssets()],
    build: {
      outDir: resolve(root, 'out/main'),
      lib: {
        entry: {
          index: resolve(root, 'main/index.ts'),
          // The address worker (server/addresses/prefetcher.ts) finds its script beside the module
          // that starts it: out/main/address-worker.js.
          'address-worker': resolve(root, 'server/addresses/address-worker.ts'),
        },
        formats: ['es'],
      },
      sourcemap: true,
    },
  },
  preload: {
    build: {
      outDir: resolve(root, 'out/preload'),
      lib: { entry: resolve(root, 'main/preload.ts'), formats: ['cjs'] },
    },
  },
  renderer: {
    root: resolve(root, 'renderer'),
    base: './',
    plugins: [react(), precompress()],
    build: {
      outDir: resolve(root, 'out/renderer'),
      minify: true,
      cssMinify: true,
      rolldownOptions: {
        input: resolve(root, 'renderer/index.html'),
        output: {
          codeSplitting: {
            groups: [
              { name: 'react-vendor', test: VENDOR },
              // Shared pieces the pages use: one chunk, not one request per tiny module.
              // (api/card-secrets.ts stays out: the cards store loads it on the first reveal.)
              { name: 'shared', test: /renderer[\\/](components|store|api(?![\\/]card-secrets)|lib)[\\/]/ },
            ],
          },
        },
      },
    },
  },
});
