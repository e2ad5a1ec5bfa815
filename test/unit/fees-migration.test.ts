import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createContext } from '../../server/context.js';
import { openDatabase } from '../../server/db/connection.js';
import { runMigrations } from '../../server/db/migrate.js';
import { migrations } from '../../server/db/migrations/index.js';
import type { Principal } from '../../server/domain/types.js';
import { createIds } from '../../server/ids.js';
import { ManualTime } from '../helpers/sandbox.js';

// Migration 015 fills in the fees of checkouts an older build stored as `paid` (fees 0, the gas fee
// uncapped). Its SQL must fix exactly what the domain fixes when a payment is detected: each
// checkout is paid by today's code, put back as the older build left it, and migrated again.

const MINIMUM: Record<string, number> = { ethereum: 10_000_000, tron: 1_000_000 };

const caseArb = fc.record({
  amount: fc.oneof(
    fc.integer({ min: 1, max: 100 }),
    fc.integer({ min: 1, max: 50_000_000 }),
    // Past 2^63 / 10000, where a plain product would overflow (six of them stay within the
    // ledger's ±2^53 ceiling).
    fc.integer({ min: 1, max: Math.floor(Number.MAX_SAFE_INTEGER / 8) }),
  ),
  /** over- or underpaid by this much (bounded to a positive total) */
  extra: fc.integer({ min: 0, max: 5_000_000 }),
  chain: fc.constantFrom('polygon', 'tron', 'ethereum'),
  /** settled before the upgrade: the migration must leave it alone */
  settled: fc.boolean(),
  reseller: fc.option(
    fc.record({
      rate: fc.integer({ min: 0, max: 10_000 }),
      min_fee: fc.option(fc.integer({ min: 0, max: 60_000_000 })),
      max_fee: fc.option(fc.integer({ min: 0, max: 60_000_000 })),
    }),
  ),
});

describe('migration 015 (fees fixed when paid)', () => {
  it('fills in a paid checkout’s figures exactly as the domain fixes them, and leaves settled ones', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 2_000 }),
        fc.option(fc.integer({ min: 0, max: 10_000 })),
        fc.array(caseArb, { minLength: 1, maxLength: 6 }),
        async (settingsRate, merchantRate, cases) => {
          const db = openDatabase(':memory:');
          const time = new ManualTime();
          const ctx = createContext({
            db,
            ids: createIds('fees-migration'),
            realNow: time.now,
            baseUrl: () => 'http://127.0.0.1:4010',
            log: { error: () => {} },
          });
          try {
            ctx.settings.patch({ platform_rate: settingsRate });
            const owner = (merchantId: string, apiKeyId: string): Principal => ({
              env: 'test',
              merchantId,
              apiKeyId,
              role: 'owner',
            });
            // One merchant and one reseller (creating merchants is the slow part); the reseller's
            // terms count as they are when each checkout is made.
            const target = ctx.merchants.create({ name: 'Target' });
            const merchant = owner(target.merchant.id, target.api_key.id);
            const res = ctx.merchants.create({ name: 'Reseller' });
            const reseller = owner(res.merchant.id, res.api_key.id);
            // The merchant's own rate, or none (the setting's); the same at payment and migration.
            ctx.merchants.patch(merchant.merchantId, { platform_rate: merchantRate });
            const paid: { id: string; fixed: unknown }[] = [];
            for (const c of cases) {
              if (c.reseller) {
                const { min_fee, max_fee } = c.reseller;
                ctx.resellers.create(reseller, {
                  merchant_id: merchant.merchantId,
                  rate: c.reseller.rate,
                  min_fee: min_fee !== null && max_fee !== null ? Math.min(min_fee, max_fee) : min_fee,
                  max_fee,
                });
              }
              const creator = c.reseller ? reseller : merchant;
              // The catalogue's minimums: ethereum stablecoins 10 USDC, tron USDT 1.
              const amount = Math.max(c.amount, MINIMUM[c.chain] ?? 0);
              const checkout = ctx.checkouts.create(creator, {
                title: 'm',
                amount,
                expires_at: new Date(ctx.clock.now() + 3600_000).toISOString(),
                chains: [c.chain],
                ...(c.reseller ? { merchant_id: merchant.merchantId } : {}),
              });
              const pay = amount + c.extra;
              const result = ctx.chain.pay(checkout.id, { amount: pay });
              expect(result.checkout.status).toBe('paid');
              if (c.settled) ctx.chain.complete(checkout.id);
              const row = ctx.lifecycle.find(checkout.id);
              paid.push({
                id: checkout.id,
                fixed: {
                  platform_fee: row.platform_fee,
                  reseller_fee: row.reseller_fee,
                  platform_gas_fee: row.platform_gas_fee,
                },
              });
            }
            // As an older build left them: no fees until settlement, the token's gas fee as it is.
            db.exec(`UPDATE checkouts SET platform_fee = 0, reseller_fee = 0,
              platform_gas_fee = CASE paid_chain WHEN 'polygon' THEN 10000 WHEN 'tron' THEN 1000000 ELSE 2000000 END
              WHERE status = 'paid'`);
            db.exec('DELETE FROM schema_migrations WHERE version = 15');
            runMigrations(db, migrations);
            for (const { id, fixed } of paid) {
              const row = db
                .prepare<[string], object>(
                  'SELECT platform_fee, reseller_fee, platform_gas_fee FROM checkouts WHERE id = ?',
                )
                .get(id);
              expect(row).toEqual(fixed);
            }
          } finally {
            await ctx.scheduler.stop();
            await ctx.dispatcher.close();
            db.close();
          }
        },
      ),
      { numRuns: 40 },
    );
  }, 60_000);
});
