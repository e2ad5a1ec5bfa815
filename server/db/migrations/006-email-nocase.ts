import type { Migration } from '../migrate.js';

/** Inline customers are matched by email case-insensitively (Bob@Example.com is bob@example.com). */
export const emailNocase: Migration = {
  version: 6,
  name: 'email-nocase',
  sql: `
DROP INDEX customers_email;
CREATE INDEX customers_email ON customers (merchant_id, env, email COLLATE NOCASE) WHERE email IS NOT NULL;
`,
};
