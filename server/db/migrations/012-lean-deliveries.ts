import type { Migration } from '../migrate.js';

/**
 * A cheaper delivery row: the index on `event_id` goes. No query reads deliveries by event (lists
 * go by merchant and environment, endpoint, event type or status; single reads by id), and every
 * event's fan-out wrote a page of it at a random place (event ids are random).
 */
export const leanDeliveries: Migration = {
  version: 12,
  name: 'lean-deliveries',
  sql: `
DROP INDEX webhook_deliveries_event;
`,
};
