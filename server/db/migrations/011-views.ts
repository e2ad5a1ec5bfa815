import type { Migration } from '../migrate.js';

/**
 * The dashboard's views: endpoints can be disabled (kept, but fanned out to no more),
 * and indexes for the new filtered lists. Each list is keyset-paged newest first within
 * (merchant_id, env), so every index starts with those and ends in rowid (implicit).
 */
export const views: Migration = {
  version: 11,
  name: 'views',
  sql: `
ALTER TABLE webhook_endpoints ADD COLUMN disabled INTEGER NOT NULL DEFAULT 0;
CREATE INDEX events_merchant_type ON events (merchant_id, env, type);
CREATE INDEX checkouts_merchant_status ON checkouts (merchant_id, env, status);
CREATE INDEX checkouts_customer ON checkouts (customer_id) WHERE customer_id IS NOT NULL;
CREATE INDEX invoices_merchant_status ON invoices (merchant_id, env, status);
CREATE INDEX invoices_customer ON invoices (customer_id);
CREATE INDEX webhook_deliveries_merchant_event ON webhook_deliveries (merchant_id, env, event);
CREATE INDEX webhook_deliveries_merchant_status ON webhook_deliveries (merchant_id, env, status);
`,
};
