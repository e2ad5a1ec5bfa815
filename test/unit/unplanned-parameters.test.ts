import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { unplannedParameters } from '../../server/db/statements.js';

describe('reads that order or limit', () => {
  it('take each parameter as a scalar subquery, outside quotes; other reads are left as written', () => {
    expect(unplannedParameters('SELECT * FROM t WHERE a = ? AND b = @b ORDER BY rowid DESC LIMIT ?')).toBe(
      'SELECT * FROM t WHERE a = (SELECT ?) AND b = (SELECT @b) ORDER BY rowid DESC LIMIT (SELECT ?)',
    );
    expect(unplannedParameters("SELECT * FROM t WHERE a = '?' AND b = ? LIMIT 1")).toBe(
      "SELECT * FROM t WHERE a = '?' AND b = (SELECT ?) LIMIT 1",
    );
    expect(unplannedParameters('SELECT * FROM t WHERE id = ?')).toBe('SELECT * FROM t WHERE id = ?');
  });

  it('answer the same rows in the same order, by the same index', () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE t (id TEXT, m TEXT, env TEXT); CREATE INDEX t_m ON t (m, env);');
    const insert = db.prepare('INSERT INTO t VALUES (?, ?, ?)');
    for (let i = 0; i < 200; i++) insert.run(`r${i}`, `m${i % 7}`, i % 2 ? 'test' : 'production');
    const source = 'SELECT id FROM t WHERE m = ? AND env = ? ORDER BY rowid DESC LIMIT ?';
    const plain = db.prepare(source).all('m3', 'test', 5);
    const rewritten = db.prepare(unplannedParameters(source));
    expect(rewritten.all('m3', 'test', 5)).toEqual(plain);
    expect(plain).toHaveLength(5);
    const plan = db.prepare(`EXPLAIN QUERY PLAN ${unplannedParameters(source)}`).all('m3', 'test', 5);
    expect(JSON.stringify(plan)).toContain('USING INDEX t_m');
    const json = db.prepare(
      unplannedParameters('SELECT value FROM json_each(?) WHERE value != ? ORDER BY value LIMIT ?'),
    );
    expect(json.all('["b","a","c"]', 'c', 5)).toEqual([{ value: 'a' }, { value: 'b' }]);
  });
});
