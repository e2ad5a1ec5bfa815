import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { ValidationError } from '../errors.js';
import { PendingRecords } from './pending.js';
import {
  type NewRequestLogRow,
  positionOf,
  type RequestLogFilter,
  type RequestLogRow,
  requestLogId,
  type StoredRequestLogRow,
  withoutSeq,
} from './rows.js';
import {
  closeSegment,
  createSegment,
  cutBack,
  openSegments,
  readRecord,
  removeSegment,
  type Segment,
  writeAll,
} from './segments.js';

export interface RequestLogOptions {
  /** the log's directory; absent: the log is kept in memory (a sandbox in memory) */
  dir?: string | undefined;
  /** entries kept: the newest `limit` (default 10,000) */
  limit?: number | undefined;
  /** a write failed (a full disk): its entries are dropped, the requests are not; once per run of failures */
  onError?: (error: unknown, dropped: number) => void;
}

export const DEFAULT_REQUEST_LOG_LIMIT = 10_000;
/**
 * Under load, queued entries are written at most this often (ms), in one write per segment (an
 * idle log writes on the next turn). 25 rather than 5: each write(2) has a fixed cost that was a
 * tenth of a GET's CPU at 5 ms (A/B, alternating runs: 92 → 79 µs of main-thread CPU per GET);
 * reads write the queue first, and the live stream shows an entry at most 25 ms late.
 */
export const REQUEST_LOG_FLUSH_MS = 25;

/** What the index keeps of an entry: enough to filter and page without reading it. */
interface Entry {
  seq: number;
  id: string;
  merchant_id: string | null;
  env: string;
  status: number;
  /** where its record is; null until it is written (and always, in memory) */
  segment: Segment | null;
  /** in its segment once written; while queued, in the log's pending buffer */
  offset: number;
  length: number;
  /** the entry itself in a log in memory (a log on disk holds queued records as bytes: PendingRecords) */
  row: StoredRequestLogRow | null;
  /** out of the retention window (or lost to a failed write) */
  gone: boolean;
}

/**
 * The request log: append-only records in segment files beside the workspace database, with a
 * small in-memory index (seq, id, merchant, env, status and where the record is) of the newest
 * `limit` entries.
 *
 * Why not a SQLite table: the log is written on every /v1 request, reads included, and a 1-2 KB
 * row insert costs ~20 µs of CPU however it is tuned — as much as the rest of a GET. A record
 * costs a small JSON header and a share of one write(2) per batch; the index answers the list
 * filters and paging; the few reads (the dashboard, the control API) read their records.
 *
 * Durability: entries are written within REQUEST_LOG_FLUSH_MS (on the next turn when idle); a
 * killed process keeps everything written (the OS has it), a torn last record is cut off at the
 * next start. It is diagnostics: no fsync. Retention is exact: the index holds the newest `limit`
 * entries after every append, and a segment file is deleted once none of its records is kept.
 * Without a directory (a sandbox in memory) the entries stay in memory.
 */
export class RequestLog {
  private readonly dir: string | undefined;
  private readonly keep: number;
  private readonly segmentRows: number;
  private readonly index: Entry[] = [];
  /** index[head] is the oldest entry kept (entries before it are dropped lazily) */
  private head = 0;
  private readonly segments: Segment[] = [];
  private top = 0;
  private nextSegment = 1;
  /** entries appended and not yet written, in order */
  private queued: Entry[] = [];
  private timer: NodeJS.Timeout | null = null;
  private immediate: NodeJS.Immediate | null = null;
  private lastFlush = 0;
  private readonly listeners: ((rows: readonly StoredRequestLogRow[]) => void)[] = [];
  /** this log's id prefix (see requestLogId) */
  private readonly idPrefix = randomUUID().slice(0, 24);
  /** queued records, encoded (a log on disk) */
  private readonly pending = new PendingRecords();
  /** a write failed and none has succeeded since (the error is reported once per such run) */
  private failing = false;

