import type { CheckoutStatus, PaymentOutcome } from '../contract/checkouts.js';
import type { Env } from '../contract/common.js';
import type { RefundStatus } from '../contract/refunds.js';
import { createScopedLister, type Page } from './pagination.js';
import type { Statements } from './statements.js';

export interface CheckoutRow {
  id: string;
  merchant_id: string;
  env: Env;
  title: string;
  description: string | null;
  amount: number | null;
  currency: string;
  method: 'crypto' | 'fiat' | 'any';
  status: CheckoutStatus;
  reference: string | null;
  customer_id: string | null;
  received_amount: number;
  paid_amount: number | null;
  paid_at: string | null;
  payer_address: string | null;
  paid_chain: string | null;
  paid_token: string | null;
  refunded_amount: number;
  refund_status: RefundStatus | null;
  reseller_id: string | null;
  reseller_fee: number;
  platform_fee: number;
  platform_gas_fee: number;
  /** JSON: the chains, addresses and tokens fixed at creation */
  crypto_chains: string;
  success_url: string | null;
  cancel_url: string | null;
  expires_at: string;
  created_at: string;
  updated_at: string;
  invoice_id: string | null;
  settled_at: string | null;
  fees_released_at: string | null;
  reseller_rate: number | null;
  reseller_min_fee: number | null;
  reseller_max_fee: number | null;
}

export interface CheckoutPaymentRow {
  id: string;
  checkout_id: string;
  method: 'crypto' | 'fiat';
  chain: string | null;
  token: string | null;
  amount: number;
  payer_address: string | null;
  txid: string | null;
  /** what became of it: counted toward the checkout, or recorded only (late, unsupported chain) */
  outcome: PaymentOutcome;
  created_at: string;
}

const COLUMNS = [
  'id',
  'merchant_id',
  'env',
  'title',
  'description',
  'amount',
  'currency',
  'method',
  'status',
  'reference',
  'customer_id',
  'received_amount',
  'paid_amount',
  'paid_at',
  'payer_address',
  'paid_chain',
  'paid_token',
  'refunded_amount',
  'refund_status',
  'reseller_id',
  'reseller_fee',
  'platform_fee',
  'platform_gas_fee',
  'crypto_chains',
  'success_url',
  'cancel_url',
  'expires_at',
  'created_at',
  'updated_at',
  'invoice_id',
  'settled_at',
  'fees_released_at',
  'reseller_rate',
  'reseller_min_fee',
  'reseller_max_fee',
] as const satisfies readonly (keyof CheckoutRow)[];

const MUTABLE = COLUMNS.filter((c) => !['id', 'merchant_id', 'env', 'created_at', 'invoice_id'].includes(c));

export function createCheckoutsRepo(sql: Statements) {
  const db = sql.db;
  const insert = sql.writeRow<CheckoutRow>(
    'checkouts',
    `INSERT INTO checkouts (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((c) => `@${c}`).join(', ')})`,
  );
  const save = sql.writeRow<CheckoutRow>(
    'checkouts',
    `UPDATE checkouts SET ${MUTABLE.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id`,
  );
  const byId = sql.read<[string], CheckoutRow>('SELECT * FROM checkouts WHERE id = ?');
  const byReference = sql.read<[string, string, string], { id: string }>(
    'SELECT id FROM checkouts WHERE merchant_id = ? AND env = ? AND reference = ?',
  );
  const insertPayment = sql.writeRow<CheckoutPaymentRow>(
    'checkout_payments',
    `INSERT INTO checkout_payments (id, checkout_id, method, chain, token, amount, payer_address, txid, outcome, created_at)
     VALUES (@id, @checkout_id, @method, @chain, @token, @amount, @payer_address, @txid, @outcome, @created_at)`,
  );
  const payments = sql.read<[string], CheckoutPaymentRow>(
    'SELECT * FROM checkout_payments WHERE checkout_id = ? ORDER BY rowid',
  );
  const paymentByTxid = sql.read<[string], CheckoutPaymentRow>(
    'SELECT * FROM checkout_payments WHERE txid = ? ORDER BY rowid LIMIT 1',
  );
  const list = createScopedLister<CheckoutRow>(db, 'checkouts');
  // A reseller's fees still in the 7-day hold: settled, not yet released (checkouts_reseller index).
  const heldResellerFees = sql.read<[string, string], { currency: string; total: number }>(
    `SELECT currency, SUM(reseller_fee) AS total FROM checkouts
     WHERE reseller_id = ? AND env = ? AND settled_at IS NOT NULL AND fees_released_at IS NULL
     GROUP BY currency ORDER BY currency`,
  );

  /**
   * Rows by id, for the hottest read (integrations poll GET /v1/checkouts/{id}). Only reads outside
   * a transaction fill it, so it only ever holds committed rows; every write here drops the entry,
   * so a rolled-back write leaves nothing stale. Bounded, oldest entries first out.
   */
  const cache = new Map<string, CheckoutRow>();
  // Sized for the ids being polled, not for the table: memory stays flat as checkouts accumulate.
  const CACHE_LIMIT = 2_000;
  const findById = (id: string): CheckoutRow | undefined => {
    const cached = cache.get(id);
    if (cached) return cached;
    const row = byId.get(id);
    if (row && !db.inTransaction) {
      if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
      cache.set(id, Object.freeze(row));
    }
    return row;
  };

  return {
    insert: (row: CheckoutRow) => {
      cache.delete(row.id);
      insert(row);
    },
    save: (row: CheckoutRow) => {
      cache.delete(row.id);
      save(row);
    },
    findById,
    /** After writes that bypass this repo (a workspace reset). */
    clearCache: () => cache.clear(),
    referenceTaken: (merchantId: string, env: Env, reference: string) =>
      byReference.get(merchantId, env, reference) !== undefined,
    list: (merchantId: string, env: Env, page: Page) => list(merchantId, env, page),
    insertPayment: (row: CheckoutPaymentRow) => void insertPayment(row),
    payments: (checkoutId: string) => payments.all(checkoutId),
    /** The first payment of a transfer, by its txid. */
    paymentByTxid: (txid: string) => paymentByTxid.get(txid),
    heldResellerFees: (resellerId: string, env: Env) => heldResellerFees.all(resellerId, env),
  };
}
export type CheckoutsRepo = ReturnType<typeof createCheckoutsRepo>;
