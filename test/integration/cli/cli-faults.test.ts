import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatMessage } from '../../../server/cli/logs.js';
import type { Faults } from '../../../server/contract/faults.js';
import { ensureBuilt, runCli } from '../../helpers/cli.js';
import { createMerchant, tempDir, testSandbox } from '../../helpers/sandbox.js';

// `svc-sandbox faults set|list|clear` and `svc-sandbox verify`, the built CLI as a child process
// against a sandbox listening in this process.
beforeAll(() => ensureBuilt(), 120_000);

// A child's start-up takes seconds on a busy machine.
const run = (args: string[]) => runCli(args, { timeoutMs: 20_000 });

async function started() {
  const sandbox = await testSandbox();
  const urls = await sandbox.listen();
  const actor = await createMerchant(sandbox);
  const v1 = (method: string, path: string, body?: object) =>
    fetch(`${urls.test}${path}`, {
      method,
      headers: { ...actor.auth, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
  return { sandbox, url: urls.test, v1 };
}

describe('svc-sandbox faults', { timeout: 120_000 }, () => {
  it('set from flags, list, clear: a 503 then the real answer', async () => {
    const { url, v1 } = await started();
    const set = await run([
      'faults',
      'set',
      '--url',
      url,
      '--path',
      '/v1/checkouts',
      '--status',
      '503',
      '--count',
      '1',
      '--id',
      'down',
      '--seed',
      'cli',
    ]);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toContain('seed cli');
    expect(set.stdout).toContain('down: /v1/checkouts → status 503 (rate 1, 1 of 1 left; applied 0)');
    expect((await v1('GET', '/v1/checkouts')).status).toBe(503);
    expect((await v1('GET', '/v1/checkouts')).status).toBe(200);
    const list = await run(['faults', 'list', '--url', url, '--json']);
    expect((JSON.parse(list.stdout) as Faults).rules[0]).toMatchObject({
      id: 'down',
      applied: 1,
      remaining: 0,
    });
    const clear = await run(['faults', 'clear', '--url', url]);
    expect(clear.code).toBe(0);
    expect((await run(['faults', 'list', '--url', url])).stdout.trim()).toBe('no faults');
  });

  it('every effect from flags; rules from a YAML file; a bad command line exits 2', async () => {
    const { url } = await started();
    for (const [flags, effect] of [
      [['--status', '429', '--retry-after', '3'], { status: 429, retry_after_s: 3 }],
      [['--latency', '10-20'], { latency_ms: { min: 10, max: 20 } }],
      [['--timeout'], { timeout: true }],
      [['--lost-response'], { lost_response: true }],
    ] as const) {
      const res = await run(['faults', 'set', '--url', url, '--json', ...flags]);
      expect(res.code, res.stderr).toBe(0);
      const rule = (JSON.parse(res.stdout) as Faults).rules[0]!;
      expect(Object.keys(rule.effect)[0]).toBe(
        {
          '--status': 'status',
          '--latency': 'latency_ms',
          '--timeout': 'timeout',
          '--lost-response': 'lost_response',
        }[flags[0]],
      );
      // The values too: the Retry-After and the latency range the flags gave, as the sandbox holds them.
      expect(rule.effect, flags.join(' ')).toEqual(effect);
    }
    const file = join(tempDir(), 'faults.yaml');
    writeFileSync(
      file,
      'seed: from-file\nrules:\n  - id: slow\n    effect: {latency_ms: {min: 5, max: 10}}\n  - id: busy\n    match: {method: POST}\n    effect: {status: 429}\n',
    );
    const fromFile = await run(['faults', 'set', '--url', url, '--file', file, '--json']);
    expect(fromFile.code, fromFile.stderr).toBe(0);
    expect(JSON.parse(fromFile.stdout)).toMatchObject({
      seed: 'from-file',
      rules: [{ id: 'slow' }, { id: 'busy' }],
    });
    expect((await run(['faults', 'set', '--url', url])).code).toBe(2);
    expect((await run(['faults', 'set', '--url', url, '--status', '503', '--timeout'])).code).toBe(2);
    const refused = await run(['faults', 'set', '--url', url, '--status', '418']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('422');
  });

  it('logs tail marks a request a fault changed', () => {
    const line = formatMessage('request', {
      created_at: '2026-01-01T00:00:00.000Z',
      env: 'test',
      method: 'POST',
      path: '/v1/checkouts',
      status: 503,
      duration_ms: 0.4,
      merchant_id: 'm',
      fault: { rule: 'down', effect: 'status', status: 503 },
    });
    expect(line).toMatch(/→ 503 0\.40ms {2}\(merchant m\) {2}\[fault down: status\]$/);
  });
});

describe('svc-sandbox verify', { timeout: 120_000 }, () => {
  it('exits 0 when the requests match, 1 naming the near misses and the differing field when not', async () => {
    const { url, v1 } = await started();
    await (await v1('GET', '/v1/checkouts?limit=5')).arrayBuffer();
    await new Promise((resolve) => setTimeout(resolve, 30));
    const ok = await run([
      'verify',
      '--url',
      url,
      '--method',
      'GET',
      '--path',
      '/v1/checkouts',
      '--query',
      'limit=5',
      '--count',
      '1',
    ]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/^ok: 1 matching request\(s\), expected exactly 1/);
    const failed = await run(['verify', '--url', url, '--method', 'GET', '--query', 'limit=10']);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain('FAILED: 0 matching request(s), expected at least 1');
    expect(failed.stdout).toContain('near misses:');
    expect(failed.stdout).toContain('query.limit: expected "10", actual "5"');
    expect((await run(['verify', '--url', url, '--body', '{nope'])).code).toBe(2);
  });

  it('--at-most and --at-least bound the number of matching requests', async () => {
    const { url, v1 } = await started();
    for (let i = 0; i < 2; i++) await (await v1('GET', '/v1/checkouts')).arrayBuffer();
    await new Promise((resolve) => setTimeout(resolve, 30));
    const match = ['verify', '--url', url, '--method', 'GET', '--path', '/v1/checkouts'];
    const tooMany = await run([...match, '--at-most', '1']);
    expect(tooMany.code, tooMany.stdout).toBe(1);
    expect(tooMany.stdout).toMatch(/^FAILED: 2 matching request\(s\), expected at most 1$/m);
    const tooFew = await run([...match, '--at-least', '3']);
    expect(tooFew.code, tooFew.stdout).toBe(1);
    expect(tooFew.stdout).toMatch(/^FAILED: 2 matching request\(s\), expected at least 3$/m);
    const within = await run([...match, '--at-least', '2', '--at-most', '2']);
    expect(within.code, within.stderr).toBe(0);
    expect(within.stdout).toMatch(/^ok: 2 matching request\(s\), expected at least 2 and at most 2$/m);
  });
});
