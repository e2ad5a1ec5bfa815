import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
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
/** Under load, entries are written at most this often (ms), in one transaction per write. */
export const REQUEST_LOG_FLUSH_MS = 5;
/** A queue this long is written on the next turn, whatever the interval. */
const FLUSH_ROWS = 512;

/** An entry as recorded: its `id` is given when it is written (it carries the row's seq). */
export type NewRequestLogRow = Omit<RequestLogRow, 'id'>;

/**
 * A request id: a random version-4 UUID whose last 12 hex digits are the row's `seq`, so a
 * lookup by id is a primary-key lookup (checked against the stored id) and needs no index.
 */
export function requestLogId(seq: number): string {
  const random = randomUUID();
  return `${random.slice(0, 24)}${seq.toString(16).padStart(12, '0')}`;
}

/** The seq a request id carries (NaN when it is not one of ours). */
export function seqOfRequestLogId(id: string): number {
  return id.length === 36 ? Number.parseInt(id.slice(24), 16) : Number.NaN;
}

/**
 * The request log. Entries are appended after their response has left and written shortly after,
 * outside any group-commit batch (a batch in progress is waited for): a log write never joins,
 * slows or rolls back a request's transaction. When idle an entry is written on the next
 * event-loop turn; under load the entries of up to REQUEST_LOG_FLUSH_MS share one transaction.
 * Every read of the log (list, get) writes the queue first, so it is never behind. It is
 * diagnostics: entries still queued when the process dies are lost. Retention is exact: each
 * write trims the log to the newest `limit` rows in the same transaction.
 */
export function createRequestLogRepo(db: Db, options: RequestLogRepoOptions = {}) {
  const keep = Math.max(1, options.limit ?? DEFAULT_REQUEST_LOG_LIMIT);
  let queue: NewRequestLogRow[] = [];
  let timer: NodeJS.Timeout | null = null;
  let immediate: NodeJS.Immediate | null = null;
  let lastFlush = 0;
  // Rows in the table (null: not known, read at the next write), and the highest seq.
  let rows: number | null = null;
  const listeners: ((rows: RequestLogRow[]) => void)[] = [];

  const insert = db.prepare<RequestLogRow & { seq: number }>(
    `INSERT INTO request_log (seq, id, created_at, env, merchant_id, api_key_id, api_key, method, route, path,
       status, duration_ms, request_body, response_body)
     VALUES (@seq, @id, @created_at, @env, @merchant_id, @api_key_id, @api_key, @method, @route, @path,
       @status, @duration_ms, @request_body, @response_body)`,
  );
  const countRows = db.prepare<[], { n: number; top: number | null }>(
    'SELECT COUNT(*) AS n, MAX(seq) AS top FROM request_log',
  );
  const topSeq = db.prepare<[], { top: number | null }>('SELECT MAX(seq) AS top FROM request_log');
  // The oldest rows beyond the limit: walks only the rows it deletes.
  const trim = db.prepare<[number]>(
    'DELETE FROM request_log WHERE seq IN (SELECT seq FROM request_log ORDER BY seq LIMIT ?)',
  );
  const bySeq = db.prepare<[number], RequestLogRow & { seq: number }>(
    'SELECT * FROM request_log WHERE seq = ?',
  );
  // Entries written before migration 10 have random ids: found by a scan (bounded by the limit).
  const byLegacyId = db.prepare<[string], RequestLogRow & { seq: number }>(
    'SELECT * FROM request_log WHERE id = ?',
  );
  const byId = (id: string): (RequestLogRow & { seq: number }) | undefined => {
    const seq = seqOfRequestLogId(id);
    if (Number.isSafeInteger(seq)) {
      const row = bySeq.get(seq);
      if (row?.id === id) return row;
    }
    return byLegacyId.get(id);
  };
  const writeAll = db.transaction((queued: NewRequestLogRow[]): RequestLogRow[] => {
    let count = rows;
    let seq: number;
    if (count === null) {
      const current = countRows.get()!;
      count = current.n;
      seq = current.top ?? 0;
    } else {
      seq = topSeq.get()!.top ?? 0;
    }
    const written: RequestLogRow[] = [];
    // Only the newest `keep` of this batch can survive the trim: skip writing the others.
    for (const row of queued.length > keep ? queued.slice(queued.length - keep) : queued) {
      seq++;
      const full = { ...row, id: requestLogId(seq) };
      insert.run({ ...full, seq });
      written.push(full);
    }
    count += written.length;
    if (count > keep) count -= trim.run(count - keep).changes;
    rows = count;
    return written;
  });

  /** Writes what is queued, unless a transaction is open (then a later turn does). */
  const flush = (): void => {
    if (queue.length === 0 || !db.open || db.inTransaction) return;
    const queued = queue;
    queue = [];
    lastFlush = performance.now();
    let written: RequestLogRow[];
    try {
      written = writeAll(queued);
    } catch (error) {
      rows = null;
      options.onError?.(error, queued.length);
      return;
    }
    for (const listener of listeners) listener(written);
  };
  const run = (): void => {
    timer = null;
    immediate = null;
    flush();
    // Still inside someone's transaction: try again on the next turn.
    if (queue.length > 0 && db.open) schedule();
  };
  const schedule = (): void => {
    if (immediate) return;
    const wait = REQUEST_LOG_FLUSH_MS - (performance.now() - lastFlush);
    if (wait <= 0 || queue.length >= FLUSH_ROWS) {
      if (timer) clearTimeout(timer);
      timer = null;
      immediate = setImmediate(run);
    } else if (!timer) {
      timer = setTimeout(run, wait);
      timer.unref();
    }
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
    /** Queues an entry; it is written soon, outside any open transaction. */
    append(row: NewRequestLogRow): void {
      queue.push(row);
      schedule();
    },
    /** Writes the queue now when no transaction is open (reads call it, and close does). */
    flush,
    /** After entries are written (the live stream). */
    onWritten(listener: (rows: RequestLogRow[]) => void): void {
      listeners.push(listener);
    },
    /** Drops what is queued and forgets the row count (a workspace reset or import). */
    clearQueue(): void {
      queue = [];
      rows = null;
    },
    get(id: string): RequestLogRow | undefined {
      const row = byId(id);
      return row && strip(row);
    },
    list(filter: RequestLogFilter): RequestLogRow[] {
      const params: Record<string, unknown> = { limit: filter.limit };
      if (filter.merchantId !== undefined) params.merchant_id = filter.merchantId;
      if (filter.env !== undefined) params.env = filter.env;
      if (filter.status !== undefined) Object.assign(params, filter.status);
      if (filter.startingAfter !== undefined) {
        const anchor = byId(filter.startingAfter);
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
