import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { WEBHOOK_HEADER } from '../contract/webhooks.js';
import type { StoredRequestLogRow } from '../request-log/rows.js';
import type { Db } from './connection.js';
import { runMigrations } from './migrate.js';
import { migrations } from './migrations/index.js';

/**
 * Workspace bundles at the SQL level: a bundle is a SQLite file made with `VACUUM INTO`
 * from a sandbox database, plus one small table, `svc_bundle`, that says what it is. Everything
 * here works on a `Db` (live or opened offline by the CLI); the service in
 * server/workspaces/transfer.ts/ adds temp files, caches and errors for people.
 */

/** Tables that triggers write (migration 023): a copy of the other tables adds to them. */
const COUNTS = new Set(['coverage_events', 'coverage_transitions']);

export const BUNDLE_TABLE = 'svc_bundle';
/** The marker in `svc_bundle.format`: any other value is a foreign file. */
export const BUNDLE_FORMAT = 'svc-sandbox-bundle';
/** The layout of the bundle itself (the marker table); the data's layout is the schema version. */
export const BUNDLE_FORMAT_VERSION = 1;

export interface BundleMeta {
  format: string;
  format_version: number;
  /** the highest migration applied to the data (server/db/migrations) */
  schema_version: number;
  /** sandbox time when it was made */
  exported_at: string;
  app_version: string;
  /** the one merchant it holds, or null for the whole workspace */
  merchant_id: string | null;
}

/** Why a file is not an importable bundle; `kind` lets callers (and tests) tell the cases apart. */
export class BundleRefused extends Error {
  constructor(
    readonly kind: 'not-sqlite' | 'corrupt' | 'foreign' | 'newer' | 'schema-mismatch',
    message: string,
  ) {
    super(message);
    this.name = 'BundleRefused';
  }
}

/** The schema version of a sandbox database: its highest applied migration. */
export function schemaVersion(db: Db): number {
  const row = db.prepare<[], { v: number | null }>('SELECT MAX(version) AS v FROM schema_migrations').get();
  return row?.v ?? 0;
}

/** The newest schema this build knows. */
export const CURRENT_SCHEMA_VERSION = Math.max(...migrations.map((m) => m.version));

export function merchantExists(db: Db, id: string): boolean {
  return (
    db.prepare<[string], { one: number }>('SELECT 1 AS one FROM merchants WHERE id = ?').get(id) !== undefined
  );
}

/**
 * Copies `db` into a new file at `path` as of this moment, with `VACUUM INTO`. It is synchronous:
 * called right after the caller committed the open group commit, no other work of this process can
 * open a transaction before the copy is done. (The online backup API steps on later turns, and a
 * step that finds this connection inside a transaction — any write arriving meanwhile — copies
 * nothing, and reports success: an empty file.)
 */
export function copyTo(db: Db, path: string): void {
  if (db.inTransaction) throw new Error('copyTo: the workspace is inside a transaction; commit it first');
  db.prepare('VACUUM INTO ?').run(path);
}

/** Tables of the schema (not SQLite's own, not the bundle marker). */
export function userTables(db: Db, schema = 'main'): string[] {
  return db
    .prepare<[], { name: string }>(
      `SELECT name FROM ${schema}.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`,
    )
    .all()
    .map((row) => row.name)
    .filter((name) => name !== BUNDLE_TABLE);
}

