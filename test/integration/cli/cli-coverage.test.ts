import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Coverage } from '../../../server/contract/coverage.js';
import { ensureBuilt, ROOT, runCli } from '../../helpers/cli.js';
import { startGradedReceiver } from '../../helpers/graded-receivers.js';
import { tempDir, testSandbox } from '../../helpers/sandbox.js';
import { parseXml } from '../../helpers/xml.js';

// check-receiver, coverage and run --coverage through the built CLI, a real child process.
const EXIT_TIMEOUT_MS = 60_000;
const SECRET = 'whsec_0123456789abcdefABCDEF';

beforeAll(
  () =>
    ensureBuilt([join(ROOT, 'dist/server/cli/check-receiver.js'), join(ROOT, 'dist/server/cli/coverage.js')]),
  180_000,
);

const cli = (args: string[], cwd = tempDir()) => runCli(args, { cwd, timeoutMs: EXIT_TIMEOUT_MS });

describe('svc-sandbox check-receiver', () => {
  it('exits 0 for a correct receiver, 1 for one that never checks signatures, and writes JUnit', async () => {
    const sandbox = await testSandbox();
    const urls = await sandbox.listen();
    const good = await startGradedReceiver('correct', SECRET);
    const dir = tempDir();
    const passed = await cli(
      [
        'check-receiver',
        '--url',
        good.url,
        '--secret',
        SECRET,
        '--sandbox',
        urls.test,
        '--junit',
        'good.xml',
      ],
      dir,
    );
    expect(passed.code, passed.stderr).toBe(0);
    expect(passed.stdout).toMatch(/ok +raw body bytes/);
    expect(passed.stdout).toMatch(/\d+ passed, 0 failed/);
    const suite = parseXml(readFileSync(join(dir, 'good.xml'), 'utf8'));
    expect(suite.attributes.failures).toBe('0');

    const bad = await startGradedReceiver('trusting', SECRET);
    const failed = await cli(
      ['check-receiver', '--url', bad.url, '--secret', SECRET, '--sandbox', urls.test, '--junit', 'bad.xml'],
      dir,
    );
    expect(failed.code, failed.stderr).toBe(1);
    expect(failed.stdout).toContain('FAIL  wrong signature');
    expect(failed.stdout).toContain('expected: a non-2xx answer');
    const xml = readFileSync(join(dir, 'bad.xml'), 'utf8');
    expect(parseXml(xml).attributes.failures).toBe('2');
    expect(xml).toContain('<failure message="expected a non-2xx answer');

    // Nothing listening: one line says so, and how to fix it; no pile of refused connections.
    const deadUrl = 'http://127.0.0.1:9/webhooks';
    const dead = await cli(['check-receiver', '--url', deadUrl, '--secret', SECRET, '--sandbox', urls.test]);
    expect(dead.code, dead.stderr).toBe(1);
    expect(dead.stdout.match(/FAIL/g)).toHaveLength(1);
    expect(dead.stdout).toMatch(/FAIL {2}reachable .*\n.*\n.*\n +got: +ECONNREFUSED/);
    expect(dead.stdout).toContain(`hint: nothing answers at ${deadUrl}: is your receiver running`);
    expect(dead.stdout).not.toContain('answers in time');
    expect(dead.stdout.trim().split('\n').at(-1)).toBe('0 passed, 1 failed');

    // The wrong secret: the hint says so, above the totals.
    const wrong = await cli([
      'check-receiver',
      '--url',
      good.url,
      '--secret',
      'whsec_other',
      '--sandbox',
      urls.test,
    ]);
    expect(wrong.code).toBe(1);
    expect(wrong.stdout).toMatch(
      /^hint: every correctly signed delivery was refused \(400\): the secret given is probably not/m,
    );

    const usage = await cli(['check-receiver', '--url', bad.url, '--sandbox', urls.test]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--secret');
  });
});

describe('svc-sandbox coverage and run --coverage', () => {
  it('prints the table with unreached entries marked, and --json', async () => {
    const sandbox = await testSandbox();
    const urls = await sandbox.listen();
    const table = await cli(['coverage', '--url', urls.test]);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/coverage: 0\/14 event types, 0\/\d+ transitions reached/);
    expect(table.stdout).toMatch(/ {4}-- {2}checkout\.paid/);
    expect(table.stdout).toMatch(/ {4}-- {2}active → paid +payment detected on-chain/);
    const asJson = await cli(['coverage', '--url', urls.test, '--json']);
    expect((JSON.parse(asJson.stdout) as Coverage).events).toHaveLength(14);
  });

  it("adds up every scenario's workspace", async () => {
    const scenario = (title: string) => `name: ${title}
steps:
  - merchant: shop
  - call: POST /v1/checkouts
    as: co
    body: { title: ${title}, amount: 5000000, currency: USDC, expires_at: "\${clock.in.1h}" }
  - control: POST /sandbox/checkouts/\${co.id}/payments
`;
    const dir = tempDir();
    writeFileSync(join(dir, 'a.yaml'), scenario('A'));
    writeFileSync(join(dir, 'b.yaml'), scenario('B'));
    const sandbox = await testSandbox();
    const urls = await sandbox.listen();
    for (const target of [[], ['--url', urls.test]]) {
      const ran = await cli(['run', 'a.yaml', 'b.yaml', '--coverage', 'coverage.json', ...target], dir);
      expect(ran.code, ran.stdout + ran.stderr).toBe(0);
      const report = JSON.parse(readFileSync(join(dir, 'coverage.json'), 'utf8')) as Coverage;
      expect(report.events.find((e) => e.type === 'checkout.paid')?.count).toBe(2);
      const paid = report.transitions.find(
        (t) => t.machine === 'checkout' && t.from === 'active' && t.to === 'paid',
      );
      expect(paid?.count).toBe(2);
      expect(report.transitions.find((t) => t.to === 'cancelled')?.count).toBe(0);
    }
  });
});
