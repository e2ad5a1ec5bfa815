import type { Change, ChangeKind } from '../contract/sandbox-state.js';

/**
 * Every table of the schema, with the area of the live dashboard it belongs to (`kind`) and the
 * column that names a row to it (`id`, default `id`). `null`: bookkeeping no view shows (the job
 * queue; the request log, which has its own `event: request`). A write names its table from this
 * list (server/db/statements.ts), and a test checks that the list covers the schema, so a new table
 * cannot slip past the live dashboard unnoticed.
 */
export const TABLE_KINDS = {
  merchants: { kind: 'merchant' },
  users: { kind: 'merchant' },
  api_keys: { kind: 'api_key' },
  checkouts: { kind: 'checkout' },
  checkout_payments: { kind: 'checkout', id: 'checkout_id' },
  invoices: { kind: 'invoice' },
  customers: { kind: 'customer' },
  refunds: { kind: 'refund' },
  deposits: { kind: 'funds' },
  payouts: { kind: 'funds' },
  ledger_transactions: { kind: 'ledger' },
  ledger_entries: { kind: 'ledger' },
  ledger_balances: { kind: 'ledger' },
  cardholders: { kind: 'card' },
  card_applications: { kind: 'card' },
  cards: { kind: 'card' },
  card_transactions: { kind: 'card' },
  webhook_endpoints: { kind: 'webhook' },
  webhook_deliveries: { kind: 'delivery' },
  webhook_attempts: { kind: 'delivery', id: 'delivery_id' },
  inboxes: { kind: 'inbox', id: 'name' },
  inbox_messages: { kind: 'inbox', id: 'inbox' },
  reseller_connections: { kind: 'reseller' },
  events: { kind: 'event' },
  static_addresses: { kind: 'address' },
  rsa_keys: { kind: 'keys' },
  // kv holds singletons: the key says which (clock, settings).
  kv: { kind: 'settings' },
  jobs: null,
  // counted by triggers beside the writes (migration 023), read by the coverage report
  coverage_events: null,
  coverage_transitions: null,
  request_log: null,
} as const satisfies Record<string, { kind: ChangeKind; id?: string } | null>;

export type Table = keyof typeof TABLE_KINDS;
/** Tables no view shows: a write to them reports nothing. */
export type BookkeepingTable = { [T in Table]: (typeof TABLE_KINDS)[T] extends null ? T : never }[Table];
/** Tables a view shows: a write to them names the row it changed. */
export type ShownTable = Exclude<Table, BookkeepingTable>;

/**
 * What a write says about the row it changed: the row itself (an insert, an update from a row
 * object) or, for a write bound by position, the columns its parameters name.
 */
export type RowNames = Readonly<Record<string, unknown>>;

/** The change a write to `table` made to `row`, as the live dashboard is told (null: bookkeeping). */
export function describeWrite(table: Table, row: RowNames): Change | null {
  const entry: { kind: ChangeKind; id?: string } | null = TABLE_KINDS[table];
  if (entry === null) return null;
  // The other singletons (settings, API faults, chaos...) are named by their key: a page that
  // shows one of them knows it is its own.
  if (table === 'kv')
    return row.key === 'clock' ? { kind: 'clock' } : { kind: 'settings', id: String(row.key) };
  const change: Change = { kind: entry.kind };
  const id = row[entry.id ?? 'id'];
  if (typeof id === 'string') change.id = id;
  const merchantId = table === 'merchants' ? row.id : row.merchant_id;
  if (typeof merchantId === 'string' || merchantId === null) change.merchant_id = merchantId;
  if (row.env === 'test' || row.env === 'production') change.env = row.env;
  return change;
}
