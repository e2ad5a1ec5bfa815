import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/connection.js';
import {
  createRequestLogRepo,
  type NewRequestLogRow,
  REQUEST_LOG_FLUSH_MS,
  seqOfRequestLogId,
} from '../../server/db/request-log.js';

const row = (n: number): NewRequestLogRow => ({
  created_at: new Date(1_700_000_000_000 + n).toISOString(),
  env: n % 3 === 0 ? 'production' : 'test',
  merchant_id: null,
  api_key_id: null,
  api_key: null,
  method: 'GET',
  route: '/v1/customers',
  path: `/v1/customers?n=${n}`,
  status: 200,
  duration_ms: 1,
  request_body: null,
  response_body: '[]',
});

const count = (db: ReturnType<typeof openDatabase>) =>
  (db.prepare('SELECT COUNT(*) AS n FROM request_log').get() as { n: number }).n;

describe('request log repository', () => {
  it('keeps exactly the newest `limit` rows after every write, whatever the batch sizes', () => {
    const db = openDatabase(':memory:');
    const repo = createRequestLogRepo(db, { limit: 5 });
    let n = 0;
    for (const batch of [1, 3, 2, 7, 1, 12, 4]) {
      for (let i = 0; i < batch; i++) repo.append(row(n++));
      repo.flush();
      expect(count(db)).toBe(Math.min(n, 5));
      expect(repo.list({ limit: 10 }).map((e) => e.path)).toEqual(
        Array.from({ length: Math.min(n, 5) }, (_, i) => `/v1/customers?n=${n - 1 - i}`),
      );
    }
  });

  it('writes on its own within a few ms, a burst in one transaction', async () => {
    const db = openDatabase(':memory:');
    const repo = createRequestLogRepo(db);
    const batches: number[] = [];
    repo.onWritten((rows) => batches.push(rows.length));
    repo.append(row(1));
    await new Promise((resolve) => setTimeout(resolve, REQUEST_LOG_FLUSH_MS * 2 + 5));
    expect(count(db)).toBe(1);
    for (let i = 2; i <= 20; i++) repo.append(row(i));
    await new Promise((resolve) => setTimeout(resolve, REQUEST_LOG_FLUSH_MS * 2 + 5));
    expect(count(db)).toBe(20);
    expect(batches).toEqual([1, 19]);
  });

  it('gives ids that carry the seq and finds them without an index; old random ids still resolve', () => {
    const db = openDatabase(':memory:');
    db.prepare(
      `INSERT INTO request_log (seq, id, created_at, env, method, path, status, duration_ms)
       VALUES (1, ?, '2024-01-01T00:00:00.000Z', 'test', 'GET', '/old', 200, 1)`,
    ).run(randomUUID());
    const legacy = db.prepare('SELECT id FROM request_log').get() as { id: string };
    const repo = createRequestLogRepo(db);
    const written: string[] = [];
    repo.onWritten((rows) => written.push(...rows.map((r) => r.id)));
    repo.append(row(1));
    repo.append(row(2));
    repo.flush();
    expect(written.map(seqOfRequestLogId)).toEqual([2, 3]);
    for (const id of written) {
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(repo.get(id)?.id).toBe(id);
    }
    expect(repo.get(legacy.id)?.path).toBe('/old');
    // Right seq, wrong random part: not found.
    const forged = `${randomUUID().slice(0, 24)}${written[0]!.slice(24)}`;
    expect(repo.get(forged)).toBeUndefined();
    // Paging from a new id works as from an old one.
    expect(repo.list({ limit: 5, startingAfter: written[1] }).map((e) => e.id)).toEqual([
      written[0],
      legacy.id,
    ]);
    expect(
      db
        .prepare("SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'index' AND tbl_name = 'request_log'")
        .get(),
    ).toEqual({ n: 2 });
  });
});
