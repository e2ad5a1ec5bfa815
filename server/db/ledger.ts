import type { Env } from '../contract/common.js';
import type { Statements } from './statements.js';

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

export function createLedgerRepo(sql: Statements) {
  const insertTx = sql.writeRow<LedgerTransactionRow>(
    'ledger_transactions',
    `INSERT INTO ledger_transactions (id, env, kind, ref_id, memo, created_at)
     VALUES (@id, @env, @kind, @ref_id, @memo, @created_at)`,
  );
  const insertEntry = sql.writeRow<Omit<LedgerEntryRow, 'id'>>(
    'ledger_entries',
    `INSERT INTO ledger_entries (tx_id, env, account, currency, amount)
     VALUES (@tx_id, @env, @account, @currency, @amount)`,
  );
  const balance = sql.read<[string, string, string], { total: number }>(
    'SELECT balance AS total FROM ledger_balances WHERE env = ? AND account = ? AND currency = ?',
  );
  const balances = sql.read<[string, string], { account: string; currency: string; total: number }>(
    `SELECT account, currency, balance AS total FROM ledger_balances
     WHERE env = ? AND account IN (SELECT value FROM json_each(?))
     ORDER BY currency, account`,
  );
  const addToBalance = sql.writeReturning<[Env, string, string, number], { balance: number }>(
    'ledger_balances',
    `INSERT INTO ledger_balances (env, account, currency, balance) VALUES (?, ?, ?, ?)
     ON CONFLICT (env, account, currency) DO UPDATE SET balance = balance + excluded.balance
     RETURNING balance`,
    (env) => ({ env }),
  );
  const sumOfEntries = sql.read<[], { env: string; account: string; currency: string; total: number }>(
    `SELECT e.env, e.account, e.currency, SUM(e.amount) AS total FROM ledger_entries e
     GROUP BY e.env, e.account, e.currency`,
  );
  const storedBalances = sql.read<[], { env: string; account: string; currency: string; balance: number }>(
    'SELECT env, account, currency, balance FROM ledger_balances',
  );
  const txOfAccounts = sql.read<[string, string, number], LedgerTransactionRow>(
    `SELECT t.* FROM ledger_transactions t WHERE t.id IN (
       SELECT tx_id FROM ledger_entries WHERE env = ? AND account IN (SELECT value FROM json_each(?)))
     ORDER BY t.rowid DESC LIMIT ?`,
  );
  const entriesOf = sql.read<[string], LedgerEntryRow>(
    'SELECT * FROM ledger_entries WHERE tx_id IN (SELECT value FROM json_each(?)) ORDER BY id',
  );
  const unbalanced = sql.read<[], { tx_id: string; currency: string; total: number }>(
    'SELECT tx_id, currency, SUM(amount) AS total FROM ledger_entries GROUP BY tx_id, currency HAVING total != 0',
  );
  return {
    insertTransaction: (row: LedgerTransactionRow) => void insertTx(row),
    insertEntry: (row: Omit<LedgerEntryRow, 'id'>) => void insertEntry(row),
    /** Adds to an account's stored balance and returns the new balance. */
    addToBalance: (env: Env, account: string, currency: string, amount: number) =>
      addToBalance(env, account, currency, amount)!.balance,
    /** Stored balances that differ from the sum of their entries (the invariant: none). */
    driftedBalances: () => {
      const stored = new Map(
        storedBalances.all().map((r) => [`${r.env} ${r.account} ${r.currency}`, r.balance]),
      );
      return sumOfEntries
        .all()
        .filter((r) => (stored.get(`${r.env} ${r.account} ${r.currency}`) ?? 0) !== r.total);
    },
    balance: (env: Env, account: string, currency: string) => balance.get(env, account, currency)?.total ?? 0,
    balances: (env: Env, accounts: string[]) => balances.all(env, JSON.stringify(accounts)),
    transactionsOf: (env: Env, accounts: string[], limit: number) =>
      txOfAccounts.all(env, JSON.stringify(accounts), limit),
    entriesOf: (txIds: string[]) => entriesOf.all(JSON.stringify(txIds)),
    unbalanced: () => unbalanced.all(),
    /** Every stored balance, of every account in both environments. */
    storedBalances: () => storedBalances.all(),
  };
}
export type LedgerRepo = ReturnType<typeof createLedgerRepo>;
