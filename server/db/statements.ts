import type Database from 'better-sqlite3';
import type { Change } from '../contract/sandbox-state.js';
import type { Db } from './connection.js';
import {
  type BookkeepingTable,
  describeWrite,
  type RowNames,
  type ShownTable,
  type Table,
} from './tables.js';

export { TABLE_KINDS, type Table } from './tables.js';

/** Where writes report the rows they changed: the change feed (server/db/changes.ts). */
export interface ChangeSink {
  /** Whether anyone wants to know (no open live stream: writes are not described at all). */
  readonly listening: boolean;
  note(change: Change): void;
}

/** For a database whose writes nobody watches (a throw-away copy, a unit test of one repository). */
export const UNWATCHED: ChangeSink = { listening: false, note: () => {} };

const NAMED = /@([A-Za-z_][A-Za-z0-9_]*)/g;
/** A parameter, `?` or `@name`, outside a quoted string or identifier. */
const PARAMETER = /'(?:[^']|'')*'|"(?:[^"]|"")*"|\?|@[A-Za-z_][A-Za-z0-9_]*/g;
const ORDERED = /\b(ORDER\s+BY|LIMIT)\b/i;

/**
 * A read that orders or limits its rows gets each parameter as a scalar subquery, `(SELECT ?)`: the
 * same value, the same plan (EXPLAIN QUERY PLAN still searches the index), but the planner no
 * longer sees the bound value. Seeing it, SQLite (3.54, built with STAT4 by better-sqlite3)
 * re-prepared such a statement on every run: `WHERE merchant_id = ? AND env = ? ORDER BY rowid
 * DESC LIMIT ?` cost 29 µs a call on an empty table, 1.3 µs this way; `WHERE checkout_id = ? ORDER
 * BY rowid` 15.5 µs, 1.0 µs. Every list, every fan-out, every due-job query paid it.
 */
export function unplannedParameters(source: string): string {
  if (!ORDERED.test(source)) return source;
  return source.replace(PARAMETER, (token) =>
    token.startsWith("'") || token.startsWith('"') ? token : `(SELECT ${token})`,
  );
}

type Statement<P, R> = P extends unknown[] ? Database.Statement<P, R> : Database.Statement<[P], R>;

/**
 * How the repositories prepare their statements. Reads are ordinary prepared statements (refused
 * if they write); each write names the table it writes and, once it has run, tells the change feed
 * which row it changed. A write is a function that says so where it is declared:
 *
 *     const insert = sql.writeRow<CheckoutRow>('checkouts', 'INSERT INTO checkouts … VALUES (@id, …)');
 *     const revoke = sql.write('api_keys', 'UPDATE api_keys SET revoked_at = ? WHERE id = ?',
 *       (_at: string, id: string) => ({ id }));
 *
 * Whole-workspace operations (migrations, the wipe of a reset, an import) use the connection
 * itself and announce themselves as one `workspace` change.
 */
export class Statements {
  constructor(
    readonly db: Db,
    private readonly changes: ChangeSink,
  ) {}

  /**
   * A statement that only reads. One that would write is refused (on first use): writes say what
   * they change. Every statement is prepared on first use, not here: a workspace's context holds a
   * hundred or more of them, and an idle workspace should cost neither their memory nor their time.
   */
  read<P extends unknown[] | object = unknown[], R = unknown>(source: string): Statement<P, R> {
    let statement: Database.Statement | undefined;
    const prepared = (): Database.Statement => {
      if (statement === undefined) {
        const made = this.db.prepare(unplannedParameters(source));
        if (!made.readonly) {
          throw new Error(`a write is prepared with writeRow() or write(), which report it: ${source}`);
        }
        statement = made;
      }
      return statement;
    };
    const lazy = {
      readonly: true,
      get: (...params: unknown[]) => prepared().get(...params),
      all: (...params: unknown[]) => prepared().all(...params),
      iterate: (...params: unknown[]) => prepared().iterate(...params),
    };
    return lazy as unknown as Statement<P, R>;
  }

  /**
   * A write whose `@name` parameters are filled from a row object, bound by position; the row is
   * what changed.
   *
   * Given an object, better-sqlite3 binds each named parameter by looking it up on the object
   * through V8's C++ API (a HasOwnProperty and a Get per parameter, neither cached by an inline
   * cache); the same values passed as arguments are bound in order. So the SQL keeps its readable
   * `@name` form, each occurrence becomes a `?`, and the row's values are passed in that order (a
   * name used twice is passed twice). A row without one of the values is refused, as by name
   * (positionally, better-sqlite3 would store NULL). For the repositories' own statements only: an
   * `@` inside a string literal would be taken for a parameter.
   */
  writeRow<Row extends object>(table: Table, source: string): (row: Row) => Database.RunResult {
    const names: (keyof Row)[] = [];
    const positional = source.replace(NAMED, (_match, name: string) => {
      names.push(name as keyof Row);
      return '?';
    });
    let statement: Database.Statement<unknown[]> | undefined;
    const value = (row: Row, name: keyof Row) => {
      const v = row[name];
      if (v === undefined) throw new RangeError(`Missing named parameter "${String(name)}"`);
      return v;
    };
    const changes = this.changes;
    return (row) => {
      statement ??= this.db.prepare<unknown[]>(positional);
      const result = statement.run(...names.map((name) => value(row, name)));
      if (changes.listening) report(changes, table, row as RowNames);
      return result;
    };
  }

  /**
   * A write bound by position. To a table a view shows, `row` names the row it changed from the
   * same parameters (its id, and its merchant and environment where the parameters say them).
   */
  write<P extends unknown[]>(table: BookkeepingTable, source: string): (...params: P) => Database.RunResult;
  write<P extends unknown[]>(
    table: ShownTable,
    source: string,
    row: (...params: P) => RowNames,
  ): (...params: P) => Database.RunResult;
  write<P extends unknown[]>(
    table: Table,
    source: string,
    row?: (...params: P) => RowNames,
  ): (...params: P) => Database.RunResult {
    let statement: Database.Statement<P> | undefined;
    const prepared = () => {
      statement ??= this.db.prepare<P>(source);
      return statement;
    };
    const changes = this.changes;
    if (!row) return (...params) => prepared().run(...params);
    return (...params) => {
      const result = prepared().run(...params);
      if (changes.listening) report(changes, table, row(...params));
      return result;
    };
  }

  /** A write with a RETURNING clause, bound by position: the row it returns (`row` as for write()). */
  writeReturning<P extends unknown[], R>(
    table: ShownTable,
    source: string,
    row: (...params: P) => RowNames,
  ): (...params: P) => R | undefined {
    let statement: Database.Statement<P, R> | undefined;
    const changes = this.changes;
    return (...params) => {
      statement ??= this.db.prepare<P, R>(source);
      const result = statement.get(...params);
      if (changes.listening) report(changes, table, row(...params));
      return result;
    };
  }
}

function report(changes: ChangeSink, table: Table, row: RowNames): void {
  const change = describeWrite(table, row);
  if (change) changes.note(change);
}
