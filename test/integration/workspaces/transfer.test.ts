import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { ImportResult } from '../../../server/contract/transfer.js';
import { runMigrations } from '../../../server/db/migrate.js';
import { migrations } from '../../../server/db/migrations/index.js';
import type { Sandbox } from '../../../server/sandbox.js';
import { VERSION } from '../../../server/version.js';
import { envelopeBody, envelopeHeaders } from '../../../server/webhooks/envelope.js';
import { expectError, ok } from '../../helpers/api.js';
import { createMerchant, inFuture, ManualTime, tempDir, testSandbox } from '../../helpers/sandbox.js';
import {
  answers,
  buildRichWorkspace,
  checksum,
  probesFor,
  type RichWorkspace,
} from '../../helpers/workspace.js';

const CURRENT = Math.max(...migrations.map((m) => m.version));
const OCTET = { 'content-type': 'application/octet-stream' };

async function exportBundle(sandbox: Sandbox, merchantId?: string): Promise<Buffer> {
  const res = await sandbox.apps.test.inject({
    method: 'GET',
    url: `/sandbox/export${merchantId ? `?merchant_id=${merchantId}` : ''}`,
  });
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  expect(res.headers['content-type']).toBe('application/octet-stream');
  expect(res.headers['content-disposition']).toMatch(/^attachment; filename="svc-sandbox-.+\.svcbundle"$/);
  return res.rawPayload;
}

function importBundle(sandbox: Sandbox, bytes: Buffer) {
  return sandbox.apps.test.inject({ method: 'POST', url: '/sandbox/import', headers: OCTET, payload: bytes });
}

/** POST /v1/checkouts for 1,000,000 expiring `ttlMs` from the sandbox's now; fails the test unless created. */
async function createCheckout(sandbox: Sandbox, auth: Record<string, string>, title: string, ttlMs: number) {
  return ok<{ id: string }>(
    await sandbox.apps.test.inject({
      method: 'POST',
      url: '/v1/checkouts',
      headers: auth,
      payload: { title, amount: 1_000_000, expires_at: inFuture(sandbox, ttlMs) },
    }),
  );
}

/** Moves the sandbox clock on by `seconds`; fails the test unless it moved. */
async function advanceClock(sandbox: Sandbox, seconds: number): Promise<void> {
  ok(await sandbox.apps.test.inject({ method: 'POST', url: '/sandbox/clock/advance', payload: { seconds } }));
}

/** Opens bundle bytes as a database (a copy on disk), runs `fn`, returns the bytes of the copy after it. */
function withBundleFile<T>(bytes: Buffer, fn: (db: Database.Database) => T): { result: T; bytes: Buffer } {
  const path = join(tempDir(), 'bundle.sqlite');
  writeFileSync(path, bytes);
  const db = new Database(path);
  try {
    const result = fn(db);
    db.pragma('journal_mode = DELETE');
    return { result, bytes: db.serialize() };
  } finally {
    db.close();
  }
}

function metaOf(bytes: Buffer): Record<string, string | null> {
  return withBundleFile(bytes, (db) =>
    Object.fromEntries(
      db
        .prepare<[], { key: string; value: string | null }>('SELECT key, value FROM svc_bundle')
        .all()
        .map((r) => [r.key, r.value]),
    ),
  ).result;
}

/** Two sandboxes on one real-time source: after an import, both clocks read the same. */
async function pair(): Promise<{ source: Sandbox; target: Sandbox; time: ManualTime }> {
  const time = new ManualTime();
  const source = await testSandbox({ realNow: time.now });
  await source.listen();
  const target = await testSandbox({ realNow: time.now });
  await target.listen();
  return { source, target, time };
}

function mismatches(
  expected: Map<string, { status: number; body: unknown }>,
  actual: Map<string, { status: number; body: unknown }>,
): string[] {
  const out: string[] = [];
  for (const [label, want] of expected) {
    const got = actual.get(label);
    try {
      expect(got).toEqual(want);
    } catch (error) {
      out.push(`${label}: ${(error as Error).message.slice(0, 600)}`);
    }
  }
  return out;
}

