import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { LIBRARY } from '../../../server/scenarios/library.js';
import { CLI, ensureBuilt, ROOT, runCli } from '../../helpers/cli.js';
import { testSandbox } from '../../helpers/sandbox.js';

// `svc-sandbox trigger` and the built-in library through the built CLI (dist/), as a user runs them.
const LIBRARY_DIR = join(ROOT, 'dist/server/scenarios/library');

// The library ships beside the built server (build:server copies it): build as the package does.
beforeAll(() => ensureBuilt([CLI, LIBRARY_DIR], ['npm', 'run', 'build:server', '--silent']), 180_000);

const run = (args: string[], timeoutMs = 30_000) => runCli(args, { timeoutMs });

describe('the built-in library through the built CLI', () => {
  it('every built-in scenario runs green with svc-sandbox run', { timeout: 180_000 }, async () => {
    const files = LIBRARY.map((e) => join(LIBRARY_DIR, `${e.name}.yaml`));
    const res = await run(['run', ...files], 170_000);
    expect(res.stderr).toBe('');
    expect(res.code, res.stdout).toBe(0);
    expect(res.stdout).toContain(`${LIBRARY.length} scenarios: ${LIBRARY.length} passed, 0 failed`);
    expect(res.stdout).not.toContain('✗');
    for (const entry of LIBRARY) expect(res.stdout).toContain(`${entry.name} (`);
  });

  it('ships in the npm package', { timeout: 60_000 }, async () => {
    const { stdout } = await promisify(execFile)('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: ROOT,
      maxBuffer: 64 * 1024 * 1024,
    });
    const files = new Set(
      (JSON.parse(stdout) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path),
    );
    for (const entry of LIBRARY)
      expect(files, entry.name).toContain(`dist/server/scenarios/library/${entry.name}.yaml`);
    expect(files).toContain('dist/server/scenarios/library.js');
  });
});

describe('svc-sandbox trigger', () => {
  it('--list names every built-in scenario and its events, no sandbox needed', async () => {
    const res = await run(['trigger', '--list', '--url', 'http://127.0.0.1:9']);
    expect(res.code, res.stderr).toBe(0);
    for (const entry of LIBRARY)
      expect(res.stdout).toMatch(new RegExp(`^${entry.name.replaceAll('.', '\\.')} +\\S`, 'm'));
    expect(res.stdout).toMatch(/^ +events: checkout\.created, checkout\.partial$/m);
    const asJson = await run(['trigger', '--list', '--json']);
    const lines = asJson.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { name: string });
    expect(lines.map((l) => l.name)).toEqual(LIBRARY.map((e) => e.name));
  });

  it('runs a scenario against the running sandbox and prints each step', { timeout: 30_000 }, async () => {
    const sandbox = await testSandbox();
    const urls = await sandbox.listen();
    const res = await run(['trigger', 'checkout.partial', '--url', urls.test]);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(new RegExp(`^checkout\\.partial → ${urls.test.replaceAll('.', '\\.')}$`, 'm'));
    expect(res.stdout).toMatch(/^ {2}✓ 1 /m);
    expect(res.stdout).toMatch(/passed: (\d+) of \1 steps held/);
    const events = sandbox.db.prepare('SELECT type FROM events ORDER BY rowid').all();
    expect(events).toEqual([{ type: 'checkout.created' }, { type: 'checkout.partial' }]);
  });

  it('run twice, it reuses its merchant and prints what it changed', { timeout: 30_000 }, async () => {
    const sandbox = await testSandbox();
    const urls = await sandbox.listen();
    const first = await run(['trigger', 'checkout.partial', '--url', urls.test]);
    expect(first.code, first.stdout).toBe(0);
    const [merchant] = sandbox.db.prepare('SELECT id FROM merchants').all() as { id: string }[];
    expect(first.stdout).toContain(`  merchants: made Demo Coffee Roasters (${merchant!.id})\n`);
    expect(first.stdout).toMatch(/^ {2}clock: moved 2h \(\S+Z → \S+Z\)$/m);
    expect(first.stdout).toContain('  events fired: checkout.created ×1, checkout.partial ×1\n');
    const second = await run(['trigger', 'checkout.partial', '--url', urls.test]);
    expect(second.code, second.stdout).toBe(0);
    expect(second.stdout).toContain(`  merchants: reused Demo Coffee Roasters (${merchant!.id})\n`);
    expect(second.stdout).toContain('  events fired: checkout.created ×1, checkout.partial ×1\n');
    expect(sandbox.db.prepare('SELECT COUNT(*) AS n FROM merchants').get()).toEqual({ n: 1 });
  });

  it('a step that fails in this sandbox is exit 1 naming the step', { timeout: 30_000 }, async () => {
    const sandbox = await testSandbox();
    const urls = await sandbox.listen();
    // Manual application review: the card application stays pending, so no card can be issued.
    await sandbox.apps.test.inject({
      method: 'PATCH',
      url: '/sandbox/settings',
      payload: { application_review: 'manual' },
    });
    const res = await run(['trigger', 'card.created', '--url', urls.test]);
    expect(res.code).toBe(1);
    expect(res.stdout).toMatch(/^ {2}✗ \d+ POST \/v1\/cardholders\/\$\{jane\.id\}\/cards.* \(line \d+\)$/m);
    expect(res.stdout).toMatch(/FAILED: \d+ of \d+ steps held, 1 failed/);
  });

  it.each([
    ['an unknown name', ['trigger', 'checkout.nope'], 2, /no built-in scenario named checkout\.nope/],
    ['no name', ['trigger'], 2, /missing the scenario name/],
    ['a bad env', ['trigger', 'checkout.paid', '--env', 'staging'], 2, /--env must be test or production/],
    [
      'no sandbox',
      ['trigger', 'checkout.paid', '--url', 'http://127.0.0.1:9'],
      1,
      /no sandbox answering at http:\/\/127\.0\.0\.1:9/,
    ],
  ])('%s: exit %s', async (_what, args, code, message) => {
    const res = await run(args as string[]);
    expect(res.code).toBe(code);
    expect(res.stderr).toMatch(message);
  });
});
