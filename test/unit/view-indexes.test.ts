import { describe, expect, it } from 'vitest';
import { createCardsRepo } from '../../server/db/cards.js';
import { createCheckoutsRepo } from '../../server/db/checkouts.js';
import { type Db, openDatabase } from '../../server/db/connection.js';
import { createCustomersRepo } from '../../server/db/customers.js';
import { createInvoicesRepo } from '../../server/db/invoices.js';
import { createJobsRepo } from '../../server/db/jobs.js';
import { createResellersRepo } from '../../server/db/resellers.js';
import { Statements, UNWATCHED } from '../../server/db/statements.js';
import { createViewsRepo } from '../../server/db/views.js';
import { createWebhooksRepo } from '../../server/db/webhooks.js';

/**
 * The dashboard's filtered lists are served by indexes, never by a scan of the table:
 * every statement the repositories prepare for them is run through EXPLAIN QUERY PLAN. The SQL is
 * the repositories' own, recorded as they prepare it.
 */

function recording(db: Db): { db: Db; sql: string[] } {
  const sql: string[] = [];
  const prepare = db.prepare.bind(db);
  const spy = new Proxy(db, {
    get(target, property, receiver) {
      if (property === 'prepare')
        return (text: string) => {
          sql.push(text);
          return prepare(text);
        };
      return Reflect.get(target, property, receiver);
    },
  });
  return { db: spy, sql };
}

/** The plan of each SELECT recorded since `from`, with every parameter bound to a dummy value. */
function plans(db: Db, sql: string[], from: number): { sql: string; plan: string }[] {
  return sql
    .slice(from)
    .filter((text) => /^\s*SELECT \*/.test(text))
    .map((text) => {
      const named = [...new Set([...text.matchAll(/@(\w+)/g)].map((m) => m[1]!))];
      const positional = (text.match(/\?/g) ?? []).length;
      const statement = db.prepare(`EXPLAIN QUERY PLAN ${text}`);
      const rows = (
        named.length > 0
          ? statement.all(Object.fromEntries(named.map((n) => [n, n === 'limit' || n === 'after' ? 1 : 'x'])))
          : statement.all(...Array.from({ length: positional }, () => 'x'))
      ) as { detail: string }[];
      // A parameter of an ordered read is a scalar subquery (`(SELECT ?)`, server/db/statements.ts):
      // its own two rows say nothing of how the table is read.
      const details = rows
        .map((r) => r.detail)
        .filter((detail) => !/^SCALAR SUBQUERY \d+$/.test(detail) && detail !== 'SCAN CONSTANT ROW');
      return { sql: text.replace(/\s+/g, ' '), plan: details.join(' | ') };
    });
}

const ID = '00000000-0000-4000-8000-000000000000';

describe('indexes behind the dashboard lists', () => {
  it('checkouts, customers, invoices and events: every filter, search and page uses an index', () => {
    const { db, sql } = recording(openDatabase(':memory:'));
    // From the first statement: the lookups are prepared with the repository, the lists on first use.
    const start = sql.length;
    const views = createViewsRepo(new Statements(db, UNWATCHED));
    const page = (extra: object) => ({ limit: 10, ...extra });
    for (const run of [
      () => views.checkouts(ID, 'test', page({})),
      () => views.checkouts(ID, 'test', page({ equals: { status: 'paid' } })),
      () => views.checkouts(ID, 'test', page({ search: 'order', equals: { status: 'paid' } })),
      () => views.customers(ID, 'test', page({ search: 'ada' })),
      () => views.invoices(ID, 'test', page({ equals: { status: 'sent' } })),
      () => views.invoices(ID, 'test', page({ search: 'INV' })),
      () => views.events(ID, 'test', page({ equals: { type: 'checkout.paid' } })),
      () => views.events(ID, 'test', page({ search: ID })),
      () => views.invoicesOfCustomer(ID),
      () => views.checkoutsOfCustomer(ID),
    ])
      run();
    const planned = plans(db, sql, start);
    expect(planned.length).toBeGreaterThanOrEqual(10);
    for (const { sql: text, plan } of planned) {
      expect(plan, text).toMatch(/^SEARCH \w+ USING (INTEGER PRIMARY KEY|INDEX)/);
    }
    // The filtered lists use the (merchant, env, column) indexes of migration 011.
    const indexes = planned.map((p) => p.plan).join('\n');
    for (const name of [
      'checkouts_merchant_status',
      'invoices_merchant_status',
      'events_merchant_type',
      'invoices_customer',
      'checkouts_customer',
    ]) {
      expect(indexes).toContain(name);
    }
  });

  it('deliveries: by merchant and environment, and by event, status or endpoint', () => {
    const { db, sql } = recording(openDatabase(':memory:'));
    const webhooks = createWebhooksRepo(new Statements(db, UNWATCHED));
    const start = sql.length;
    for (const filter of [
      { merchant_id: ID, env: 'test' },
      { merchant_id: ID, env: 'test', event: 'checkout.paid' },
      { merchant_id: ID, env: 'test', status: 'failed' },
      { merchant_id: ID, env: 'test', endpoint_id: ID },
    ]) {
      webhooks.listDeliveries({ ...filter, limit: 10 });
    }
    const planned = plans(db, sql, start);
    expect(planned).toHaveLength(4);
    for (const { sql: text, plan } of planned)
      expect(plan, text).toMatch(/^SEARCH webhook_deliveries USING INDEX/);
    const used = planned.map((p) => p.plan).join('\n');
    expect(used).toContain('webhook_deliveries_merchant_event');
    expect(used).toContain('webhook_deliveries_merchant_status');
  });

  it('the /v1 lists (newest first by rowid) walk an index in order: never a sort of all the rows of a merchant', () => {
    // An index on (merchant_id, env) ends in rowid and gives the order; a wider one
    // (merchant_id, env, status) does not, and the first page would sort every row of the merchant.
    const { db, sql } = recording(openDatabase(':memory:'));
    for (const create of [
      createCheckoutsRepo,
      createCustomersRepo,
      createInvoicesRepo,
      createCardsRepo,
      createResellersRepo,
    ]) {
      // Statements are prepared on first use: call every list once (each prepares all its own).
      const repo = create(new Statements(db, UNWATCHED)) as unknown as Record<string, unknown>;
      for (const [name, fn] of Object.entries(repo)) {
        if (!name.startsWith('list') || typeof fn !== 'function') continue;
        try {
          (fn as (...args: unknown[]) => unknown)('m', 'test', { limit: 1 });
        } catch {
          // a list with another signature: what matters is what it prepared
        }
      }
    }
    const lists = plans(db, sql, 0).filter((p) => /ORDER BY rowid DESC/.test(p.sql));
    expect(lists.length).toBeGreaterThanOrEqual(8);
    for (const { sql: text, plan } of lists) {
      expect(plan, text).toMatch(/USING (COVERING )?INDEX/);
      expect(plan, text).not.toMatch(/TEMP B-TREE/);
    }
  });

  it("the scheduler's due jobs (failed ones included) are read from an index in due order, never by a scan of every job", () => {
    // The scheduler reads them on every tick: a scan would cost each tick what the table holds.
    const { db, sql } = recording(openDatabase(':memory:'));
    const jobs = createJobsRepo(new Statements(db, UNWATCHED));
    const start = sql.length;
    jobs.due(0, 2);
    const [due] = plans(db, sql, start);
    expect(due?.plan, due?.sql).toMatch(/^SEARCH jobs USING INDEX jobs_due \(due_at<\?\)$/);
  });
});
