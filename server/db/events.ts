import type { Env } from '../contract/common.js';
import { prepareRowWrite } from './bind.js';
import type { Db } from './connection.js';

export interface EventRow {
  id: string;
  env: Env;
  merchant_id: string;
  type: string;
  resource_id: string | null;
  data: string;
  created_at: string;
}

export function createEventsRepo(db: Db) {
  const insert = prepareRowWrite<EventRow>(
    db,
    `INSERT INTO events (id, env, merchant_id, type, resource_id, data, created_at)
     VALUES (@id, @env, @merchant_id, @type, @resource_id, @data, @created_at)`,
  );
  const recent = db.prepare<[number], EventRow>('SELECT * FROM events ORDER BY rowid DESC LIMIT ?');
  return {
    insert: (row: EventRow) => void insert(row),
    recent: (limit: number) => recent.all(limit),
  };
}
export type EventsRepo = ReturnType<typeof createEventsRepo>;