describe('export → import round trip', () => {
  let world: RichWorkspace;

  it('every GET answer of the imported workspace equals the original, field by field', {
    timeout: 60_000,
  }, async () => {
    const { source, target } = await pair();
    world = await buildRichWorkspace(source);
    // The target had a workspace of its own, whose key it has already cached: the import replaces it.
    const previous = await createMerchant(target, 'Previous Co');
    expect(
      (await target.apps.test.inject({ method: 'GET', url: '/v1/checkouts', headers: previous.auth }))
        .statusCode,
    ).toBe(200);

    const bundle = await exportBundle(source);
    expect(bundle.subarray(0, 16).toString('latin1')).toBe('SQLite format 3\0');
    expect(metaOf(bundle)).toEqual({
      format: 'svc-sandbox-bundle',
      format_version: '1',
      schema_version: String(CURRENT),
      exported_at: source.ctx.clock.nowIso(),
      app_version: VERSION,
      merchant_id: null,
    });

    const probes = probesFor(source);
    expect(probes.length).toBeGreaterThan(150);
    const before = await answers(source, probes);

    const res = await importBundle(target, bundle);
    const result = ok<ImportResult>(res);
    expect(result.bundle).toEqual({
      schema_version: CURRENT,
      migrated_to: CURRENT,
      exported_at: source.ctx.clock.nowIso(),
      app_version: VERSION,
      merchant_id: null,
    });
    expect(result.imported).toMatchObject({ merchants: 3, reseller_connections: 1, cards: 1 });
    expect(result.imported.checkouts).toBeGreaterThanOrEqual(10);
    expect(result.imported.webhook_deliveries).toBeGreaterThan(10);

    const after = await answers(target, probes, source.urls());
    expect(mismatches(before, after)).toEqual([]);

    // The answers are not vacuous: the workspace really holds what the builder made.
    const clock = before.get('test GET /sandbox/clock')!.body as { offset_ms: number };
    expect(clock.offset_ms).toBe(8 * 86_400_000);
    const deliveries = before.get(`test GET /sandbox/deliveries?merchant_id=${world.shop.id}&limit=1000`)!
      .body as { status: string; attempts: unknown[] }[];
    expect(deliveries.filter((d) => d.status === 'failed').length).toBeGreaterThan(0);
    expect(deliveries.some((d) => d.status === 'failed' && d.attempts.length === 5)).toBe(true);
    expect(deliveries.filter((d) => d.status === 'delivered').length).toBeGreaterThan(0);
    const statuses = (
      before.get(`test GET /sandbox/merchants/${world.shop.id}/checkouts?env=test&limit=1000`)!.body as {
        status: string;
      }[]
    ).map((c) => c.status);
    for (const status of ['active', 'partial', 'expired', 'cancelled', 'completed', 'partially_refunded'])
      expect(statuses, `${status} in ${statuses.join(', ')}`).toContain(status);
    expect((before.get('test GET /sandbox/settings')!.body as { platform_rate: number }).platform_rate).toBe(
      150,
    );

    // The replaced workspace is gone, its cached key with it.
    expectError(
      await target.apps.test.inject({ method: 'GET', url: '/v1/checkouts', headers: previous.auth }),
      401,
    );
    // The imported workspace is live: its keys work, and its due work runs on its clock.
    const pending = (
      after.get(`test GET /sandbox/merchants/${world.shop.id}/checkouts?env=test&limit=1000`)!.body as {
        id: string;
        status: string;
        title: string;
      }[]
    ).find((c) => c.title === 'Pending order');
    expect(pending?.status).toBe('active');
    const fresh = await createCheckout(
      target,
      { authorization: `Bearer ${world.shop.key}` },
      'After import',
      60_000,
    );
    await advanceClock(target, 120);
    const expired = ok<{ checkout: { status: string } }>(
      await target.apps.test.inject({ method: 'GET', url: `/sandbox/checkouts/${fresh.id}` }),
    );
    expect(expired.checkout.status).toBe('expired');
  });

  it('a frozen clock comes back frozen at the same instant', async () => {
    const { source, target, time } = await pair();
    await createMerchant(source, 'Frozen Co');
    await advanceClock(source, 3600);
    const frozen = ok<{ now: string }>(
      await source.apps.test.inject({ method: 'POST', url: '/sandbox/clock/freeze' }),
    );
    time.tick(5000);
    ok(await importBundle(target, await exportBundle(source)));
    expect(ok(await target.apps.test.inject({ method: 'GET', url: '/sandbox/clock' }))).toEqual(
      ok(await source.apps.test.inject({ method: 'GET', url: '/sandbox/clock' })),
    );
    expect(target.ctx.clock.nowIso()).toBe(frozen.now);
    expect(target.ctx.clock.frozen).toBe(true);
  });
});

