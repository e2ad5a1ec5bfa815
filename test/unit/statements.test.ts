import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { Change } from '../../server/contract/sandbox-state.js';
import { createCardsRepo } from '../../server/db/cards.js';
import { createCheckoutsRepo } from '../../server/db/checkouts.js';
import { openDatabase } from '../../server/db/connection.js';
import { createCustomersRepo } from '../../server/db/customers.js';
import { createEventsRepo } from '../../server/db/events.js';
import { createFundsRepo } from '../../server/db/funds.js';
import { createInboxRepo } from '../../server/db/inbox.js';
import { createInvoicesRepo } from '../../server/db/invoices.js';
import { createJobsRepo } from '../../server/db/jobs.js';
import { createKvRepo } from '../../server/db/kv.js';
import { createLedgerRepo } from '../../server/db/ledger.js';
import { createApiKeysRepo, createMerchantsRepo } from '../../server/db/merchants.js';
import { createRefundsRepo } from '../../server/db/refunds.js';
import { createResellersRepo } from '../../server/db/resellers.js';
import { type ChangeSink, Statements, type Table, UNWATCHED } from '../../server/db/statements.js';
import { createStaticAddressesRepo } from '../../server/db/static-addresses.js';
import type { BookkeepingTable, RowNames, ShownTable } from '../../server/db/tables.js';
import { createUsersRepo } from '../../server/db/users.js';
import { createViewsRepo } from '../../server/db/views.js';
import { createWebhooksRepo } from '../../server/db/webhooks.js';

/**
 * How the repositories prepare statements (server/db/statements.ts): rows bound by position store
 * what the same statement bound by name stores, whatever the order of the row's own keys; every
 * write tells the change feed the row it changed, reads cannot write.
 */
function table() {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE checkouts (id TEXT PRIMARY KEY, amount INTEGER, note TEXT, at TEXT, again TEXT)');
  return db;
}

interface Row {
  id: string;
  amount: number | null;
  note: string | null;
  at: string;
}

/** A change sink that keeps what it is told. */
function sink(listening = true): ChangeSink & { listening: boolean; noted: Change[] } {
  const noted: Change[] = [];
  return { listening, noted, note: (change) => void noted.push(change) };
}

describe('Statements.writeRow', () => {
  it('stores each @name from the row, in the order the SQL names them, not the row’s', () => {
    const db = table();
    const insert = new Statements(db, UNWATCHED).writeRow<Row>(
      'checkouts',
      'INSERT INTO checkouts (at, id, note, amount, again) VALUES (@at, @id, @note, @amount, @at)',
    );
    const result = insert({ note: 'é "x"', amount: 5_000_000, id: 'a', at: '2026-01-01T00:00:00.000Z' });
    expect(result.changes).toBe(1);
    insert({ id: 'b', amount: null, note: null, at: 'later' });
    expect(db.prepare('SELECT * FROM checkouts ORDER BY id').all()).toEqual([
      {
        id: 'a',
        amount: 5_000_000,
        note: 'é "x"',
        at: '2026-01-01T00:00:00.000Z',
        again: '2026-01-01T00:00:00.000Z',
      },
      { id: 'b', amount: null, note: null, at: 'later', again: 'later' },
    ]);
  });

  it('stores what the named statement stores', () => {
    const db = table();
    const sql = 'INSERT INTO checkouts (id, amount, note, at) VALUES (@id, @amount, @note, @at)';
    const named = db.prepare<Row>(sql);
    const positional = new Statements(db, UNWATCHED).writeRow<Row>('checkouts', sql);
    named.run({ id: 'n', amount: 1, note: 'same', at: 't' });
    positional({ id: 'p', amount: 1, note: 'same', at: 't' });
    const [n, p] = db.prepare<[], Row>('SELECT amount, note, at FROM checkouts ORDER BY id').all();
    expect(p).toEqual(n);
  });

  it('refuses a row without one of the named values, like a named binding does', () => {
    const db = table();
    const changes = sink();
    const insert = new Statements(db, changes).writeRow<Row>(
      'checkouts',
      'INSERT INTO checkouts (id, amount, note, at) VALUES (@id, @amount, @note, @at)',
    );
    expect(() => insert({ id: 'x', amount: 1, at: 't' } as Row)).toThrow(/Missing named parameter "note"/);
    expect(db.prepare('SELECT COUNT(*) AS n FROM checkouts').get()).toEqual({ n: 0 });
    expect(changes.noted).toEqual([]);
  });

  it('updates by the same rule (WHERE parameters included)', () => {
    const db = table();
    db.prepare("INSERT INTO checkouts (id, amount, note, at) VALUES ('u', 1, 'old', 't')").run();
    const update = new Statements(db, UNWATCHED).writeRow<Pick<Row, 'id' | 'amount' | 'note'>>(
      'checkouts',
      'UPDATE checkouts SET amount = @amount, note = @note WHERE id = @id',
    );
    expect(update({ id: 'u', note: 'new', amount: 2 }).changes).toBe(1);
    expect(update({ id: 'missing', note: 'new', amount: 2 }).changes).toBe(0);
    expect(db.prepare('SELECT amount, note FROM checkouts').get()).toEqual({ amount: 2, note: 'new' });
  });

  it('tells the change feed the row it wrote (its id, merchant and environment), only while someone listens', () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE checkouts (id TEXT, merchant_id TEXT, env TEXT, title TEXT)');
    const changes = sink(false);
    const insert = new Statements(db, changes).writeRow<{
      id: string;
      merchant_id: string;
      env: string;
      title: string;
    }>('checkouts', 'INSERT INTO checkouts VALUES (@id, @merchant_id, @env, @title)');
    insert({ id: 'quiet', merchant_id: 'm1', env: 'test', title: 'a' });
    expect(changes.noted).toEqual([]);
    changes.listening = true;
    insert({ id: 'c1', merchant_id: 'm1', env: 'production', title: 'b' });
    expect(changes.noted).toEqual([{ kind: 'checkout', id: 'c1', merchant_id: 'm1', env: 'production' }]);
  });
});