  constructor(private readonly options: RequestLogOptions = {}) {
    this.dir = options.dir;
    this.keep = Math.max(1, options.limit ?? DEFAULT_REQUEST_LOG_LIMIT);
    // Four segments' worth of entries: a deleted segment frees about a quarter of the log.
    this.segmentRows = Math.max(1, Math.ceil(this.keep / 4));
    if (this.dir !== undefined) this.load(this.dir);
  }

  /** Appends an entry (written soon, outside the request); returns it with its id and seq. */
  append(row: NewRequestLogRow): StoredRequestLogRow {
    const seq = ++this.top;
    // One literal, not spreads: this runs on every /v1 request.
    const stored: StoredRequestLogRow = {
      seq,
      id: requestLogId(seq, this.idPrefix),
      created_at: row.created_at,
      env: row.env,
      merchant_id: row.merchant_id,
      api_key_id: row.api_key_id,
      api_key: row.api_key,
      method: row.method,
      route: row.route,
      path: row.path,
      status: row.status,
      duration_ms: row.duration_ms,
      request_body: row.request_body,
      response_body: row.response_body,
    };
    if (row.fault) stored.fault = row.fault;
    this.add(stored);
    this.schedule();
    return stored;
  }

  /**
   * After entries are written (the live stream): the stored rows themselves, `seq` included, which
   * a listener must not change. Returns the unsubscribe function.
   */
  onWritten(listener: (rows: readonly StoredRequestLogRow[]) => void): () => void {
    this.listeners.push(listener);
    return () => {
      const at = this.listeners.indexOf(listener);
      if (at !== -1) this.listeners.splice(at, 1);
    };
  }

  /** Writes what is queued now (reads do it first, so they are never behind). */
  flush(): void {
    this.write(true);
  }

  /** Newest first, filtered, after `startingAfter` when given. */
  list(filter: RequestLogFilter): RequestLogRow[] {
    this.flush();
    let from = this.index.length - 1;
    if (filter.startingAfter !== undefined) {
      const anchor = this.position(filter.startingAfter);
      if (anchor === -1)
        throw new ValidationError('starting_after', `no such object in this list: ${filter.startingAfter}`);
      from = anchor - 1;
    }
    const rows: RequestLogRow[] = [];
    for (let i = from; i >= this.head && rows.length < filter.limit; i--) {
      const entry = this.index[i]!;
      if (filter.merchantId !== undefined && entry.merchant_id !== filter.merchantId) continue;
      if (filter.unauthenticated !== undefined && filter.unauthenticated !== (entry.merchant_id === null))
        continue;
      if (filter.env !== undefined && entry.env !== filter.env) continue;
      if (filter.status && (entry.status < filter.status.min || entry.status > filter.status.max)) continue;
      rows.push(withoutSeq(this.read(entry)));
    }
    return rows;
  }

  get(id: string): RequestLogRow | undefined {
    this.flush();
    const at = this.position(id);
    return at === -1 ? undefined : withoutSeq(this.read(this.index[at]!));
  }

  count(): number {
    return this.index.length - this.head;
  }

  /** Every entry kept, oldest first (an export). */
  dump(): StoredRequestLogRow[] {
    this.flush();
    const rows: StoredRequestLogRow[] = [];
    for (let i = this.head; i < this.index.length; i++) rows.push(this.read(this.index[i]!));
    return rows;
  }

  /** The log becomes exactly `rows` (an import), in seq order; new entries follow them. */
  replace(rows: readonly StoredRequestLogRow[]): void {
    this.clear();
    let last = 0;
    for (const row of [...rows].sort((a, b) => a.seq - b.seq)) {
      // Positions are unique and increasing (a damaged bundle's duplicates are skipped).
      if (!Number.isSafeInteger(row.seq) || row.seq <= last) continue;
      last = row.seq;
      this.add({ ...row });
    }
    this.top = Math.max(this.top, last);
    // Imported entries are history, not news: no `event: request` for them.
    this.write(false);
  }

