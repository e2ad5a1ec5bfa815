import { describe, expect, it } from 'vitest';
import { type Checkout, call, expectError, ok, UNKNOWN_ID } from '../../helpers/api.js';
import { actor, at, BASE_KEYS, DAY, post, sandbox, time, useCheckoutSuite } from '../../helpers/checkouts.js';

describe('checkouts', () => {
  useCheckoutSuite();

  describe('list', () => {
    it('returns base objects without crypto_chains and fiat, newest first', async () => {
      const made: Checkout[] = [];
      for (let i = 0; i < 3; i++) {
        made.push(
          ok<Checkout>(
            await post({ title: `c${i}`, method: i === 1 ? 'any' : 'crypto', expires_at: at(DAY) }),
          ),
        );
        time.tick(1000);
      }
      const list = ok<Record<string, unknown>[]>(
        await call(sandbox, { method: 'GET', url: '/v1/checkouts', headers: actor.auth }),
      );
      expect(list.map((c) => c.title)).toEqual(['c2', 'c1', 'c0']);
      for (const item of list) {
        expect(Object.keys(item).sort()).toEqual([...BASE_KEYS].sort());
        const full = made.find((m) => m.id === item.id)!;
        const { crypto_chains: _c, fiat: _f, ...base } = full;
        expect(item).toEqual(base);
      }
    });

    it('limit and starting_after paginate without gaps or repeats', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 7; i++)
        ids.unshift(ok<Checkout>(await post({ title: `c${i}`, expires_at: at(DAY) })).id);
      const seen: string[] = [];
      let cursor: string | undefined;
      for (;;) {
        const query = `?limit=3${cursor ? `&starting_after=${cursor}` : ''}`;
        const page = ok<Checkout[]>(
          await call(sandbox, { method: 'GET', url: `/v1/checkouts${query}`, headers: actor.auth }),
        );
        expect(page.length).toBeLessThanOrEqual(3);
        if (page.length === 0) break;
        seen.push(...page.map((c) => c.id));
        cursor = page[page.length - 1]!.id;
      }
      expect(seen).toEqual(ids);
    });

    it('default limit is 100', async () => {
      for (let i = 0; i < 101; i++) ok(await post({ title: `c${i}`, expires_at: at(DAY) }));
      const list = ok<Checkout[]>(
        await call(sandbox, { method: 'GET', url: '/v1/checkouts', headers: actor.auth }),
      );
      expect(list).toHaveLength(100);
      expect(list[0]!.title).toBe('c100');
      const all = ok<Checkout[]>(
        await call(sandbox, { method: 'GET', url: '/v1/checkouts?limit=1000', headers: actor.auth }),
      );
      expect(all).toHaveLength(101);
    });

    it.each([
      ['limit=0', 'limit'],
      ['limit=1001', 'limit'],
      ['limit=abc', 'limit'],
      ['limit=', 'limit'],
      ['limit=1.5', 'limit'],
      ['limit=-1', 'limit'],
      ['starting_after=xyz', 'starting_after'],
      [`starting_after=${UNKNOWN_ID}`, 'starting_after'],
    ])('%s → 422 naming the parameter', async (query, field) => {
      expectError(
        await call(sandbox, { method: 'GET', url: `/v1/checkouts?${query}`, headers: actor.auth }),
        422,
        field,
      );
    });
  });
});
