import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { precompressDir } from '../../../scripts/precompress.js';
import { tempDir, testSandbox } from '../../helpers/sandbox.js';

// The dashboard's files as the server sends them: prebuilt brotli/gzip chosen by Accept-Encoding
// (the bytes, once decompressed, are the file's), hashed assets cached for a year, index.html
// revalidated. A made-up build, precompressed by the same code the real build runs.

const IMMUTABLE = 'public, max-age=31536000, immutable';

function fakeBuild(): { dir: string; js: string; css: string } {
  const dir = tempDir();
  mkdirSync(join(dir, 'assets'));
  const js = 'assets/index-Ab12Cd34.js';
  const css = 'assets/index-Ef56Gh78.css';
  writeFileSync(
    join(dir, 'index.html'),
    `<!doctype html><html><head><script type="module" src="./${js}"></script><link rel="stylesheet" href="./${css}"></head><body><div id="root"></div></body></html>`,
  );
  writeFileSync(
    join(dir, js),
    Array.from({ length: 400 }, (_, i) => `export const value${i} = () => "dashboard ${i}";`).join('\n'),
  );
  writeFileSync(join(dir, css), '.row{display:flex;gap:8px}\n'.repeat(200));
  writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  precompressDir(dir);
  return { dir, js, css };
}

describe('dashboard assets', () => {
  it('the build step writes .br and .gz beside each text file, and they decompress to it', () => {
    const { dir, js, css } = fakeBuild();
    for (const file of [js, css, 'index.html']) {
      const raw = readFileSync(join(dir, file));
      expect(brotliDecompressSync(readFileSync(join(dir, `${file}.br`)))).toEqual(raw);
      expect(gunzipSync(readFileSync(join(dir, `${file}.gz`)))).toEqual(raw);
    }
    // Too small to gain anything: left alone, sent as is.
    expect(existsSync(join(dir, 'favicon.svg.br'))).toBe(false);
  });

  it.each([
    ['br', 'br', brotliDecompressSync],
    ['gzip', 'gzip', gunzipSync],
    ['gzip, deflate, br', 'br', brotliDecompressSync],
    ['br;q=0, gzip', 'gzip', gunzipSync],
  ] as const)(
    'Accept-Encoding %j → %s, the same bytes once decompressed',
    async (accept, encoding, decode) => {
      const { dir, js, css } = fakeBuild();
      const sandbox = await testSandbox({ dashboardDir: dir });
      for (const [file, type] of [
        [js, /^(?:text|application)\/javascript/],
        [css, /^text\/css/],
      ] as const) {
        const res = await sandbox.apps.test.inject({
          url: `/${file}`,
          headers: { 'accept-encoding': accept },
        });
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-encoding']).toBe(encoding);
        expect(res.headers['content-type']).toMatch(type);
        expect(res.headers.vary).toMatch(/accept-encoding/i);
        expect(res.headers['cache-control']).toBe(IMMUTABLE);
        const raw = readFileSync(join(dir, file));
        expect(res.rawPayload.length).toBeLessThan(raw.length);
        expect(decode(res.rawPayload)).toEqual(raw);
      }
    },
  );

  it('without Accept-Encoding the file itself is sent, with the same cache headers', async () => {
    const { dir, js } = fakeBuild();
    const sandbox = await testSandbox({ dashboardDir: dir });
    const res = await sandbox.apps.test.inject({ url: `/${js}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.rawPayload).toEqual(readFileSync(join(dir, js)));
    expect(res.headers['cache-control']).toBe(IMMUTABLE);
  });

  it('index.html (at / and by name) is compressed too, but revalidated every time: no-cache', async () => {
    const { dir } = fakeBuild();
    const sandbox = await testSandbox({ dashboardDir: dir });
    const raw = readFileSync(join(dir, 'index.html'));
    for (const url of ['/', '/index.html']) {
      const res = await sandbox.apps.test.inject({ url, headers: { 'accept-encoding': 'gzip, br' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(brotliDecompressSync(res.rawPayload)).toEqual(raw);
    }
    const plain = await sandbox.apps.test.inject({
      url: '/favicon.svg',
      headers: { 'accept-encoding': 'br' },
    });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['cache-control']).toBe('no-cache');
  });

  it('an unknown asset is a 404 {error}, whatever the encoding', async () => {
    const { dir } = fakeBuild();
    const sandbox = await testSandbox({ dashboardDir: dir });
    const res = await sandbox.apps.test.inject({
      url: '/assets/missing-00000000.js',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toHaveProperty('error');
  });
});
