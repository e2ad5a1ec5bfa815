import type { Migration } from '../migrate.js';

export const money: Migration = {
  version: 3,
  name: 'money',
  sql: `
ALTER TABLE checkouts ADD COLUMN invoice_id TEXT;
-- When the funds were credited to the merchant (settlement, partial expiry, or a refund before settlement).
ALTER TABLE checkouts ADD COLUMN settled_at TEXT;
-- When the 7-day fee hold ended and the fees moved to the platform and reseller accounts.
ALTER TABLE checkouts ADD COLUMN fees_released_at TEXT;
-- The reseller connection's terms, fixed when the checkout was created (spec: in-flight checkouts keep theirs).
ALTER TABLE checkouts ADD COLUMN reseller_rate INTEGER;
ALTER TABLE checkouts ADD COLUMN reseller_min_fee INTEGER;
ALTER TABLE checkouts ADD COLUMN reseller_max_fee INTEGER;
CREATE INDEX checkouts_invoice ON checkouts (invoice_id) WHERE invoice_id IS NOT NULL;

CREATE TABLE refunds (
  id TEXT PRIMARY KEY,
  checkout_id TEXT NOT NULL REFERENCES checkouts(id) ON DELETE CASCADE,
  merchant_id TEXT NOT NULL,
  env TEXT NOT NULL,
  amount INTEGER NOT NULL,
  refund_fee INTEGER NOT NULL,
  gas_fee_payer TEXT NOT NULL CHECK (gas_fee_payer IN ('customer', 'merchant')),
  customer_amount INTEGER NOT NULL,
  merchant_debit INTEGER NOT NULL,
  platform_clawback INTEGER NOT NULL,
  reseller_clawback INTEGER NOT NULL,
  receiver TEXT,
  reason TEXT,
  txid TEXT,
  status_after TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX refunds_checkout ON refunds (checkout_id);

CREATE TABLE invoices (
  id TEXT PRIMARY KEY,
  merchant_id TEXT NOT NULL REFERENCES merchants(id) ON DELETE CASCADE,
  env TEXT NOT NULL CHECK (env IN ('test', 'production')),
  customer_id TEXT NOT NULL,
  invoice_number TEXT NOT NULL,
  title TEXT NOT NULL,
  description TEXT,
  status TEXT NOT NULL CHECK (status IN ('draft', 'sent', 'paid', 'cancelled')),
  amount INTEGER NOT NULL,
  currency TEXT NOT NULL,
  due_date TEXT,
  line_items TEXT NOT NULL,
  subtotal INTEGER NOT NULL,
  tax_rate INTEGER NOT NULL,
  tax_amount INTEGER NOT NULL,
  recipient_note TEXT,
  checkout_id TEXT,
  paid_at TEXT,
  paid_amount INTEGER,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (merchant_id, env, invoice_number)
);
CREATE INDEX invoices_merchant ON invoices (merchant_id, env);
CREATE INDEX invoices_checkout ON invoices (checkout_id) WHERE checkout_id IS NOT NULL;
`,
};
