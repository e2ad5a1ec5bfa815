import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import type { Checkout } from '../../server/contract/checkouts.js';
import type { Merchant } from '../../server/contract/merchants.js';
import { type TestWorkspace, workspace } from '../../server/testing/index.js';

export const LANES = 8;
/** Each lane's clock starts on a day of its own, frozen: every time it reads is exactly predictable. */
export const laneStart = (lane: number): number => Date.UTC(2030, 0, lane, 9, 0, 0);
/** Lane n moves its clock n × 5 minutes a round, so no two lanes' clocks ever agree. */
export const laneStep = (lane: number): number => 300 * lane;
const ROUNDS = 4;
const CHECKOUTS = 3;

/**
 * What a lane leaves for test/integration/workspaces/parallel-workspaces.test.ts to compare across
 * lanes.
 */
export interface LaneReport {
  lane: number;
  pid: number;
  workspace: string;
  merchant: string;
  /** real time, ms: when the lane had its workspace, and when it was done with it */
  began: number;
  ended: number;
  clocks: string[];
  checkouts: string[];
}

/** All lanes' workspaces exist at once before any clock moves: the lanes really overlap. */
async function allLanesPresent(ws: TestWorkspace): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const all = await ws.control<{ name: string }[]>('GET', '/workspaces');
    const present = all.filter((w) => /^lane-\d$/.test(w.name)).length;
    if (present >= LANES) return;
    if (Date.now() > deadline) throw new Error(`only ${present} of ${LANES} lanes started within 20 s`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * One worker's test: a workspace of its own, checkouts that expire as its own clock passes their
 * expiry, webhooks into its own inbox; after every move, its clock, its data and what fired are
 * exactly its own, whatever the seven other lanes do meanwhile.
 */
export function lane(n: number): void {
  let ws: TestWorkspace | undefined;
  afterAll(() => ws?.close());

  it(`lane ${n}: its clock, its checkouts and its webhooks are its own`, async () => {
    const start = laneStart(n);
    ws = await workspace({ name: `lane-${n}`, clock: { start: new Date(start), frozen: true } });
    const began = Date.now();
    const inbox = await ws.inbox('hooks');
    await allLanesPresent(ws);
    expect((await ws.clock.now()).getTime()).toBe(start);

    // Checkout k expires 30 s before the end of round k + 1.
    const checkouts: Checkout[] = [];
    for (let k = 0; k < CHECKOUTS; k++) {
      const expiresAt = new Date(start + ((k + 1) * laneStep(n) - 30) * 1000).toISOString();
      checkouts.push(
        await ws.api<Checkout>('POST', '/v1/checkouts', {
          body: { title: `Lane ${n} order ${k}`, amount: 1_000_000 * n + k, expires_at: expiresAt },
        }),
      );
    }
    const mine = new Set(checkouts.map((c) => c.id));

    const clocks: string[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const moved = await ws.clock.advance(laneStep(n));
      const expected = new Date(start + round * laneStep(n) * 1000).toISOString();
      expect(moved.now).toBe(expected);
      // Exactly this lane's checkout of this round expired: no other lane's work ran here.
      const expired = moved.fired.events.filter((e) => e.type === 'checkout.expired');
      expect(expired, `round ${round}`).toHaveLength(round <= CHECKOUTS ? 1 : 0);
      // Other lanes advance meanwhile; this clock stays where this lane put it.
      expect((await ws.clock.state()).now).toBe(expected);
      clocks.push(moved.now);
    }

    const rows = await ws.api<Checkout[]>('GET', '/v1/checkouts?limit=100');
    expect(new Set(rows.map((c) => c.id))).toEqual(mine);
    expect(rows.every((c) => c.status === 'expired')).toBe(true);
    const merchants = await ws.control<Merchant[]>('GET', '/merchants');
    expect(merchants.map((m) => m.id)).toEqual([ws.merchant.id]);

    // Every checkout's expiry reached this lane's inbox, and nothing of another lane's did.
    for (const id of mine)
      await inbox.waitFor((_, event) => event.event === 'checkout.expired' && event.data.id === id);
    const received = (await inbox.messages()).map(
      (m) => JSON.parse(m.body) as { event: string; data: Checkout },
    );
    expect(received.every((m) => m.data.merchant_id === ws!.merchant.id)).toBe(true);
    expect(
      received
        .filter((m) => m.event === 'checkout.created')
        .map((m) => m.data.id)
        .sort(),
    ).toEqual([...mine].sort());
    expect((await ws.clock.now()).toISOString()).toBe(clocks.at(-1));

    const out = process.env.SVC_PARALLEL_OUT;
    if (out !== undefined) {
      const report: LaneReport = {
        lane: n,
        pid: process.pid,
        workspace: ws.id,
        merchant: ws.merchant.id,
        began,
        ended: Date.now(),
        clocks,
        checkouts: [...mine],
      };
      writeFileSync(join(out, `lane-${n}.json`), JSON.stringify(report));
    }
  });
}
