import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseDocument } from 'yaml';
import { UsageError } from '../../../server/cli/common.js';
import { parity } from '../../../server/cli/parity.js';
import { tempDir, testSandbox } from '../../helpers/sandbox.js';
import { parseXml } from '../../helpers/xml.js';

// `svc-sandbox parity` as the CLI entry calls it (server/cli/index.ts turns the returned number
// into the exit code, a UsageError into 2): output grouped by kind, --ignore, --junit, --url.

const SESSION = readFileSync(
  fileURLToPath(new URL('../../fixtures/parity/session.yaml', import.meta.url)),
  'utf8',
);

/** The fixture with step 7's paid_amount renamed and step 6's two webhooks swapped. */
function drifted(): string {
  const doc = parseDocument(SESSION);
  doc.deleteIn(['steps', 6, 'recorded', 'body', 'paid_amount']);
  doc.setIn(['steps', 6, 'recorded', 'body', 'amount_paid'], 10_000_000);
  const hooks = doc.getIn(['steps', 5, 'recorded', 'webhooks']) as { items: unknown[] };
  hooks.items.reverse();
  return doc.toString();
}

const INVALID = `name: not a session
steps:
  - merchant: shop
  - call: POST /v1/checkouts
    recorded: { status: twohundred }
`;

function files(contents: Record<string, string>): string {
  const dir = tempDir();
  for (const [name, text] of Object.entries(contents)) writeFileSync(join(dir, name), text);
  return dir;
}

/** Runs the command, collecting what it printed. */
async function cli(args: string[]): Promise<{ code: number | 'help'; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    stdout += String(chunk);
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    stderr += String(chunk);
    return true;
  });
  try {
    return { code: await parity(['parity', ...args]), stdout, stderr };
  } finally {
    vi.restoreAllMocks();
  }
}

afterEach(() => vi.restoreAllMocks());

describe('svc-sandbox parity (CLI)', () => {
  it('exits 0 and says so when the sandbox answers as recorded', async () => {
    const dir = files({ 'session.yaml': SESSION });
    const result = await cli([join(dir, 'session.yaml')]);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(
      `parity session (${join(dir, 'session.yaml')}): no difference in 10 compared steps of 11\n`,
    );
    expect(result.code).toBe(0);
  });

  it('exits 1 with the differences grouped by kind, each naming step, line, label and field', async () => {
    const dir = files({ 'drift.yaml': drifted() });
    const file = join(dir, 'drift.yaml');
    const result = await cli([file]);
    expect(result.code).toBe(1);
    expect(result.stdout.split('\n')).toEqual([
      `parity session (${file}): 3 differences in 10 compared steps of 11`,
      '  Fields the sandbox does not give (1)',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a scenario reference, not a template
      '    step 7 (line 440, GET /v1/checkouts/${co.id}): amount_paid: recorded 10000000; the sandbox has no such field',
      '  Fields only the sandbox gives (1)',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a scenario reference, not a template
      '    step 7 (line 440, GET /v1/checkouts/${co.id}): paid_amount: the sandbox has 10000000; the recording has no such field',
      '  Webhooks out of order (1)',
      '    step 6 (line 367, clock advance 2h): webhook:checkout.partial: out of order: the service delivered checkout.partial, checkout.completed; the sandbox fired checkout.completed, checkout.partial',
      '',
    ]);
  });

  it('--ignore accepts the differences at the paths it names; a bad pattern is a usage error', async () => {
    const dir = files({ 'drift.yaml': drifted() });
    const file = join(dir, 'drift.yaml');
    const result = await cli([
      file,
      '--ignore',
      '*paid_amount',
      '--ignore',
      'amount_paid',
      '--ignore',
      'webhook:*',
    ]);
    expect(result.stdout).toBe(
      `parity session (${file}): no difference in 10 compared steps of 11 (3 ignored)\n`,
    );
    expect(result.code).toBe(0);
    await expect(cli([file, '--ignore', 'a b'])).rejects.toThrow(UsageError);
    await expect(cli([])).rejects.toThrow(/parity needs at least one session file/);
  });

  it('--junit writes a suite per file and a case per compared step, failed with its differences', async () => {
    const dir = files({ 'session.yaml': SESSION, 'drift.yaml': drifted() });
    const report = join(dir, 'parity.xml');
    const result = await cli([join(dir, 'session.yaml'), join(dir, 'drift.yaml'), '--junit', report]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/2 sessions: 1 like the sandbox, 1 with differences\n$/);
    const xml = parseXml(readFileSync(report, 'utf8'));
    expect(xml.attributes).toMatchObject({ name: 'svc-sandbox parity', tests: '20', failures: '2' });
    const [clean, drift] = xml.children;
    expect(clean!.attributes).toMatchObject({ name: 'parity session', tests: '10', failures: '0' });
    expect(drift!.attributes).toMatchObject({ tests: '10', failures: '2' });
    const failed = drift!.children.filter((c) => c.children.length > 0);
    expect(failed.map((c) => [c.attributes.name, c.attributes.line])).toEqual([
      ['6 clock advance 2h', '367'],
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a scenario reference, not a template
      ['7 GET /v1/checkouts/${co.id}', '440'],
    ]);
    expect(failed[1]!.children[0]!.text).toBe(
      'Fields the sandbox does not give: amount_paid: recorded 10000000; the sandbox has no such field\n' +
        'Fields only the sandbox gives: paid_amount: the sandbox has 10000000; the recording has no such field',
    );
  });

  it('exits 2 for an invalid file, replaying nothing, and reports it in the JUnit file', async () => {
    const dir = files({ 'session.yaml': SESSION, 'bad.yaml': INVALID });
    const report = join(dir, 'parity.xml');
    const result = await cli([
      join(dir, 'session.yaml'),
      join(dir, 'bad.yaml'),
      join(dir, 'none.yaml'),
      '--junit',
      report,
    ]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `${join(dir, 'bad.yaml')}:5: steps[1].recorded.status: must be integer\n` +
        `${join(dir, 'none.yaml')}:1: (file): cannot read: no such file\n` +
        'svc-sandbox: 2 invalid session files: nothing was replayed\n',
    );
    const xml = parseXml(readFileSync(report, 'utf8'));
    expect(xml.attributes).toMatchObject({ tests: '2', failures: '2' });
  });

  it('--url replays in a fresh workspace of that sandbox and deletes it afterwards', async () => {
    const sandbox = await testSandbox();
    const urls = await sandbox.listen();
    const before = sandbox.workspaces.list().length;
    const dir = files({ 'drift.yaml': drifted() });
    const result = await cli([join(dir, 'drift.yaml'), '--url', urls.test, '--json']);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as {
      ok: boolean;
      differences: { kind: string; path: string }[];
    };
    expect(report.differences.map((d) => `${d.kind} ${d.path}`)).toEqual([
      'webhook_order webhook:checkout.partial',
      'missing amount_paid',
      'extra paid_amount',
    ]);
    expect(sandbox.workspaces.list().length).toBe(before);
  });
});