describe('one merchant', () => {
  it('exports only that merchant and everything of theirs', { timeout: 60_000 }, async () => {
    const { source, target } = await pair();
    const world = await buildRichWorkspace(source);
    const bundle = await exportBundle(source, world.shop.id);
    expect(metaOf(bundle).merchant_id).toBe(world.shop.id);

    // Inside the file: no row of another merchant anywhere.
    withBundleFile(bundle, (db) => {
      const tables = db
        .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")
        .all()
        .map((t) => t.name);
      let checked = 0;
      for (const table of tables) {
        const columns = db
          .prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${table}')`)
          .all()
          .map((c) => c.name);
        if (!columns.includes('merchant_id')) continue;
        const others = db
          .prepare<[string], { n: number }>(`SELECT COUNT(*) AS n FROM ${table} WHERE merchant_id IS NOT ?`)
          .get(world.shop.id)!.n;
        expect(others, `${table} rows of other merchants`).toBe(0);
        checked++;
      }
      expect(checked).toBeGreaterThan(15);
      expect(db.prepare('SELECT id FROM merchants').all()).toEqual([{ id: world.shop.id }]);
      expect(db.prepare('SELECT COUNT(*) AS n FROM reseller_connections').get()).toEqual({ n: 0 });
      const accounts = db
        .prepare<[], { account: string }>('SELECT DISTINCT account FROM ledger_entries')
        .all()
        .map((r) => r.account);
      expect(accounts.filter((a) => a.includes(world.other.id))).toEqual([]);
      expect(accounts.some((a) => a.startsWith(`merchant:${world.shop.id}:`))).toBe(true);
      // Inboxes of its own endpoints only, with messages of its own deliveries only.
      expect(db.prepare('SELECT name FROM inboxes ORDER BY name').all()).toEqual([
        { name: 'shop-down' },
        { name: 'shop-ok' },
      ]);
      const foreign = db
        .prepare(
          `SELECT COUNT(*) AS n FROM inbox_messages
           WHERE json_extract(headers, '$."x-svc-delivery-id"') NOT IN (SELECT id FROM webhook_deliveries)`,
        )
        .get();
      expect(foreign).toEqual({ n: 0 });
      expect(db.prepare('SELECT COUNT(*) AS n FROM inbox_messages').get()).not.toEqual({ n: 0 });
      // Only the jobs of what it keeps.
      const orphanJobs = db
        .prepare(
          `SELECT COUNT(*) AS n FROM jobs WHERE ref NOT IN
             (SELECT id FROM checkouts UNION SELECT id FROM webhook_deliveries)`,
        )
        .get();
      expect(orphanJobs).toEqual({ n: 0 });
    });

    // Imported: the merchant's own answers are the same (its reseller connection is not in the file).
    const probes = probesFor(source, { merchants: [world.shop.id], skip: /reseller-connections/ });
    const before = await answers(source, probes);
    const result = ok<ImportResult>(await importBundle(target, bundle));
    expect(result.imported.merchants).toBe(1);
    expect(result.bundle.merchant_id).toBe(world.shop.id);
    const after = await answers(target, probes, source.urls());
    expect(mismatches(before, after)).toEqual([]);
    const merchants = ok<{ id: string }[]>(
      await target.apps.test.inject({ method: 'GET', url: '/sandbox/merchants' }),
    );
    expect(merchants.map((m) => m.id)).toEqual([world.shop.id]);
  });

  it('an unknown merchant is a 404, a malformed id a 422', async () => {
    const sandbox = await testSandbox();
    expectError(
      await sandbox.apps.test.inject({
        method: 'GET',
        url: '/sandbox/export?merchant_id=00000000-0000-4000-8000-000000000000',
      }),
      404,
      'Merchant not found',
    );
    expectError(
      await sandbox.apps.test.inject({ method: 'GET', url: '/sandbox/export?merchant_id=nope' }),
      422,
      'merchant_id',
    );
  });
});

