import { EventEmitter } from 'node:events';
import type { Change, ChangeKind, ChangeNotice } from './contract/workspace.js';
import type { Db } from './db/connection.js';

export type { Change, ChangeKind, ChangeNotice } from './contract/workspace.js';

/**
 * Which area each table belongs to. `null`: bookkeeping no view shows (the job queue; the request
 * log, which has its own `event: request`). Every table of the schema is listed (a unit test
 * checks it), so a new table cannot slip past the live dashboard unnoticed.
 */
export const TABLE_KINDS: Record<string, { kind: ChangeKind; id?: string } | null> = {
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
  inboxes: { kind: 'inbox' },
  inbox_messages: { kind: 'inbox' },
  reseller_connections: { kind: 'reseller' },
  events: { kind: 'event' },
  static_addresses: { kind: 'address' },
  rsa_keys: { kind: 'keys' },
  // kv holds singletons: the key says which (clock, settings).
  kv: { kind: 'settings' },
  jobs: null,
  request_log: null,
};

const WRITE =
  /^\s*(?:INSERT(?:\s+OR\s+\w+)?\s+INTO|REPLACE\s+INTO|UPDATE(?:\s+OR\s+\w+)?|DELETE\s+FROM)\s+["`[]?(\w+)/i;

/** The most changes one notice names one by one; past it, a notice names only the areas. */
const MAX_ITEMS = 50;

/**
 * The change feed: collects what writes touched and, once they are committed, publishes one
 * notice per commit (`event: change` on the live stream). Writes are seen where they happen —
 * every write statement prepared on the database reports itself (see `watchWrites`) — so no route,
 * job or page has to remember to announce its change.
 */
export class ChangeFeed {
  private readonly bus = new EventEmitter();
  private pending = new Map<string, Change>();
  /** Set once a commit changed more than MAX_ITEMS things: then only the kinds are kept. */
  private overflow: Set<ChangeKind> | null = null;
  private scheduled = false;
  private seq = 0;

  constructor(private readonly inTransaction: () => boolean) {
    this.bus.setMaxListeners(0);
  }

  /**
   * Whether anyone listens (a live stream is open): with no one, writes are not described at all.
   * A stream that opens later reads the current state anyway, its notices start with its listener.
   */
  get listening(): boolean {
    return this.bus.listenerCount('change') > 0;
  }

  /** Something changed; published with the next commit (the same turn's writes coalesce). */
  note(change: Change): void {
    if (this.overflow) this.overflow.add(change.kind);
    else {
      const key = `${change.kind}|${change.id ?? ''}|${change.merchant_id ?? ''}|${change.env ?? ''}`;
      if (!this.pending.has(key)) this.pending.set(key, change);
      // A big commit (a reset, a bulk import) is named by its areas: no need to keep every row.
      if (this.pending.size > MAX_ITEMS)
        this.overflow = new Set([...this.pending.values()].map((c) => c.kind));
    }
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.publish());
  }

  on(listener: (notice: ChangeNotice) => void): () => void {
    this.bus.on('change', listener);
    return () => this.bus.off('change', listener);
  }

  /**
   * Publishes what is pending once no transaction is open (a group commit commits on the turn
   * after its writes). A write that then rolled back still gets its notice: a needless re-read is
   * harmless, a missed one is not.
   */
  private publish(): void {
    if (this.inTransaction()) {
      setImmediate(() => this.publish());
      return;
    }
    this.scheduled = false;
    const changes: Change[] = this.overflow
      ? [...this.overflow].map((kind) => ({ kind }))
      : [...this.pending.values()];
    this.pending = new Map();
    this.overflow = null;
    if (changes.length === 0) return;
    this.seq += 1;
    this.bus.emit('change', { seq: this.seq, changes } satisfies ChangeNotice);
  }
}

type Params = unknown[];

/** The change a write statement made, from its table and (named) parameters. */
function describe(table: string, params: Params): Change | null {
  const entry = TABLE_KINDS[table];
  if (entry === null) return null;
  // Not 'workspace': that kind tells the dashboard everything was reset.
  if (entry === undefined) return { kind: 'other' };
  const first = params[0];
  if (table === 'kv') {
    return { kind: first === 'clock' ? 'clock' : 'settings' };
  }
  const change: Change = { kind: entry.kind };
  if (first !== null && typeof first === 'object' && !Array.isArray(first)) {
    const row = first as Record<string, unknown>;
    const id = row[entry.id ?? 'id'];
    if (typeof id === 'string') change.id = id;
    const merchantId = table === 'merchants' ? row.id : row.merchant_id;
    if (typeof merchantId === 'string' || merchantId === null) change.merchant_id = merchantId;
    if (row.env === 'test' || row.env === 'production') change.env = row.env;
  }
  return change;
}

/**
 * The method a watched write statement has for a caller that binds a row's values by position
 * (`prepareRowWrite` in server/db/bind.ts): given the row, it notes the change the positional
 * values alone cannot name.
 */
const NOTE_ROW = 'noteRow';

/**
 * Makes every write statement prepared on `db` from now on report to `feed`. Call it before the
 * repositories prepare their statements (createContext does, first thing).
 */
export function watchWrites(db: Db, feed: Pick<ChangeFeed, 'note' | 'listening'>): void {
  const prepare = db.prepare.bind(db) as (source: string) => ReturnType<Db['prepare']>;
  const watched = (source: string) => {
    const statement = prepare(source);
    const table = WRITE.exec(source)?.[1]?.toLowerCase();
    if (!table) return statement;
    const report = (params: Params) => {
      if (!feed.listening) return;
      const change = describe(table, params);
      if (change) feed.note(change);
    };
    // For writes that bind a row by position (server/db/bind.ts): the row says what changed.
    Object.defineProperty(statement, NOTE_ROW, { value: (row: object) => report([row]) });
    for (const method of ['run', 'get', 'all'] as const) {
      const original = statement[method] as (...params: Params) => unknown;
      Object.defineProperty(statement, method, {
        value(...params: Params) {
          const result = original.apply(statement, params);
          report(params);
          return result;
        },
      });
    }
    return statement;
  };
  db.prepare = watched as Db['prepare'];
}
