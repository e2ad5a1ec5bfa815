import type { Env } from '../contract/common.js';
import type { InvoiceStatus } from '../contract/invoices.js';
import { createScopedLister, type Page } from './pagination.js';
import type { Statements } from './statements.js';

export interface InvoiceRow {
  id: string;
  merchant_id: string;
  env: Env;
  customer_id: string;
  invoice_number: string;
  title: string;
  description: string | null;
  status: InvoiceStatus;
  amount: number;
  currency: string;
  due_date: string | null;
  /** JSON: [{description, quantity, unit_price, total}] */
  line_items: string;
  subtotal: number;
  tax_rate: number;
  tax_amount: number;
  recipient_note: string | null;
  checkout_id: string | null;
  paid_at: string | null;
  paid_amount: number | null;
  created_at: string;
  updated_at: string;
  /** the reseller that created it on the merchant's behalf (not in the API object); its checkout inherits it */
  reseller_id: string | null;
}

const COLUMNS = [
  'id',
  'merchant_id',
  'env',
  'customer_id',
  'invoice_number',
  'title',
  'description',
  'status',
  'amount',
  'currency',
  'due_date',
  'line_items',
  'subtotal',
  'tax_rate',
  'tax_amount',
  'recipient_note',
  'checkout_id',
  'paid_at',
  'paid_amount',
  'created_at',
  'updated_at',
  'reseller_id',
] as const satisfies readonly (keyof InvoiceRow)[];

/** After creation only the lifecycle moves: the money and the number are fixed. */
const MUTABLE = [
  'status',
  'checkout_id',
  'paid_at',
  'paid_amount',
  'updated_at',
] as const satisfies readonly (keyof InvoiceRow)[];

export function createInvoicesRepo(sql: Statements) {
  const insert = sql.writeRow<InvoiceRow>(
    'invoices',
    `INSERT INTO invoices (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((c) => `@${c}`).join(', ')})`,
  );
  const save = sql.writeRow<Pick<InvoiceRow, (typeof MUTABLE)[number] | 'id'>>(
    'invoices',
    `UPDATE invoices SET ${MUTABLE.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id`,
  );
  const byId = sql.read<[string], InvoiceRow>('SELECT * FROM invoices WHERE id = ?');
  // Numbers are INV- plus digits; the highest so far, not a count, so a gap never causes a reuse.
  const lastNumber = sql.read<[string, string], { n: number | null }>(
    `SELECT MAX(CAST(substr(invoice_number, 5) AS INTEGER)) AS n FROM invoices WHERE merchant_id = ? AND env = ?`,
  );
  const list = createScopedLister<InvoiceRow>(sql.db, 'invoices');
  return {
    insert: (row: InvoiceRow) => void insert(row),
    save: (row: InvoiceRow) =>
      void save({
        id: row.id,
        status: row.status,
        checkout_id: row.checkout_id,
        paid_at: row.paid_at,
        paid_amount: row.paid_amount,
        updated_at: row.updated_at,
      }),
    findById: (id: string) => byId.get(id),
    /** The highest sequence number used by this merchant in this environment (0 when none). */
    lastNumber: (merchantId: string, env: Env) => lastNumber.get(merchantId, env)?.n ?? 0,
    list: (merchantId: string, env: Env, page: Page) => list(merchantId, env, page),
  };
}
export type InvoicesRepo = ReturnType<typeof createInvoicesRepo>;
