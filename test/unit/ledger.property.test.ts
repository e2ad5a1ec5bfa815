import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createContext, type SandboxContext } from '../../server/context.js';
import { openDatabase } from '../../server/db/connection.js';
import { Accounts } from '../../server/domain/ledger/service.js';
import type { Principal } from '../../server/domain/types.js';
import { AppError } from '../../server/errors.js';
import { createIds } from '../../server/ids.js';
import { sized } from '../helpers/depth.js';
import { ManualTime } from '../helpers/sandbox.js';

const DAY = 86_400_000;
/** Sequences per run: each is up to 26 operations on a fresh database. */
const RUNS = sized(300, 3_000);

type Op =
  | { op: 'create'; amount: number; chain: string; onBehalf: boolean }
  | { op: 'connect'; rate: number; min: number | null; max: number | null }
  | { op: 'revoke' }
  | { op: 'disconnect' }
  | { op: 'pay'; at: number; kind: 'full' | 'partial' | 'over'; part: number }
  | { op: 'settle' }
  | { op: 'expire'; at: number }
  | { op: 'refund'; at: number; part: number | null; merchantPaysGas: boolean }
  | { op: 'days'; days: number }
  | { op: 'deposit'; amount: number }
  | { op: 'payout'; amount: number }
  | { op: 'rate'; bps: number };

const connectArb = fc.record({
  op: fc.constant('connect' as const),
  rate: fc.oneof(fc.constantFrom(0, 10_000), fc.integer({ min: 0, max: 10_000 })),
  min: fc.option(fc.oneof(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 60_000_000 }))),
  max: fc.option(fc.oneof(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 60_000_000 }))),
});
/** A connection made before the sequence starts, most of the time. */
const connectedArb = fc.option(connectArb, { freq: 5 });

// Weighted so that on-behalf checkouts (which need an active connection earlier in the sequence)
// and every money path still happen hundreds of times.
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 7,
    arbitrary: fc.record({
      op: fc.constant('create' as const),
      amount: fc.oneof(fc.integer({ min: 1, max: 100 }), fc.integer({ min: 1, max: 50_000_000 })),
      chain: fc.constantFrom('polygon', 'tron', 'bsc', 'ethereum'),
      onBehalf: fc.boolean(),
    }),
  },
  // The reseller's connection to the merchant: created, re-created with new terms, revoked, removed.
  { weight: 2, arbitrary: connectArb },
  { weight: 1, arbitrary: fc.constant({ op: 'revoke' as const }) },
  { weight: 1, arbitrary: fc.constant({ op: 'disconnect' as const }) },
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant('pay' as const),
      at: fc.nat(),
      kind: fc.constantFrom('full' as const, 'partial' as const, 'over' as const),
      part: fc.integer({ min: 1, max: 99 }),
    }),
  },
  { weight: 2, arbitrary: fc.constant({ op: 'settle' as const }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('expire' as const), at: fc.nat() }) },
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant('refund' as const),
      at: fc.nat(),
      part: fc.option(fc.integer({ min: 1, max: 100 })),
      merchantPaysGas: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ op: fc.constant('days' as const), days: fc.integer({ min: 1, max: 9 }) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('deposit' as const),
      amount: fc.integer({ min: 1, max: 20_000_000 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('payout' as const),
      amount: fc.integer({ min: 1, max: 30_000_000 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant('rate' as const), bps: fc.integer({ min: 0, max: 2_000 }) }),
  },
);

