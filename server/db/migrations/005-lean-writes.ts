import type { Migration } from '../migrate.js';

/**
 * Fewer pages written per request: jobs loses AUTOINCREMENT (no sqlite_sequence page per insert;
 * job ids are only handles), and events loses an index nothing queries.
 */
export const leanWrites: Migration = {
  version: 5,
  name: 'lean-writes',
  sql: `
CREATE TABLE jobs_new (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL,
  ref TEXT NOT NULL,
  due_at INTEGER NOT NULL,
  payload TEXT,
  failed_at TEXT,
  last_error TEXT,
  UNIQUE (kind, ref)
);
INSERT INTO jobs_new (id, kind, ref, due_at, payload, failed_at, last_error)
  SELECT id, kind, ref, due_at, payload, failed_at, last_error FROM jobs;
DROP TABLE jobs;
ALTER TABLE jobs_new RENAME TO jobs;
CREATE INDEX jobs_due ON jobs (due_at, id) WHERE failed_at IS NULL;
DROP INDEX events_resource;
`,
};
