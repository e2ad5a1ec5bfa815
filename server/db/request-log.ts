import type { Env } from '../contract/common.js';
import { ValidationError } from '../errors.js';
import type { Db } from './connection.js';

export interface RequestLogRow {
  id: string;
  created_at: string;
  env: Env;
  merchant_id: string | null;
  api_key_id: string | null;
  api_key: string | null;
  method: string;
  route: string | null;
  path: string;
  status: number;
  duration_ms: number;
  request_body: string | null;
  response_body: string | null;
}

export interface RequestLogFilter {
  merchantId?: string | undefined;
  env?: Env | undefined;
  /** inclusive status range */
  status?: { min: number; max: number } | undefined;
  limit: number;
  startingAfter?: string | undefined;
}

export interface RequestLogRepoOptions {
  /** rows kept: the newest `limit` (default 10,000) */
  limit?: number | undefined;
  /** a write that failed (a full disk): the entries are dropped, the requests are not affected */
  onError?: (error: unknown, dropped: number) => void;
}

export const DEFAULT_REQUEST_LOG_LIMIT = 10_000;
const PRUNE_EVERY = 500;

/**
 * The request log. Entries are appended after their response has left and written on the next
 * event-loop turn, outside any group-commit batch (a batch in progress is waited for): a log write
 * never joins, slows or rolls back a request's transaction, and several entries commit together.
 * It is diagnostics: entries still queued when the process dies are lost. Retention keeps the
 * newest `limit` rows, pruned in one DELETE every 500 inserts (so at most limit + 499 rows).
 */
export function createRequestLogRepo(db: Db, options: RequestLogRepoOptions = {}) {
  const keep = Math.max(1, options.limit ?? DEFAULT_REQUEST_LOG_LIMIT);
  const pruneEvery = Math.min(PRUNE_EVERY, keep);
  let queue: RequestLogRow[] = [];
  let scheduled = false;
  // Prune at the first write after an open too (the limit may be lower than last time).
  let sincePrune = pruneEvery;
  const listeners: ((rows: RequestLogRow[]) => void)[] = [];

  const insert = db.prepare<RequestLogRow>(
    `INSERT INTO request_log (id, created_at, env, merchant_id, api_key_id, api_key, method, route, path,
       status, duration_ms, request_body, response_body)
     VALUES (@id, @created_at, @env, @merchant_id, @api_key_id, @api_key, @method, @route, @path,
       @status, @duration_ms, @request_body, @response_body)`,
  );
  const prune = db.prepare<[number]>(
    `DELETE FROM request_log WHERE seq < (SELECT seq FROM request_log ORDER BY seq DESC LIMIT 1 OFFSET ?)`,
  );
  const byId = db.prepare<[string], RequestLogRow & { seq: number }>(
    'SELECT * FROM request_log WHERE id = ?',
  );
  const writeAll = db.transaction((rows: RequestLogRow[]) => {
    for (const row of rows) insert.run(row);
    sincePrune += rows.length;
    if (sincePrune >= pruneEvery) {
      sincePrune = 0;
      prune.run(keep - 1);
    }
  });

  /** Writes what is queued, unless a transaction is open (then the next turn does). */
  const flush = (): void => {
    if (queue.length === 0 || !db.open || db.inTransaction) return;
    const rows = queue;
    queue = [];
    try {
      writeAll(rows);
    } catch (error) {
      options.onError?.(error, rows.length);
      return;
    }
    for (const listener of listeners) listener(rows);
  };
  const schedule = (): void => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      flush();
      // Still inside someone's transaction: try again on the next turn.
      if (queue.length > 0 && db.open) schedule();
    });
  };

  const statements = new Map<string, ReturnType<typeof db.prepare>>();
  const listStatement = (filter: RequestLogFilter, cursor: boolean) => {
    const where: string[] = [];
    if (filter.merchantId !== undefined) where.push('merchant_id = @merchant_id');
    if (filter.env !== undefined) where.push('env = @env');
    if (filter.status !== undefined) where.push('status BETWEEN @min AND @max');
    if (cursor) where.push('seq < @seq');
    const sql = `SELECT * FROM request_log${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY seq DESC LIMIT @limit`;
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  const strip = ({ seq: _seq, ...row }: RequestLogRow & { seq: number }): RequestLogRow => row;

  return {
    /** Queues an entry; it is written on the next turn, outside any open transaction. */
    append(row: RequestLogRow): void {
      queue.push(row);
      schedule();
    },
    /** Writes the queue now when no transaction is open (reads call it, and close does). */
    flush,
    /** After entries are written (the live stream). */
    onWritten(listener: (rows: RequestLogRow[]) => void): void {
      listeners.push(listener);
    },
    /** Drops what is queued (a workspace reset). */
    clearQueue(): void {
      queue = [];
    },
    get(id: string): RequestLogRow | undefined {
      const row = byId.get(id);
      return row && strip(row);
    },
    list(filter: RequestLogFilter): RequestLogRow[] {
      const params: Record<string, unknown> = { limit: filter.limit };
      if (filter.merchantId !== undefined) params.merchant_id = filter.merchantId;
      if (filter.env !== undefined) params.env = filter.env;
      if (filter.status !== undefined) Object.assign(params, filter.status);
      if (filter.startingAfter !== undefined) {
        const anchor = byId.get(filter.startingAfter);
        if (!anchor)
          throw new ValidationError('starting_after', `no such object in this list: ${filter.startingAfter}`);
        params.seq = anchor.seq;
      }
      return (
        listStatement(filter, filter.startingAfter !== undefined).all(params) as (RequestLogRow & {
          seq: number;
        })[]
      ).map(strip);
    },
    count(): number {
      return (db.prepare('SELECT COUNT(*) AS n FROM request_log').get() as { n: number }).n;
    },
  };
}
export type RequestLogRepo = ReturnType<typeof createRequestLogRepo>;
