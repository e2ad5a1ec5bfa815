import type { Db } from '../db/connection.js';

/** A stored time: ISO 8601 in UTC as the sandbox writes it ("2026-12-01T12:00:00.000Z"). */
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?Z$/;

/** A time column: `at` or `<something>_at` (created_at, expires_at, next_attempt_at, due_at…). */
const TIME_COLUMN = /^(?:.+_)?at$/;

/** When the migrations ran on this file: the file's own history, not the world's. */
const NOT_HISTORY = new Set(['schema_migrations']);

/** `value` moved by `ms`: an ISO time or epoch milliseconds; anything else as it is. */
function shifted(value: unknown, ms: number): unknown {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value + ms : value;
  if (typeof value === 'string' && ISO.test(value)) return new Date(Date.parse(value) + ms).toISOString();
  return value;
}

/**
 * Moves every time a workspace database holds by `ms` (a restored demo's history ending at the real
 * current time again): each column named `at` or `…_at` of every table, ISO text or epoch ms alike
 * (an expiry, a retry or a scheduled job moves with the rest, so nothing falls due by the move). The
 * columns are read from the schema, so a table added later moves too. Bodies recorded as they were
 * sent (event payloads, webhook bodies and their signatures, inbox messages) keep their words: they
 * are what went over the wire. One transaction, before the workspace's context is built on `db`.
 */
export function shiftTimes(db: Db, ms: number): void {
  if (ms === 0) return;
  if (!Number.isSafeInteger(ms)) throw new RangeError('shiftTimes takes an integer number of ms');
  db.function('svc_shifted', { deterministic: true }, (value: unknown, by: unknown) =>
    shifted(value, Number(by)),
  );
  const tables = db
    .prepare<[], { name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
    )
    .all()
    .filter(({ name }) => !NOT_HISTORY.has(name));
  const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
  db.transaction(() => {
    for (const { name: table } of tables) {
      const columns = db
        .prepare<[string], { name: string }>('SELECT name FROM pragma_table_info(?)')
        .all(table)
        .filter(({ name }) => TIME_COLUMN.test(name));
      for (const { name: column } of columns) {
        db.prepare(
          `UPDATE ${quote(table)} SET ${quote(column)} = svc_shifted(${quote(column)}, ?) WHERE ${quote(column)} IS NOT NULL`,
        ).run(ms);
      }
    }
  })();
}
