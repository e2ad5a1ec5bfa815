import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT, runCli } from '../../helpers/cli.js';
import { tempDir, testSandbox } from '../../helpers/sandbox.js';
import { parseXml, type XmlElement } from '../../helpers/xml.js';

// `svc-sandbox run` through the built CLI, a real child process: exit codes, output, JUnit.
const EXIT_TIMEOUT_MS = 60_000;

beforeAll(() => ensureBuilt([join(ROOT, 'dist/server/cli/run.js')]), 180_000);

const cli = (args: string[], cwd: string) => runCli(args, { cwd, timeoutMs: EXIT_TIMEOUT_MS });

const PASSING = `name: checkout paid and settled
steps:
  - merchant: shop
    body: { kyb_status: approved }
  - call: POST /v1/checkouts
    as: co
    body: { title: Order 1, amount: 5000000, currency: USDC, expires_at: "\${clock.in.1h}" }
  - control: POST /sandbox/checkouts/\${co.id}/payments
  - clock: { advance: 2m }
  - expect: { get: "/v1/checkouts/\${co.id}", body: { status: completed } }
  - expect: { event: { type: checkout.paid, data: { id: "\${co.id}", status: paid } } }
`;

/** Line 8 expects the wrong status; step 6 (line 10) is never reached after the failed call. */
const FAILING = `name: wrong expectation
steps:
  - merchant: shop
  - call: POST /v1/checkouts
    as: co
    body: { title: Order 2, amount: 5000000, currency: USDC, expires_at: "\${clock.in.1h}" }
  - expect:
      get: "/v1/checkouts/\${co.id}"
      body: { status: paid }
  - call: POST /v1/checkouts/\${co.id}/refund
  - expect: { event: { type: checkout.refunded } }
`;

const INVALID = `name: invalid
steps:
  - merchant: shop
  - clock: { advance: soon }
  - control: POST /sandbox/checkouts/\${nothing.id}/payments
`;

function files(contents: Record<string, string>): string {
  const dir = tempDir();
  for (const [name, text] of Object.entries(contents)) writeFileSync(join(dir, name), text);
  return dir;
}

const children_ = (e: XmlElement, name: string) => e.children.filter((c) => c.name === name);

