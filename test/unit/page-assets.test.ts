import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pageScript, pageStyle } from '../../scripts/page-assets.js';

// The hosted pages' client is built into the server as text (scripts/page-assets.js): a script a
// browser runs as is, and CSS that was checked on the way.

const client = resolve(import.meta.dirname, '../../server/http/pages/client');

describe('the hosted pages’ client build', () => {
  it.each(['hosted.ts', 'fiat.ts', 'kyc.ts'])(
    '%s becomes one classic script, with what it imports',
    async (file) => {
      const { code, files } = await pageScript(join(client, file));
      // A classic script: no module syntax left, nothing loaded at run time, valid JavaScript.
      expect(code).toMatch(/^\(function\(\)\{/);
      expect(code).not.toMatch(/(^|[;}\s])(import|export)\s/);
      expect(() => new Function(code)).not.toThrow();
      // The shared modules are in it (dom.ts in each; the amount format where amounts are shown).
      expect(files.some((f) => f.endsWith('client/dom.ts'))).toBe(true);
      if (file === 'hosted.ts') expect(files.some((f) => f.endsWith('pages/format.ts'))).toBe(true);
    },
  );

  it('the stylesheets are minified; a broken one fails the build', async () => {
    const css = await pageStyle(join(client, 'hosted.css'));
    expect(css).toContain('.checkout{');
    expect(css).not.toContain('\n');
    const dir = mkdtempSync(join(tmpdir(), 'page-assets-'));
    writeFileSync(join(dir, 'broken.css'), '.a { color: red; } }} .b { width: calc(1px + ; }');
    await expect(pageStyle(join(dir, 'broken.css'))).rejects.toThrow();
  });
});
