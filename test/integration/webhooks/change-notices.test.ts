import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { Change, ChangeNotice } from '../../../server/contract/sandbox-state.js';
import { ChangeFeed } from '../../../server/db/changes.js';
import { Statements, TABLE_KINDS } from '../../../server/db/statements.js';
import { UnitOfWork } from '../../../server/db/unit-of-work.js';
import type { Sandbox } from '../../../server/sandbox.js';
import { connect, income, paidAndSettled, postCheckout } from '../../helpers/resellers.js';
import { createMerchant, inFuture, ManualTime, testSandbox } from '../../helpers/sandbox.js';

/** Reads `event: change` notices from the live stream for the whole test. */
async function changeStream(url: string) {
  const controller = new AbortController();
  const response = await fetch(url, { signal: controller.signal });
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const notices: ChangeNotice[] = [];
  const waiters: (() => void)[] = [];
  let buffer = '';
  const pump = (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let cut = buffer.indexOf('\n\n');
      while (cut !== -1) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const data = /^data: (.+)$/m.exec(block)?.[1];
        if (/^event: change$/m.test(block) && data) notices.push(JSON.parse(data) as ChangeNotice);
        cut = buffer.indexOf('\n\n');
      }
      for (const wake of waiters.splice(0)) wake();
    }
  })();
  return {
    notices,
    /** Runs `act`, then waits (≤ 2 s) for a notice after it with a change matching `match`. */
    async expectAfter(
      act: () => Promise<unknown>,
      match: (change: Change) => boolean,
    ): Promise<ChangeNotice> {
      const from = notices.length;
      await act();
      const deadline = Date.now() + 2000;
      for (;;) {
        const found = notices.slice(from).find((n) => n.changes.some(match));
        if (found) return found;
        if (Date.now() > deadline) {
          throw new Error(`no matching change notice; got ${JSON.stringify(notices.slice(from))}`);
        }
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
    },
    async close() {
      controller.abort();
      await pump;
    },
  };
}

const kind = (k: Change['kind']) => (change: Change) => change.kind === k;

async function call(sandbox: Sandbox, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) {
  const res = await sandbox.apps.test.inject({
    method,
    url,
    ...(payload ? { payload: payload as Record<string, unknown> } : {}),
  });
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json() as Record<string, unknown>;
}

