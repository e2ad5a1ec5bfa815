import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/**
 * Applies pending migrations in order, each in its own transaction. An applied migration must
 * never change: its hash is stored and checked on every open.
 */
export function runMigrations(db: Database.Database, migrations: readonly Migration[]): void {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    hash TEXT NOT NULL,
    applied_at TEXT NOT NULL
  )`);
  const applied = new Map(
    db
      .prepare<[], { version: number; hash: string }>('SELECT version, hash FROM schema_migrations')
      .all()
      .map((row) => [row.version, row.hash]),
  );
  const record = db.prepare(
    'INSERT INTO schema_migrations (version, name, hash, applied_at) VALUES (?, ?, ?, ?)',
  );
  for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
    const hash = createHash('sha256').update(migration.sql).digest('hex');
    const seen = applied.get(migration.version);
    if (seen !== undefined) {
      if (seen !== hash) {
        throw new Error(`Migration ${migration.version}-${migration.name} was edited after it was applied`);
      }
      continue;
    }
    db.transaction(() => {
      db.exec(migration.sql);
      record.run(migration.version, migration.name, hash, new Date().toISOString());
    })();
  }
}
