import type { Migration } from '../migrate.js';

/**
 * Account balances kept beside the entries, updated in the same transaction: reading a balance is
 * one lookup instead of a sum over every entry, and each posting can check the balance ceiling
 * before it is written.
 */
export const ledgerBalances: Migration = {
  version: 8,
  name: 'ledger-balances',
  sql: `
CREATE TABLE ledger_balances (
  env TEXT NOT NULL,
  account TEXT NOT NULL,
  currency TEXT NOT NULL,
  balance INTEGER NOT NULL,
  PRIMARY KEY (env, account, currency)
) WITHOUT ROWID;
INSERT INTO ledger_balances (env, account, currency, balance)
  SELECT env, account, currency, SUM(amount) FROM ledger_entries GROUP BY env, account, currency;
`,
};
