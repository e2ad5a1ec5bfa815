import type { Migration } from '../migrate.js';

/**
 * Fewer index writes per checkout and per event: `checkouts_merchant (merchant_id, env)` and
 * `events_merchant (merchant_id, env)` are prefixes of `checkouts_merchant_status` and
 * `events_merchant_type` (migration 011), which answer the same lookups. Each index costs every
 * insert a page write; these two bought nothing.
 */
export const leanIndexes: Migration = {
  version: 12,
  name: 'lean-indexes',
  sql: `
DROP INDEX IF EXISTS checkouts_merchant;
DROP INDEX IF EXISTS events_merchant;
`,
};
