import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { UnitOfWork } from '../../server/db/unit-of-work.js';

/**
 * What a transaction is (server/db/unit-of-work.ts): a SQLite transaction outside, a savepoint
 * inside; what waits for the commit runs after the outermost one, in order, and never for work
 * that rolled back — inside the group commit too.
 */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

function setup() {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE t (n INTEGER)');
  const unit = new UnitOfWork(db);
  const insert = db.prepare<[number]>('INSERT INTO t (n) VALUES (?)');
  const rows = () => (db.prepare('SELECT n FROM t ORDER BY n').all() as { n: number }[]).map((r) => r.n);
  const log: string[] = [];
  const queued = (name: string) =>
    unit.afterCommit(
      () => log.push(`${name} ran (open: ${db.inTransaction})`),
      () => log.push(`${name} dropped`),
    );
  return { db, unit, insert, rows, log, queued };
}

describe('UnitOfWork', () => {
  it('outside any transaction: a SQLite transaction, then what waited for it runs in order', () => {
    const { db, unit, insert, rows, log, queued } = setup();
    unit.atomically(() => {
      expect(db.inTransaction).toBe(true);
      insert.run(1);
      queued('a');
      queued('b');
      expect(log).toEqual([]);
    });
    expect(rows()).toEqual([1]);
    expect(log).toEqual(['a ran (open: false)', 'b ran (open: false)']);
    // Outside any transaction there is nothing to wait for.
    queued('c');
    expect(log.at(-1)).toBe('c ran (open: false)');
  });

  it('inside one: a savepoint that rolls back alone, with what it registered', () => {
    const { unit, insert, rows, log, queued } = setup();
    unit.atomically(() => {
      insert.run(1);
      queued('outer');
      expect(() =>
        unit.atomically(() => {
          insert.run(2);
          queued('inner');
          throw new Error('no');
        }),
      ).toThrow('no');
      expect(log).toEqual(['inner dropped']);
      unit.atomically(() => {
        insert.run(3);
        queued('sibling');
      });
      // A savepoint that committed still waits for the outermost commit.
      expect(log).toEqual(['inner dropped']);
    });
    expect(rows()).toEqual([1, 3]);
    expect(log).toEqual(['inner dropped', 'outer ran (open: false)', 'sibling ran (open: false)']);
  });

  it('in the group commit: everything waits for the batch, a failed request is dropped alone', async () => {
    const { db, unit, insert, rows, log, queued } = setup();
    const batch = unit.groupCommit;
    batch.join();
    const acknowledged = batch.durable();
    unit.atomically(() => {
      insert.run(1);
      queued('first request');
    });
    expect(() =>
      unit.atomically(() => {
        insert.run(2);
        queued('failed request');
        throw new Error('refused');
      }),
    ).toThrow('refused');
    queued('outside a request');
    expect(log).toEqual(['failed request dropped']);
    expect(db.inTransaction).toBe(true);
    await acknowledged;
    expect(rows()).toEqual([1]);
    expect(log).toEqual([
      'failed request dropped',
      'first request ran (open: false)',
      'outside a request ran (open: false)',
    ]);
  });

  it('a batch the database rolled back drops everything that waited for it', async () => {
    const { db, unit, insert, rows, log, queued } = setup();
    unit.groupCommit.join();
    const acknowledged = unit.groupCommit.durable();
    unit.atomically(() => {
      insert.run(1);
      queued('lost');
    });
    // As SQLite does by itself on a full disk: the transaction is gone before the commit.
    db.exec('ROLLBACK');
    await expect(acknowledged).rejects.toThrow(/rolled the transaction back/);
    expect(rows()).toEqual([]);
    expect(log).toEqual(['lost dropped']);
  });

  it('waits for a transaction begun on the connection itself (an import), however long it stays open', async () => {
    const { db, unit, log, queued } = setup();
    db.exec('BEGIN');
    queued('late');
    for (let i = 0; i < 5; i++) await turn();
    expect(log).toEqual([]);
    expect(unit.inTransaction).toBe(true);
    db.exec('COMMIT');
    await turn();
    expect(log).toEqual(['late ran (open: false)']);
    expect(unit.inTransaction).toBe(false);
  });
});
