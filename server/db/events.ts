import type { Env } from '../contract/common.js';
import type { Statements } from './statements.js';

export interface EventRow {
  id: string;
  env: Env;
  merchant_id: string;
  type: string;
  resource_id: string | null;
  data: string;
  created_at: string;
}

export function createEventsRepo(sql: Statements) {
  const insert = sql.writeRow<EventRow>(
    'events',
    `INSERT INTO events (id, env, merchant_id, type, resource_id, data, created_at)
     VALUES (@id, @env, @merchant_id, @type, @resource_id, @data, @created_at)`,
  );
  const recent = sql.read<[number], EventRow>('SELECT * FROM events ORDER BY rowid DESC LIMIT ?');
  return {
    insert: (row: EventRow) => void insert(row),
    recent: (limit: number) => recent.all(limit),
  };
}
export type EventsRepo = ReturnType<typeof createEventsRepo>;
