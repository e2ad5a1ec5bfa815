import type { Migration } from '../migrate.js';

/**
 * What became of each transfer the chain simulator played to a checkout: `received` (counted
 * toward the checkout, every row before this migration), `late` (arrived after the checkout
 * stopped accepting payments: recorded, not credited) or `unsupported_chain` (sent on a chain the
 * checkout does not offer: never detected by the service, not credited).
 */
export const paymentOutcomes: Migration = {
  version: 20,
  name: 'payment-outcomes',
  sql: `
ALTER TABLE checkout_payments ADD COLUMN outcome TEXT NOT NULL DEFAULT 'received';
`,
};