export function columnsOf(db: Db, table: string, schema = 'main'): string[] {
  return db
    .prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${table}', '${schema}')`)
    .all()
    .map((row) => row.name);
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

const hasTable = (db: Db, name: string): boolean =>
  db
    .prepare<[string], { one: number }>(
      "SELECT 1 AS one FROM sqlite_master WHERE type = 'table' AND name = ?",
    )
    .get(name) !== undefined;

/** A bundle's request log (the layout of migrations 009, 010 and 024), for a workspace schema without one. */
const REQUEST_LOG_TABLE = `CREATE TABLE request_log (
  seq INTEGER PRIMARY KEY, id TEXT NOT NULL, created_at TEXT NOT NULL, env TEXT NOT NULL,
  merchant_id TEXT, api_key_id TEXT, api_key TEXT, method TEXT NOT NULL, route TEXT, path TEXT NOT NULL,
  status INTEGER NOT NULL, duration_ms REAL NOT NULL, request_body TEXT, response_body TEXT, fault TEXT)`;

/**
 * Turns a fresh copy into a bundle: optionally keeps only one merchant, writes the marker table,
 * leaves WAL for a self-contained single file and compacts it.
 */
export function sealBundle(path: string, meta: BundleMeta, requestLog: StoredRequestLogRow[] = []): void {
  const bundle = new Database(path);
  try {
    bundle.pragma('journal_mode = DELETE');
    bundle.pragma('foreign_keys = ON');
    // The request log lives in its own store (server/request-log/); in a bundle it is the
    // workspace's `request_log` table, as before. The copy is checked first: without the schema
    // it is not a workspace, whatever the log holds.
    if (!hasTable(bundle, 'schema_migrations'))
      throw new Error('sealBundle: the copy holds no sandbox schema (no schema_migrations table)');
    if (requestLog.length > 0) {
      if (!hasTable(bundle, 'request_log')) bundle.exec(REQUEST_LOG_TABLE);
      const insertLog = bundle.prepare(
        `INSERT INTO request_log (seq, id, created_at, env, merchant_id, api_key_id, api_key, method, route,
           path, status, duration_ms, request_body, response_body, fault)
         VALUES (@seq, @id, @created_at, @env, @merchant_id, @api_key_id, @api_key, @method, @route,
           @path, @status, @duration_ms, @request_body, @response_body, @fault)`,
      );
      bundle.transaction(() => {
        for (const row of requestLog)
          insertLog.run({ ...row, fault: row.fault === undefined ? null : JSON.stringify(row.fault) });
      })();
    }
    if (meta.merchant_id !== null) keepOnlyMerchant(bundle, meta.merchant_id);
    bundle.exec(`CREATE TABLE ${BUNDLE_TABLE} (key TEXT PRIMARY KEY, value TEXT)`);
    const insert = bundle.prepare<[string, string | null]>(
      `INSERT INTO ${BUNDLE_TABLE} (key, value) VALUES (?, ?)`,
    );
    bundle.transaction(() => {
      for (const [key, value] of Object.entries(meta)) insert.run(key, value === null ? null : String(value));
    })();
    bundle.exec('VACUUM');
  } finally {
    bundle.close();
  }
}

/**
 * Deletes everything that is not `merchantId`'s. Rows with a `merchant_id` column go by it (and
 * their children by cascade); reseller connections always involve a second merchant, who is not
 * in the bundle, so they go too. Jobs stay for the objects kept; inboxes for the merchant's
 * endpoints, with the messages of its deliveries. Ledger transactions that touch one of its
 * accounts (merchant:, reseller:, its cardholders') are kept whole, so every transaction still sums
 * to zero; balances are recomputed from the entries kept.
 */
export function keepOnlyMerchant(bundle: Db, merchantId: string): void {
  bundle.transaction(() => {
    for (const table of userTables(bundle)) {
      if (table === 'merchants' || !columnsOf(bundle, table).includes('merchant_id')) continue;
      bundle.prepare(`DELETE FROM ${quote(table)} WHERE merchant_id IS NOT ?`).run(merchantId);
    }
    bundle.prepare('DELETE FROM reseller_connections').run();
    bundle.prepare('DELETE FROM merchants WHERE id IS NOT ?').run(merchantId);
    // Coverage counts are the whole workspace's, not one merchant's.
    for (const table of COUNTS) bundle.prepare(`DELETE FROM ${quote(table)}`).run();

    // Job refs are ids of the objects they act on (checkouts, deliveries, ...).
    const idTables = userTables(bundle).filter(
      (t) =>
        t !== 'jobs' && columnsOf(bundle, t).includes('id') && columnsOf(bundle, t).includes('merchant_id'),
    );
    bundle
      .prepare(
        `DELETE FROM jobs WHERE ref NOT IN (${idTables.map((t) => `SELECT id FROM ${quote(t)}`).join(' UNION ALL ')})`,
      )
      .run();

    const inboxName = `substr(url, instr(url, '/sandbox/inbox/') + length('/sandbox/inbox/'))`;
    bundle
      .prepare(
        `DELETE FROM inboxes WHERE name NOT IN (
           SELECT ${inboxName} FROM webhook_endpoints WHERE instr(url, '/sandbox/inbox/') > 0)`,
      )
      .run();
    bundle
      .prepare(
        `DELETE FROM inbox_messages WHERE json_valid(headers) = 0
           OR json_extract(headers, '$."${WEBHOOK_HEADER.deliveryId}"') IS NULL
           OR json_extract(headers, '$."${WEBHOOK_HEADER.deliveryId}"') NOT IN (SELECT id FROM webhook_deliveries)`,
      )
      .run();

    bundle
      .prepare(
        `DELETE FROM ledger_transactions WHERE id NOT IN (
           SELECT tx_id FROM ledger_entries
           WHERE account LIKE 'merchant:' || @m || ':%' OR account LIKE 'reseller:' || @m || ':%'
              OR account IN (SELECT 'cardholder:' || id || ':wallet' FROM cardholders
                             UNION ALL SELECT 'cardholder:' || id || ':held' FROM cardholders))`,
      )
      .run({ m: merchantId });
    bundle.prepare('DELETE FROM ledger_balances').run();
    bundle
      .prepare(
        `INSERT INTO ledger_balances (env, account, currency, balance)
           SELECT env, account, currency, SUM(amount) FROM ledger_entries GROUP BY env, account, currency`,
      )
      .run();
  })();
}

/** Reads the marker of an opened bundle, or says why the file is not one. */
export function readMeta(bundle: Db): BundleMeta {
  const hasTable = bundle
    .prepare<[string], { one: number }>(
      "SELECT 1 AS one FROM sqlite_master WHERE type = 'table' AND name = ?",
    )
    .get(BUNDLE_TABLE);
  if (!hasTable)
    throw new BundleRefused(
      'foreign',
      `not an svc-sandbox bundle: a SQLite database without the ${BUNDLE_TABLE} marker table (export one with GET /sandbox/export or svc-sandbox export)`,
    );
  const rows = bundle
    .prepare<[], { key: string; value: string | null }>(`SELECT key, value FROM ${BUNDLE_TABLE}`)
    .all();
  const raw = new Map(rows.map((r) => [r.key, r.value]));
  if (raw.get('format') !== BUNDLE_FORMAT)
    throw new BundleRefused(
      'foreign',
      `not an svc-sandbox bundle: ${BUNDLE_TABLE}.format is ${JSON.stringify(raw.get('format') ?? null)}, expected "${BUNDLE_FORMAT}"`,
    );
  const integer = (key: string): number => {
    const value = raw.get(key);
    if (value == null || !/^\d+$/.test(value))
      throw new BundleRefused(
        'corrupt',
        `the bundle is damaged: ${BUNDLE_TABLE}.${key} is not a whole number`,
      );
    return Number(value);
  };
  const formatVersion = integer('format_version');
  if (formatVersion > BUNDLE_FORMAT_VERSION)
    throw new BundleRefused(
      'newer',
      `the bundle was made by a newer svc-sandbox (bundle format ${formatVersion}; this one reads up to ${BUNDLE_FORMAT_VERSION}): upgrade svc-sandbox to import it`,
    );
  return {
    format: BUNDLE_FORMAT,
    format_version: formatVersion,
    schema_version: integer('schema_version'),
    exported_at: raw.get('exported_at') ?? '',
    app_version: raw.get('app_version') ?? '',
    merchant_id: raw.get('merchant_id') ?? null,
  };
}

const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');

/**
 * Checks the bundle at `path` (a private copy: it is migrated in place) and brings its schema up to
 * this build's: the SQLite header, integrity, the marker, the schema version (never newer than
 * ours), the applied migrations (the same ones as ours, byte for byte), then the migrations it
 * lacks, then foreign keys. Throws BundleRefused saying what is wrong; returns the marker.
 */
export function prepareBundle(path: string): { meta: BundleMeta; kv: Record<string, unknown> } {
  const head = readFileSync(path).subarray(0, 16);
  if (!head.equals(SQLITE_MAGIC))
    throw new BundleRefused(
      'not-sqlite',
      'not an svc-sandbox bundle: the file is not a SQLite database (a bundle starts with "SQLite format 3")',
    );
  let bundle: Db;
  try {
    bundle = new Database(path, { fileMustExist: true });
  } catch (error) {
    throw new BundleRefused('corrupt', `the bundle is damaged: ${(error as Error).message}`);
  }
  try {
    let problems: string[];
    try {
      problems = (bundle.pragma('quick_check') as { quick_check: string }[]).map((r) => r.quick_check);
    } catch (error) {
      throw new BundleRefused('corrupt', `the bundle is damaged: ${(error as Error).message}`);
    }
    if (problems.length !== 1 || problems[0] !== 'ok')
      throw new BundleRefused('corrupt', `the bundle is damaged: ${problems.slice(0, 3).join('; ')}`);
    let meta: BundleMeta;
    try {
      meta = readMeta(bundle);
    } catch (error) {
      if (error instanceof BundleRefused) throw error;
      throw new BundleRefused('corrupt', `the bundle is damaged: ${(error as Error).message}`);
    }
    if (meta.schema_version > CURRENT_SCHEMA_VERSION)
      throw new BundleRefused(
        'newer',
        `the bundle was made by a newer svc-sandbox (${meta.app_version || 'unknown version'}, schema version ${meta.schema_version}; this one reads up to schema version ${CURRENT_SCHEMA_VERSION}): upgrade svc-sandbox to import it`,
      );
    let applied: number;
    try {
      applied = schemaVersion(bundle);
    } catch {
      throw new BundleRefused('foreign', 'not an svc-sandbox bundle: it has no schema_migrations table');
    }
    if (applied !== meta.schema_version)
      throw new BundleRefused(
        'corrupt',
        `the bundle is damaged: its marker says schema version ${meta.schema_version}, its data is at ${applied}`,
      );
    bundle.pragma('journal_mode = DELETE');
    try {
      runMigrations(bundle, migrations);
    } catch (error) {
      throw new BundleRefused(
        'schema-mismatch',
        `the bundle's schema does not match this svc-sandbox's migrations: ${(error as Error).message}`,
      );
    }
    const violations = bundle.pragma('foreign_key_check') as unknown[];
    if (violations.length > 0)
      throw new BundleRefused(
        'corrupt',
        `the bundle is damaged: ${violations.length} broken reference(s) between rows`,
      );
    const kv: Record<string, unknown> = {};
    for (const row of bundle.prepare<[], { key: string; value: string }>('SELECT key, value FROM kv').all()) {
      try {
        kv[row.key] = JSON.parse(row.value);
      } catch {
        throw new BundleRefused('corrupt', `the bundle is damaged: kv.${row.key} is not JSON`);
      }
    }
    return { meta, kv };
  } finally {
    bundle.close();
  }
}

/**
 * Replaces every row of `db` (all tables but the migration bookkeeping) with the rows of the
 * prepared bundle at `path`, in one transaction: on any error nothing has changed. Columns are
 * matched by name, so a table's column order may differ. The caller must hold no open transaction.
 * Returns the row count of each table after the copy.
 */
export function replaceWorkspace(db: Db, path: string): Record<string, number> {
  const tables = userTables(db).filter((t) => t !== 'schema_migrations');
  db.prepare('ATTACH DATABASE ? AS bundle').run(path);
  try {
    const bundleTables = new Set(userTables(db, 'bundle'));
    for (const table of tables) {
      if (!bundleTables.has(table))
        throw new BundleRefused('schema-mismatch', `the bundle has no ${table} table after its migrations`);
      const missing = columnsOf(db, table).filter((c) => !columnsOf(db, table, 'bundle').includes(c));
      if (missing.length > 0)
        throw new BundleRefused('schema-mismatch', `the bundle's ${table} table lacks ${missing.join(', ')}`);
    }
    const counts: Record<string, number> = {};
    db.transaction(() => {
      db.pragma('defer_foreign_keys = ON');
      for (const table of tables) db.prepare(`DELETE FROM main.${quote(table)}`).run();
      // The coverage counts last, over what the copy's own inserts just counted (their triggers).
      const ordered = [...tables.filter((t) => !COUNTS.has(t)), ...tables.filter((t) => COUNTS.has(t))];
      for (const table of ordered) {
        if (COUNTS.has(table)) db.prepare(`DELETE FROM main.${quote(table)}`).run();
        const columns = columnsOf(db, table).map(quote).join(', ');
        const result = db
          .prepare(
            `INSERT INTO main.${quote(table)} (${columns}) SELECT ${columns} FROM bundle.${quote(table)}`,
          )
          .run();
        counts[table] = result.changes;
      }
      // The AUTOINCREMENT counters exactly as the bundle has them: an INSERT into such a table
      // writes its counter even when it copies no row (seq 0), which the bundle may not have.
      db.prepare('DELETE FROM main.sqlite_sequence').run();
      db.prepare(
        'INSERT INTO main.sqlite_sequence (name, seq) SELECT name, seq FROM bundle.sqlite_sequence',
      ).run();
    })();
    return counts;
  } finally {
    db.prepare('DETACH DATABASE bundle').run();
  }
}