  /** Empties the log (a workspace reset): queued entries are dropped, ids keep counting up. */
  clear(): void {
    this.cancelTimers();
    this.queued = [];
    this.pending.reset();
    for (const segment of this.segments) this.removeFile(segment);
    this.segments.length = 0;
    this.index.length = 0;
    this.head = 0;
  }

  /** Closes its files without writing or deleting: the log goes with its directory (a reset). */
  discard(): void {
    this.cancelTimers();
    this.queued = [];
    this.pending.reset();
    for (const segment of this.segments.splice(0)) closeSegment(segment);
  }

  /** Writes what is queued and closes the files. */
  close(): void {
    this.flush();
    for (const segment of this.segments) closeSegment(segment);
    this.segments.length = 0;
  }

  // ---- internals ---------------------------------------------------------------------------------

  /** Indexes a new entry (queued for writing) and applies retention. */
  private add(row: StoredRequestLogRow): void {
    const pending = this.dir === undefined ? null : this.pending.add(row);
    const entry: Entry = {
      seq: row.seq,
      id: row.id,
      merchant_id: row.merchant_id,
      env: row.env,
      status: row.status,
      segment: null,
      offset: pending?.offset ?? 0,
      length: pending?.length ?? 0,
      row: pending ? null : row,
      gone: false,
    };
    this.index.push(entry);
    this.queued.push(entry);
    while (this.count() > this.keep) this.dropOldest();
  }

  /** A queued entry's row (in a log on disk, decoded from its pending record). */
  private queuedRow(entry: Entry): StoredRequestLogRow {
    const row = entry.row ?? this.pending.row(entry.offset);
    if (!row) throw new Error(`request log: damaged queued record ${entry.id}`);
    return row;
  }

  /**
   * Writes the queue: its records (encoded when appended), one write per segment touched. A failed
   * write (a full disk) loses that batch's entries from there on: they leave the index and the
   * file is cut back, so a segment never holds a hole or half a record; the requests never see it.
   */
  private write(announce: boolean): void {
    this.cancelTimers();
    if (this.queued.length === 0) return;
    const queued = this.queued.filter((entry) => !entry.gone);
    this.queued = [];
    this.lastFlush = performance.now();
    // The rows for the listeners, taken before the written records leave memory.
    const rows = announce && this.listeners.length > 0 ? queued.map((entry) => this.queuedRow(entry)) : null;
    let written = queued.length;
    if (this.dir !== undefined) {
      for (let i = 0; i < queued.length; ) {
        const segment = this.current();
        const from = i;
        const start = segment.size;
        const take = Math.min(queued.length - i, this.segmentRows - segment.total);
        i += take;
        const batch = queued.slice(from, i);
        const bytes = this.pendingBytes(batch);
        let at = start;
        for (const entry of batch) {
          entry.segment = segment;
          entry.offset = at;
          at += entry.length;
        }
        segment.size = at;
        segment.live += take;
        segment.total += take;
        try {
          writeAll(segment, bytes, start);
          this.failing = false;
        } catch (error) {
          written = from;
          this.lose(queued.slice(from), segment, start);
          if (!this.failing) this.options.onError?.(error, queued.length - from);
          this.failing = true;
          break;
        }
      }
      this.pending.reset();
    }
    if (!rows || written === 0) return;
    const announced = written === rows.length ? rows : rows.slice(0, written);
    for (const listener of this.listeners) listener(announced);
  }

  /** A batch's pending bytes: one run (the window drops the oldest queued entries first). */
  private pendingBytes(batch: readonly Entry[]): Buffer {
    const last = batch.at(-1)!;
    return this.pending.bytes(batch[0]!.offset, last.offset + last.length);
  }

