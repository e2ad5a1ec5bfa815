import type Database from 'better-sqlite3';
import type { Env } from '../contract/common.js';
import { ValidationError } from '../errors.js';
import type { Db } from './connection.js';

export interface Page {
  limit: number;
  startingAfter?: string | undefined;
}

/**
 * Keyset pagination over a table scoped by (merchant_id, env), newest first. Insertion order is
 * creation order (the sandbox clock never runs backwards), so rowid is the sort key and the
 * (merchant_id, env) index, which ends in rowid, serves the whole query. `scope` names another
 * owner column (a reseller's outgoing connections: reseller_id), with its own (scope, env) index.
 */
export function createScopedLister<Row>(db: Db, table: string, where = '', scope = 'merchant_id') {
  const extra = where ? ` AND ${where}` : '';
  // Prepared on first use, like every repository statement (server/db/statements.ts).
  type Prepared = {
    first: Database.Statement<[string, string, number], Row>;
    cursor: Database.Statement<[string, string, string], { rowid: number }>;
    after: Database.Statement<[string, string, number, number], Row>;
  };
  let prepared: Prepared | undefined;
  const statements = (): Prepared => {
    prepared ??= {
      first: db.prepare<[string, string, number], Row>(
        `SELECT * FROM ${table} WHERE ${scope} = ? AND env = ?${extra} ORDER BY rowid DESC LIMIT ?`,
      ),
      cursor: db.prepare<[string, string, string], { rowid: number }>(
        `SELECT rowid FROM ${table} WHERE ${scope} = ? AND env = ? AND id = ?`,
      ),
      after: db.prepare<[string, string, number, number], Row>(
        `SELECT * FROM ${table} WHERE ${scope} = ? AND env = ?${extra} AND rowid < ? ORDER BY rowid DESC LIMIT ?`,
      ),
    };
    return prepared;
  };
  return (merchantId: string, env: Env, page: Page): Row[] => {
    const { first, cursor, after } = statements();
    if (page.startingAfter === undefined) return first.all(merchantId, env, page.limit);
    const anchor = cursor.get(merchantId, env, page.startingAfter);
    if (!anchor)
      throw new ValidationError('starting_after', `no such object in this list: ${page.startingAfter}`);
    return after.all(merchantId, env, anchor.rowid, page.limit);
  };
}
