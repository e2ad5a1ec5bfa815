import type { Statements } from './statements.js';

export interface JobRow {
  id: number;
  kind: string;
  ref: string;
  due_at: number;
  payload: string | null;
  failed_at: string | null;
  last_error: string | null;
}

export function createJobsRepo(sql: Statements) {
  const upsert = sql.write<[string, string, number, string | null]>(
    'jobs',
    `INSERT INTO jobs (kind, ref, due_at, payload) VALUES (?, ?, ?, ?)
     ON CONFLICT (kind, ref) DO UPDATE SET due_at = excluded.due_at, payload = excluded.payload,
       failed_at = NULL, last_error = NULL`,
  );
  const cancel = sql.write<[string, string]>('jobs', 'DELETE FROM jobs WHERE kind = ? AND ref = ?');
  const remove = sql.write<[number]>('jobs', 'DELETE FROM jobs WHERE id = ?');
  // failed_at/last_error record the last failure for inspection; a failed job stays due.
  const due = sql.read<[number, number], JobRow>(
    'SELECT * FROM jobs WHERE due_at <= ? ORDER BY due_at, id LIMIT ?',
  );
  const fail = sql.write<[string, string, number]>(
    'jobs',
    'UPDATE jobs SET failed_at = ?, last_error = ? WHERE id = ?',
  );
  const find = sql.read<[string, string], JobRow>('SELECT * FROM jobs WHERE kind = ? AND ref = ?');
  return {
    schedule: (kind: string, ref: string, dueAt: number, payload: string | null = null) =>
      void upsert(kind, ref, dueAt, payload),
    cancel: (kind: string, ref: string) => void cancel(kind, ref),
    remove: (id: number) => void remove(id),
    /** The earliest jobs due at `now`, in due order (at most `limit`). */
    due: (now: number, limit: number) => due.all(now, limit),
    nextDue: (now: number) => due.get(now, 1),
    markFailed: (id: number, at: string, error: string) => void fail(at, error, id),
    find: (kind: string, ref: string) => find.get(kind, ref),
  };
}
export type JobsRepo = ReturnType<typeof createJobsRepo>;
