import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../server/sandbox.js';
import { ensureBuilt, runCli } from '../../helpers/cli.js';
import { createMerchant, ManualTime, tempDir, testSandbox } from '../../helpers/sandbox.js';
import { answers, buildRichWorkspace, checksum, probesFor } from '../../helpers/workspace.js';

// `svc-sandbox export` and `import` of the built CLI: on a database file offline (refused while a
// sandbox holds it) and against a running sandbox with --url.
beforeAll(() => ensureBuilt(), 120_000);

const run = (args: string[]) => runCli(args, { timeoutMs: 20_000 });

/** A sandbox on a database file with a rich workspace, closed again (the file is free). */
async function workspaceFile(time: ManualTime): Promise<string> {
  const path = join(tempDir(), 'source.db');
  const sandbox = await testSandbox({ dbPath: path, realNow: time.now });
  await sandbox.listen();
  await buildRichWorkspace(sandbox);
  await sandbox.close();
  return path;
}

describe('svc-sandbox export / import --db (offline)', () => {
  it('round-trips a database file through a bundle: every answer the same', { timeout: 90_000 }, async () => {
    const time = new ManualTime();
    const source = await workspaceFile(time);
    const dir = tempDir();
    const bundle = join(dir, 'bug.svcbundle');
    const exported = await run(['export', '--db', source, '--out', bundle]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toMatch(
      /^exported the workspace from .*source\.db to .*bug\.svcbundle \(\d+ bytes\)\n$/,
    );
    expect(readFileSync(bundle).subarray(0, 16).toString('latin1')).toBe('SQLite format 3\0');

    const target = join(dir, 'target.db');
    const imported = await run(['import', '--db', target, bundle]);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toMatch(
      /^imported .*bug\.svcbundle into .*target\.db: 3 merchant\(s\), \d+ checkout\(s\), 1 card\(s\)/,
    );

    const original: Sandbox = await testSandbox({ dbPath: source, realNow: time.now });
    const copy: Sandbox = await testSandbox({ dbPath: target, realNow: time.now });
    const probes = probesFor(original);
    const before = await answers(original, probes);
    const after = await answers(copy, probes, original.urls());
    for (const [label, answer] of before) expect(after.get(label), label).toEqual(answer);
    expect(before.size).toBeGreaterThan(150);
  });

  it('exports one merchant with --merchant; an unknown one is exit 1', { timeout: 60_000 }, async () => {
    const path = join(tempDir(), 'one.db');
    const sandbox = await testSandbox({ dbPath: path });
    const acme = await createMerchant(sandbox, 'Acme');
    await createMerchant(sandbox, 'Globex');
    await sandbox.close();
    const bundle = join(tempDir(), 'acme.svcbundle');
    const ok = await run(['export', '--db', path, '--out', bundle, '--merchant', acme.merchantId, '--json']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ out: bundle, merchant_id: acme.merchantId });
    const target = join(tempDir(), 'acme.db');
    expect((await run(['import', '--db', target, bundle])).code).toBe(0);
    const copy = await testSandbox({ dbPath: target });
    const merchants = (await copy.apps.test.inject({ method: 'GET', url: '/sandbox/merchants' })).json() as {
      name: string;
    }[];
    expect(merchants.map((m) => m.name)).toEqual(['Acme']);

    const unknown = await run([
      'export',
      '--db',
      path,
      '--out',
      bundle,
      '--merchant',
      '00000000-0000-4000-8000-000000000000',
    ]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/Merchant not found: 00000000-0000-4000-8000-000000000000/);
  });

  it('refuses a file a running sandbox holds, and changes nothing', { timeout: 60_000 }, async () => {
    const path = join(tempDir(), 'busy.db');
    const running = await testSandbox({ dbPath: path });
    await createMerchant(running, 'Busy Co');
    const bundlePath = join(tempDir(), 'other.svcbundle');
    const other = await testSandbox();
    await createMerchant(other, 'Other Co');
    writeFileSync(
      bundlePath,
      (await other.apps.test.inject({ method: 'GET', url: '/sandbox/export' })).rawPayload,
    );
    const sum = checksum(running.db);

    const exported = await run(['export', '--db', path, '--out', join(tempDir(), 'x.svcbundle')]);
    expect(exported.code).toBe(1);
    expect(exported.stderr).toMatch(
      /cannot open .*busy\.db: .*locked \(is another svc-sandbox using this file\? stop it, or use --url\)/,
    );
    const imported = await run(['import', '--db', path, bundlePath]);
    expect(imported.code).toBe(1);
    expect(imported.stderr).toMatch(/is another svc-sandbox using this file\?/);
    expect(checksum(running.db)).toBe(sum);
    const names = (await running.apps.test.inject({ method: 'GET', url: '/sandbox/merchants' })).json() as {
      name: string;
    }[];
    expect(names.map((m) => m.name)).toEqual(['Busy Co']);
  });

  it('a refused bundle is exit 1 with the reason; the file is untouched', { timeout: 30_000 }, async () => {
    const path = join(tempDir(), 'keep.db');
    const sandbox = await testSandbox({ dbPath: path });
    await createMerchant(sandbox, 'Keep Co');
    await sandbox.close();
    const junk = join(tempDir(), 'junk.svcbundle');
    writeFileSync(junk, 'definitely not sqlite');
    const res = await run(['import', '--db', path, junk]);
    expect(res.code).toBe(1);
    expect(res.stderr).toBe(
      'svc-sandbox: not an svc-sandbox bundle: the file is not a SQLite database (a bundle starts with "SQLite format 3")\n',
    );
    const reopened = await testSandbox({ dbPath: path });
    const names = (await reopened.apps.test.inject({ method: 'GET', url: '/sandbox/merchants' })).json() as {
      name: string;
    }[];
    expect(names.map((m) => m.name)).toEqual(['Keep Co']);
  });

  it.each([
    ['export without --out', ['export', '--db', 'x.db'], /--out <bundle> is required/],
    [
      'export with --db and --url',
      ['export', '--db', 'x.db', '--url', 'http://127.0.0.1:1', '--out', 'b'],
      /not both/,
    ],
    ['import without a bundle', ['import', '--db', 'x.db'], /missing the bundle file/],
    ['import with two bundles', ['import', 'a', 'b'], /unexpected argument: b/],
  ])('%s is a usage error (exit 2)', async (_what, args, message) => {
    const res = await run(args);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(message);
    expect(res.stderr).toContain('Usage: svc-sandbox');
  });
});

