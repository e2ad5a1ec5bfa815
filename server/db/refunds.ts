import type { Env } from '../contract/common.js';
import type { Statements } from './statements.js';

export interface RefundRow {
  id: string;
  checkout_id: string;
  merchant_id: string;
  env: Env;
  amount: number;
  refund_fee: number;
  gas_fee_payer: 'customer' | 'merchant';
  customer_amount: number;
  merchant_debit: number;
  platform_clawback: number;
  reseller_clawback: number;
  receiver: string | null;
  reason: string | null;
  txid: string | null;
  status_after: string;
  created_at: string;
}

export function createRefundsRepo(sql: Statements) {
  const insert = sql.writeRow<RefundRow>(
    'refunds',
    `INSERT INTO refunds (id, checkout_id, merchant_id, env, amount, refund_fee, gas_fee_payer, customer_amount,
       merchant_debit, platform_clawback, reseller_clawback, receiver, reason, txid, status_after, created_at)
     VALUES (@id, @checkout_id, @merchant_id, @env, @amount, @refund_fee, @gas_fee_payer, @customer_amount,
       @merchant_debit, @platform_clawback, @reseller_clawback, @receiver, @reason, @txid, @status_after, @created_at)`,
  );
  const ofCheckout = sql.read<[string], RefundRow>(
    'SELECT * FROM refunds WHERE checkout_id = ? ORDER BY rowid',
  );
  return {
    insert: (row: RefundRow) => void insert(row),
    ofCheckout: (checkoutId: string) => ofCheckout.all(checkoutId),
  };
}
export type RefundsRepo = ReturnType<typeof createRefundsRepo>;
