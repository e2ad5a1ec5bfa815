import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../server/sandbox.js';
import { tempDir, testSandbox } from '../../helpers/sandbox.js';

/**
 * A reset of a file-backed workspace moves its database and request log away and deletes them in
 * the background; the new database is the template written straight in WAL mode. What is left
 * must be a workspace like a new one, now and after a restart on the same files.
 */

const control = (sandbox: Sandbox, method: 'GET' | 'POST', url: string, ws?: string, payload?: object) =>
  sandbox.apps.test.inject({
    method,
    url,
    headers: ws ? { 'x-svc-workspace': ws } : {},
    ...(payload ? { payload } : {}),
  });

async function fill(sandbox: Sandbox, ws?: string) {
  const res = await control(sandbox, 'POST', '/sandbox/merchants', ws, { name: 'Full' });
  expect(res.statusCode, res.body).toBe(200);
  const key = res.json().api_key.key as string;
  const expires_at = new Date(Date.now() + 86400_000).toISOString();
  for (let i = 0; i < 30; i++) {
    const made = await sandbox.apps.test.inject({
      method: 'POST',
      url: '/v1/checkouts',
      headers: { authorization: `Bearer ${key}` },
      payload: { title: `C${i}`, amount: 1000, expires_at },
    });
    expect(made.statusCode, made.body).toBe(200);
  }
}

const merchants = async (sandbox: Sandbox, ws?: string) =>
  (await control(sandbox, 'GET', '/sandbox/merchants', ws)).json() as unknown[];
const requests = async (sandbox: Sandbox, ws?: string) =>
  (await control(sandbox, 'GET', '/sandbox/request-log?limit=100', ws)).json() as unknown[];

describe('reset of a file-backed workspace', () => {
  it('empties the database and the request log; the files reopen after a restart', async () => {
    const dir = tempDir();
    const dbPath = join(dir, 'sandbox.db');
    const first = await testSandbox({ dbPath });
    const ws = (await control(first, 'POST', '/sandbox/workspaces', undefined, { name: 'Lasting' })).json()
      .id as string;
    await fill(first, ws);
    await fill(first);
    expect((await requests(first, ws)).length).toBeGreaterThan(0);

    for (const target of [ws, undefined]) {
      const reset = await control(first, 'POST', '/sandbox/reset', target);
      expect(reset.statusCode, reset.body).toBe(200);
      expect(await merchants(first, target)).toEqual([]);
      expect(await requests(first, target)).toEqual([]);
      // The workspace works as a new one.
      const after = await control(first, 'POST', '/sandbox/merchants', target, { name: 'After' });
      expect(after.statusCode, after.body).toBe(200);
    }
    const trash = join(`${dbPath}-workspaces`, '.trash');
    await expect.poll(() => (existsSync(trash) ? readdirSync(trash).length : 0), { timeout: 10_000 }).toBe(0);
    await first.close();

    const again = await testSandbox({ dbPath });
    expect((await merchants(again, ws)).length).toBe(1);
    expect((await merchants(again)).length).toBe(1);
    await fill(again, ws);
    expect((await merchants(again, ws)).length).toBe(2);
  }, 60_000);
});
