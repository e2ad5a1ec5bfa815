import type { Migration } from '../migrate.js';

/**
 * A cheaper request log row: the UNIQUE index on `id` goes. Request ids now carry their `seq` in
 * their last 12 hex digits (see server/request-log/rows.ts), so a lookup by id is a primary-key
 * lookup checked against the stored id; that random-key index cost a page write per request.
 * Entries written before this migration keep their ids and are still found (a scan, bounded by
 * the retention limit).
 */
export const perfRequestLog: Migration = {
  version: 10,
  name: 'perf-request-log',
  sql: `
CREATE TABLE request_log_new (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL,
  created_at TEXT NOT NULL,
  env TEXT NOT NULL,
  merchant_id TEXT,
  api_key_id TEXT,
  api_key TEXT,
  method TEXT NOT NULL,
  route TEXT,
  path TEXT NOT NULL,
  status INTEGER NOT NULL,
  duration_ms REAL NOT NULL,
  request_body TEXT,
  response_body TEXT
);
INSERT INTO request_log_new (seq, id, created_at, env, merchant_id, api_key_id, api_key, method, route,
    path, status, duration_ms, request_body, response_body)
  SELECT seq, id, created_at, env, merchant_id, api_key_id, api_key, method, route, path, status,
    duration_ms, request_body, response_body FROM request_log;
DROP TABLE request_log;
ALTER TABLE request_log_new RENAME TO request_log;
CREATE INDEX request_log_merchant ON request_log (merchant_id, env, seq DESC);
CREATE INDEX request_log_env ON request_log (env, seq DESC);
`,
};