async function apply(
  ctx: SandboxContext,
  principal: Principal,
  reseller: Principal,
  ids: string[],
  op: Op,
): Promise<void> {
  const pick = (at: number) => ids[at % ids.length];
  const connection = () => ctx.repos.resellers.findPair(reseller.merchantId, principal.merchantId, 'test');
  switch (op.op) {
    case 'create': {
      // On behalf: the reseller creates it for the merchant (refused, 403, without an active connection).
      const checkout = ctx.checkouts.create(op.onBehalf ? reseller : principal, {
        title: 'p',
        amount: op.amount,
        expires_at: new Date(ctx.clock.now() + 3600_000).toISOString(),
        chains: [op.chain],
        ...(op.onBehalf ? { merchant_id: principal.merchantId } : {}),
      });
      ids.push(checkout.id);
      return;
    }
    case 'connect':
      ctx.resellers.create(reseller, {
        merchant_id: principal.merchantId,
        rate: op.rate,
        min_fee: op.min,
        max_fee: op.max,
      });
      return;
    case 'revoke': {
      const row = connection();
      if (row) ctx.resellers.revoke(principal, principal.merchantId, row.id);
      return;
    }
    case 'disconnect': {
      const row = connection();
      if (row) ctx.resellers.remove(reseller, row.id);
      return;
    }
    case 'pay': {
      const id = pick(op.at);
      if (!id) return;
      const row = ctx.lifecycle.find(id);
      const left = (row.amount ?? 0) - row.received_amount;
      const amount =
        op.kind === 'full'
          ? left
          : op.kind === 'over'
            ? left + op.part
            : Math.max(1, Math.floor((left * op.part) / 100));
      ctx.chain.pay(id, { amount: Math.max(1, amount) });
      return;
    }
    case 'settle':
      await ctx.scheduler.advance(61_000);
      return;
    case 'expire': {
      const id = pick(op.at);
      if (id) ctx.chain.expire(id);
      return;
    }
    case 'refund': {
      const id = pick(op.at);
      if (!id) return;
      const row = ctx.lifecycle.find(id);
      const remaining = (row.paid_amount ?? 0) - row.refunded_amount;
      const amount = op.part === null ? undefined : Math.max(1, Math.floor((remaining * op.part) / 100));
      ctx.refunds.refund(principal, id, {
        ...(amount === undefined ? {} : { amount }),
        ...(op.merchantPaysGas ? { gas_fee_payer: 'merchant' } : {}),
      });
      return;
    }
    case 'days':
      await ctx.scheduler.advance(op.days * DAY);
      return;
    case 'deposit':
      ctx.chain.deposit({
        merchant_id: principal.merchantId,
        env: 'test',
        chain: 'polygon',
        currency: 'USDC',
        amount: op.amount,
      });
      return;
    case 'payout':
      ctx.payouts.payout({
        merchant_id: principal.merchantId,
        env: 'test',
        amount: op.amount,
        currency: 'USDC',
        outcome: 'completed',
      });
      return;
    case 'rate':
      ctx.settings.patch({ platform_rate: op.bps });
      return;
  }
}

/** The figures a payment fixes on a checkout (what settlement must carry unchanged). */
const fixedFigures = (row: { platform_fee: number; reseller_fee: number; platform_gas_fee: number }) =>
  `${row.platform_fee}/${row.reseller_fee}/${row.platform_gas_fee}`;

function checkInvariants(
  ctx: SandboxContext,
  principal: Principal,
  reseller: Principal,
  ids: string[],
  atPaid: Map<string, string>,
): void {
  // Every ledger transaction sums to zero per currency.
  expect(ctx.repos.ledger.unbalanced()).toEqual([]);
  // No merchant-side account is ever negative.
  for (const account of [
    Accounts.available(principal.merchantId),
    Accounts.pending(principal.merchantId),
    Accounts.feesHeld(principal.merchantId),
  ]) {
    expect(ctx.ledger.balance('test', account, 'USDC')).toBeGreaterThanOrEqual(0);
  }
  // The balance the API reports is what the ledger entries say.
  const reported = ctx.ledger
    .merchantBalances('test', principal.merchantId)
    .find((b) => b.currency === 'USDC');
  const sum = ctx.db
    .prepare<[string], { total: number | null }>(
      "SELECT SUM(amount) AS total FROM ledger_entries WHERE env = 'test' AND currency = 'USDC' AND account = ?",
    )
    .get(Accounts.available(principal.merchantId))?.total;
  expect(reported?.available ?? 0).toBe(sum ?? 0);
  // Every unit of fee is where the checkouts say: held until released, then the platform's and the
  // reseller's (a refund inside the hold having taken its share back out of both).
  let held = 0;
  let platformReleased = 0;
  let resellerReleased = 0;
  for (const id of ids) {
    const row = ctx.lifecycle.find(id);
    if (row.settled_at !== null && row.fees_released_at === null) held += row.platform_fee + row.reseller_fee;
    if (row.fees_released_at !== null) {
      platformReleased += row.platform_fee;
      resellerReleased += row.reseller_fee;
    }
    // Fixed when the payment is detected: the same at completion, whatever the platform rate did
    // meanwhile (a refund before settlement moves it to partially_refunded/refunded instead).
    const fixed = atPaid.get(id);
    if (row.status === 'paid' && fixed === undefined) atPaid.set(id, fixedFigures(row));
    else if ((row.status === 'paid' || row.status === 'completed') && fixed !== undefined)
      expect(fixedFigures(row)).toBe(fixed);
    // A reseller fee only on a checkout made through a connection, whose terms it carries.
    if (row.reseller_id === null) expect(row.reseller_fee).toBe(0);
    else {
      expect(row.reseller_id).toBe(reseller.merchantId);
      expect(row.reseller_rate).not.toBeNull();
    }
    if (row.paid_amount !== null && row.reseller_rate !== null && row.refunded_amount === 0) {
      // Fee rules 1–4 as stored: gross = clamp(paid × rate / 10000, min, max), at most what was paid,
      // the reseller takes gross − platform_fee and never less than 0.
      const paid = row.paid_amount ?? 0;
      let gross = Math.floor((paid * row.reseller_rate) / 10_000);
      if (row.reseller_min_fee !== null) gross = Math.max(gross, row.reseller_min_fee);
      if (row.reseller_max_fee !== null) gross = Math.min(gross, row.reseller_max_fee);
      gross = Math.min(gross, paid);
      expect(row.reseller_fee).toBe(Math.max(0, gross - row.platform_fee));
    }
  }
  expect(ctx.ledger.balance('test', Accounts.feesHeld(principal.merchantId), 'USDC')).toBe(held);
  expect(ctx.ledger.balance('test', Accounts.platformFees, 'USDC')).toBe(platformReleased);
  expect(ctx.ledger.balance('test', Accounts.resellerFees(reseller.merchantId), 'USDC')).toBe(
    resellerReleased,
  );
  // The reseller's own merchant accounts never see the target's money.
  expect(ctx.ledger.merchantBalances('test', reseller.merchantId)).toEqual([]);
  for (const id of ids) {
    const row = ctx.lifecycle.find(id);
    expect(row.refunded_amount).toBeLessThanOrEqual(row.paid_amount ?? 0);
    expect(row.platform_fee).toBeGreaterThanOrEqual(0);
    expect(row.reseller_fee).toBeGreaterThanOrEqual(0);
    if (row.paid_amount !== null) {
      expect(row.platform_fee + row.reseller_fee + row.platform_gas_fee).toBeLessThanOrEqual(
        row.paid_amount ?? 0,
      );
    }
  }
}

