import type { Db } from './connection.js';

/** A tiny key/value table for singletons: settings, clock state. Values are JSON. */
export function createKvRepo(db: Db) {
  const get = db.prepare<[string], { value: string }>('SELECT value FROM kv WHERE key = ?');
  const set = db.prepare<[string, string]>(
    'INSERT INTO kv (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  );
  return {
    get<T>(key: string): T | undefined {
      const row = get.get(key);
      return row ? (JSON.parse(row.value) as T) : undefined;
    },
    set(key: string, value: unknown): void {
      set.run(key, JSON.stringify(value));
    },
  };
}
export type KvRepo = ReturnType<typeof createKvRepo>;