describe('refused files change nothing', () => {
  it('corrupt, foreign, non-SQLite and newer bundles are refused with a clear error', {
    timeout: 60_000,
  }, async () => {
    const { source, target } = await pair();
    await buildRichWorkspace(source);
    const bundle = await exportBundle(source);
    // The target holds a workspace of its own, which must survive every refusal.
    const own = await createMerchant(target, 'Keep Me');
    await createCheckout(target, own.auth, 'Mine', 3600_000);
    await advanceClock(target, 60);
    await new Promise((resolve) => setTimeout(resolve, 20));

    const dir = tempDir();
    const foreignSqlite = (() => {
      const db = new Database(join(dir, 'foreign.sqlite'));
      db.exec(
        "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT); INSERT INTO notes (text) VALUES ('hi')",
      );
      const bytes = db.serialize();
      db.close();
      return bytes;
    })();
    // A sandbox database that is not a bundle (no marker): foreign too.
    const sandboxDb = withBundleFile(bundle, (db) => db.exec('DROP TABLE svc_bundle')).bytes;
    const wrongMarker = withBundleFile(bundle, (db) =>
      db.prepare("UPDATE svc_bundle SET value = 'something-else' WHERE key = 'format'").run(),
    ).bytes;
    const newerSchema = withBundleFile(bundle, (db) => {
      db.prepare("UPDATE svc_bundle SET value = ? WHERE key = 'schema_version'").run(String(CURRENT + 1));
      db.prepare("INSERT INTO schema_migrations VALUES (?, 'future', 'x', '2030-01-01T00:00:00Z')").run(
        CURRENT + 1,
      );
    }).bytes;
    const newerFormat = withBundleFile(bundle, (db) =>
      db.prepare("UPDATE svc_bundle SET value = '2' WHERE key = 'format_version'").run(),
    ).bytes;
    const editedMigration = withBundleFile(bundle, (db) =>
      db.prepare("UPDATE schema_migrations SET hash = 'edited' WHERE version = 3").run(),
    ).bytes;
    const brokenSettings = withBundleFile(bundle, (db) =>
      db.prepare('UPDATE kv SET value = \'{"platform_rate": "lots"}\' WHERE key = \'settings\'').run(),
    ).bytes;
    const garbled = Buffer.from(bundle);
    for (let i = 8192; i < garbled.length - 4096; i += 4096) garbled.fill(0xa5, i, i + 2048);
    const truncated = bundle.subarray(0, Math.floor(bundle.length / 3));
    const random = Buffer.alloc(64 * 1024);
    for (let i = 0; i < random.length; i++) random[i] = (i * 7919 + 13) % 251;

    const cases: [string, Buffer, RegExp][] = [
      ['random bytes', random, /not a SQLite database/],
      ['an empty file', Buffer.alloc(0), /not a SQLite database|bundle file/],
      ['text', Buffer.from('hello, this is not a bundle'), /not a SQLite database/],
      ['a truncated bundle', truncated, /damaged/],
      ['a garbled bundle', garbled, /damaged/],
      [
        'a foreign SQLite file',
        foreignSqlite,
        /not an svc-sandbox bundle: a SQLite database without the svc_bundle marker/,
      ],
      ['a sandbox database without the marker', sandboxDb, /not an svc-sandbox bundle/],
      ['another format marker', wrongMarker, /format is "something-else"/],
      [
        'a newer schema',
        newerSchema,
        new RegExp(`newer svc-sandbox .*schema version ${CURRENT + 1}.*upgrade`),
      ],
      ['a newer bundle format', newerFormat, /newer svc-sandbox \(bundle format 2/],
      ['an edited migration', editedMigration, /schema does not match/],
      ['broken settings', brokenSettings, /settings are not valid/],
    ];
    // The request log is left out of the comparison: the /v1 reads of the comparison are logged.
    const probes = probesFor(target).filter((p) => !p.url.startsWith('/sandbox/request-log'));
    const answersBefore = await answers(target, probes);
    const sumBefore = checksum(target.db, ['request_log']);
    for (const [what, bytes, message] of cases) {
      const res = await importBundle(target, bytes);
      const label = `${what}: ${res.statusCode} ${res.body}`;
      expect(res.statusCode === 400 || (what === 'an empty file' && res.statusCode === 415), label).toBe(
        true,
      );
      expect(Object.keys(res.json()), label).toEqual(['error']);
      expect(res.json().error, label).toMatch(message);
      expect(checksum(target.db, ['request_log']), `${what}: the database changed`).toBe(sumBefore);
    }
    const answersAfter = await answers(target, probes);
    expect(mismatches(answersBefore, answersAfter)).toEqual([]);
    const merchants = ok<{ name: string }[]>(
      await target.apps.test.inject({ method: 'GET', url: '/sandbox/merchants' }),
    );
    expect(merchants.map((m) => m.name)).toEqual(['Keep Me']);
  });
});

/**
 * A bundle at an older schema version: the source's data projected onto the schema of `version`
 * (migrations 1..version; tables and columns that came later left out), marked as such.
 */
function olderBundle(bundle: Buffer, version: number): Buffer {
  const dir = tempDir();
  const current = join(dir, 'current.sqlite');
  writeFileSync(current, bundle);
  const old = new Database(join(dir, 'old.sqlite'));
  try {
    runMigrations(
      old,
      migrations.filter((m) => m.version <= version),
    );
    old.prepare('ATTACH DATABASE ? AS src').run(current);
    const tables = old
      .prepare<[], { name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != 'schema_migrations'",
      )
      .all()
      .map((t) => t.name);
    old.transaction(() => {
      for (const table of tables) {
        const columns = old
          .prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${table}')`)
          .all()
          .map((c) => c.name)
          .join(', ');
        if (table === 'webhook_deliveries' || table === 'webhook_attempts') continue;
        old.prepare(`INSERT INTO main.${table} (${columns}) SELECT ${columns} FROM src.${table}`).run();
      }
      olderWebhookRows(old);
      old.exec('CREATE TABLE svc_bundle (key TEXT PRIMARY KEY, value TEXT)');
      old.exec(`INSERT INTO svc_bundle SELECT key, value FROM src.svc_bundle`);
      old.prepare("UPDATE svc_bundle SET value = ? WHERE key = 'schema_version'").run(String(version));
    })();
    old.prepare('DETACH DATABASE src').run();
    expect(old.prepare('SELECT MAX(version) AS v FROM schema_migrations').get()).toEqual({ v: version });
    return old.serialize();
  } finally {
    old.close();
  }
}

/**
 * Webhook rows as the older versions wrote them: the delivery's body, the attempt's headers and
 * body in full (what the envelope makes of today's parts), for the migrations to turn back.
 */
function olderWebhookRows(old: Database.Database): void {
  const deliveries = old
    .prepare<[], { id: string; event: string; data: string | null; [column: string]: unknown }>(
      `SELECT d.*, COALESCE(d.data, (SELECT e.data FROM src.events e WHERE e.id = d.event_id)) AS data
       FROM src.webhook_deliveries d`,
    )
    .all();
  const bodies = new Map<string, { event: string; body: string }>();
  const insertDelivery = old.prepare(
    `INSERT INTO main.webhook_deliveries (id, event_id, endpoint_id, merchant_id, env, event, url, body, status,
       attempt_count, next_attempt_at, created_at, updated_at)
     VALUES (@id, @event_id, @endpoint_id, @merchant_id, @env, @event, @url, @body, @status,
       @attempt_count, @next_attempt_at, @created_at, @updated_at)`,
  );
  for (const row of deliveries) {
    const body = envelopeBody(row.id, row.event, row.data ?? 'null');
    bodies.set(row.id, { event: row.event, body });
    insertDelivery.run({ ...row, body });
  }
  const attempts = old
    .prepare<[], { delivery_id: string; signature: string; [column: string]: unknown }>(
      'SELECT * FROM src.webhook_attempts',
    )
    .all();
  const insertAttempt = old.prepare(
    `INSERT INTO main.webhook_attempts (id, delivery_id, number, at, request_headers, request_body,
       response_status, response_body, duration_ms, error)
     VALUES (@id, @delivery_id, @number, @at, @request_headers, @request_body, @response_status,
       @response_body, @duration_ms, @error)`,
  );
  for (const { verbatim_headers: _h, verbatim_body: _b, signature, ...row } of attempts) {
    const delivery = bodies.get(row.delivery_id)!;
    insertAttempt.run({
      ...row,
      request_headers: JSON.stringify(envelopeHeaders(delivery.event, row.delivery_id, signature)),
      request_body: delivery.body,
    });
  }
}

describe('older bundles', () => {
  it('a bundle from schema version 7 imports through the migrations and answers the same', {
    timeout: 60_000,
  }, async () => {
    const { source, target } = await pair();
    const world = await buildRichWorkspace(source);
    const old = olderBundle(await exportBundle(source), 7);
    withBundleFile(old, (db) => {
      // Version 7 had neither the stored balances (8) nor the request log (9).
      const names = db
        .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")
        .all();
      expect(names.map((n) => n.name)).not.toContain('ledger_balances');
      expect(names.map((n) => n.name)).not.toContain('request_log');
    });

    const probes = probesFor(source).filter((p) => !p.url.startsWith('/sandbox/request-log'));
    const before = await answers(source, probes);
    const result = ok<ImportResult>(await importBundle(target, old));
    expect(result.bundle.schema_version).toBe(7);
    expect(result.bundle.migrated_to).toBe(CURRENT);
    const after = await answers(target, probes, source.urls());
    expect(mismatches(before, after)).toEqual([]);
    // Balances come from migration 8, which summed the ledger entries.
    const balances = after.get(`test GET /sandbox/merchants/${world.shop.id}/balances?env=test`)!.body as {
      currency: string;
      available: number;
    }[];
    expect(balances.find((b) => b.currency === 'USDC')?.available).toBe(292_520_000);
  });
});

describe('size', () => {
  it('the import route takes bundles past the 1 MiB JSON body limit; other routes keep it', {
    timeout: 30_000,
  }, async () => {
    const { source, target } = await pair();
    await createMerchant(source, 'Big Co');
    const padded = withBundleFile(await exportBundle(source), (db) => {
      db.exec('CREATE TABLE padding (blob BLOB)');
      db.prepare('INSERT INTO padding VALUES (?)').run(Buffer.alloc(3 * 1024 * 1024, 7));
    }).bytes;
    expect(padded.length).toBeGreaterThan(3 * 1024 * 1024);
    expect(ok<ImportResult>(await importBundle(target, padded)).imported.merchants).toBe(1);
    const big = await target.apps.test.inject({
      method: 'POST',
      url: '/sandbox/merchants',
      payload: { name: 'x'.repeat(2 * 1024 * 1024) },
    });
    expect(big.statusCode).toBe(413);
  });
});

describe('a bundle imported into the sandbox it came from', () => {
  it('gives the imported merchants new keys, which act in the new workspace; the original is untouched', async () => {
    const sandbox = await testSandbox();
    const original = await createMerchant(sandbox, 'Bean Shop');
    const bytes = await exportBundle(sandbox);
    const created = ok<{ id: string }>(
      await sandbox.apps.test.inject({
        method: 'POST',
        url: '/sandbox/workspaces',
        payload: { name: 'qa-imported' },
      }),
      201,
    );
    const res = await sandbox.apps.test.inject({
      method: 'POST',
      url: '/sandbox/import',
      headers: { ...OCTET, 'x-svc-workspace': created.id },
      payload: bytes,
    });
    const result = ok<ImportResult>(res);
    // Every key of the bundle is the original's: each got a new one here.
    expect(result.reissued_keys.map((r) => r.merchant_id)).toEqual([original.merchantId]);
    const fresh = result.reissued_keys[0]!.key;
    expect(fresh).not.toBe(original.key);
    expect(fresh).toMatch(/^svc[a-z]_/);

    const post = (key: string) =>
      sandbox.apps.test.inject({
        method: 'POST',
        url: '/v1/customers',
        headers: { authorization: `Bearer ${key}` },
        payload: {
          name: 'Ada',
          email: `${key === fresh ? 'fresh' : 'original'}@example.com`,
          country: 'GBR',
        },
      });
    const list = async (workspace: string) =>
      ok<{ email: string }[]>(
        await sandbox.apps.test.inject({
          method: 'GET',
          url: `/sandbox/merchants/${original.merchantId}/customers`,
          headers: { 'x-svc-workspace': workspace },
        }),
      );
    // The new key acts in the new workspace, the old one in the original, each alone.
    expect((await post(fresh)).statusCode).toBe(200);
    expect((await post(original.key)).statusCode).toBe(200);
    expect((await list(created.id)).map((c) => c.email)).toEqual(['fresh@example.com']);
    expect((await list('default')).map((c) => c.email)).toEqual(['original@example.com']);

    // Imported where no other workspace holds its keys, a bundle keeps them.
    const elsewhere = await testSandbox();
    expect(ok<ImportResult>(await importBundle(elsewhere, bytes)).reissued_keys).toEqual([]);
  });
});
