import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createContext, type SandboxContext } from '../../server/context.js';
import { openDatabase } from '../../server/db/connection.js';
import { Accounts } from '../../server/domain/ledger/service.js';
import type { Principal } from '../../server/domain/types.js';
import { AppError } from '../../server/errors.js';
import { createIds } from '../../server/ids.js';
import { ManualTime } from '../helpers/sandbox.js';

const DAY = 86_400_000;

type Op =
  | { op: 'create'; amount: number; chain: string }
  | { op: 'pay'; at: number; kind: 'full' | 'partial' | 'over'; part: number }
  | { op: 'settle' }
  | { op: 'expire'; at: number }
  | { op: 'refund'; at: number; part: number | null; merchantPaysGas: boolean }
  | { op: 'days'; days: number }
  | { op: 'deposit'; amount: number }
  | { op: 'payout'; amount: number }
  | { op: 'rate'; bps: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    op: fc.constant('create' as const),
    amount: fc.oneof(fc.integer({ min: 1, max: 100 }), fc.integer({ min: 1, max: 50_000_000 })),
    chain: fc.constantFrom('polygon', 'tron', 'bsc', 'ethereum'),
  }),
  fc.record({
    op: fc.constant('pay' as const),
    at: fc.nat(),
    kind: fc.constantFrom('full' as const, 'partial' as const, 'over' as const),
    part: fc.integer({ min: 1, max: 99 }),
  }),
  fc.constant({ op: 'settle' as const }),
  fc.record({ op: fc.constant('expire' as const), at: fc.nat() }),
  fc.record({
    op: fc.constant('refund' as const),
    at: fc.nat(),
    part: fc.option(fc.integer({ min: 1, max: 100 })),
    merchantPaysGas: fc.boolean(),
  }),
  fc.record({ op: fc.constant('days' as const), days: fc.integer({ min: 1, max: 9 }) }),
  fc.record({ op: fc.constant('deposit' as const), amount: fc.integer({ min: 1, max: 20_000_000 }) }),
  fc.record({ op: fc.constant('payout' as const), amount: fc.integer({ min: 1, max: 30_000_000 }) }),
  fc.record({ op: fc.constant('rate' as const), bps: fc.integer({ min: 0, max: 2_000 }) }),
);

async function apply(ctx: SandboxContext, principal: Principal, ids: string[], op: Op): Promise<void> {
  const pick = (at: number) => ids[at % ids.length];
  switch (op.op) {
    case 'create': {
      const checkout = ctx.checkouts.create(principal, {
        title: 'p',
        amount: op.amount,
        expires_at: new Date(ctx.clock.now() + 3600_000).toISOString(),
        chains: [op.chain],
      });
      ids.push(checkout.id);
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

function checkInvariants(ctx: SandboxContext, principal: Principal, ids: string[]): void {
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
  for (const id of ids) {
    const row = ctx.lifecycle.find(id);
    expect(row.refunded_amount).toBeLessThanOrEqual(row.paid_amount ?? 0);
    expect(row.platform_fee).toBeGreaterThanOrEqual(0);
    expect(row.reseller_fee).toBeGreaterThanOrEqual(0);
    if (row.settled_at !== null) {
      expect(row.platform_fee + row.reseller_fee + row.platform_gas_fee).toBeLessThanOrEqual(
        row.paid_amount ?? 0,
      );
    }
  }
}

describe('money invariants (property-based)', () => {
  const done: Record<string, number> = {};
  it('every ledger transaction balances, no balance goes negative, refunds never exceed payments', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 25 }), async (ops) => {
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
          const ids: string[] = [];
          for (const op of ops) {
            try {
              await apply(ctx, principal, ids, op);
              done[op.op] = (done[op.op] ?? 0) + 1;
            } catch (error) {
              // Business-rule refusals (4xx) are part of the game; anything else is a bug.
              if (!(error instanceof AppError) || error.statusCode >= 500) throw error;
            }
            checkInvariants(ctx, principal, ids);
          }
        } finally {
          await ctx.scheduler.stop();
          await ctx.dispatcher.close();
          db.close();
        }
      }),
      { numRuns: 1000 },
    );
    // The generator must really exercise the money paths, not just refuse them.
    for (const op of ['create', 'pay', 'expire', 'refund', 'deposit', 'payout'] as const) {
      expect(done[op] ?? 0, `${op} succeeded ${done[op] ?? 0} times`).toBeGreaterThan(300);
    }
  }, 120_000);
});
