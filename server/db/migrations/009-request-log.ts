import type { Migration } from '../migrate.js';

/**
 * The request log: one row per /v1 request (diagnostics, not business data). `seq` is the order
 * (newest first = seq DESC) and the retention cut; `id` is the request id the API shows. Indexes
 * serve the listings: by merchant and environment, by environment alone, and the whole log (seq).
 */
export const requestLog: Migration = {
  version: 9,
  name: 'request-log',
  sql: `
CREATE TABLE request_log (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
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
CREATE INDEX request_log_merchant ON request_log (merchant_id, env, seq DESC);
CREATE INDEX request_log_env ON request_log (env, seq DESC);
`,
};
