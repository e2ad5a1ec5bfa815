import type Database from 'better-sqlite3';
import type { Env } from '../contract/common.js';
import { ValidationError } from '../errors.js';
import type { CheckoutRow } from './checkouts.js';
import type { Db } from './connection.js';
import type { CustomerRow } from './customers.js';
import type { EventRow } from './events.js';
import type { InvoiceRow } from './invoices.js';
import type { Statements } from './statements.js';

/** One page of a filtered list: equality filters, a free-text search, keyset paging. */
export interface SearchPage {
  limit: number;
  startingAfter?: string | undefined;
  /** column → value; undefined values are no filter */
  equals?: Record<string, string | undefined>;
  /** matches the id exactly, or any of the lister's text columns as a case-insensitive substring */
  search?: string | undefined;
}

export interface SearchListerOptions {
  /** columns that may be filtered by equality (a closed list: names go into SQL) */
  filters: readonly string[];
  /** columns searched as substrings (besides the id, which is matched exactly) */
  searchIn: readonly string[];
  /** the owner column (default merchant_id) */
  scope?: string;
}

/** `%` and `_` in what a user types are literal, not wildcards. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Keyset pagination over a (scope, env) table, newest first (rowid), with optional equality filters
 * and a search. One prepared statement per combination of filters in use, made on first need: a
 * handful at most, and each is served by the (scope, env[, column]) index.
 */
export function createSearchLister<Row>(db: Db, table: string, options: SearchListerOptions) {
  const scope = options.scope ?? 'merchant_id';
  const statements = new Map<string, ReturnType<Db['prepare']>>();
  let cursorStatement: Database.Statement<[string, string, string], { rowid: number }> | undefined;
  const cursor = {
    get: (owner: string, env: string, id: string) => {
      cursorStatement ??= db.prepare<[string, string, string], { rowid: number }>(
        `SELECT rowid FROM ${table} WHERE ${scope} = ? AND env = ? AND id = ?`,
      );
      return cursorStatement.get(owner, env, id);
    },
  };

  const statementFor = (columns: string[], search: boolean, after: boolean) => {
    const key = `${columns.join(',')}|${search}|${after}`;
    let statement = statements.get(key);
    if (!statement) {
      const where = [`${scope} = @scope`, 'env = @env', ...columns.map((c) => `${c} = @f_${c}`)];
      if (search) {
        const text = options.searchIn.map((c) => `${c} LIKE @like ESCAPE '\\'`);
        where.push(`(id = @search${text.length ? ` OR ${text.join(' OR ')}` : ''})`);
      }
      if (after) where.push('rowid < @after');
      statement = db.prepare(
        `SELECT * FROM ${table} WHERE ${where.join(' AND ')} ORDER BY rowid DESC LIMIT @limit`,
      );
      statements.set(key, statement);
    }
    return statement;
  };

  return (owner: string, env: Env, page: SearchPage): Row[] => {
    const params: Record<string, string | number> = { scope: owner, env, limit: page.limit };
    const columns: string[] = [];
    for (const [column, value] of Object.entries(page.equals ?? {})) {
      if (value === undefined) continue;
      if (!options.filters.includes(column)) throw new Error(`${table}: no filter on ${column}`);
      columns.push(column);
      params[`f_${column}`] = value;
    }
    const search = page.search?.trim() || undefined;
    if (search !== undefined) {
      params.search = search;
      params.like = likePattern(search);
    }
    if (page.startingAfter !== undefined) {
      const anchor = cursor.get(owner, env, page.startingAfter);
      if (!anchor)
        throw new ValidationError('starting_after', `no such object in this list: ${page.startingAfter}`);
      params.after = anchor.rowid;
    }
    return statementFor(columns, search !== undefined, page.startingAfter !== undefined).all(params) as Row[];
  };
}

/** The dashboard's filtered lists and the lookups its detail views need. */
export function createViewsRepo(sql: Statements) {
  const db = sql.db;
  const customerById = sql.read<[string], CustomerRow>('SELECT * FROM customers WHERE id = ?');
  const invoicesOfCustomer = sql.read<[string], InvoiceRow>(
    'SELECT * FROM invoices WHERE customer_id = ? ORDER BY rowid DESC LIMIT 100',
  );
  const checkoutsOfCustomer = sql.read<[string], CheckoutRow>(
    'SELECT * FROM checkouts WHERE customer_id = ? ORDER BY rowid DESC LIMIT 100',
  );
  const checkoutById = sql.read<[string], CheckoutRow>('SELECT * FROM checkouts WHERE id = ?');
  const invoiceById = sql.read<[string], InvoiceRow>('SELECT * FROM invoices WHERE id = ?');
  return {
    checkouts: createSearchLister<CheckoutRow>(db, 'checkouts', {
      filters: ['status'],
      searchIn: ['title', 'reference'],
    }),
    customers: createSearchLister<CustomerRow>(db, 'customers', {
      filters: [],
      searchIn: ['name', 'email'],
    }),
    invoices: createSearchLister<InvoiceRow>(db, 'invoices', {
      filters: ['status'],
      searchIn: ['invoice_number', 'title'],
    }),
    events: createSearchLister<EventRow>(db, 'events', { filters: ['type'], searchIn: ['resource_id'] }),
    customer: (id: string) => customerById.get(id),
    invoice: (id: string) => invoiceById.get(id),
    checkout: (id: string) => checkoutById.get(id),
    invoicesOfCustomer: (id: string) => invoicesOfCustomer.all(id),
    checkoutsOfCustomer: (id: string) => checkoutsOfCustomer.all(id),
  };
}
export type ViewsRepo = ReturnType<typeof createViewsRepo>;