describe('change notices on the live stream', () => {
  it('every table of the schema belongs to an area (or is named as bookkeeping)', async () => {
    const sandbox = await testSandbox();
    const tables = (
      sandbox.db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        .all() as { name: string }[]
    )
      .map((t) => t.name)
      .filter((name) => name !== 'schema_migrations');
    for (const table of tables) expect(Object.keys(TABLE_KINDS), table).toContain(table);
    // …and names no table the schema has not: a write names its table from this list.
    for (const table of Object.keys(TABLE_KINDS)) expect(tables, table).toContain(table);
  });

  it('announces changes from every source: /v1, control API, scheduler, hosted KYC, settings, clock, reset', async () => {
    const time = new ManualTime();
    const sandbox = await testSandbox({ realNow: time.now });
    const urls = await sandbox.listen();
    const stream = await changeStream(`${urls.test}/sandbox/events`);
    try {
      // control API: a new merchant (its id says whose), an API key, a webhook endpoint
      let actor = { merchantId: '', auth: { authorization: '' } };
      const created = await stream.expectAfter(async () => {
        actor = await createMerchant(sandbox, 'Live Co');
      }, kind('merchant'));
      expect(created.changes).toContainEqual(
        expect.objectContaining({ kind: 'merchant', id: actor.merchantId, merchant_id: actor.merchantId }),
      );
      await stream.expectAfter(
        () => call(sandbox, 'PATCH', `/sandbox/merchants/${actor.merchantId}`, { kyb_status: 'approved' }),
        (c) => c.kind === 'merchant' && c.id === actor.merchantId,
      );
      await stream.expectAfter(
        () =>
          call(sandbox, 'POST', `/sandbox/merchants/${actor.merchantId}/api-keys`, {
            name: 'ci',
            role: 'developer',
          }),
        (c) => c.kind === 'api_key' && c.merchant_id === actor.merchantId,
      );
      await stream.expectAfter(
        () =>
          call(sandbox, 'POST', `/sandbox/merchants/${actor.merchantId}/webhook-endpoints`, {
            url: 'http://127.0.0.1:9/hook',
          }),
        kind('webhook'),
      );

      // /v1: a checkout, named with its merchant and environment
      let checkoutId = '';
      await stream.expectAfter(
        async () => {
          const res = await sandbox.apps.test.inject({
            method: 'POST',
            url: '/v1/checkouts',
            headers: actor.auth,
            payload: { title: 'Live', amount: 20_000_000, expires_at: inFuture(sandbox, 600_000) },
          });
          expect(res.statusCode).toBe(200);
          checkoutId = (res.json() as { id: string }).id;
        },
        (c) => c.kind === 'checkout' && c.merchant_id === actor.merchantId && c.env === 'test',
      );

      // the scheduler: advancing past the expiry runs the expiry job, which changes the checkout
      await stream.expectAfter(
        () => call(sandbox, 'POST', '/sandbox/clock/advance', { seconds: 3600 }),
        (c) => c.kind === 'checkout' && c.id === checkoutId,
      );
      const status = await sandbox.apps.test.inject({
        url: `/v1/checkouts/${checkoutId}`,
        headers: actor.auth,
      });
      expect((status.json() as { status: string }).status).toBe('expired');

      // hosted identity page: its Approve button posts this form; the cardholder changes
      const holder = (
        await sandbox.apps.test.inject({
          method: 'POST',
          url: '/v1/cardholders',
          headers: actor.auth,
          payload: { name: 'Kay' },
        })
      ).json() as { id: string };
      const kyc = (
        await sandbox.apps.test.inject({
          method: 'POST',
          url: `/v1/cardholders/${holder.id}/kyc`,
          headers: actor.auth,
        })
      ).json() as { url: string };
      const page = await fetch(kyc.url.replace(/^https?:\/\/[^/]+/, urls.test));
      expect(page.status).toBe(200);
      await stream.expectAfter(
        () =>
          fetch(`${urls.test}/sandbox/cardholders/${holder.id}/kyc`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ result: 'approved' }),
          }),
        (c) => c.kind === 'card' && c.id === holder.id,
      );

      // settings and the clock
      await stream.expectAfter(
        () => call(sandbox, 'PATCH', '/sandbox/settings', { settlement_delay_seconds: 120 }),
        kind('settings'),
      );
      await stream.expectAfter(() => call(sandbox, 'POST', '/sandbox/clock/freeze'), kind('clock'));
      await stream.expectAfter(() => call(sandbox, 'POST', '/sandbox/clock/resume'), kind('clock'));

      // import: the workspace is replaced, as after a reset
      const bundle = Buffer.from(await (await fetch(`${urls.test}/sandbox/export`)).arrayBuffer());
      await stream.expectAfter(
        () =>
          fetch(`${urls.test}/sandbox/import`, {
            method: 'POST',
            headers: { 'content-type': 'application/octet-stream' },
            body: bundle,
          }),
        kind('workspace'),
      );

      // reset: one notice says the whole workspace is new
      await stream.expectAfter(() => call(sandbox, 'POST', '/sandbox/reset'), kind('workspace'));
    } finally {
      await stream.close();
    }
  });

  it('announces a reseller connection, and the fee release a scheduled job makes 7 days later', async () => {
    const sandbox = await testSandbox({ realNow: new ManualTime().now });
    const urls = await sandbox.listen();
    const reseller = await createMerchant(sandbox, 'Reseller');
    const target = await createMerchant(sandbox, 'Target');
    const stream = await changeStream(`${urls.test}/sandbox/events`);
    try {
      await stream.expectAfter(
        () => connect(sandbox, reseller, target.merchantId, { rate: 500 }),
        (c) => c.kind === 'reseller',
      );
      const checkout = (await postCheckout(sandbox, reseller, { merchant_id: target.merchantId })).json() as {
        id: string;
      };
      await paidAndSettled(sandbox, checkout.id);
      // The release job writes the checkout (fees_released_at) and the ledger when the hold ends.
      const released = await stream.expectAfter(
        () => call(sandbox, 'POST', '/sandbox/clock/advance', { seconds: 7 * 86400 + 60 }),
        (c) => c.kind === 'checkout' && c.id === checkout.id,
      );
      expect(stream.notices.slice(stream.notices.indexOf(released)).flatMap((n) => n.changes)).toContainEqual(
        expect.objectContaining({ kind: 'ledger' }),
      );
      const [fees] = await income(sandbox, reseller.merchantId);
      expect(fees).toMatchObject({ currency: 'USDC', pending: 0 });
      expect(fees!.earned).toBe(5_000_000); // 5% (rate 500) of the 100 USDC checkout
    } finally {
      await stream.close();
    }
  });

  it('a write bound by position names its row: a revoked API key, a deleted customer', async () => {
    const sandbox = await testSandbox();
    const urls = await sandbox.listen();
    const actor = await createMerchant(sandbox);
    const key = await call(sandbox, 'POST', `/sandbox/merchants/${actor.merchantId}/api-keys`, {
      name: 'ci',
      role: 'developer',
    });
    const customer = (
      await sandbox.apps.test.inject({
        method: 'POST',
        url: '/v1/customers',
        headers: actor.auth,
        payload: { name: 'Gone Soon' },
      })
    ).json() as { id: string };
    const stream = await changeStream(`${urls.test}/sandbox/events`);
    try {
      await stream.expectAfter(
        () => sandbox.apps.test.inject({ method: 'DELETE', url: `/sandbox/api-keys/${String(key.id)}` }),
        (c) => c.kind === 'api_key' && c.id === key.id,
      );
      await stream.expectAfter(
        async () => {
          const res = await sandbox.apps.test.inject({
            method: 'DELETE',
            url: `/v1/customers/${customer.id}`,
            headers: actor.auth,
          });
          expect(res.statusCode).toBe(204);
        },
        (c) => c.kind === 'customer' && c.id === customer.id,
      );
    } finally {
      await stream.close();
    }
  });

  it('coalesces a burst: many writes in one group commit are one notice', async () => {
    const sandbox = await testSandbox();
    const urls = await sandbox.listen();
    const actor = await createMerchant(sandbox);
    const stream = await changeStream(`${urls.test}/sandbox/events?env=test`);
    try {
      const burst = () =>
        Promise.all(
          Array.from({ length: 8 }, (_, i) =>
            sandbox.apps.test.inject({
              method: 'POST',
              url: '/v1/checkouts',
              headers: actor.auth,
              payload: { title: `Burst ${i}`, amount: 1_000_000, expires_at: inFuture(sandbox) },
            }),
          ),
        );
      await stream.expectAfter(burst, kind('checkout'));
      // give stragglers a moment (8 is under the per-key concurrency limit): far fewer notices than writes
      await new Promise((resolve) => setTimeout(resolve, 200));
      const checkoutNotices = stream.notices.filter((n) => n.changes.some(kind('checkout')));
      expect(checkoutNotices.length).toBeGreaterThanOrEqual(1);
      expect(checkoutNotices.length).toBeLessThan(4);
      const named = new Set(
        checkoutNotices.flatMap((n) => n.changes.filter(kind('checkout')).map((c) => c.id)),
      );
      expect(named.size).toBe(8);
    } finally {
      await stream.close();
    }
  });

  it('filters by merchant: another merchant’s change is not sent', async () => {
    const sandbox = await testSandbox();
    const urls = await sandbox.listen();
    const mine = await createMerchant(sandbox, 'Mine');
    const other = await createMerchant(sandbox, 'Other');
    const stream = await changeStream(`${urls.test}/sandbox/events?merchant_id=${mine.merchantId}`);
    try {
      await call(sandbox, 'PATCH', `/sandbox/merchants/${other.merchantId}`, { kyb_status: 'approved' });
      await stream.expectAfter(
        () => call(sandbox, 'PATCH', `/sandbox/merchants/${mine.merchantId}`, { kyb_status: 'approved' }),
        (c) => c.kind === 'merchant' && c.id === mine.merchantId,
      );
      const merchantIds = stream.notices.flatMap((n) => n.changes.map((c) => c.merchant_id));
      expect(merchantIds).not.toContain(other.merchantId);
    } finally {
      await stream.close();
    }
  });

  it('with no one listening, writes are not described; a listener gets the writes after it', async () => {
    const { feed, insert, turn } = watchedDb();
    const noted: string[] = [];
    const note = feed.note.bind(feed);
    feed.note = (change) => {
      noted.push(change.id ?? '');
      note(change);
    };
    insert({ id: 'unseen', merchant_id: 'm1', env: 'test' });
    expect(feed.listening).toBe(false);
    expect(noted).toEqual([]);
    const notices: ChangeNotice[] = [];
    const off = feed.on((notice) => notices.push(notice));
    expect(feed.listening).toBe(true);
    insert({ id: 'seen', merchant_id: 'm1', env: 'test' });
    await turn();
    expect(noted).toEqual(['seen']);
    expect(notices.flatMap((n) => n.changes.map((c) => c.id))).toEqual(['seen']);
    off();
    expect(feed.listening).toBe(false);
    insert({ id: 'after', merchant_id: 'm1', env: 'test' });
    expect(noted).toEqual(['seen']);
  });

  it('one notice per commit, only after it; a big commit names its kinds', async () => {
    const { db, unit, feed, insert, job, turn } = watchedDb();
    const notices: ChangeNotice[] = [];
    feed.on((notice) => notices.push(notice));

    // An open transaction (a group commit) holds its notice until it commits.
    unit.groupCommit.join();
    insert({ id: 'c1', merchant_id: 'm1', env: 'test' });
    unit.atomically(() => insert({ id: 'c2', merchant_id: 'm1', env: 'test' }));
    job('bookkeeping');
    expect(db.inTransaction).toBe(true);
    expect(notices).toEqual([]);
    unit.groupCommit.commit();
    await turn();
    expect(notices).toEqual([
      {
        seq: 1,
        changes: [
          { kind: 'checkout', id: 'c1', merchant_id: 'm1', env: 'test' },
          { kind: 'checkout', id: 'c2', merchant_id: 'm1', env: 'test' },
        ],
      },
    ]);

    // Bookkeeping alone (the job queue) is no change anyone sees.
    job('again');
    await turn();
    expect(notices).toHaveLength(1);

    unit.atomically(() => {
      for (let i = 0; i < 120; i++) insert({ id: `b${i}`, merchant_id: 'm2', env: 'production' });
    });
    await turn();
    expect(notices[1]).toEqual({ seq: 2, changes: [{ kind: 'checkout' }] });
    db.close();
  });

  it('a notice waits for a transaction begun on the connection itself, and for the next group commit', async () => {
    const { db, unit, feed, insert, turn } = watchedDb();
    const notices: ChangeNotice[] = [];
    feed.on((notice) => notices.push(notice));
    db.exec('BEGIN');
    insert({ id: 'raw', merchant_id: 'm1', env: 'test' });
    for (let i = 0; i < 3; i++) await turn();
    expect(notices).toEqual([]);
    db.exec('COMMIT');
    await turn();
    await turn();
    expect(notices.map((n) => n.changes.map((c) => c.id))).toEqual([['raw']]);

    // Committed, then a new group commit opens before the notice leaves: it waits for that one too,
    // and names both.
    unit.atomically(() => insert({ id: 'first', merchant_id: 'm1', env: 'test' }));
    unit.groupCommit.join();
    insert({ id: 'second', merchant_id: 'm1', env: 'test' });
    await turn();
    expect(notices).toHaveLength(1);
    unit.groupCommit.commit();
    await turn();
    expect(notices.map((n) => n.changes.map((c) => c.id))).toEqual([['raw'], ['first', 'second']]);
  });

  it('a write that rolled back inside a group commit still lets the commit’s notice out, after it', async () => {
    const { db, unit, feed, insert, turn } = watchedDb();
    const seen: { ids: (string | undefined)[]; open: boolean }[] = [];
    feed.on((notice) => seen.push({ ids: notice.changes.map((c) => c.id), open: db.inTransaction }));
    unit.groupCommit.join();
    // Two requests waiting: the batch stays open one more turn (server/db/batch.ts).
    void unit.groupCommit.durable();
    void unit.groupCommit.durable();
    expect(() =>
      unit.atomically(() => {
        insert({ id: 'failed', merchant_id: 'm1', env: 'test' });
        throw new Error('the request failed');
      }),
    ).toThrow('the request failed');
    unit.atomically(() => insert({ id: 'kept', merchant_id: 'm1', env: 'test' }));
    await turn();
    expect(db.inTransaction).toBe(true);
    expect(seen).toEqual([]);
    await turn();
    await turn();
    expect(db.inTransaction).toBe(false);
    // The failed write is named too: a needless re-read is harmless, a missed one is not.
    expect(seen).toEqual([{ ids: ['failed', 'kept'], open: false }]);
  });
});

/** An in-memory database whose writes report to a change feed, with a checkouts insert and a job insert. */
function watchedDb() {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE checkouts (id TEXT, merchant_id TEXT, env TEXT); CREATE TABLE jobs (id TEXT)');
  const unit = new UnitOfWork(db);
  const feed = new ChangeFeed(unit);
  const sql = new Statements(db, feed);
  const insert = sql.writeRow<{ id: string; merchant_id: string; env: string }>(
    'checkouts',
    'INSERT INTO checkouts (id, merchant_id, env) VALUES (@id, @merchant_id, @env)',
  );
  const job = sql.write<[string]>('jobs', 'INSERT INTO jobs (id) VALUES (?)');
  const turn = () => new Promise((resolve) => setImmediate(resolve));
  return { db, unit, feed, insert, job, turn };
}
