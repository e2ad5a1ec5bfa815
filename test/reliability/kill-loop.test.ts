import type { ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver } from '../helpers/receiver.js';
import { tempDir } from '../helpers/sandbox.js';
import { ensureCli, exited, mulberry32, type Served, serve } from './support.js';

/**
 * Kill -9 in a loop. The real CLI on a file; concurrent writers create checkouts with a
 * key, pay some through the control API and add webhook endpoints pointing at a local receiver;
 * SIGKILL at a seeded random moment; then, on a copy of the files exactly as the kill left them:
 * integrity_check, every acknowledged write present with (at least) its acknowledged state, every
 * delivery its acknowledged writes imply present, none of an earlier round gone, and nothing the
 * receiver got that the database does not hold (no phantom webhook). The next round restarts on
 * the same file; a final restart drains the deliveries and checks every one reached the receiver.
 */

const ROUNDS = Number(process.env.RELIABILITY_KILL_ROUNDS ?? 5);
const SEED = Number(process.env.RELIABILITY_SEED ?? 0x5eed);
const WRITERS = 6;
/** the kill lands this long after the writers start: [min, min + span) ms, seeded */
const KILL_MIN_MS = 200;
const KILL_SPAN_MS = 1_300;
const DRAIN_TIMEOUT_MS = 15_000;
/** endpoints are added mid-load (one a round) up to this many: every write fans out to each */
const MAX_ENDPOINTS = 4;

type State = 'active' | 'paid' | 'completed';
const RANK: Record<string, number> = { active: 0, paid: 1, completed: 2 };

interface CheckoutAck {
  id: string;
  /** logical time the create request was sent */
  sentAt: number;
  state: State;
  paySentAt?: number;
  paying?: boolean;
}

interface EndpointAck {
  id: string;
  /** logical time its 2xx arrived */
  ackedAt: number;
}

interface DeliveryRow {
  id: string;
  event_id: string;
  endpoint_id: string;
  status: string;
}

/** A request the server answered with something else than a 2xx: never the kill's doing. */
class StatusError extends Error {}

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

beforeAll(() => ensureCli(), 120_000);

async function request(url: string, method: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
}

/** Copies the database files as they are now (the process is dead): the restart recovers the originals. */
function snapshot(dbPath: string, dir: string, round: number): string {
  const copy = join(dir, `round-${round}.db`);
  for (const suffix of ['', '-wal', '-shm']) {
    if (existsSync(`${dbPath}${suffix}`)) copyFileSync(`${dbPath}${suffix}`, `${copy}${suffix}`);
  }
  return copy;
}

