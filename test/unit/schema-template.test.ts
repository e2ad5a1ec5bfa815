import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/connection.js';
import { migrations } from '../../server/db/migrations/index.js';
import { schemaTemplate } from '../../server/db/template.js';

// The schema template a start reads instead of running the migrations: used when it holds today's
// migrations, made anew when it is missing, damaged or holds a migration that has changed since.

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const scratch = () => {
  const dir = mkdtempSync(join(tmpdir(), 'schema-template-'));
  dirs.push(dir);
  return dir;
};

/** What a template holds: its schema and when each migration was applied. */
function contents(image: Buffer) {
  const db = new Database(image);
  try {
    return {
      schema: db
        .prepare<[], { sql: string }>('SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name')
        .all()
        .map((r) => r.sql),
      applied: db
        .prepare<[], { version: number; applied_at: string }>(
          'SELECT version, applied_at FROM schema_migrations ORDER BY version',
        )
        .all(),
    };
  } finally {
    db.close();
  }
}

const migrated = () => {
  const db = openDatabase(':memory:');
  try {
    return db.serialize();
  } finally {
    db.close();
  }
};

describe('schemaTemplate', () => {
  it("reads the build's template when it holds today's migrations, and makes one otherwise", () => {
    const dir = scratch();
    const today = contents(migrated());
    expect(today.applied.map((a) => a.version)).toEqual(migrations.map((m) => m.version));

    // The build's file: read as it is (the migrations' times are the file's, not now).
    const built = migrated();
    const file = join(dir, 'schema-template.db');
    const stamp = new Database(built);
    stamp.exec("UPDATE schema_migrations SET applied_at = '2000-01-01T00:00:00.000Z'");
    writeFileSync(file, stamp.serialize());
    stamp.close();
    const read = contents(schemaTemplate({}, file));
    expect(read.schema).toEqual(today.schema);
    expect(new Set(read.applied.map((a) => a.applied_at))).toEqual(new Set(['2000-01-01T00:00:00.000Z']));

    // Missing, not a database, or holding a migration edited since: made by the migrations.
    const edited = new Database(built);
    edited.exec("UPDATE schema_migrations SET hash = 'edited' WHERE version = 1");
    writeFileSync(join(dir, 'edited.db'), edited.serialize());
    edited.close();
    writeFileSync(join(dir, 'garbage.db'), 'not a database');
    for (const name of ['missing.db', 'garbage.db', 'edited.db']) {
      const made = contents(schemaTemplate({}, join(dir, name)));
      expect(made.schema, name).toEqual(today.schema);
      expect(
        made.applied.some((a) => a.applied_at.startsWith('2000')),
        name,
      ).toBe(false);
    }
  });
});
