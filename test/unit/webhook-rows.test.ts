import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { runMigrations } from '../../server/db/migrate.js';
import { migrations } from '../../server/db/migrations/index.js';
import { Statements, UNWATCHED } from '../../server/db/statements.js';
import { createWebhooksRepo, type DeliveryRow, requestHeaders } from '../../server/db/webhooks.js';

/**
 * Migration 013 stores a delivery's body, and an attempt's request body and headers, only where
 * they cannot be read back from the event and the delivery. What the repository reads must be the
 * same bytes as before, for rows written before the migration and after it.
 */

const MERCHANT = '00000000-0000-4000-8000-000000000001';
const ENDPOINT = '00000000-0000-4000-8000-000000000002';
const EVENT = '00000000-0000-4000-8000-000000000003';
const NOW = '2026-01-01T00:00:00.000Z';
const SIGNATURE = `sha256=${'ab'.repeat(32)}`;

const data = {
  id: 'dep_1',
  merchant_id: MERCHANT,
  amount: 1_000_000,
  memo: 'é "quoted" \\ \u2028 </script>',
};

function delivery(id: string, eventId: string, body: string): DeliveryRow {
  return {
    id,
    event_id: eventId,
    endpoint_id: ENDPOINT,
    merchant_id: MERCHANT,
    env: 'test',
    event: 'deposit.received',
    url: 'http://127.0.0.1:9/hook',
    body,
    status: 'pending',
    attempt_count: 0,
    next_attempt_at: 0,
    created_at: NOW,
    updated_at: NOW,
  };
}

const envelope = (id: string) =>
  `{"id":${JSON.stringify(id)},"event":"deposit.received","data":${JSON.stringify(data)}}`;

function at(version: number): Database.Database {
  const db = new Database(':memory:');
  runMigrations(
    db,
    migrations.filter((m) => m.version <= version),
  );
  db.prepare(
    `INSERT INTO events (id, env, merchant_id, type, resource_id, data, created_at)
     VALUES (?, 'test', ?, 'deposit.received', 'dep_1', ?, ?)`,
  ).run(EVENT, MERCHANT, JSON.stringify(data), NOW);
  return db;
}

describe('webhook rows (migration 013)', () => {
  it('rows written before it read back byte for byte; only derivable copies are dropped', () => {
    const db = at(12);
    const insert = db.prepare(
      `INSERT INTO webhook_deliveries (id, event_id, endpoint_id, merchant_id, env, event, url, body, status,
         attempt_count, next_attempt_at, created_at, updated_at)
       VALUES (@id, @event_id, @endpoint_id, @merchant_id, @env, @event, @url, @body, @status,
         @attempt_count, @next_attempt_at, @created_at, @updated_at)`,
    );
    const fanned = delivery(
      '00000000-0000-4000-8000-00000000000a',
      EVENT,
      envelope('00000000-0000-4000-8000-00000000000a'),
    );
    // a test event: no event row behind it
    const test = delivery(
      '00000000-0000-4000-8000-00000000000b',
      '00000000-0000-4000-8000-0000000000ff',
      '{"id":"t"}',
    );
    // an envelope the fan-out no longer makes (spacing): kept as it is
    const other = delivery(
      '00000000-0000-4000-8000-00000000000c',
      EVENT,
      `{"id": "x", "data": ${JSON.stringify(data)}}`,
    );
    for (const row of [fanned, test, other]) insert.run(row);
    const headers = (row: DeliveryRow) => JSON.stringify(requestHeaders(row.event, row.id, SIGNATURE));
    const attempt = db.prepare(
      `INSERT INTO webhook_attempts (delivery_id, number, at, request_headers, request_body, response_status,
         response_body, duration_ms, error) VALUES (?, ?, ?, ?, ?, 500, 'no', 3, NULL)`,
    );
    attempt.run(fanned.id, 1, NOW, headers(fanned), fanned.body);
    attempt.run(fanned.id, 2, NOW, '{"x-custom":"1"}', fanned.body);
    attempt.run(test.id, 1, NOW, headers(test), test.body);
    attempt.run(other.id, 1, NOW, headers(other), 'something else');
    const before = db.prepare('SELECT * FROM webhook_attempts ORDER BY delivery_id, number').all();

    runMigrations(db, migrations);
    const repo = createWebhooksRepo(new Statements(db, UNWATCHED));
    for (const row of [fanned, test, other]) expect(repo.findDelivery(row.id)?.body).toBe(row.body);
    const stored = db
      .prepare<[], { id: string; body: string }>('SELECT id, body FROM webhook_deliveries ORDER BY id')
      .all();
    expect(stored.map((r) => r.body)).toEqual(['', test.body, other.body]);
    const after = repo.attemptsForMany([fanned.id, test.id, other.id]);
    expect(after).toEqual(before);
    expect(repo.attemptsOf(fanned.id)).toEqual(after.slice(0, 2));
    const bodies = db
      .prepare<[], { request_body: string }>('SELECT request_body FROM webhook_attempts ORDER BY id')
      .all();
    expect(bodies.map((r) => r.request_body)).toEqual(['', '', '', 'something else']);
    const indexes = db
      .prepare<[], { name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'webhook_deliveries'",
      )
      .all()
      .map((r) => r.name);
    expect(indexes).not.toContain('webhook_deliveries_status');
    expect(indexes).not.toContain('webhook_deliveries_endpoint');
  });

  it('a fan-out delivery and its attempts are stored without their bytes and read back whole', () => {
    const db = at(13);
    const repo = createWebhooksRepo(new Statements(db, UNWATCHED));
    const id = '00000000-0000-4000-8000-00000000000d';
    const row = delivery(id, EVENT, envelope(id));
    repo.insertEventDelivery(row);
    repo.insertAttempt({
      delivery_id: id,
      number: 1,
      at: NOW,
      signature: SIGNATURE,
      response_status: 200,
      response_body: 'ok',
      duration_ms: 1,
      error: null,
    });
    repo.insertAttempt({
      delivery_id: id,
      number: 2,
      at: NOW,
      signature: '',
      response_status: null,
      response_body: null,
      duration_ms: 0,
      error: 'endpoint deleted',
    });
    expect(db.prepare('SELECT body FROM webhook_deliveries').get()).toEqual({ body: '' });
    expect(repo.findDelivery(id)?.body).toBe(row.body);
    const attempts = repo.attemptsOf(id);
    expect(attempts.map((a) => a.request_body)).toEqual([row.body, row.body]);
    expect(attempts.map((a) => a.request_headers)).toEqual([
      JSON.stringify(requestHeaders(row.event, id, SIGNATURE)),
      JSON.stringify(requestHeaders(row.event, id, '')),
    ]);
    // The lists of an endpoint walk its merchant's index; found alone, by endpoint, all the same.
    expect(repo.listDeliveries({ endpoint_id: ENDPOINT, limit: 10 })?.map((d) => d.id)).toEqual([id]);
    expect(
      repo.pendingOfEndpoint({ id: ENDPOINT, merchant_id: MERCHANT, env: 'test' }).map((d) => d.id),
    ).toEqual([id]);
  });
});
