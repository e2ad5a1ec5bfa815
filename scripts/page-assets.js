// The hosted pages' client (server/http/pages/client/): real TypeScript and CSS files that the
// server imports as text, so each page stays one self-contained response (the app works offline,
// and a customer's browser fetches nothing else):
//   import script from './client/hosted.ts?page-script'  → the module bundled into one minified
//                                                           ES2020 script (rolldown)
//   import style from './client/hosted.css?page-style'    → the file minified (lightningcss)
// Every build that compiles the server uses this plugin: vitest (tests run the sources),
// scripts/bundle-server.js (dist/server, the npm package) and electron-vite's main build (the
// desktop app). Types: server/http/pages/page-assets.d.ts. Rolldown and lightningcss are Vite's own
// dependencies (Vite bundles and minifies with them), like the rolldown bundle-server.js uses.
import { readFile } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transform } from 'lightningcss';
import { rolldown } from 'rolldown';

const QUERY = /^(.+)\?page-(script|style)$/;
// A virtual id that does not end in .ts or .css (`\0<file>|script`), so no other plugin's
// TypeScript or CSS handling claims it (Vite's CSS plugin looks at the end of ids, even virtual ones).
// The file is named relative to the project (the id shows in bundles' comments).
const PREFIX = '\0svc-page-asset:';
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** What the pages' script may use: what the browsers of 2020 onwards run. */
const TARGET = 'es2020';

/** A client module and what it imports, as one classic script (an IIFE: no module loader). */
export async function pageScript(file) {
  const bundle = await rolldown({
    input: file,
    platform: 'browser',
    transform: { target: TARGET },
    onLog(level, log, handler) {
      // Anything odd in the page's script fails the build, not a customer's browser.
      handler(level === 'warn' ? 'error' : level, log);
    },
  });
  try {
    const { output } = await bundle.generate({ format: 'iife', minify: true });
    return { code: output[0].code, files: Object.keys(output[0].modules) };
  } finally {
    await bundle.close();
  }
}

/** A stylesheet, checked and minified (no browser targets: the rules stay as written). */
export async function pageStyle(file) {
  const { code } = transform({
    filename: file,
    code: await readFile(file),
    minify: true,
    errorRecovery: false,
  });
  return code.toString('utf8');
}

/** The plugin (Rollup/Rolldown/Vite): resolves `?page-script` and `?page-style` imports to text. */
export function pageAssets() {
  return {
    name: 'svc-sandbox-page-assets',
    enforce: 'pre',
    resolveId(source, importer) {
      const match = QUERY.exec(source);
      if (!match || !importer) return null;
      const file = resolve(dirname(importer.split('?')[0]), match[1]);
      return `${PREFIX}${relative(ROOT, file).replace(/\\/g, '/')}|${match[2]}`;
    },
    async load(id) {
      if (!id.startsWith(PREFIX)) return null;
      const [name, kind] = id.slice(PREFIX.length).split('|');
      const file = resolve(ROOT, name);
      if (kind === 'style') {
        this.addWatchFile?.(file);
        // moduleType: the id names a .css file, and the text is a JS module all the same.
        return { code: `export default ${JSON.stringify(await pageStyle(file))};`, moduleType: 'js' };
      }
      const { code, files } = await pageScript(file);
      for (const watched of files) if (!watched.startsWith('\0')) this.addWatchFile?.(watched);
      return { code: `export default ${JSON.stringify(code)};`, moduleType: 'js' };
    },
  };
}
