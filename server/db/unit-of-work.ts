import { CommitBatcher } from './batch.js';
import type { Db } from './connection.js';

interface AfterCommit {
  run: () => void;
  dropped: (() => void) | undefined;
}

/**
 * What a transaction is. `atomically(fn)` runs `fn` all or nothing: in an HTTP write it is a
 * savepoint inside the request's batch (the group commit, which commits on a later turn, after the
 * handler has returned), elsewhere (a scheduler job, a script) a SQLite transaction of its own,
 * and inside another service's work a savepoint of that. It is never the commit: a failing `fn`
 * rolls back its own work alone, and the work is durable only once the outermost transaction
 * commits. `afterCommit(run)` runs `run` once the outermost
 * transaction has committed — never if the work it belongs to rolls back. The event recorder
 * publishes events through it, the change feed its notices, the webhook dispatcher its sends: nothing
 * leaves the process before the write that caused it is durable.
 *
 * The group commit (`groupCommit`, server/db/batch.ts) is the outer transaction of an HTTP write
 * turn; it tells this unit when it has committed or rolled back.
 */
export class UnitOfWork {
  readonly groupCommit: CommitBatcher;
  /** In registration order; those registered inside a transaction still open sit past its mark. */
  private pending: AfterCommit[] = [];
  private depth = 0;
  private waiting = false;
  /**
   * One better-sqlite3 transaction function for every call (it is a savepoint when one is open):
   * `db.transaction(fn)` builds four wrapper functions each time it is called, ~20 µs on a write.
   */
  private readonly runInTransaction: <T>(fn: () => T) => T;

  constructor(private readonly db: Db) {
    const run = db.transaction((fn: () => unknown) => fn());
    this.runInTransaction = <T>(fn: () => T) => run(fn) as T;
    this.groupCommit = new CommitBatcher(db, {
      committed: () => this.flush(),
      rolledBack: () => this.drop(),
    });
  }

  /** Whether a transaction is open (this unit's, the group commit's, or one begun on the connection). */
  get inTransaction(): boolean {
    return this.depth > 0 || this.db.inTransaction;
  }

  /**
   * Runs `fn` in one transaction (a savepoint when one is already open). What it registers with
   * `afterCommit` runs after the outermost commit, and is dropped when its own work rolls back.
   */
  atomically<T>(fn: () => T): T {
    const mark = this.pending.length;
    this.depth++;
    let result: T;
    try {
      result = this.runInTransaction(fn);
    } catch (error) {
      this.depth--;
      for (const item of this.pending.splice(mark)) item.dropped?.();
      throw error;
    }
    this.depth--;
    this.flushIfCommitted();
    return result;
  }

  /**
   * Runs `run` once the current transaction has committed (at once outside one); never if the work
   * it belongs to rolls back (`dropped` runs instead).
   */
  afterCommit(run: () => void, dropped?: () => void): void {
    this.pending.push({ run, dropped });
    this.flushIfCommitted();
  }

  private flushIfCommitted(): void {
    if (this.depth > 0 || this.pending.length === 0) return;
    if (!this.db.inTransaction) {
      this.flush();
      return;
    }
    // The group commit tells us when it ends; a transaction begun on the connection itself (an
    // import, a test) does not: look again on the next turn.
    if (this.groupCommit.open || this.waiting) return;
    this.waiting = true;
    setImmediate(() => {
      this.waiting = false;
      this.flushIfCommitted();
    });
  }

  /** Committed: run what waited for it, in order. */
  private flush(): void {
    const items = this.pending;
    this.pending = [];
    for (const item of items) item.run();
  }

  /** The outer transaction rolled back: what it held never happened. */
  private drop(): void {
    const items = this.pending;
    this.pending = [];
    for (const item of items) item.dropped?.();
  }
}
