import type { Db } from '../../server/db/connection.js';

/**
 * Fault injection for tests, with real parts and without root:
 * - a full disk: `fillDisk(db)` / `giveSpaceBack(db)` (a real SQLITE_FULL from SQLite itself);
 * - a receiver that hangs or fails: `startReceiver()` in receiver.ts answers what `respond` says,
 *   with `delayMs` beyond the webhook timeout for a hang;
 * - a killed process: the CLI under SIGKILL (test/reliability/kill-loop.test.ts).
 * A failing fsync cannot be injected from here (better-sqlite3 exposes no VFS hook); WAL with
 * synchronous=NORMAL only fsyncs at checkpoints, which the kill loop crosses.
 */

const FAR_FUTURE = Date.parse('9999-01-01T00:00:00.000Z');

export const isFull = (error: unknown) => (error as { code?: string }).code === 'SQLITE_FULL';

/**
 * Fills the disk: caps the file at its current size (every further page allocation fails with
 * SQLITE_FULL), then uses up the room that is left — the free pages, and the free space at the end
 * of `events` (every state change records one) and, with `jobs`, of `jobs` — with filler rows
 * nobody reads (an unknown merchant's events, jobs due in the year 9999). Without that, small
 * writes would still fit in half-empty pages and nothing would fail.
 */
export function fillDisk(db: Db, { jobs = false } = {}): void {
  if (db.inTransaction) throw new Error('fillDisk: not inside a transaction');
  db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true })}`);
  let n = 0;
  const fill = (insert: (pad: string) => void) => {
    for (const size of [3000, 1000, 300, 100, 30, 0]) {
      for (let guard = 0; ; guard++) {
        if (guard > 10_000) throw new Error('fillDisk: the cap did not hold');
        try {
          insert('x'.repeat(size));
        } catch (error) {
          if (isFull(error)) break;
          throw error;
        }
      }
    }
  };
  const event = db.prepare(
    `INSERT INTO events (id, env, merchant_id, type, resource_id, data, created_at)
     VALUES (?, 'test', 'zzzzzzzz-filler', 'checkout.created', NULL, ?, '2000-01-01T00:00:00.000Z')`,
  );
  // Ids after every uuid, so the filler is appended at the end of each index too.
  fill((pad) => event.run(`zzzzzzzz-filler-${String(n++).padStart(8, '0')}`, pad));
  if (jobs) {
    const job = db.prepare("INSERT INTO jobs (kind, ref, due_at, payload) VALUES ('zz.filler', ?, ?, ?)");
    fill((pad) => job.run(`f${n++}`, FAR_FUTURE, pad));
  }
}

export function giveSpaceBack(db: Db): void {
  db.pragma('max_page_count = 1073741823');
}
