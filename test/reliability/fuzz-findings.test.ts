import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { BUNDLE_FORMAT, copyTo, sealBundle } from '../../server/db/bundle.js';
import { type Json, ok } from '../helpers/api.js';
import { createMerchant, tempDir, testSandbox } from '../helpers/sandbox.js';

/**
 * One focused test per finding of the stateful fuzz (stateful-fuzz.test.ts): each fails on the code
 * before its fix, without needing the walk that found it.
 */

describe('export while a write is in flight', () => {
  it('the bundle holds the workspace, not an empty file', async () => {
    const sandbox = await testSandbox();
    const acme = await createMerchant(sandbox, 'Acme');
    const write = (n: number) =>
      sandbox.apps.test.inject({
        method: 'POST',
        url: '/v1/customers',
        headers: acme.auth,
        payload: { name: `Customer ${n}`, email: `c${n}@example.com` },
      });
    // Writes arriving while the export runs: each opens the group commit's transaction for a turn.
    for (let round = 0; round < 5; round++) {
      const [exported] = await Promise.all([
        sandbox.apps.test.inject({ method: 'GET', url: '/sandbox/export' }),
        write(round * 2),
        write(round * 2 + 1),
      ]);
      expect(exported.statusCode, exported.body.slice(0, 300)).toBe(200);
      const path = `${tempDir()}/bundle.sqlite`;
      const { writeFileSync } = await import('node:fs');
      writeFileSync(path, exported.rawPayload);
      const bundle = new Database(path, { readonly: true });
      try {
        const merchants = bundle.prepare('SELECT id FROM merchants').all() as { id: string }[];
        expect(merchants.map((m) => m.id)).toContain(acme.merchantId);
        expect(bundle.pragma('integrity_check', { simple: true })).toBe('ok');
      } finally {
        bundle.close();
      }
      // And it imports.
      const imported = await sandbox.apps.test.inject({
        method: 'POST',
        url: '/sandbox/import',
        headers: { 'content-type': 'application/octet-stream' },
        payload: exported.rawPayload,
      });
      expect(ok<Json>(imported).imported).toMatchObject({ merchants: 1 });
    }
  });
});

describe('the bundle copy', () => {
  const meta = {
    format: BUNDLE_FORMAT,
    format_version: 1,
    schema_version: 1,
    exported_at: '2026-01-01T00:00:00.000Z',
    app_version: 'test',
    merchant_id: null,
  };
  // A request log row as the bundle takes it (typed by sealBundle, wherever the log's types live).
  const row: NonNullable<Parameters<typeof sealBundle>[2]>[number] = {
    seq: 1,
    id: 'r1',
    created_at: '2026-01-01T00:00:00.000Z',
    env: 'test',
    merchant_id: null,
    api_key_id: null,
    api_key: null,
    method: 'GET',
    route: '/v1/checkouts',
    path: '/v1/checkouts',
    status: 401,
    duration_ms: 1.5,
    request_body: null,
    response_body: null,
  };

  it('is never taken inside an open transaction, and an empty copy is refused, not sealed', async () => {
    const sandbox = await testSandbox();
    const dir = tempDir();
    sandbox.db.exec('BEGIN');
    try {
      expect(() => copyTo(sandbox.db, `${dir}/in-tx.sqlite`)).toThrow(/inside a transaction/);
    } finally {
      sandbox.db.exec('ROLLBACK');
    }
    new Database(`${dir}/empty.sqlite`).close();
    expect(() => sealBundle(`${dir}/empty.sqlite`, meta, [row])).toThrow(/no sandbox schema/);
  });

  it("carries the request log even when the workspace's schema has no request_log table", async () => {
    const sandbox = await testSandbox();
    const path = `${tempDir()}/bundle.sqlite`;
    copyTo(sandbox.db, path);
    const copy = new Database(path);
    copy.exec('DROP TABLE request_log');
    copy.close();
    sealBundle(path, meta, [row]);
    const bundle = new Database(path, { readonly: true });
    try {
      expect(bundle.prepare('SELECT id, status, duration_ms FROM request_log').all()).toEqual([
        { id: 'r1', status: 401, duration_ms: 1.5 },
      ]);
    } finally {
      bundle.close();
    }
  });
});