describe('money invariants (property-based)', () => {
  const done: Record<string, number> = {};
  it(
    'every ledger transaction balances, no balance goes negative, refunds never exceed payments',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          connectedArb,
          fc.array(opArb, { minLength: 1, maxLength: 25 }),
          async (start, ops) => {
            const db = openDatabase(':memory:');
            const time = new ManualTime();
            const ctx = createContext({
              db,
              ids: createIds('property'),
              realNow: time.now,
              baseUrl: () => 'http://127.0.0.1:4010',
              log: { error: () => {} },
            });
            try {
              ctx.settings.patch({ platform_rate: 150 });
              const { merchant, api_key } = ctx.merchants.create({ name: 'Prop' });
              const principal: Principal = {
                env: 'test',
                merchantId: merchant.id,
                apiKeyId: api_key.id,
                role: 'owner',
              };
              const res = ctx.merchants.create({ name: 'Reseller' });
              const reseller: Principal = {
                env: 'test',
                merchantId: res.merchant.id,
                apiKeyId: res.api_key.id,
                role: 'owner',
              };
              const ids: string[] = [];
              const atPaid = new Map<string, string>();
              // Most sequences start with the reseller connected (its terms random), so on-behalf
              // checkouts run through every later step; the ops may still revoke or remove it.
              for (const op of start === null ? ops : [start, ...ops]) {
                try {
                  await apply(ctx, principal, reseller, ids, op);
                  const key = op.op === 'create' && op.onBehalf ? 'create on behalf' : op.op;
                  done[key] = (done[key] ?? 0) + 1;
                } catch (error) {
                  // Business-rule refusals (4xx) are part of the game; anything else is a bug.
                  if (!(error instanceof AppError) || error.statusCode >= 500) throw error;
                }
                checkInvariants(ctx, principal, reseller, ids, atPaid);
              }
            } finally {
              await ctx.scheduler.stop();
              await ctx.dispatcher.close();
              db.close();
            }
          },
        ),
        { numRuns: RUNS },
      );
      console.log(`ledger property: ${JSON.stringify(done)}`);
      // The generator must really exercise the money paths, not just refuse them.
      for (const op of ['create', 'pay', 'expire', 'refund', 'deposit', 'payout', 'connect'] as const) {
        expect(done[op] ?? 0, `${op} succeeded ${done[op] ?? 0} times`).toBeGreaterThan(RUNS * 0.3);
      }
      for (const op of ['create on behalf', 'revoke', 'disconnect'] as const) {
        expect(done[op] ?? 0, `${op} succeeded ${done[op] ?? 0} times`).toBeGreaterThan(RUNS * 0.1);
      }
    },
    sized(120_000, 600_000),
  );
});
