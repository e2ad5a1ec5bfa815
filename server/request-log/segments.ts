import {
  closeSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { decode } from './codec.js';
import type { StoredRequestLogRow } from './rows.js';

/**
 * The segment files of a log directory: `00000001.log`, `00000002.log`, … each a run of records
 * (codec.ts). Files are only appended to, cut back after a failed write or a torn last record,
 * and deleted whole; which records a segment still holds is the log's business (log.ts).
 */

/** One segment file. */
export interface Segment {
  name: string;
  fd: number;
  /** bytes written */
  size: number;
  /** records in it still inside the retention window */
  live: number;
  /** records ever put in it (it takes no more once full, or after a failed write) */
  total: number;
}

const SEGMENT_FILE = /^(\d{8})\.log$/;

/** Where a workspace database's request log lives: a directory beside it, as SQLite keeps `-wal`. */
export function requestLogDir(dbPath: string): string | undefined {
  return dbPath === ':memory:' ? undefined : `${dbPath}-requests`;
}

/** A new, empty segment file numbered `number`. */
export function createSegment(dir: string, number: number): Segment {
  const name = `${String(number).padStart(8, '0')}.log`;
  mkdirSync(dir, { recursive: true });
  return { name, fd: openSync(join(dir, name), 'w+'), size: 0, live: 0, total: 0 };
}

/** Writes all of `buffer` at `offset` (a short write continues where it stopped). */
export function writeAll(segment: Segment, buffer: Buffer, offset: number): void {
  let done = 0;
  while (done < buffer.length)
    done += writeSync(segment.fd, buffer, done, buffer.length - done, offset + done);
}

/** The record of `length` bytes at `offset`, or null when it does not decode (damaged). */
export function readRecord(segment: Segment, offset: number, length: number): StoredRequestLogRow | null {
  const bytes = Buffer.allocUnsafe(length);
  readSync(segment.fd, bytes, 0, length, offset);
  return decode(bytes, 0)?.row ?? null;
}

/** Cuts the file back to `size` bytes (after a failed write: no half record stays behind). */
export function cutBack(segment: Segment, size: number): void {
  segment.size = size;
  try {
    ftruncateSync(segment.fd, size);
  } catch {
    // Nothing more is written to it; a restart cuts a torn record off anyway.
  }
}

export function closeSegment(segment: Segment): void {
  closeSync(segment.fd);
}

/** Closes and deletes the file. */
export function removeSegment(dir: string, segment: Segment): void {
  closeSync(segment.fd);
  rmSync(join(dir, segment.name), { force: true });
}

/**
 * Opens the segments an earlier run left in `dir`, oldest first, and calls `visit` with each
 * record in order; a record cut short by a kill (or damaged) is cut off with anything after it in
 * its file. `visit` returns whether the log keeps the record (it counts as `live`). Returns the
 * segments and the number the next new one takes.
 */
export function openSegments(
  dir: string,
  visit: (segment: Segment, row: StoredRequestLogRow, offset: number, length: number) => boolean,
): { segments: Segment[]; next: number } {
  mkdirSync(dir, { recursive: true });
  const names = readdirSync(dir)
    .filter((name) => SEGMENT_FILE.test(name))
    .sort();
  const segments: Segment[] = [];
  let next = 1;
  for (const name of names) {
    const path = join(dir, name);
    const bytes = readFileSync(path);
    const segment: Segment = { name, fd: openSync(path, 'r+'), size: 0, live: 0, total: 0 };
    segments.push(segment);
    next = Number(SEGMENT_FILE.exec(name)![1]) + 1;
    let offset = 0;
    while (offset < bytes.length) {
      const record = decode(bytes, offset);
      if (!record) break;
      segment.total += 1;
      if (visit(segment, record.row, offset, record.length)) segment.live += 1;
      offset += record.length;
    }
    if (offset < bytes.length) ftruncateSync(segment.fd, offset);
    segment.size = offset;
  }
  return { segments, next };
}
