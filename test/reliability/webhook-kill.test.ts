import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver } from '../helpers/receiver.js';
import { tempDir } from '../helpers/sandbox.js';
import { ensureCli, exited, type Served, serve } from './support.js';

/**
 * New deliveries are sent straight after their event commits, with their lease written in that
 * transaction, and the results of many sends are recorded in one transaction a turn later. A
 * kill -9 in the middle of that (answers received, their batch not yet committed; sends still in
 * flight) loses nothing: after a restart on the same file every delivery is sent again or was
 * recorded, without moving the clock (nothing is in flight in a new process, so the leases a kill
 * left standing fall due at once), and every attempt on record is whole.
 */

const DEPOSITS = 60;
const ENDPOINTS = 4;
/** the kill lands when the receiver has this many requests */
const KILL_AT = 90;

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});
beforeAll(() => ensureCli());

async function json(url: string, method: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(url, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

interface Row {
  id: string;
  status: string;
  attempt_count: number;
}

describe('webhook delivery under kill -9', () => {
  it('SIGKILL while answers of a batch are being recorded: after a restart every delivery arrives and is recorded, attempts whole, no clock advance needed', async () => {
    const dbPath = join(tempDir(), 'kill.db');
    const receiver = await startReceiver();
    let first: Served | undefined;
    // The kill comes from the receiver itself, the moment the KILL_AT-th request arrives: earlier
    // answers are in the sandbox (some recorded, some in a batch not yet committed), later sends
    // are in flight.
    receiver.respond = (_request, index) => {
      if (index === KILL_AT - 1) first?.child.kill('SIGKILL');
      return { status: 200, body: 'ok' };
    };
    first = await serve(dbPath);
    children.push(first.child);
    const base = first.urls.test;
    await json(`${base}/sandbox/settings`, 'PATCH', { rate_limit_per_minute: 0, concurrency_limit: 0 });
    const { merchant } = (await json(`${base}/sandbox/merchants`, 'POST', { name: 'Kill' })) as {
      merchant: { id: string };
    };
    for (let i = 0; i < ENDPOINTS; i++) {
      await json(`${base}/sandbox/merchants/${merchant.id}/webhook-endpoints`, 'POST', {
        url: `${receiver.url}?e=${i}`,
        events: ['deposit.received'],
      });
    }
    // Deposits, 6 at a time, until the kill stops the sandbox; the acknowledged ones are counted.
    let acknowledged = 0;
    let next = 0;
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        while (next < DEPOSITS) {
          const txid = `k-${next++}`;
          try {
            await json(`${base}/sandbox/deposits`, 'POST', {
              merchant_id: merchant.id,
              chain: 'tron',
              currency: 'USDT',
              amount: 1_000_000,
              txid,
            });
            acknowledged++;
          } catch {
            return; // the kill
          }
        }
      }),
    );
    expect(await exited(first.child)).toBe('SIGKILL');
    expect(acknowledged, 'setup: deposits were acknowledged before the kill').toBeGreaterThan(0);
    const receivedBeforeKill = receiver.received.length;
    expect(receivedBeforeKill, 'setup: the kill landed mid-load').toBeGreaterThanOrEqual(KILL_AT);

    // What the kill left: every delivery of an acknowledged deposit exists; none is recorded
    // beyond what was sent.
    const before = new Database(dbPath, { readonly: true });
    let rows: Row[];
    try {
      rows = before.prepare('SELECT id, status, attempt_count FROM webhook_deliveries').all() as Row[];
    } finally {
      before.close();
    }
    expect(rows.length).toBeGreaterThanOrEqual(acknowledged * ENDPOINTS);
    const unrecorded = rows.filter((r) => r.attempt_count === 0);
    expect(unrecorded.length, 'setup: some deliveries were cut short by the kill').toBeGreaterThan(0);

    // Restart on the same file; no clock advance: the cut-short deliveries go out at once.
    receiver.respond = () => ({ status: 200, body: 'ok' });
    const second = await serve(dbPath);
    children.push(second.child);
    const ids = new Set(rows.map((r) => r.id));
    await receiver.waitFor(
      (received) => [...ids].every((id) => received.some((m) => m.body.id === id)),
      15_000,
    );
    const deadline = Date.now() + 10_000;
    let pending = -1;
    while (Date.now() < deadline) {
      const list = (await fetch(
        `${second.urls.test}/sandbox/deliveries?merchant_id=${merchant.id}&status=pending&limit=1000`,
      ).then((r) => r.json())) as unknown[];
      pending = list.length;
      if (pending === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(pending, 'no delivery left pending after the restart').toBe(0);
    second.child.kill('SIGTERM');
    expect(await exited(second.child)).toBe(0);

    const after = new Database(dbPath, { readonly: true });
    try {
      const deliveries = after
        .prepare('SELECT id, status, attempt_count FROM webhook_deliveries')
        .all() as Row[];
      const attempts = after
        .prepare(
          'SELECT delivery_id, number, response_status FROM webhook_attempts ORDER BY delivery_id, number',
        )
        .all() as { delivery_id: string; number: number; response_status: number | null }[];
      const byDelivery = new Map<string, { number: number; response_status: number | null }[]>();
      for (const a of attempts) byDelivery.set(a.delivery_id, [...(byDelivery.get(a.delivery_id) ?? []), a]);
      const problems: string[] = [];
      for (const d of deliveries) {
        const list = byDelivery.get(d.id) ?? [];
        if (d.status !== 'delivered') problems.push(`${d.id} is ${d.status}`);
        if (list.length !== d.attempt_count)
          problems.push(`${d.id}: attempt_count ${d.attempt_count}, ${list.length} attempts on record`);
        if (list.some((a, i) => a.number !== i + 1))
          problems.push(`${d.id}: attempt numbers ${list.map((a) => a.number)}`);
        if (list.at(-1)?.response_status !== 200) problems.push(`${d.id}: last attempt not the 200`);
      }
      // No phantom: everything the receiver got is a delivery on record.
      const known = new Set(deliveries.map((d) => d.id));
      for (const m of receiver.received) if (!known.has(m.body.id)) problems.push(`phantom ${m.body.id}`);
      expect(problems).toEqual([]);
      expect(after.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      after.close();
    }
  }, 60_000);
});
