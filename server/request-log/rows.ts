import { randomUUID } from 'node:crypto';
import type { Env } from '../contract/common.js';
import type { FaultMark } from '../contract/faults.js';

/** One request as the log keeps it. */
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
  /** what an API fault did to the request (absent: nothing) */
  fault?: FaultMark;
}

/** An entry as recorded: its `id` is given when it is appended (it carries the entry's seq). */
export type NewRequestLogRow = Omit<RequestLogRow, 'id'>;

/** A stored entry with its position in the log (what a bundle's `request_log` table holds). */
export type StoredRequestLogRow = RequestLogRow & { seq: number };

export interface RequestLogFilter {
  merchantId?: string | undefined;
  /** true: only entries that matched no merchant (no key, or a key no merchant has); false: the others */
  unauthenticated?: boolean | undefined;
  env?: Env | undefined;
  /** inclusive status range */
  status?: { min: number; max: number } | undefined;
  limit: number;
  startingAfter?: string | undefined;
}

/**
 * A request id: a random version-4 UUID whose last 12 hex digits are the entry's `seq`, so a
 * lookup by id is a lookup by position (checked against the stored id). `prefix` is the first 24
 * characters of a random UUID: each log draws its own once (the seq makes each id unique, the
 * prefix tells one run's ids from another's), as drawing 16 random bytes per request cost more
 * than the rest of the id.
 */
export function requestLogId(seq: number, prefix: string = randomUUID().slice(0, 24)): string {
  return `${prefix}${seq.toString(16).padStart(12, '0')}`;
}

/** The seq a request id carries (NaN when it is not one of ours). */
export function seqOfRequestLogId(id: string): number {
  return id.length === 36 ? Number.parseInt(id.slice(24), 16) : Number.NaN;
}

/**
 * Where the entry of `id` is in `index` (ordered by seq, kept from `head` on), or -1. Ids carry
 * their seq: a binary search, checked against the id itself.
 */
export function positionOf(index: readonly { seq: number; id: string }[], head: number, id: string): number {
  const seq = seqOfRequestLogId(id);
  if (Number.isSafeInteger(seq)) {
    let lo = head;
    let hi = index.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const at = index[mid]!.seq;
      if (at === seq) return index[mid]!.id === id ? mid : -1;
      if (at < seq) lo = mid + 1;
      else hi = mid - 1;
    }
  }
  // Ids from before seq-carrying ids (an old bundle's): a scan, bounded by the limit.
  for (let i = head; i < index.length; i++) if (index[i]!.id === id) return i;
  return -1;
}

/** The row without its position (what the control API shows). */
export const withoutSeq = ({ seq: _seq, ...row }: StoredRequestLogRow): RequestLogRow => row;
