import type { StoredRequestLogRow } from './rows.js';

/**
 * The record format of the segment files. One record: a JSON header line with everything but the
 * bodies and their byte lengths (-1 for none), then both bodies as they are, then a newline. The
 * bodies are JSON text already: kept raw, they are never escaped into a JSON string (that costs
 * ~10 µs for a 1.5 KB body, more than the rest of a record). The lengths are right-aligned in a
 * fixed width (JSON allows the spaces) and filled in once the bodies are in the buffer: `write`
 * counts the bytes as it encodes, so no body is measured apart from being written.
 */

const NEWLINE = 0x0a;
const LENGTH_WIDTH = 10;
const LENGTHS_TAIL = `"q":${' '.repeat(LENGTH_WIDTH)},"r":${' '.repeat(LENGTH_WIDTH)}}\n`;

function header(row: StoredRequestLogRow): string {
  // Field by field: a generic JSON.stringify of the header object costs several times as much.
  return (
    `{"seq":${row.seq},"id":${text(row.id)},"created_at":${text(row.created_at)},"env":${known(row.env)},` +
    `"merchant_id":${known(row.merchant_id)},"api_key_id":${known(row.api_key_id)},"api_key":${known(row.api_key)},` +
    `"method":${known(row.method)},"route":${known(row.route)},"path":${text(row.path)},"status":${row.status},` +
    `"duration_ms":${row.duration_ms},${row.fault ? `"fault":${JSON.stringify(row.fault)},` : ''}${LENGTHS_TAIL}`
  );
}

/** The most bytes a string can take in UTF-8 (3 per UTF-16 unit: a pair is 4 bytes for 2). */
const maxBytes = (value: string | null): number => (value === null ? 0 : value.length * 3);

/** `value` right-aligned in LENGTH_WIDTH ASCII bytes at `at`. */
function putLength(buffer: Buffer, at: number, value: number): void {
  const digits = String(value);
  buffer.fill(0x20, at, at + LENGTH_WIDTH - digits.length);
  buffer.write(digits, at + LENGTH_WIDTH - digits.length, 'latin1');
}

/** The most bytes `row`'s record can take (its header is made once and given back for `encode`). */
export function recordBound(row: StoredRequestLogRow): { header: string; bound: number } {
  const head = header(row);
  return {
    header: head,
    bound: maxBytes(head) + maxBytes(row.request_body) + maxBytes(row.response_body) + 1,
  };
}

/**
 * Encodes `row` as a record into `buffer` at `at`, each piece straight into it (no joined string
 * to flatten, no second pass to measure); `buffer` must hold `recordBound(row).bound` bytes from
 * `at`. Returns where the record ends.
 */
export function encode(row: StoredRequestLogRow, head: string, buffer: Buffer, at: number): number {
  const { request_body: request, response_body: response } = row;
  let end = at + buffer.write(head, at, 'utf8');
  const lengths = end - LENGTHS_TAIL.length;
  const q = request === null ? -1 : buffer.write(request, end, 'utf8');
  end += Math.max(q, 0);
  const r = response === null ? -1 : buffer.write(response, end, 'utf8');
  end += Math.max(r, 0);
  buffer[end++] = NEWLINE;
  putLength(buffer, lengths + 4, q);
  putLength(buffer, lengths + 4 + LENGTH_WIDTH + 5, r);
  return end;
}

/** A string (or null) as JSON. */
const text = (value: string | null): string => (value === null ? 'null' : JSON.stringify(value));

/**
 * `text` of a field whose few values repeat request after request (env, merchant, key, method,
 * route): each is escaped once and remembered (a bounded memo, emptied when full). In ASCII, with
 * `\uXXXX` escapes: a masked key's `…` would otherwise make every header a two-byte string, which
 * `write` must flatten and transcode (measured ~1 µs a record).
 */
const quoted = new Map<string, string>();
const NON_ASCII = /[\u007f-\uffff]/g;
function known(value: string | null): string {
  if (value === null) return 'null';
  let json = quoted.get(value);
  if (json === undefined) {
    json = JSON.stringify(value).replace(
      NON_ASCII,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
    if (quoted.size >= 1024) quoted.clear();
    quoted.set(value, json);
  }
  return json;
}

type Header = Omit<StoredRequestLogRow, 'request_body' | 'response_body'> & { q: number; r: number };

/** The record starting at `offset` of `bytes`: its row and length, or null (torn or damaged). */
export function decode(bytes: Buffer, offset: number): { row: StoredRequestLogRow; length: number } | null {
  const headerEnd = bytes.indexOf(NEWLINE, offset);
  if (headerEnd === -1) return null;
  let header: Header;
  try {
    header = JSON.parse(bytes.toString('utf8', offset, headerEnd)) as Header;
  } catch {
    return null;
  }
  const { q, r, ...meta } = header;
  if (!Number.isSafeInteger(q) || !Number.isSafeInteger(r)) return null;
  const start = headerEnd + 1;
  const end = start + Math.max(q, 0) + Math.max(r, 0);
  if (end >= bytes.length || bytes[end] !== NEWLINE) return null;
  const split = start + Math.max(q, 0);
  return {
    row: {
      ...meta,
      request_body: q < 0 ? null : bytes.toString('utf8', start, split),
      response_body: r < 0 ? null : bytes.toString('utf8', split, end),
    },
    length: end + 1 - offset,
  };
}
