import type { Migration } from '../migrate.js';

export const cards: Migration = {
  version: 4,
  name: 'cards',
  sql: `
CREATE TABLE cardholders (
  id TEXT PRIMARY KEY,
  merchant_id TEXT NOT NULL REFERENCES merchants(id) ON DELETE CASCADE,
  env TEXT NOT NULL CHECK (env IN ('test', 'production')),
  name TEXT NOT NULL,
  email TEXT,
  username TEXT NOT NULL,
  is_kyc_verified INTEGER NOT NULL DEFAULT 0,
  kyc_status TEXT NOT NULL DEFAULT 'not_started',
  kyc_token TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX cardholders_merchant ON cardholders (merchant_id, env);
CREATE UNIQUE INDEX cardholders_username ON cardholders (env, username);
CREATE UNIQUE INDEX cardholders_kyc_token ON cardholders (kyc_token) WHERE kyc_token IS NOT NULL;

CREATE TABLE card_applications (
  id TEXT PRIMARY KEY,
  cardholder_id TEXT NOT NULL REFERENCES cardholders(id) ON DELETE CASCADE,
  merchant_id TEXT NOT NULL,
  env TEXT NOT NULL,
  catalogue TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'rejected')),
  account_purpose TEXT NOT NULL,
  occupation TEXT NOT NULL,
  annual_salary TEXT NOT NULL,
  expected_monthly_volume TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX card_applications_cardholder ON card_applications (cardholder_id);

CREATE TABLE cards (
  id TEXT PRIMARY KEY,
  cardholder_id TEXT NOT NULL REFERENCES cardholders(id) ON DELETE CASCADE,
  merchant_id TEXT NOT NULL,
  env TEXT NOT NULL,
  catalogue_id TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('notActivated', 'active', 'locked', 'canceled')),
  ctype TEXT NOT NULL CHECK (ctype IN ('virtual', 'physical')),
  last4 TEXT NOT NULL,
  exp_month TEXT NOT NULL,
  exp_year TEXT NOT NULL,
  pan TEXT NOT NULL,
  cvc TEXT NOT NULL,
  pin TEXT,
  spend_tx_max INTEGER NOT NULL,
  spend_daily_max INTEGER NOT NULL,
  spend_monthly_max INTEGER NOT NULL,
  spend_online_enabled INTEGER NOT NULL,
  spend_present_enabled INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX cards_cardholder ON cards (cardholder_id);

CREATE TABLE card_transactions (
  id TEXT PRIMARY KEY,
  card_id TEXT NOT NULL REFERENCES cards(id) ON DELETE CASCADE,
  cardholder_id TEXT NOT NULL,
  merchant_id TEXT NOT NULL,
  env TEXT NOT NULL,
  type TEXT NOT NULL CHECK (type IN ('card_payment', 'card_refund', 'card_deposit', 'card_withdraw')),
  status TEXT NOT NULL,
  amount INTEGER NOT NULL,
  currency TEXT NOT NULL,
  local_amount INTEGER NOT NULL,
  local_currency TEXT NOT NULL,
  merchant_name TEXT,
  channel TEXT,
  decline_reason TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX card_transactions_card ON card_transactions (card_id);
-- Daily and monthly limits sum a card's spending since a point in time.
CREATE INDEX card_transactions_spend ON card_transactions (card_id, type, created_at);

-- One RSA key pair per environment for the card secrets exchange.
CREATE TABLE rsa_keys (
  env TEXT PRIMARY KEY,
  public_key_pem TEXT NOT NULL,
  private_key_pem TEXT NOT NULL,
  created_at TEXT NOT NULL
);
`,
};