describe('svc-sandbox run', () => {
  it('exit 0 when every step held: a tick per step, and a JUnit report that parses', async () => {
    const dir = files({
      'paid.yaml': PASSING,
      'also.json': JSON.stringify({ name: 'json file', steps: [{ merchant: 'm' }] }),
    });
    const result = await cli(['run', 'paid.yaml', 'also.json', '--junit', 'report.xml'], dir);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines).toContain('checkout paid and settled (paid.yaml)');
    expect(lines).toContain('  ✓ 1 merchant shop');
    expect(lines).toContain('  ✓ 4 clock advance 2m');
    expect(lines).toContain('  ✓ 6 expect event checkout.paid');
    expect(lines).toContain('  passed: 6 of 6 steps held');
    expect(lines).toContain('2 scenarios: 2 passed, 0 failed');

    const report = parseXml(readFileSync(join(dir, 'report.xml'), 'utf8'));
    expect(report.name).toBe('testsuites');
    expect(report.attributes).toMatchObject({ tests: '7', failures: '0', errors: '0', skipped: '0' });
    const suites = children_(report, 'testsuite');
    expect(suites.map((s) => [s.attributes.name, s.attributes.file, s.attributes.tests])).toEqual([
      ['checkout paid and settled', 'paid.yaml', '6'],
      ['json file', 'also.json', '1'],
    ]);
    const cases = children_(suites[0]!, 'testcase');
    expect(cases.map((c) => [c.attributes.name, c.attributes.line])).toEqual([
      ['1 merchant shop', '3'],
      ['2 POST /v1/checkouts', '5'],
      [`3 POST /sandbox/checkouts/\${co.id}/payments`, '8'],
      ['4 clock advance 2m', '9'],
      [`5 expect GET /v1/checkouts/\${co.id}`, '10'],
      ['6 expect event checkout.paid', '11'],
    ]);
    for (const c of cases) {
      expect(c.children).toEqual([]);
      expect(Number(c.attributes.time)).toBeGreaterThanOrEqual(0);
    }
  }, 90_000);

  it('exit 1 when an expectation fails, naming the step, the expected and the actual value', async () => {
    const dir = files({ 'wrong.yaml': FAILING });
    const result = await cli(['run', 'wrong.yaml', '--junit', 'report.xml'], dir);
    expect(result.code).toBe(1);
    const lines = result.stdout.split('\n');
    expect(lines).toContain(`  ✗ 3 expect GET /v1/checkouts/\${co.id} (line 7)`);
    expect(result.stdout).toMatch(
      / {6}GET \/v1\/checkouts\/[0-9a-f-]{36}: body\.status: expected "paid", actual "active"\n/,
    );
    expect(lines).toContain(`  ✗ 4 POST /v1/checkouts/\${co.id}/refund (line 10)`);
    expect(lines).toContain('  - 5 expect event checkout.refunded (line 11): not run');
    expect(lines).toContain('  FAILED: 2 of 5 steps held, 2 failed, 1 not run');

    const report = parseXml(readFileSync(join(dir, 'report.xml'), 'utf8'));
    const [suite] = children_(report, 'testsuite');
    expect(suite!.attributes).toMatchObject({
      name: 'wrong expectation',
      tests: '5',
      failures: '2',
      skipped: '1',
    });
    const cases = children_(suite!, 'testcase');
    const failure = children_(cases[2]!, 'failure')[0]!;
    expect(failure.attributes.message).toMatch(/body\.status: expected "paid", actual "active"$/);
    expect(failure.text).toBe(failure.attributes.message);
    expect(children_(cases[3]!, 'failure')[0]!.attributes.message).toContain('actual 400 {"error":');
    expect(children_(cases[4]!, 'skipped')[0]!.attributes.message).toBe('not run: step 4 failed before it');
  }, 90_000);

  it('exit 2 when a file is invalid: every problem as FILE:LINE: FIELD: MESSAGE, nothing run', async () => {
    const dir = files({ 'bad.yaml': INVALID, 'paid.yaml': PASSING });
    const result = await cli(['run', 'paid.yaml', 'bad.yaml', 'missing.yaml', '--junit', 'report.xml'], dir);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')).toEqual([
      'bad.yaml:4: steps[1].clock.advance: must be a duration like 30s, 5m, 2h, 7d or 1h30m',
      `bad.yaml:5: steps[2].control: \${nothing.id}: unknown name nothing (no earlier step is named nothing)`,
      'missing.yaml:1: (file): cannot read: no such file',
      'svc-sandbox: 2 invalid scenario files: nothing was run',
      '',
    ]);
    const report = parseXml(readFileSync(join(dir, 'report.xml'), 'utf8'));
    const suites = children_(report, 'testsuite');
    expect(suites.map((s) => s.attributes.file)).toEqual(['bad.yaml', 'missing.yaml']);
    const failure = children_(children_(suites[0]!, 'testcase')[0]!, 'failure')[0]!;
    expect(failure.text.split('\n')).toHaveLength(2);
    expect(failure.attributes.message).toBe(
      'bad.yaml:4: steps[1].clock.advance: must be a duration like 30s, 5m, 2h, 7d or 1h30m',
    );
  }, 90_000);

  it('--url runs in a fresh workspace of a running sandbox, leaving its default workspace alone', async () => {
    const sandbox = await testSandbox();
    const urls = await sandbox.listen();
    const dir = files({ 'paid.yaml': PASSING });
    const result = await cli(['run', 'paid.yaml', '--url', urls.test], dir);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^ {2}in workspace ws_\w{16} \(ephemeral, deleted afterwards\)$/m);
    const names = async (workspace?: string) =>
      (
        (await (
          await fetch(`${urls.test}/sandbox/merchants`, {
            headers: workspace === undefined ? {} : { 'x-svc-workspace': workspace },
          })
        ).json()) as { name: string }[]
      ).map((m) => m.name);
    expect(await names()).toEqual([]);
    const kept = await cli(['run', 'paid.yaml', '--url', urls.test, '--keep'], dir);
    const id = /in workspace (ws_\w{16}) \(kept/.exec(kept.stdout)![1]!;
    expect(await names(id)).toEqual(['shop']);

    // --json: one object per file, the run as the control API gives it.
    const asJson = await cli(['run', 'paid.yaml', '--url', urls.test, '--json'], dir);
    expect(asJson.code).toBe(0);
    const lines = asJson.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const run = JSON.parse(lines[0]!) as {
      file: string;
      workspace: string;
      ok: boolean;
      name: string;
      steps: { ok: boolean }[];
    };
    expect(run).toMatchObject({
      file: 'paid.yaml',
      workspace: expect.stringMatching(/^ws_/),
      ok: true,
      name: 'checkout paid and settled',
    });
    expect(run.steps.map((s) => s.ok)).toEqual([true, true, true, true, true, true]);

    const nobody = await cli(['run', 'paid.yaml', '--url', 'http://127.0.0.1:9'], dir);
    expect(nobody.code).toBe(1);
    expect(nobody.stderr).toContain('no sandbox answering at http://127.0.0.1:9');
  }, 90_000);

  it('usage: no file or a bad option is exit 2; --help lists the options; the main help lists run', async () => {
    const dir = files({});
    const none = await cli(['run'], dir);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('run needs at least one scenario file');
    const env = await cli(['run', 'x.yaml', '--env', 'staging'], dir);
    expect(env.code).toBe(2);
    expect(env.stderr).toContain('--env must be test or production');
    const help = await cli(['run', '--help'], dir);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain(
      'Usage: svc-sandbox run FILE... [--junit report.xml] [--url URL [--keep | --workspace ID]]',
    );
    const main = await cli(['--help'], dir);
    expect(main.stdout).toMatch(/^ {2}run FILE\.\.\. \[--junit <file>\]$/m);
  }, 90_000);
});
