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

export function wipeData(db: Db): void {
  db.transaction(() => {
    for (const table of DATA_TABLES) db.prepare(`DELETE FROM ${table}`).run();
  })();
}
