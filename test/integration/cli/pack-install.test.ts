import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../../..');
const run = promisify(execFile);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const dir = mkdtempSync(join(tmpdir(), 'svc-sandbox-pack-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * The package as a user gets it: `npm pack`, installed into an empty project, started from its bin
 * with no build step — the server and the built dashboard come inside the tarball.
 */
describe('the installable package', () => {
  it('packs, installs into a temp dir and serves the API and the dashboard', {
    timeout: 300_000,
  }, async () => {
    for (const built of ['dist/server/cli.js', 'out/renderer/index.html'])
      expect(existsSync(join(root, built)), `${built}: run npm run build first`).toBe(true);
    // The build already ran (npm test builds before the tests): pack what it made.
    await run(npm, ['pack', '--ignore-scripts', '--pack-destination', dir], { cwd: root });
    const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'));
    expect(tarball).toBeDefined();

    const app = join(dir, 'app');
    await run('mkdir', ['-p', app]);
    writeFileSync(join(app, 'package.json'), '{"name":"app","private":true}\n');
    // From the registry (and the local cache): better-sqlite3 builds as it would for a user.
    await run(npm, ['install', '--no-audit', '--no-fund', '--prefer-offline', join(dir, tarball!)], {
      cwd: app,
      timeout: 280_000,
    });
    const bin = join(app, 'node_modules', '.bin', 'svc-sandbox');
    expect(existsSync(bin)).toBe(true);
    expect(existsSync(join(app, 'node_modules', 'svc-sandbox', 'src'))).toBe(false);

    const child = spawn(bin, ['serve', '--port', '0', '--prod-port', '0', '--db', ':memory:'], { cwd: app });
    try {
      const ready = await new Promise<string>((done, fail) => {
        let out = '';
        child.stderr.on('data', (chunk: Buffer) => {
          out += chunk.toString();
        });
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const line = /svc-sandbox ready [^\n]*/.exec(out)?.[0];
          if (line) done(line);
        });
        child.on('exit', (code) => fail(new Error(`exited ${code}: ${out}`)));
        setTimeout(() => fail(new Error(`no ready line: ${out}`)), 20_000);
      });
      const dashboard = /dashboard=(\S+)/.exec(ready)![1]!;
      const page = await fetch(dashboard);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain('<div id="root">');
      expect(html).not.toContain('The dashboard is not built');
      const health = (await (await fetch(`${dashboard}sandbox/health`)).json()) as { status: string };
      expect(health.status).toBe('ok');
    } finally {
      child.kill('SIGTERM');
    }

    // svc-sandbox/testing as a user's test imports it: a sandbox in the process and one as a
    // child, a workspace in each whose key and clock work.
    writeFileSync(
      join(app, 'check-testing.mjs'),
      `import { startSandbox } from 'svc-sandbox/testing';
const seen = [];
for (const mode of ['in-process', 'child']) {
  const sandbox = await startSandbox({ mode, setEnv: false });
  const ws = await sandbox.workspace();
  const checkouts = await ws.api('GET', '/v1/checkouts');
  const moved = await ws.clock.advance('1h');
  seen.push({ mode: sandbox.mode, id: ws.id, checkouts: checkouts.length, fired: typeof moved.fired.jobs });
  await sandbox.close();
}
console.log(JSON.stringify(seen));
`,
    );
    const { stdout } = await run(process.execPath, ['check-testing.mjs'], { cwd: app, timeout: 60_000 });
    const seen = JSON.parse(stdout) as { mode: string; id: string; checkouts: number; fired: string }[];
    expect(seen.map((s) => s.mode)).toEqual(['in-process', 'child']);
    for (const s of seen) {
      expect(s.id).toMatch(/^ws_/);
      expect(s.checkouts).toBe(0);
      expect(s.fired).toBe('number');
    }
  });
});
