import type { Env } from '../contract/common.js';
import type { Statements } from './statements.js';

export interface DepositRow {
  id: string;
  merchant_id: string;
  env: Env;
  chain: string;
  address: string;
  currency: string;
  amount: number;
  txid: string;
  created_at: string;
}

export interface PayoutRow {
  id: string;
  merchant_id: string;
  env: Env;
  amount: number;
  currency: string;
  destination: string | null;
  status: 'completed' | 'failed';
  failure_reason: string | null;
  created_at: string;
}

export function createFundsRepo(sql: Statements) {
  const insertDeposit = sql.writeRow<DepositRow>(
    'deposits',
    `INSERT INTO deposits (id, merchant_id, env, chain, address, currency, amount, txid, created_at)
     VALUES (@id, @merchant_id, @env, @chain, @address, @currency, @amount, @txid, @created_at)`,
  );
  const insertPayout = sql.writeRow<PayoutRow>(
    'payouts',
    `INSERT INTO payouts (id, merchant_id, env, amount, currency, destination, status, failure_reason, created_at)
     VALUES (@id, @merchant_id, @env, @amount, @currency, @destination, @status, @failure_reason, @created_at)`,
  );
  const byTxid = sql.read<[string], DepositRow>(
    'SELECT * FROM deposits WHERE txid = ? ORDER BY rowid LIMIT 1',
  );
  const deposits = sql.read<[string, string, number], DepositRow>(
    'SELECT * FROM deposits WHERE merchant_id = ? AND env = ? ORDER BY rowid DESC LIMIT ?',
  );
  const payouts = sql.read<[string, string, number], PayoutRow>(
    'SELECT * FROM payouts WHERE merchant_id = ? AND env = ? ORDER BY rowid DESC LIMIT ?',
  );
  return {
    insertDeposit: (row: DepositRow) => void insertDeposit(row),
    insertPayout: (row: PayoutRow) => void insertPayout(row),
    /** The first deposit of a transfer, by its txid. */
    depositByTxid: (txid: string) => byTxid.get(txid),
    deposits: (merchantId: string, env: Env, limit: number) => deposits.all(merchantId, env, limit),
    payouts: (merchantId: string, env: Env, limit: number) => payouts.all(merchantId, env, limit),
  };
}
export type FundsRepo = ReturnType<typeof createFundsRepo>;
