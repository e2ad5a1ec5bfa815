import type { Migration } from '../migrate.js';

/**
 * Reseller connections (per environment, like every resource), the users that provisioning creates
 * (shared by both environments, like merchants), the provisioned merchant's btype and website, and
 * the reseller an invoice was created by (its checkout inherits it). One index per list or lookup:
 * outgoing (reseller, env), incoming (merchant, env), the pair (unique per environment), users by
 * email (unique, case-insensitive), and a reseller's checkouts (its fee income).
 */
export const resellers: Migration = {
  version: 7,
  name: 'resellers',
  sql: `
CREATE TABLE reseller_connections (
  id TEXT PRIMARY KEY,
  reseller_id TEXT NOT NULL REFERENCES merchants(id) ON DELETE CASCADE,
  merchant_id TEXT NOT NULL REFERENCES merchants(id) ON DELETE CASCADE,
  env TEXT NOT NULL CHECK (env IN ('test', 'production')),
  status TEXT NOT NULL CHECK (status IN ('active', 'revoked')),
  rate INTEGER NOT NULL CHECK (rate BETWEEN 0 AND 10000),
  min_fee INTEGER CHECK (min_fee IS NULL OR min_fee >= 0),
  max_fee INTEGER CHECK (max_fee IS NULL OR max_fee >= 0),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  CHECK (reseller_id != merchant_id),
  CHECK (min_fee IS NULL OR max_fee IS NULL OR min_fee <= max_fee)
);
CREATE UNIQUE INDEX reseller_connections_pair ON reseller_connections (reseller_id, merchant_id, env);
CREATE INDEX reseller_connections_outgoing ON reseller_connections (reseller_id, env);
CREATE INDEX reseller_connections_incoming ON reseller_connections (merchant_id, env);

CREATE TABLE users (
  id TEXT PRIMARY KEY,
  email TEXT NOT NULL,
  password_hash TEXT NOT NULL,
  full_name TEXT,
  merchant_id TEXT NOT NULL REFERENCES merchants(id) ON DELETE CASCADE,
  created_at TEXT NOT NULL
);
CREATE UNIQUE INDEX users_email ON users (email COLLATE NOCASE);
CREATE INDEX users_merchant ON users (merchant_id);

ALTER TABLE merchants ADD COLUMN btype TEXT CHECK (btype IS NULL OR btype IN ('company', 'individual'));
ALTER TABLE merchants ADD COLUMN website TEXT;

ALTER TABLE invoices ADD COLUMN reseller_id TEXT;

CREATE INDEX checkouts_reseller ON checkouts (reseller_id, env) WHERE reseller_id IS NOT NULL;
`,
};
