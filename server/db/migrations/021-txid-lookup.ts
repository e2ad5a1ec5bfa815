import type { Migration } from '../migrate.js';

/**
 * A transfer the chain already reported is recognised by its txid: a repeated deposit or payment
 * returns the first one and credits nothing more. These indexes make that lookup a seek.
 */
export const txidLookup: Migration = {
  version: 21,
  name: 'txid-lookup',
  sql: `
CREATE INDEX deposits_txid ON deposits (txid);
CREATE INDEX checkout_payments_txid ON checkout_payments (txid) WHERE txid IS NOT NULL;
`,
};
