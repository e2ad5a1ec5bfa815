import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { runMigrations } from '../../server/db/migrate.js';
import { migrations } from '../../server/db/migrations/index.js';
import { Statements, UNWATCHED } from '../../server/db/statements.js';
import { createWebhooksRepo, type DeliveryRow, type WebhooksRepo } from '../../server/db/webhooks.js';
import { envelopeBody, envelopeHeaders, outgoing, sentRequest } from '../../server/webhooks/envelope.js';

/**
 * Delivery and attempt rows keep the parts of a webhook request (migration 014; before it, 013
 * stored some of the bytes and derived others). What the envelope makes of the rows must be the
 * same bytes as were sent, for rows written by every schema since 012.
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
  memo: 'é "quoted" \\ \u2028 </script> 😀',
};

type Meta = Omit<DeliveryRow, 'data'>;

function meta(id: string, eventId: string): Meta {
  return {
    id,
    event_id: eventId,
    endpoint_id: ENDPOINT,
    merchant_id: MERCHANT,
    env: 'test',
    event: 'deposit.received',
    url: 'http://127.0.0.1:9/hook',
    status: 'pending',
    attempt_count: 0,
    next_attempt_at: 0,
    created_at: NOW,
    updated_at: NOW,
  };
}

/** What every version of the fan-out and the test event sent. */
const envelope = (id: string, payload: unknown = data) =>
  JSON.stringify({ id, event: 'deposit.received', data: payload });
const headers = (id: string, signature = SIGNATURE) =>
  JSON.stringify({
    'content-type': 'application/json',
    'user-agent': 'svc-sandbox-webhooks/1',
    'x-svc-event': 'deposit.received',
    'x-svc-delivery-id': id,
    'x-svc-signature': signature,
  });