describe('recording a deeply nested body', () => {
  /** `{"a":{"a":…}}`, `depth` levels, as JSON text. */
  const nested = (depth: number): string => `${'{"a":'.repeat(depth)}"x"${'}'.repeat(depth)}`;

  it('stop renders the scenario; the step keeps its status and a bounded body', async () => {
    const sandbox = await testSandbox();
    await sandbox.listen(); // the recorded scenario is replayed below, over HTTP
    const acme = await createMerchant(sandbox, 'Acme');
    ok(await sandbox.apps.test.inject({ method: 'POST', url: '/sandbox/recording/start', payload: {} }));
    // Refused writes are recorded with their body (a QA reproduction may be about the error), and
    // accepted ones with the keys the API ignores.
    const send = (payload: string) =>
      sandbox.apps.test.inject({
        method: 'POST',
        url: '/v1/customers',
        headers: { ...acme.auth, 'content-type': 'application/json' },
        payload,
      });
    for (const depth of [1_000, 2_000]) {
      const refused = await send(`{"name":${nested(depth)},"email":"deep@example.com"}`);
      expect(refused.statusCode).toBe(422);
    }
    const ignored = await send(`{"name":"Deep","email":"deep@example.com","note":${nested(20_000)}}`);
    expect(ignored.statusCode).toBe(200);
    const arrays = await send(
      `{"name":"Deep","email":"d@example.com","tags":${'['.repeat(100_000)}${']'.repeat(100_000)}}`,
    );
    expect(arrays.statusCode).toBe(200);
    const stopped = await sandbox.apps.test.inject({ method: 'POST', url: '/sandbox/recording/stop' });
    const body = ok<{ steps: number; scenario: string }>(stopped);
    expect(body.steps).toBe(5); // the adopted merchant, then every call: none is lost
    expect(body.scenario).toContain('call: POST /v1/customers');
    expect(body.scenario).toContain('nested deeper than');
    expect(body.scenario.length).toBeLessThan(20_000);
    // The scenario still parses and runs: each refused call is refused again.
    const run = await sandbox.apps.test.inject({
      method: 'POST',
      url: '/sandbox/scenarios/run',
      payload: { scenario: body.scenario },
    });
    const replay = ok<{ ok: boolean; steps: { ok: boolean; label: string; error?: string }[] }>(run);
    expect(replay.steps.filter((step) => !step.ok)).toEqual([]);
    expect(replay.steps).toHaveLength(5);
  });
});

describe('fuzz finding: AUTOINCREMENT counters through an import', () => {
  it('export → import → export is the same after a reset (an import copies no counter the bundle lacks)', async () => {
    const sandbox = await testSandbox();
    const first = await createMerchant(sandbox, 'Before reset');
    await sandbox.apps.test.inject({
      method: 'POST',
      url: '/v1/customers',
      headers: first.auth,
      payload: { name: 'x' },
    });
    await sandbox.apps.test.inject({ method: 'POST', url: '/sandbox/reset' });
    const after = await createMerchant(sandbox, 'After reset');
    await sandbox.apps.test.inject({
      method: 'POST',
      url: '/v1/customers',
      headers: after.auth,
      payload: { name: 'y' },
    });
    const counters = () => sandbox.db.prepare('SELECT name, seq FROM sqlite_sequence ORDER BY name').all();
    const before = counters();
    const bundle = (await sandbox.apps.test.inject({ method: 'GET', url: '/sandbox/export' })).rawPayload;
    const imported = await sandbox.apps.test.inject({
      method: 'POST',
      url: '/sandbox/import',
      headers: { 'content-type': 'application/octet-stream' },
      payload: bundle,
    });
    expect(imported.statusCode, imported.body).toBe(200);
    expect(counters()).toEqual(before);
  });
});
