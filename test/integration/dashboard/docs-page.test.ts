import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { testSandbox } from '../../helpers/sandbox.js';

/** What a page or stylesheet loads from elsewhere at load: CDN hosts, remote url()s, @imports. */
const CDN = /unpkg\.com|jsdelivr|cdnjs|googleapis|gstatic|fonts\.scalar/;
const REMOTE_CSS = /url\(\s*['"]?(?:https?:)?\/\/|@import/;

function assetUrls(html: string, base: string): string[] {
  return [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => new URL(m[1]!, base).pathname);
}

describe('GET /docs', () => {
  it('loads the renderer on first use only, then serves it and every asset from the sandbox', async () => {
    const cache = createRequire(import.meta.url).cache;
    const loaded = () => Object.keys(cache).some((file) => file.includes('swagger-ui'));
    const sandbox = await testSandbox();
    const app = sandbox.apps.test;
    expect(loaded()).toBe(false);

    const page = await app.inject({ method: 'GET', url: '/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('svc-sandbox API reference');
    expect(loaded()).toBe(true);
    // Every src/href is on this server: nothing from a CDN, no absolute URL at all.
    expect(page.body).not.toMatch(/(?:src|href)="(?:https?:)?\/\//);
    const assets = assetUrls(page.body, 'http://localhost/docs');
    expect(assets).toEqual(
      expect.arrayContaining(['/docs/static/swagger-ui-bundle.js', '/docs/static/swagger-ui.css']),
    );
    for (const path of assets) {
      const asset = await app.inject({ method: 'GET', url: path });
      expect(asset.statusCode, path).toBe(200);
      expect(asset.rawPayload.length, path).toBeGreaterThan(0);
      // (The swagger-ui bundle names sites in help texts and defaults; the browser test shows it
      // requests none of them.)
      if (path.endsWith('.js')) expect(CDN.test(asset.body), path).toBe(false);
      if (path.endsWith('.css')) expect(REMOTE_CSS.test(asset.body), path).toBe(false);
    }
    const init = await app.inject({ method: 'GET', url: '/docs/static/swagger-initializer.js' });
    expect(init.body).toContain("resolveUrl('./json')");
    expect(init.body).toContain('validatorUrl: null');
    expect(init.body).not.toContain('https://validator');
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
  });

  it('renders the document the control API serves, and stays out of it', async () => {
    const sandbox = await testSandbox();
    const app = sandbox.apps.test;
    const served = (await app.inject({ method: 'GET', url: '/sandbox/openapi.json' })).json();
    const rendered = await app.inject({ method: 'GET', url: '/docs/json' });
    expect(rendered.statusCode).toBe(200);
    expect(rendered.json()).toEqual(served);
    const paths = Object.keys((served as { paths: Record<string, unknown> }).paths);
    expect(paths).toContain('/v1/checkouts');
    expect(paths.filter((path) => path.startsWith('/docs'))).toEqual([]);
  });

  it('answers only to a loopback Host, and 404 for what it does not have', async () => {
    const sandbox = await testSandbox();
    const app = sandbox.apps.test;
    const foreign = await app.inject({ method: 'GET', url: '/docs', headers: { host: 'evil.example' } });
    expect(foreign.statusCode).toBe(403);
    const missing = await app.inject({ method: 'GET', url: '/docs/static/nope.js' });
    expect(missing.statusCode).toBe(404);
  });
});
