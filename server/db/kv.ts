import type { Statements } from './statements.js';

/** A tiny key/value table for singletons: settings, clock state. Values are JSON. */
export function createKvRepo(sql: Statements) {
  const get = sql.read<[string], { value: string }>('SELECT value FROM kv WHERE key = ?');
  const set = sql.write(
    'kv',
    'INSERT INTO kv (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    (key: string, _value: string) => ({ key }),
  );
  return {
    get<T>(key: string): T | undefined {
      const row = get.get(key);
      return row ? (JSON.parse(row.value) as T) : undefined;
    },
    set(key: string, value: unknown): void {
      set(key, JSON.stringify(value));
    },
  };
}
export type KvRepo = ReturnType<typeof createKvRepo>;
