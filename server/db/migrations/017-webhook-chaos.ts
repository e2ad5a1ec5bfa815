import type { Migration } from '../migrate.js';

/**
 * Delivery chaos per endpoint. An endpoint keeps its settings (`chaos`, JSON; NULL: off) and the
 * state of its seeded random sequence (`chaos_state`, a 32-bit integer), advanced in the
 * transaction of each decision so the sequence survives restarts. An attempt keeps what chaos did
 * to it (`chaos`, a JSON array of effects; NULL: nothing).
 */
export const webhookChaos: Migration = {
  version: 17,
  name: 'webhook-chaos',
  sql: `
ALTER TABLE webhook_endpoints ADD COLUMN chaos TEXT;
ALTER TABLE webhook_endpoints ADD COLUMN chaos_state INTEGER;
ALTER TABLE webhook_attempts ADD COLUMN chaos TEXT;
`,
};
