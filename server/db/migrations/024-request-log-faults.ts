import type { Migration } from '../migrate.js';

/**
 * A bundle's request log keeps what an API fault did to each request (its `fault` mark, as JSON),
 * so an exported workspace shows the same marks on the Requests page after an import.
 */
export const requestLogFaults: Migration = {
  version: 24,
  name: 'request-log-faults',
  sql: `ALTER TABLE request_log ADD COLUMN fault TEXT;`,
};
