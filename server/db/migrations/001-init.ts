import type { Migration } from '../migrate.js';

export const init: Migration = {
  version: 1,
  name: 'init',
  sql: `
CREATE TABLE kv (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);

CREATE TABLE merchants (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  legal_name TEXT,
  country TEXT,
  kyb_status TEXT NOT NULL,
  platform_rate INTEGER,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  merchant_id TEXT NOT NULL REFERENCES merchants(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('owner', 'admin', 'developer')),
  key TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL,
  revoked_at TEXT
);
CREATE INDEX api_keys_merchant ON api_keys (merchant_id);

CREATE TABLE static_addresses (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  merchant_id TEXT NOT NULL REFERENCES merchants(id) ON DELETE CASCADE,
  env TEXT NOT NULL CHECK (env IN ('test', 'production')),
  chain TEXT NOT NULL,
  address TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL,
  UNIQUE (merchant_id, env, chain)
);

CREATE TABLE customers (
  id TEXT PRIMARY KEY,
  merchant_id TEXT NOT NULL REFERENCES merchants(id) ON DELETE CASCADE,
  env TEXT NOT NULL CHECK (env IN ('test', 'production')),
  name TEXT NOT NULL,
  email TEXT,
  phone TEXT,
  country TEXT,
  notes TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX customers_merchant ON customers (merchant_id, env);
CREATE INDEX customers_email ON customers (merchant_id, env, email) WHERE email IS NOT NULL;

CREATE TABLE checkouts (
  id TEXT PRIMARY KEY,
  merchant_id TEXT NOT NULL REFERENCES merchants(id) ON DELETE CASCADE,
  env TEXT NOT NULL CHECK (env IN ('test', 'production')),
  title TEXT NOT NULL,
  description TEXT,
  amount INTEGER,
  currency TEXT NOT NULL,
  method TEXT NOT NULL CHECK (method IN ('crypto', 'fiat', 'any')),
  status TEXT NOT NULL,
  reference TEXT,
  customer_id TEXT,
  received_amount INTEGER NOT NULL DEFAULT 0,
  paid_amount INTEGER,
  paid_at TEXT,
  payer_address TEXT,
  paid_chain TEXT,
  paid_token TEXT,
  refunded_amount INTEGER NOT NULL DEFAULT 0,
  refund_status TEXT,
  reseller_id TEXT,
  reseller_fee INTEGER NOT NULL DEFAULT 0,
  platform_fee INTEGER NOT NULL DEFAULT 0,
  platform_gas_fee INTEGER NOT NULL DEFAULT 0,
  crypto_chains TEXT NOT NULL,
  success_url TEXT,
  cancel_url TEXT,
  expires_at TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX checkouts_merchant ON checkouts (merchant_id, env);
CREATE UNIQUE INDEX checkouts_reference ON checkouts (merchant_id, env, reference) WHERE reference IS NOT NULL;

CREATE TABLE checkout_payments (
  id TEXT PRIMARY KEY,
  checkout_id TEXT NOT NULL REFERENCES checkouts(id) ON DELETE CASCADE,
  method TEXT NOT NULL,
  chain TEXT,
  token TEXT,
  amount INTEGER NOT NULL,
  payer_address TEXT,
  txid TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX checkout_payments_checkout ON checkout_payments (checkout_id);

CREATE TABLE events (
  id TEXT PRIMARY KEY,
  env TEXT NOT NULL,
  merchant_id TEXT NOT NULL,
  type TEXT NOT NULL,
  resource_id TEXT,
  data TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX events_merchant ON events (merchant_id, env);
CREATE INDEX events_resource ON events (resource_id);

-- Due work: the truth of every time-driven rule (expiry, settlement, retries) lives here, so a
-- restart loses nothing. due_at is sandbox-clock milliseconds.
CREATE TABLE jobs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL,
  ref TEXT NOT NULL,
  due_at INTEGER NOT NULL,
  payload TEXT,
  failed_at TEXT,
  last_error TEXT,
  UNIQUE (kind, ref)
);
CREATE INDEX jobs_due ON jobs (due_at, id) WHERE failed_at IS NULL;
`,
};
