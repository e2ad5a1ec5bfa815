import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
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
