import type { Env } from '../contract/common.js';
import type { Db } from './connection.js';

export interface LedgerTransactionRow {
  id: string;
  env: Env;
  kind: string;
  ref_id: string | null;
  memo: string | null;
  created_at: string;
}

export interface LedgerEntryRow {
  id: number;
  tx_id: string;
  env: Env;
  account: string;
  currency: string;
  amount: number;
}

export function createLedgerRepo(db: Db) {
  const insertTx = db.prepare<LedgerTransactionRow>(
    `INSERT INTO ledger_transactions (id, env, kind, ref_id, memo, created_at)
     VALUES (@id, @env, @kind, @ref_id, @memo, @created_at)`,
  );
  const insertEntry = db.prepare<Omit<LedgerEntryRow, 'id'>>(
    `INSERT INTO ledger_entries (tx_id, env, account, currency, amount)
     VALUES (@tx_id, @env, @account, @currency, @amount)`,
  );
  const balance = db.prepare<[string, string, string], { total: number | null }>(
    'SELECT SUM(amount) AS total FROM ledger_entries WHERE env = ? AND account = ? AND currency = ?',
  );
  const balances = db.prepare<[string, string], { account: string; currency: string; total: number }>(
    `SELECT account, currency, SUM(amount) AS total FROM ledger_entries
     WHERE env = ? AND account IN (SELECT value FROM json_each(?))
     GROUP BY account, currency ORDER BY currency`,
  );
  const txOfAccounts = db.prepare<[string, string, number], LedgerTransactionRow>(
    `SELECT t.* FROM ledger_transactions t WHERE t.id IN (
       SELECT tx_id FROM ledger_entries WHERE env = ? AND account IN (SELECT value FROM json_each(?)))
     ORDER BY t.rowid DESC LIMIT ?`,
  );
  const entriesOf = db.prepare<[string], LedgerEntryRow>(
    'SELECT * FROM ledger_entries WHERE tx_id IN (SELECT value FROM json_each(?)) ORDER BY id',
  );
  const unbalanced = db.prepare<[], { tx_id: string; currency: string; total: number }>(
    'SELECT tx_id, currency, SUM(amount) AS total FROM ledger_entries GROUP BY tx_id, currency HAVING total != 0',
  );
  return {
    insertTransaction: (row: LedgerTransactionRow) => void insertTx.run(row),
    insertEntry: (row: Omit<LedgerEntryRow, 'id'>) => void insertEntry.run(row),
    balance: (env: Env, account: string, currency: string) => balance.get(env, account, currency)?.total ?? 0,
    balances: (env: Env, accounts: string[]) => balances.all(env, JSON.stringify(accounts)),
    transactionsOf: (env: Env, accounts: string[], limit: number) =>
      txOfAccounts.all(env, JSON.stringify(accounts), limit),
    entriesOf: (txIds: string[]) => entriesOf.all(JSON.stringify(txIds)),
    unbalanced: () => unbalanced.all(),
  };
}
export type LedgerRepo = ReturnType<typeof createLedgerRepo>;
