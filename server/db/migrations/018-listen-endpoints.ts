import type { Migration } from '../migrate.js';

/**
 * A webhook endpoint made by `svc-sandbox listen` says where listen forwards its deliveries
 * (`forward_to`), which also marks it as temporary: NULL on every other endpoint.
 */
export const listenEndpoints: Migration = {
  version: 18,
  name: 'listen-endpoints',
  sql: `
ALTER TABLE webhook_endpoints ADD COLUMN forward_to TEXT;
`,
};
