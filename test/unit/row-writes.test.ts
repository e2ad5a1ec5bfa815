import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { prepareRowWrite } from '../../server/db/bind.js';

/**
 * The hot writes bind a row's values by position (server/db/bind.ts); what they store must be what
 * the same statement bound by name stores, whatever the order of the row's own keys.
 */
function table() {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE t (id TEXT PRIMARY KEY, amount INTEGER, note TEXT, at TEXT, again TEXT)');
  return db;
}

interface Row {
  id: string;
  amount: number | null;
  note: string | null;
  at: string;
}

describe('prepareRowWrite', () => {
  it('stores each @name from the row, in the order the SQL names them, not the row’s', () => {
    const db = table();
    const insert = prepareRowWrite<Row>(
      db,
      'INSERT INTO t (at, id, note, amount, again) VALUES (@at, @id, @note, @amount, @at)',
    );
    const result = insert({ note: 'é "x"', amount: 5_000_000, id: 'a', at: '2026-01-01T00:00:00.000Z' });
    expect(result.changes).toBe(1);
    insert({ id: 'b', amount: null, note: null, at: 'later' });
    expect(db.prepare('SELECT * FROM t ORDER BY id').all()).toEqual([
      {
        id: 'a',
        amount: 5_000_000,
        note: 'é "x"',
        at: '2026-01-01T00:00:00.000Z',
        again: '2026-01-01T00:00:00.000Z',
      },
      { id: 'b', amount: null, note: null, at: 'later', again: 'later' },
    ]);
  });

  it('stores what the named statement stores', () => {
    const db = table();
    const sql = 'INSERT INTO t (id, amount, note, at) VALUES (@id, @amount, @note, @at)';
    const named = db.prepare<Row>(sql);
    const positional = prepareRowWrite<Row>(db, sql);
    named.run({ id: 'n', amount: 1, note: 'same', at: 't' });
    positional({ id: 'p', amount: 1, note: 'same', at: 't' });
    const [n, p] = db.prepare<[], Row>('SELECT amount, note, at FROM t ORDER BY id').all();
    expect(p).toEqual(n);
  });

  it('refuses a row without one of the named values, like a named binding does', () => {
    const db = table();
    const insert = prepareRowWrite<Row>(
      db,
      'INSERT INTO t (id, amount, note, at) VALUES (@id, @amount, @note, @at)',
    );
    expect(() => insert({ id: 'x', amount: 1, at: 't' } as Row)).toThrow(/Missing named parameter "note"/);
    expect(db.prepare('SELECT COUNT(*) AS n FROM t').get()).toEqual({ n: 0 });
  });

  it('updates by the same rule (WHERE parameters included)', () => {
    const db = table();
    db.prepare("INSERT INTO t (id, amount, note, at) VALUES ('u', 1, 'old', 't')").run();
    const update = prepareRowWrite<Pick<Row, 'id' | 'amount' | 'note'>>(
      db,
      'UPDATE t SET amount = @amount, note = @note WHERE id = @id',
    );
    expect(update({ id: 'u', note: 'new', amount: 2 }).changes).toBe(1);
    expect(update({ id: 'missing', note: 'new', amount: 2 }).changes).toBe(0);
    expect(db.prepare('SELECT amount, note FROM t').get()).toEqual({ amount: 2, note: 'new' });
  });
});
