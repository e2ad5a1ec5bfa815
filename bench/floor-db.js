// What the floor servers (write-floor-server.js, delivery-floor-server.js) share with the sandbox's
// storage: a copy of the build's schema template (the same tables, indexes and coverage triggers)
// in a temporary directory, the same connection settings, one merchant, and a group commit of the
// sandbox's shape (one transaction per event-loop turn, each write a savepoint in it, the answers
// released by the commit).
import { randomBytes, randomUUID } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ROOT } from './lib.js';

/** `{ db, merchant, key, remove() }`: a database of the sandbox's schema, holding one merchant. */
export function openFloorDb(name) {
  const dir = mkdtempSync(join(tmpdir(), `svc-${name}-`));
  const file = join(dir, `${name}.db`);
  copyFileSync(join(ROOT, 'dist/server/db/schema-template.db'), file);
  const db = new Database(file);
  db.exec(
    [
      'locking_mode = EXCLUSIVE',
      'journal_mode = WAL',
      'wal_autocheckpoint = 10000',
      'synchronous = NORMAL',
      'cache_size = -8000',
      'mmap_size = 0',
      'temp_store = MEMORY',
      'foreign_keys = ON',
    ]
      .map((p) => `PRAGMA ${p};`)
      .join(' '),
  );
  const merchant = randomUUID();
  const now = new Date().toISOString();
  db.prepare(
    "INSERT INTO merchants (id, name, kyb_status, created_at, updated_at) VALUES (?, 'Floor', 'approved', ?, ?)",
  ).run(merchant, now, now);
  return {
    db,
    merchant,
    key: `sk_test_${randomBytes(16).toString('hex')}`,
    remove() {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The group commit: `join()` before a write opens the turn's transaction (once), `durable()`
 * resolves when it is committed. `stats`: the commits so far and the writes they held.
 */
export function groupCommit(db) {
  let open = false;
  let waiters = [];
  const stats = { commits: 0, writes: 0 };
  return {
    stats,
    join() {
      if (open) return;
      db.exec('BEGIN');
      open = true;
      setImmediate(() => {
        stats.commits++;
        stats.writes += waiters.length;
        open = false;
        db.exec('COMMIT');
        const now = waiters;
        waiters = [];
        for (const resolve of now) resolve();
      });
    },
    durable: () => new Promise((resolve) => waiters.push(resolve)),
  };
}

/** FLOOR_STATS=1: every 2 s, `stats` so far on stderr. */
export function reportStats(stats) {
  if (process.env.FLOOR_STATS)
    setInterval(() => process.stderr.write(`${JSON.stringify(stats)}\n`), 2000).unref();
}

/** Listens on 127.0.0.1, prints `<name> ready url=… key=…`, and cleans up on SIGINT/SIGTERM. */
export async function serveFloor(app, name, { key, remove }) {
  await app.listen({ host: '127.0.0.1', port: 0 });
  process.stdout.write(`${name} ready url=http://127.0.0.1:${app.server.address().port} key=${key}\n`);
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => {
      app.close().then(() => {
        remove();
        process.exit(0);
      });
    });
  }
}
