import type { Migration } from '../migrate.js';

/**
 * What a workspace has reached, for the coverage report: how many events of each type were
 * recorded, and how many times each status move of the spec's state machines was written. Triggers
 * count them beside the writes, so every path that changes a status (an API call, a simulator, a
 * scheduled job, a webhook attempt) is counted without knowing it is. `(new)` is a row's first
 * status. A write that keeps the status counts only where the machine has that self-move (a
 * second partial refund, a failed attempt left pending); any other write that keeps it is no move.
 * The machine names are those of COVERED_MACHINES in server/domain/state.ts.
 */

interface Counted {
  machine: string;
  table: string;
  column: string;
  /** statuses whose write of the same status is a move of the machine */
  selfMoves: readonly string[];
}

// Written out here, not read from state.ts: an applied migration must never change.
const COUNTED: readonly Counted[] = [
  { machine: 'checkout', table: 'checkouts', column: 'status', selfMoves: ['partially_refunded'] },
  { machine: 'invoice', table: 'invoices', column: 'status', selfMoves: [] },
  { machine: 'card', table: 'cards', column: 'status', selfMoves: [] },
  {
    machine: 'cardholder_kyc',
    table: 'cardholders',
    column: 'kyc_status',
    selfMoves: ['pending', 'approved', 'rejected'],
  },
  { machine: 'card_application', table: 'card_applications', column: 'status', selfMoves: [] },
  { machine: 'card_transaction', table: 'card_transactions', column: 'status', selfMoves: [] },
  { machine: 'reseller_connection', table: 'reseller_connections', column: 'status', selfMoves: ['active'] },
  { machine: 'payout', table: 'payouts', column: 'status', selfMoves: [] },
  {
    machine: 'webhook_delivery',
    table: 'webhook_deliveries',
    column: 'status',
    selfMoves: ['pending', 'delivered', 'failed'],
  },
];

const bump = (machine: string, from: string, to: string) => `
  INSERT INTO coverage_transitions (machine, from_status, to_status, count) VALUES ('${machine}', ${from}, ${to}, 1)
    ON CONFLICT (machine, from_status, to_status) DO UPDATE SET count = count + 1;`;

const triggers = COUNTED.map(
  ({ machine, table, column, selfMoves }) => `
CREATE TRIGGER coverage_${table}_insert AFTER INSERT ON ${table} BEGIN${bump(machine, "'(new)'", `NEW.${column}`)}
END;
CREATE TRIGGER coverage_${table}_update AFTER UPDATE OF ${column} ON ${table}
  WHEN OLD.${column} IS NOT NEW.${column}${
    selfMoves.length > 0 ? ` OR NEW.${column} IN (${selfMoves.map((s) => `'${s}'`).join(', ')})` : ''
  }
BEGIN${bump(machine, `OLD.${column}`, `NEW.${column}`)}
END;`,
).join('\n');

export const coverage: Migration = {
  version: 23,
  name: 'coverage',
  sql: `
CREATE TABLE coverage_events (
  type TEXT PRIMARY KEY,
  count INTEGER NOT NULL
);
CREATE TABLE coverage_transitions (
  machine TEXT NOT NULL,
  from_status TEXT NOT NULL,
  to_status TEXT NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (machine, from_status, to_status)
);
CREATE TRIGGER coverage_events_insert AFTER INSERT ON events BEGIN
  INSERT INTO coverage_events (type, count) VALUES (NEW.type, 1)
    ON CONFLICT (type) DO UPDATE SET count = count + 1;
END;
${triggers}
`,
};