describe('svc-sandbox export / import --url (a running sandbox)', () => {
  it('exports from one running sandbox and imports into another', { timeout: 60_000 }, async () => {
    const time = new ManualTime();
    const source = await testSandbox({ realNow: time.now });
    const sourceUrls = await source.listen();
    await buildRichWorkspace(source);
    const target = await testSandbox({ realNow: time.now });
    const targetUrls = await target.listen();
    await createMerchant(target, 'Replaced Co');

    const bundle = join(tempDir(), 'live.svcbundle');
    const exported = await run(['export', '--url', sourceUrls.test, '--out', bundle]);
    expect(exported.code, exported.stderr).toBe(0);
    const imported = await run(['import', bundle, '--url', targetUrls.test, '--json']);
    expect(imported.code, imported.stderr).toBe(0);
    expect(JSON.parse(imported.stdout)).toMatchObject({
      imported: { merchants: 3 },
      bundle: { merchant_id: null },
    });

    const probes = probesFor(source);
    const before = await answers(source, probes);
    const after = await answers(target, probes, source.urls());
    for (const [label, answer] of before) expect(after.get(label), label).toEqual(answer);

    const none = await run(['export', '--url', 'http://127.0.0.1:9', '--out', bundle]);
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/no sandbox answering at http:\/\/127\.0\.0\.1:9/);
  });
});
