import type { Db } from './connection.js';

/** Tables holding sandbox data (not settings, not schema bookkeeping), children first. */
const DATA_TABLES = [
  'webhook_attempts',
  'webhook_deliveries',
  'webhook_endpoints',
  'inbox_messages',
  'inboxes',
  'ledger_entries',
  'ledger_balances',
  'ledger_transactions',
  'deposits',
  'payouts',
  'card_transactions',
  'cards',
  'card_applications',
  'cardholders',
  'refunds',
  'invoices',
  'checkout_payments',
  'checkouts',
  'customers',
  'static_addresses',
  'reseller_connections',
  'users',
  'api_keys',
  'events',
  'request_log',
  'jobs',
  'merchants',
];

/** Prepared once per database (a CI suite resets before every test). */
const wipes = new WeakMap<Db, () => void>();

export function wipeData(db: Db): void {
  let wipe = wipes.get(db);
  if (!wipe) {
    const statements = DATA_TABLES.map((table) => db.prepare(`DELETE FROM ${table}`));
    wipe = db.transaction(() => {
      for (const statement of statements) statement.run();
    });
    wipes.set(db, wipe);
  }
  wipe();
}
