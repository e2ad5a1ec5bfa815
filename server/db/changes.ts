import { EventEmitter } from 'node:events';
import type { Change, ChangeKind, ChangeNotice } from '../contract/sandbox-state.js';
import type { ChangeSink } from './statements.js';
import type { UnitOfWork } from './unit-of-work.js';

export type { Change, ChangeKind, ChangeNotice } from '../contract/sandbox-state.js';

/** The most changes one notice names one by one; past it, a notice names only the areas. */
const MAX_ITEMS = 50;

/**
 * The change feed: collects what writes touched and, once they are committed, publishes one
 * notice per commit (`event: change` on the live stream). Every write statement of the
 * repositories reports the row it changed (server/db/statements.ts), so no route, job or page has
 * to remember to announce its change.
 */
export class ChangeFeed implements ChangeSink {
  private readonly bus = new EventEmitter();
  private pending = new Map<string, Change>();
  /** Set once a commit changed more than MAX_ITEMS things: then only the kinds are kept. */
  private overflow: Set<ChangeKind> | null = null;
  private scheduled = false;

  private seq = 0;

  constructor(private readonly unit: Pick<UnitOfWork, 'afterCommit' | 'inTransaction'>) {
    this.bus.setMaxListeners(0);
  }

  /**
   * Whether anyone listens (a live stream is open): with no one, writes are not described at all.
   * A stream that opens later reads the current state anyway, its notices start with its listener.
   */
  get listening(): boolean {
    return this.bus.listenerCount('change') > 0;
  }

  /** Something changed; published once it is committed (the same turn's writes coalesce). */
  note(change: Change): void {
    if (this.overflow) this.overflow.add(change.kind);
    else {
      const key = `${change.kind}|${change.id ?? ''}|${change.merchant_id ?? ''}|${change.env ?? ''}`;
      if (!this.pending.has(key)) this.pending.set(key, change);
      // A big commit (a reset, a bulk import) is named by its areas: no need to keep every row.
      if (this.pending.size > MAX_ITEMS)
        this.overflow = new Set([...this.pending.values()].map((c) => c.kind));
    }
    if (this.scheduled) return;
    this.scheduled = true;
    this.unit.afterCommit(this.soon, this.soon);
  }

  on(listener: (notice: ChangeNotice) => void): () => void {
    this.bus.on('change', listener);
    return () => this.bus.off('change', listener);
  }

  /**
   * The workspace's data was replaced under a new context (a restore, a reset) or deleted:
   * listeners of this feed (live streams) hear it once, and follow the new context or end.
   */
  retire(reason: 'replaced' | 'deleted'): void {
    this.bus.emit('retire', reason);
    this.bus.removeAllListeners();
  }

  onRetire(listener: (reason: 'replaced' | 'deleted') => void): () => void {
    this.bus.once('retire', listener);
    return () => this.bus.off('retire', listener);
  }

  /**
   * After the commit (or the rollback: a needless re-read is harmless, a missed one is not, and
   * the same notice may name writes that did commit), on the next turn, so that the writes of one
   * turn are one notice. A transaction open by then (the next group commit, already holding new
   * writes) is waited for.
   */
  private readonly soon = (): void => {
    setImmediate(() => {
      if (this.unit.inTransaction) this.unit.afterCommit(this.soon, this.soon);
      else this.publish();
    });
  };

  private publish(): void {
    this.scheduled = false;
    const changes: Change[] = this.overflow
      ? [...this.overflow].map((kind) => ({ kind }))
      : [...this.pending.values()];
    this.pending = new Map();
    this.overflow = null;
    if (changes.length === 0) return;
    this.seq += 1;
    this.bus.emit('change', { seq: this.seq, changes } satisfies ChangeNotice);
  }
}