describe('reliability: kill -9 loop on the real CLI', () => {
  it(
    `${ROUNDS} rounds of SIGKILL mid-write: nothing acknowledged lost, integrity ok, no phantom webhook`,
    async () => {
      const started = performance.now();
      const random = mulberry32(SEED); // the writers' choices
      const killMoments = mulberry32(SEED ^ 0x9e3779b9); // the kill delays: the same every run
      const dir = tempDir();
      const dbPath = join(dir, 'sandbox.db');
      const receiver = await startReceiver();

      let clock = 0; // logical time: every send and every acknowledgement ticks it
      let acknowledged = 0;
      const checkouts = new Map<string, CheckoutAck>();
      const endpoints: EndpointAck[] = [];
      let merchantId = '';
      let auth: Record<string, string> = {};
      const problems: string[] = [];
      let previous = new Map<string, string>(); // delivery id → status, at the last snapshot
      let integrityOk = 0;

      const start = async (): Promise<Served> => {
        const served = await serve(dbPath);
        children.push(served.child);
        return served;
      };

      for (let round = 1; round <= ROUNDS; round++) {
        const t0 = performance.now();
        const served = await start();
        const base = served.urls.test;
        const tReady = performance.now();
        if (round === 1) {
          const limits = await request(`${base}/sandbox/settings`, 'PATCH', {
            rate_limit_per_minute: 0,
            concurrency_limit: 0,
          });
          expect(limits.status).toBe(200);
          const merchant = await request(`${base}/sandbox/merchants`, 'POST', { name: 'Kill loop' });
          expect(merchant.status).toBe(200);
          merchantId = (merchant.body.merchant as { id: string }).id;
          auth = { authorization: `Bearer ${(merchant.body.api_key as { key: string }).key}` };
          acknowledged += 2;
        }
        // One endpoint before the load, so deliveries exist from the first write on.
        if (endpoints.length === 0) {
          const sentAt = ++clock;
          const res = await request(`${base}/sandbox/merchants/${merchantId}/webhook-endpoints`, 'POST', {
            url: `${receiver.url}?round=${round}`,
          });
          expect(res.status, JSON.stringify(res.body)).toBe(200);
          endpoints.push({ id: res.body.id as string, ackedAt: Math.max(sentAt, ++clock) });
          acknowledged++;
        }

        let killed = false;
        let endpointThisRound = false;
        const expiresAt = new Date(Date.now() + 7 * 86_400_000).toISOString();
        const writer = async (w: number) => {
          for (let i = 0; !killed; i++) {
            const roll = random();
            const payable =
              roll < 0.3 ? [...checkouts.values()].filter((c) => c.state === 'active' && !c.paying) : [];
            try {
              if (payable.length > 0) {
                const target = payable[Math.floor(random() * payable.length)]!;
                target.paying = true;
                const sentAt = ++clock;
                const res = await request(`${base}/sandbox/checkouts/${target.id}/payments`, 'POST', {});
                if (res.status !== 200)
                  throw new StatusError(`pay ${target.id}: ${res.status} ${JSON.stringify(res.body)}`);
                ++clock;
                target.state = (res.body.checkout as { status: State }).status;
                target.paySentAt = sentAt;
                target.paying = false;
              } else if (roll > 0.93 && !endpointThisRound && endpoints.length < MAX_ENDPOINTS) {
                endpointThisRound = true;
                ++clock;
                const res = await request(
                  `${base}/sandbox/merchants/${merchantId}/webhook-endpoints`,
                  'POST',
                  {
                    url: `${receiver.url}?round=${round}&w=${w}`,
                    events: ['checkout.created', 'checkout.paid'],
                  },
                );
                if (res.status !== 200)
                  throw new StatusError(`endpoint: ${res.status} ${JSON.stringify(res.body)}`);
                endpoints.push({ id: res.body.id as string, ackedAt: ++clock });
              } else {
                const sentAt = ++clock;
                const res = await request(
                  `${base}/v1/checkouts`,
                  'POST',
                  { title: `r${round}-w${w}-${i}`, amount: 5_000_000, expires_at: expiresAt },
                  auth,
                );
                if (res.status !== 200)
                  throw new StatusError(`checkout: ${res.status} ${JSON.stringify(res.body)}`);
                ++clock;
                checkouts.set(res.body.id as string, { id: res.body.id as string, sentAt, state: 'active' });
              }
              acknowledged++;
            } catch (error) {
              // The kill cut this request off (a network error): it was never acknowledged.
              if (killed && !(error instanceof StatusError)) return;
              problems.push(`round ${round} writer ${w}: ${String(error)}`);
              return;
            }
          }
        };
        const writers = Array.from({ length: WRITERS }, (_, w) => writer(w));
        const delay = KILL_MIN_MS + Math.floor(killMoments() * KILL_SPAN_MS);
        await new Promise((resolve) => setTimeout(resolve, delay));
        killed = true;
        served.child.kill('SIGKILL');
        expect(await exited(served.child)).toBe('SIGKILL');
        await Promise.all(writers);
        if (process.env.KILL_DEBUG)
          console.log(
            `round ${round}: ready in ${Math.round(tReady - t0)} ms, kill after ${delay} ms, ${acknowledged} acked so far, clock ${clock}, round total ${Math.round(performance.now() - t0)} ms`,
          );

        // ---- the files as the kill left them ----
        const copy = snapshot(dbPath, dir, round);
        const db = new Database(copy);
        try {
          const integrity = db.pragma('integrity_check', { simple: true });
          if (integrity === 'ok') integrityOk++;
          else problems.push(`round ${round}: integrity_check ${String(integrity)}`);
          const fk = db.pragma('foreign_key_check') as unknown[];
          if (fk.length > 0)
            problems.push(`round ${round}: foreign_key_check ${JSON.stringify(fk.slice(0, 3))}`);

          const status = new Map(
            db
              .prepare<[string], { id: string; status: string }>(
                'SELECT id, status FROM checkouts WHERE merchant_id = ?',
              )
              .all(merchantId)
              .map((r) => [r.id, r.status]),
          );
          if (!db.prepare('SELECT 1 FROM merchants WHERE id = ?').get(merchantId))
            problems.push(`round ${round}: the merchant is gone`);
          for (const c of checkouts.values()) {
            const stored = status.get(c.id);
            if (stored === undefined) problems.push(`round ${round}: acknowledged checkout ${c.id} lost`);
            else if (!(stored in RANK) || RANK[stored]! < RANK[c.state]!)
              problems.push(`round ${round}: checkout ${c.id} acknowledged ${c.state}, stored ${stored}`);
          }
          const endpointIds = new Set(
            db
              .prepare<[string], { id: string }>('SELECT id FROM webhook_endpoints WHERE merchant_id = ?')
              .all(merchantId)
              .map((r) => r.id),
          );
          for (const e of endpoints)
            if (!endpointIds.has(e.id)) problems.push(`round ${round}: acknowledged endpoint ${e.id} lost`);

          // Each stored checkout committed with its event (one transaction).
          const events = new Map<string, string>(); // `${type}:${resource}` → event id
          for (const e of db
            .prepare<[string], { id: string; type: string; resource_id: string }>(
              'SELECT id, type, resource_id FROM events WHERE merchant_id = ?',
            )
            .all(merchantId))
            events.set(`${e.type}:${e.resource_id}`, e.id);
          for (const id of status.keys())
            if (!events.has(`checkout.created:${id}`))
              problems.push(`round ${round}: checkout ${id} has no event`);

          const deliveries = db
            .prepare<[], DeliveryRow>('SELECT id, event_id, endpoint_id, status FROM webhook_deliveries')
            .all();
          const byId = new Map(deliveries.map((d) => [d.id, d]));
          const pairs = new Set(deliveries.map((d) => `${d.event_id}:${d.endpoint_id}`));
          // An acknowledged write sent after an endpoint was acknowledged fanned out to it.
          const expectFanOut = (type: string, resource: string, sentAt: number) => {
            const event = events.get(`${type}:${resource}`);
            if (event === undefined) {
              problems.push(`round ${round}: acknowledged ${type} of ${resource} has no event`);
              return;
            }
            for (const e of endpoints)
              if (e.ackedAt < sentAt && !pairs.has(`${event}:${e.id}`))
                problems.push(`round ${round}: delivery of ${type} ${resource} to ${e.id} lost`);
          };
          for (const c of checkouts.values()) {
            expectFanOut('checkout.created', c.id, c.sentAt);
            if (c.paySentAt !== undefined) expectFanOut('checkout.paid', c.id, c.paySentAt);
          }
          // Nothing of an earlier round vanished or went back.
          for (const [id, was] of previous) {
            const now = byId.get(id);
            if (!now) problems.push(`round ${round}: delivery ${id} (${was} before) vanished`);
            else if (was !== 'pending' && now.status !== was)
              problems.push(`round ${round}: delivery ${id} went from ${was} to ${now.status}`);
          }
          for (const d of deliveries)
            if (!['pending', 'delivered', 'failed'].includes(d.status))
              problems.push(`round ${round}: delivery ${d.id} has status ${d.status}`);
          // No phantom: whatever reached the receiver exists, and so does what it is about.
          for (const got of receiver.received) {
            if (!byId.has(got.body.id))
              problems.push(`round ${round}: phantom delivery ${got.body.id} (${got.body.event})`);
            const about = got.body.data?.id;
            if (got.body.event.startsWith('checkout.') && typeof about === 'string' && !status.has(about))
              problems.push(`round ${round}: phantom ${got.body.event} about checkout ${about}`);
          }
          previous = new Map(deliveries.map((d) => [d.id, d.status]));
        } finally {
          db.close();
        }
      }

      // ---- a final restart: the API shows every acknowledged state, and every delivery drains ----
      const last = await start();
      const base = last.urls.test;
      const listed = new Map<string, string>();
      let after: string | undefined;
      for (;;) {
        const page = await request(
          `${base}/sandbox/merchants/${merchantId}/checkouts?limit=1000${after ? `&starting_after=${after}` : ''}`,
          'GET',
        );
        expect(page.status).toBe(200);
        const items = page.body as unknown as { id: string; status: string }[];
        for (const c of items) listed.set(c.id, c.status);
        if (items.length < 1000) break;
        after = items[items.length - 1]!.id;
      }
      for (const c of checkouts.values()) {
        const shown = listed.get(c.id);
        if (shown === undefined || RANK[shown] === undefined || RANK[shown]! < RANK[c.state]!)
          problems.push(`after restart: checkout ${c.id} acknowledged ${c.state}, the API shows ${shown}`);
      }
      // Leases of sends the kill cut short fall due after the webhook timeout + 60 s of sandbox time.
      const advanced = await request(`${base}/sandbox/clock/advance`, 'POST', { seconds: 180 });
      expect(advanced.status, JSON.stringify(advanced.body)).toBe(200);
      const deadline = Date.now() + DRAIN_TIMEOUT_MS;
      let pending = -1;
      while (Date.now() < deadline) {
        const res = await request(
          `${base}/sandbox/deliveries?merchant_id=${merchantId}&status=pending&limit=1000`,
          'GET',
        );
        pending = (res.body as unknown as unknown[]).length;
        if (pending === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      last.child.kill('SIGTERM');
      expect(await exited(last.child)).toBe(0);
      const db = new Database(dbPath, { readonly: true });
      let total = 0;
      try {
        const deliveries = db
          .prepare<[], DeliveryRow>('SELECT id, event_id, endpoint_id, status FROM webhook_deliveries')
          .all();
        total = deliveries.length;
        const byId = new Map(deliveries.map((d) => [d.id, d]));
        for (const id of previous.keys()) if (!byId.has(id)) problems.push(`final: delivery ${id} vanished`);
        const received = new Set(receiver.received.map((r) => r.body.id));
        for (const id of received) if (!byId.has(id)) problems.push(`final: phantom delivery ${id}`);
        for (const d of deliveries) {
          if (d.status !== 'delivered')
            problems.push(`final: delivery ${d.id} is ${d.status} after the drain`);
          else if (!received.has(d.id))
            problems.push(`final: delivery ${d.id} is delivered but never arrived`);
        }
      } finally {
        db.close();
      }
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const lost = problems.filter((p) => /lost|vanished/.test(p)).length;
      const phantom = problems.filter((p) => /phantom/.test(p)).length;
      console.log(
        `kill-loop: ${ROUNDS} rounds, ${acknowledged} acknowledged writes, ${lost} lost, integrity ok ×${integrityOk}, ${total} deliveries, ${phantom} phantom (seed ${SEED}, ${checkouts.size} checkouts, ${endpoints.length} endpoints, ${receiver.received.length} sends received, ${seconds} s)`,
      );
      expect(problems.slice(0, 20)).toEqual([]);
      expect(pending, 'no delivery left pending after the drain').toBe(0);
    },
    // ≤ 60 s at the default 5 rounds
    Math.max(60_000, ROUNDS * 10_000 + 10_000),
  );
});