describe('Statements.write (bound by position)', () => {
  function schema() {
    const db = new Database(':memory:');
    db.exec(`CREATE TABLE api_keys (id TEXT, merchant_id TEXT, revoked_at TEXT);
      CREATE TABLE kv (key TEXT PRIMARY KEY, value TEXT);
      CREATE TABLE jobs (kind TEXT, ref TEXT);
      CREATE TABLE ledger_balances (env TEXT, account TEXT, balance INTEGER, PRIMARY KEY (env, account));
      INSERT INTO api_keys VALUES ('k1', 'm1', NULL)`);
    return db;
  }

  it('names the row its parameters say (a revoked key by its id; a kv row by its key)', () => {
    const db = schema();
    const changes = sink();
    const sql = new Statements(db, changes);
    const revoke = sql.write(
      'api_keys',
      'UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL',
      (_at: string, id: string) => ({ id }),
    );
    const set = sql.write(
      'kv',
      'INSERT INTO kv (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      (key: string, _value: string) => ({ key }),
    );
    expect(revoke('2026-01-01', 'k1').changes).toBe(1);
    set('clock', '{}');
    set('settings', '{}');
    set('api_faults', '{}');
    expect(db.prepare('SELECT revoked_at FROM api_keys').get()).toEqual({ revoked_at: '2026-01-01' });
    expect(changes.noted).toEqual([
      { kind: 'api_key', id: 'k1' },
      { kind: 'clock' },
      { kind: 'settings', id: 'settings' },
      { kind: 'settings', id: 'api_faults' },
    ]);
  });

  it('reports nothing for bookkeeping (the job queue)', () => {
    const db = schema();
    const changes = sink();
    const schedule = new Statements(db, changes).write<[string, string]>(
      'jobs',
      'INSERT INTO jobs (kind, ref) VALUES (?, ?)',
    );
    schedule('expire', 'c1');
    expect(db.prepare('SELECT COUNT(*) AS n FROM jobs').get()).toEqual({ n: 1 });
    expect(changes.noted).toEqual([]);
  });

  it('returns what a RETURNING clause returns, and names its row', () => {
    const db = schema();
    const changes = sink();
    const add = new Statements(db, changes).writeReturning<[string, string, number], { balance: number }>(
      'ledger_balances',
      `INSERT INTO ledger_balances (env, account, balance) VALUES (?, ?, ?)
       ON CONFLICT (env, account) DO UPDATE SET balance = balance + excluded.balance RETURNING balance`,
      (env) => ({ env }),
    );
    expect(add('test', 'merchant:m1', 5)).toEqual({ balance: 5 });
    expect(add('test', 'merchant:m1', -2)).toEqual({ balance: 3 });
    expect(changes.noted).toEqual([
      { kind: 'ledger', env: 'test' },
      { kind: 'ledger', env: 'test' },
    ]);
  });
});

describe('Statements.read', () => {
  it('prepares reads on first use, and refuses a write (which must say what it changes)', () => {
    const db = table();
    const sql = new Statements(db, UNWATCHED);
    expect(sql.read<[], { n: number }>('SELECT COUNT(*) AS n FROM checkouts').get()).toEqual({ n: 0 });
    // Nothing is prepared until used: a context of a hundred statements costs nothing idle.
    const update = sql.read("UPDATE checkouts SET note = 'x'");
    expect(() => update.get()).toThrow(/writeRow\(\) or write\(\)/);
    expect(() => sql.read("INSERT INTO checkouts (id) VALUES ('x')").all()).toThrow(
      /writeRow\(\) or write\(\)/,
    );
  });
});

describe('the repositories’ writes', () => {
  it('each names the table its SQL writes (the area its change notices name)', () => {
    const written: { table: Table; source: string }[] = [];
    class Recording extends Statements {
      override writeRow<Row extends object>(table: Table, source: string) {
        written.push({ table, source });
        return super.writeRow<Row>(table, source);
      }
      override write<P extends unknown[]>(table: Table, source: string, row?: (...params: P) => RowNames) {
        written.push({ table, source });
        return row
          ? super.write(table as ShownTable, source, row)
          : super.write<P>(table as BookkeepingTable, source);
      }
      override writeReturning<P extends unknown[], R>(
        table: ShownTable,
        source: string,
        row: (...params: P) => RowNames,
      ) {
        written.push({ table, source });
        return super.writeReturning<P, R>(table, source, row);
      }
    }
    const sql = new Recording(openDatabase(':memory:'), UNWATCHED);
    for (const create of [
      createCardsRepo,
      createCheckoutsRepo,
      createCustomersRepo,
      createEventsRepo,
      createFundsRepo,
      createInboxRepo,
      createInvoicesRepo,
      createJobsRepo,
      createKvRepo,
      createLedgerRepo,
      createMerchantsRepo,
      createApiKeysRepo,
      createRefundsRepo,
      createResellersRepo,
      createStaticAddressesRepo,
      createUsersRepo,
      createViewsRepo,
      createWebhooksRepo,
    ])
      create(sql);
    expect(written.length).toBeGreaterThan(30);
    for (const { table, source } of written) {
      const target = /^\s*(?:INSERT(?:\s+OR\s+\w+)?\s+INTO|UPDATE|DELETE\s+FROM)\s+(\w+)/i.exec(source)?.[1];
      expect(target, source).toBe(table);
    }
  });
});
