import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { CommitBatcher } from '../../server/db/batch.js';

/**
 * The group commit's timing (server/db/batch.ts): a lone write commits on the next event-loop
 * turn; with several writes waiting the batch stays open one more turn, and what joins in that
 * turn commits with it; nothing is acknowledged before its commit.
 */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

function setup() {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE t (n INTEGER)');
  const commits: number[] = [];
  const count = () => (db.prepare('SELECT COUNT(*) AS n FROM t').get() as { n: number }).n;
  const batcher = new CommitBatcher(db, {
    committed: () => commits.push(count()),
    rolledBack: () => commits.push(-1),
  });
  const write = (n: number) => {
    batcher.join();
    db.prepare('INSERT INTO t (n) VALUES (?)').run(n);
    return batcher.durable();
  };
  return { db, batcher, commits, write };
}

describe('CommitBatcher', () => {
  it('commits a lone write on the next turn', async () => {
    const { db, commits, write } = setup();
    let acknowledged = false;
    void write(1).then(() => {
      acknowledged = true;
    });
    expect(db.inTransaction).toBe(true);
    await turn();
    await turn();
    expect(db.inTransaction).toBe(false);
    expect(acknowledged).toBe(true);
    expect(commits).toEqual([1]);
  });

  it('keeps a batch of several writes open one more turn; what joins then commits with it', async () => {
    const { db, commits, write } = setup();
    const acknowledged: number[] = [];
    for (const n of [1, 2]) void write(n).then(() => acknowledged.push(n));
    // This runs in the turn after the writes above: the batch is still open, so it joins it.
    setImmediate(() => void write(3).then(() => acknowledged.push(3)));
    await turn();
    expect(db.inTransaction).toBe(true);
    expect(acknowledged).toEqual([]);
    await turn();
    await turn();
    expect(db.inTransaction).toBe(false);
    expect(commits).toEqual([3]);
    expect(acknowledged.sort()).toEqual([1, 2, 3]);
  });

  it('a batch committed early (before a close) is not cut short by its turn later', async () => {
    const { db, batcher, commits, write } = setup();
    void write(1);
    void write(2);
    batcher.commit();
    expect(commits).toEqual([2]);
    // A new batch opened at once: the first batch's pending turns must leave it to its own.
    void write(3);
    void write(4);
    await turn();
    expect(db.inTransaction).toBe(true);
    await turn();
    await turn();
    expect(db.inTransaction).toBe(false);
    expect(commits).toEqual([2, 4]);
  });
});
