import type { Migration } from '../migrate.js';

export const webhooksLedger: Migration = {
  version: 2,
  name: 'webhooks-ledger',
  sql: `
CREATE TABLE webhook_endpoints (
  id TEXT PRIMARY KEY,
  merchant_id TEXT NOT NULL REFERENCES merchants(id) ON DELETE CASCADE,
  env TEXT NOT NULL CHECK (env IN ('test', 'production')),
  url TEXT NOT NULL,
  -- JSON array of event types; ["*"] = every event
  events TEXT NOT NULL,
  secret TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX webhook_endpoints_merchant ON webhook_endpoints (merchant_id, env);

-- One delivery per (event, endpoint). The body is fixed at creation, so every attempt sends,
-- and signs, the same bytes; the delivery id (body id) is stable across retries.
CREATE TABLE webhook_deliveries (
  id TEXT PRIMARY KEY,
  event_id TEXT NOT NULL,
  endpoint_id TEXT NOT NULL,
  merchant_id TEXT NOT NULL,
  env TEXT NOT NULL,
  event TEXT NOT NULL,
  url TEXT NOT NULL,
  body TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
  attempt_count INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX webhook_deliveries_merchant ON webhook_deliveries (merchant_id, env);
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id);
CREATE INDEX webhook_deliveries_status ON webhook_deliveries (status);
CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_id);

CREATE TABLE webhook_attempts (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  delivery_id TEXT NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
  number INTEGER NOT NULL,
  at TEXT NOT NULL,
  request_headers TEXT NOT NULL,
  request_body TEXT NOT NULL,
  response_status INTEGER,
  response_body TEXT,
  duration_ms INTEGER NOT NULL,
  error TEXT,
  UNIQUE (delivery_id, number)
);

CREATE TABLE inboxes (
  name TEXT PRIMARY KEY,
  response_status INTEGER NOT NULL DEFAULT 200,
  created_at TEXT NOT NULL
);
CREATE TABLE inbox_messages (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  inbox TEXT NOT NULL REFERENCES inboxes(name) ON DELETE CASCADE,
  received_at TEXT NOT NULL,
  headers TEXT NOT NULL,
  body TEXT NOT NULL,
  signature_valid INTEGER,
  response_status INTEGER NOT NULL
);
CREATE INDEX inbox_messages_inbox ON inbox_messages (inbox);

-- Double-entry ledger: every movement of money is one transaction whose entries sum to zero per
-- currency. Balances are sums of entries; nothing stores a balance the ledger cannot reproduce.
CREATE TABLE ledger_transactions (
  id TEXT PRIMARY KEY,
  env TEXT NOT NULL,
  kind TEXT NOT NULL,
  ref_id TEXT,
  memo TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX ledger_transactions_ref ON ledger_transactions (ref_id);
CREATE TABLE ledger_entries (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  tx_id TEXT NOT NULL REFERENCES ledger_transactions(id) ON DELETE CASCADE,
  env TEXT NOT NULL,
  account TEXT NOT NULL,
  currency TEXT NOT NULL,
  amount INTEGER NOT NULL
);
CREATE INDEX ledger_entries_account ON ledger_entries (env, account, currency);
CREATE INDEX ledger_entries_tx ON ledger_entries (tx_id);

CREATE TABLE deposits (
  id TEXT PRIMARY KEY,
  merchant_id TEXT NOT NULL REFERENCES merchants(id) ON DELETE CASCADE,
  env TEXT NOT NULL,
  chain TEXT NOT NULL,
  address TEXT NOT NULL,
  currency TEXT NOT NULL,
  amount INTEGER NOT NULL,
  txid TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX deposits_merchant ON deposits (merchant_id, env);

CREATE TABLE payouts (
  id TEXT PRIMARY KEY,
  merchant_id TEXT NOT NULL REFERENCES merchants(id) ON DELETE CASCADE,
  env TEXT NOT NULL,
  amount INTEGER NOT NULL,
  currency TEXT NOT NULL,
  destination TEXT,
  status TEXT NOT NULL CHECK (status IN ('completed', 'failed')),
  failure_reason TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX payouts_merchant ON payouts (merchant_id, env);
`,
};