  /** The segment new records go to (a new one once the last is full or failed). */
  private current(): Segment {
    const last = this.segments.at(-1);
    if (last && last.total < this.segmentRows) return last;
    // A full segment all of whose records already left the window (kept while it was the newest).
    if (last && last.live === 0) {
      this.dropSegment(last);
    }
    const segment = createSegment(this.dir!, this.nextSegment++);
    this.segments.push(segment);
    return segment;
  }

  private dropOldest(): void {
    const entry = this.index[this.head]!;
    this.head += 1;
    entry.gone = true;
    entry.row = null;
    if (entry.segment) this.release(entry.segment);
    // Compact the index now and then rather than shifting it on every append.
    if (this.head > 1024 && this.head * 2 > this.index.length) {
      this.index.splice(0, this.head);
      this.head = 0;
    }
  }

  /** One record of `segment` left the window: the file goes with its last one (not the newest). */
  private release(segment: Segment): void {
    segment.live -= 1;
    if (segment.live > 0 || segment === this.segments.at(-1)) return;
    this.dropSegment(segment);
  }

  /** A write of `lost` to `segment` at `start` failed: they leave the index, the file is cut back. */
  private lose(lost: Entry[], segment: Segment, start: number): void {
    const first = lost[0]!.seq;
    let at = this.index.length;
    while (at > this.head && this.index[at - 1]!.seq >= first) at--;
    this.index.splice(at);
    for (const entry of lost) {
      entry.gone = true;
      entry.row = null;
      if (entry.segment === segment) segment.live -= 1;
      entry.segment = null;
    }
    // It takes nothing more: the next record starts a new file (used again at once when the disk
    // has room again, or when the file itself was the problem).
    segment.total = Number.POSITIVE_INFINITY;
    cutBack(segment, start);
    if (segment.live === 0) {
      this.dropSegment(segment);
    }
  }

  /** A segment none of whose records is kept: its file goes and it leaves the list. */
  private dropSegment(segment: Segment): void {
    this.removeFile(segment);
    this.segments.splice(this.segments.indexOf(segment), 1);
  }

  private removeFile(segment: Segment): void {
    removeSegment(this.dir!, segment);
  }

  /** Where an id is in the index (-1: not kept). */
  private position(id: string): number {
    return positionOf(this.index, this.head, id);
  }

  private read(entry: Entry): StoredRequestLogRow {
    if (entry.row) return entry.row;
    const row = readRecord(entry.segment!, entry.offset, entry.length);
    if (!row) throw new Error(`request log: damaged record ${entry.id} in ${entry.segment!.name}`);
    return row;
  }

  private schedule(): void {
    if (this.immediate) return;
    const wait = REQUEST_LOG_FLUSH_MS - (performance.now() - this.lastFlush);
    if (wait <= 0) {
      if (this.timer) clearTimeout(this.timer);
      this.timer = null;
      this.immediate = setImmediate(() => this.flush());
    } else if (!this.timer) {
      this.timer = setTimeout(() => this.flush(), wait);
      this.timer.unref();
    }
  }

  private cancelTimers(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
    this.timer = null;
    this.immediate = null;
  }

  /** Reads the segments of an earlier run: the index, the next seq; a torn last record cut off. */
  private load(dir: string): void {
    const { segments, next } = openSegments(dir, (segment, row, offset, length) => {
      if (!Number.isSafeInteger(row.seq) || row.seq <= this.top) return false;
      this.index.push({
        seq: row.seq,
        id: row.id,
        merchant_id: row.merchant_id,
        env: row.env,
        status: row.status,
        segment,
        offset,
        length,
        row: null,
        gone: false,
      });
      this.top = row.seq;
      return true;
    });
    this.segments.push(...segments);
    this.nextSegment = next;
    while (this.count() > this.keep) this.dropOldest();
    for (const segment of [...this.segments]) {
      if (segment.live === 0 && segment !== this.segments.at(-1)) {
        this.dropSegment(segment);
      }
    }
  }
}
