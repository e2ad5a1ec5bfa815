import type { Statements } from './statements.js';

/** One row of kv as stored: the key and its JSON text. */
export interface KvEntry {
  key: string;
  value: string;
}

/** A tiny key/value table for singletons: settings, clock state. Values are JSON. */
export function createKvRepo(sql: Statements) {
  const get = sql.read<[string], { value: string }>('SELECT value FROM kv WHERE key = ?');
  const all = sql.read<[], KvEntry>('SELECT key, value FROM kv ORDER BY key');
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
    /** Every row as stored, JSON unparsed: what a reset carries over to the new database. */
    entries(): KvEntry[] {
      return all.all();
    },
    /** Writes rows as entries() gave them, in one transaction. */
    putEntries(entries: readonly KvEntry[]): void {
      sql.db.transaction(() => {
        for (const entry of entries) set(entry.key, entry.value);
      })();
    },
  };
}
export type KvRepo = ReturnType<typeof createKvRepo>;