function at(version: number): Database.Database {
  const db = new Database(':memory:');
  db.pragma('foreign_keys = ON');
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

/** The requests the rows say were sent, as the API shows them. */
function sent(repo: WebhooksRepo, ids: string[]) {
  return repo
    .attemptsForMany(ids)
    .map((a) => ({ delivery: a.delivery_id, number: a.number, ...sentRequest(a) }));
}

const oldDelivery = (db: Database.Database) =>
  db.prepare(
    `INSERT INTO webhook_deliveries (id, event_id, endpoint_id, merchant_id, env, event, url, body, status,
       attempt_count, next_attempt_at, created_at, updated_at)
     VALUES (@id, @event_id, @endpoint_id, @merchant_id, @env, @event, @url, @body, @status,
       @attempt_count, @next_attempt_at, @created_at, @updated_at)`,
  );
const oldAttempt = (db: Database.Database) =>
  db.prepare(
    `INSERT INTO webhook_attempts (delivery_id, number, at, request_headers, request_body, response_status,
       response_body, duration_ms, error) VALUES (?, ?, ?, ?, ?, 500, 'no', 3, NULL)`,
  );

describe('webhook rows', () => {
  it('rows written before migration 013 read back byte for byte after 014', () => {
    const db = at(12);
    const fanned = meta('00000000-0000-4000-8000-00000000000a', EVENT);
    // a test event: no event row behind it
    const test = meta('00000000-0000-4000-8000-00000000000b', '00000000-0000-4000-8000-0000000000ff');
    // a body in a form no version made (spacing): kept whole
    const other = meta('00000000-0000-4000-8000-00000000000c', EVENT);
    const bodies = {
      [fanned.id]: envelope(fanned.id),
      [test.id]: envelope(test.id, { id: 't', n: [1, 2] }),
      [other.id]: `{"id": "x", "data": ${JSON.stringify(data)}}`,
    };
    for (const row of [fanned, test, other]) oldDelivery(db).run({ ...row, body: bodies[row.id] });
    const attempt = oldAttempt(db);
    attempt.run(fanned.id, 1, NOW, headers(fanned.id), bodies[fanned.id]);
    attempt.run(fanned.id, 2, NOW, '{"x-custom":"1"}', bodies[fanned.id]);
    attempt.run(fanned.id, 3, NOW, headers(fanned.id, ''), bodies[fanned.id]);
    attempt.run(test.id, 1, NOW, headers(test.id), bodies[test.id]);
    attempt.run(other.id, 1, NOW, headers(other.id), 'something else');

    runMigrations(db, migrations);
    const repo = createWebhooksRepo(new Statements(db, UNWATCHED));
    for (const row of [fanned, test, other]) {
      const read = repo.findDelivery(row.id);
      expect(read && outgoing(read).body).toBe(bodies[row.id]);
    }
    expect(sent(repo, [fanned.id, test.id, other.id])).toEqual([
      { delivery: fanned.id, number: 1, headers: JSON.parse(headers(fanned.id)), body: bodies[fanned.id] },
      { delivery: fanned.id, number: 2, headers: { 'x-custom': '1' }, body: bodies[fanned.id] },
      {
        delivery: fanned.id,
        number: 3,
        headers: JSON.parse(headers(fanned.id, '')),
        body: bodies[fanned.id],
      },
      { delivery: test.id, number: 1, headers: JSON.parse(headers(test.id)), body: bodies[test.id] },
      { delivery: other.id, number: 1, headers: JSON.parse(headers(other.id)), body: 'something else' },
    ]);
    // Stored as parts: the fan-out's data is its event's, the test event's its own.
    expect(db.prepare('SELECT id, data, verbatim_body FROM webhook_deliveries ORDER BY id').all()).toEqual([
      { id: fanned.id, data: null, verbatim_body: null },
      { id: test.id, data: '{"id":"t","n":[1,2]}', verbatim_body: null },
      { id: other.id, data: null, verbatim_body: bodies[other.id] },
    ]);
    expect(
      db.prepare('SELECT signature, verbatim_headers, verbatim_body FROM webhook_attempts ORDER BY id').all(),
    ).toEqual([
      { signature: SIGNATURE, verbatim_headers: null, verbatim_body: null },
      { signature: '', verbatim_headers: '{"x-custom":"1"}', verbatim_body: null },
      { signature: '', verbatim_headers: null, verbatim_body: null },
      { signature: SIGNATURE, verbatim_headers: null, verbatim_body: null },
      { signature: SIGNATURE, verbatim_headers: null, verbatim_body: 'something else' },
    ]);
  });

  it('rows written under migration 013 (empty body, bare signature) read back byte for byte after 014', () => {
    const db = at(13);
    const fanned = meta('00000000-0000-4000-8000-00000000000d', EVENT);
    const test = meta('00000000-0000-4000-8000-00000000000e', '00000000-0000-4000-8000-0000000000fe');
    const testBody = envelope(test.id, { id: 'sample' });
    oldDelivery(db).run({ ...fanned, body: '' });
    oldDelivery(db).run({ ...test, body: testBody });
    const attempt = oldAttempt(db);
    attempt.run(fanned.id, 1, NOW, SIGNATURE, '');
    attempt.run(fanned.id, 2, NOW, '', '');
    attempt.run(test.id, 1, NOW, SIGNATURE, '');

    runMigrations(db, migrations);
    const repo = createWebhooksRepo(new Statements(db, UNWATCHED));
    const read = repo.findDelivery(fanned.id);
    expect(read && outgoing(read).body).toBe(envelope(fanned.id));
    expect(sent(repo, [fanned.id, test.id])).toEqual([
      { delivery: fanned.id, number: 1, headers: JSON.parse(headers(fanned.id)), body: envelope(fanned.id) },
      {
        delivery: fanned.id,
        number: 2,
        headers: JSON.parse(headers(fanned.id, '')),
        body: envelope(fanned.id),
      },
      { delivery: test.id, number: 1, headers: JSON.parse(headers(test.id)), body: testBody },
    ]);
  });

  it('a fan-out delivery stores no bytes of its payload or request, and reads back whole', () => {
    const db = at(Number.POSITIVE_INFINITY);
    const repo = createWebhooksRepo(new Statements(db, UNWATCHED));
    const row = meta('00000000-0000-4000-8000-00000000000f', EVENT);
    repo.insertDelivery({ ...row, data: null });
    for (const [number, signature] of [
      [1, SIGNATURE],
      [2, ''],
    ] as const)
      repo.insertAttempt({
        delivery_id: row.id,
        number,
        at: NOW,
        signature,
        response_status: null,
        response_body: null,
        duration_ms: 0,
        error: 'x',
        chaos: null,
      });
    expect(db.prepare('SELECT data, verbatim_body FROM webhook_deliveries').get()).toEqual({
      data: null,
      verbatim_body: null,
    });
    const body = envelopeBody(row.id, row.event, JSON.stringify(data));
    expect(body).toBe(envelope(row.id));
    const read = repo.findDelivery(row.id);
    expect(read && outgoing(read).body).toBe(body);
    expect(sent(repo, [row.id]).map((a) => a.body)).toEqual([body, body]);
    expect(repo.attemptsOf(row.id).map((a) => sentRequest(a).headers)).toEqual([
      envelopeHeaders(row.event, row.id, SIGNATURE),
      envelopeHeaders(row.event, row.id, ''),
    ]);
    // The lists of an endpoint walk its merchant's index; found alone, by endpoint, all the same.
    expect(repo.listDeliveries({ endpoint_id: ENDPOINT, limit: 10 })?.map((d) => d.id)).toEqual([row.id]);
    expect(
      repo.pendingOfEndpoint({ id: ENDPOINT, merchant_id: MERCHANT, env: 'test' }).map((d) => d.id),
    ).toEqual([row.id]);
  });
});
