import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

const root = import.meta.dirname;

/**
 * Three builds, one per Electron process:
 * - main: the shell (main/index.ts). The server (server/**) is bundled into it; npm dependencies
 *   (better-sqlite3, fastify, ...) stay external, so the native module loads from node_modules.
 * - preload: a sandboxed preload must be CommonJS, whatever package.json's "type" says.
 * - renderer: the React dashboard. Fastify serves out/renderer at `/`, so the base stays relative
 *   and the same files work in the Electron window and in any browser.
 */
export default defineConfig({
  main: {
    build: {
      outDir: resolve(root, 'out/main'),
      lib: { entry: resolve(root, 'main/index.ts'), formats: ['es'] },
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
    plugins: [react()],
    build: {
      outDir: resolve(root, 'out/renderer'),
      rolldownOptions: { input: resolve(root, 'renderer/index.html') },
    },
  },
});
