import { describe, expect, it } from 'vitest';
import { type Checkout, call, createMerchant, expectError, ok } from '../../helpers/api.js';
import { actor, at, DAY, post, sandbox, useCheckoutSuite } from '../../helpers/checkouts.js';

describe('checkouts', () => {
  useCheckoutSuite();

  describe('validation → 422 naming the field', () => {
    it.each([
      ['missing title', { expires_at: 'FUTURE' }, 'title'],
      ['empty title', { title: '', expires_at: 'FUTURE' }, 'title'],
      ['missing expires_at', { title: 't' }, 'expires_at'],
      ['amount as string "100"', { title: 't', amount: '100', expires_at: 'FUTURE' }, 'amount'],
      ['amount 0', { title: 't', amount: 0, expires_at: 'FUTURE' }, 'amount'],
      ['amount negative', { title: 't', amount: -5, expires_at: 'FUTURE' }, 'amount'],
      ['amount float 1.5', { title: 't', amount: 1.5, expires_at: 'FUTURE' }, 'amount'],
      ['amount beyond 2^53', { title: 't', amount: 2 ** 60, expires_at: 'FUTURE' }, 'amount'],
      ['currency "DOGE"', { title: 't', currency: 'DOGE', expires_at: 'FUTURE' }, 'currency'],
      ['currency "US$"', { title: 't', currency: 'US$', expires_at: 'FUTURE' }, 'currency'],
      [
        'currency ETH with method fiat',
        { title: 't', currency: 'ETH', method: 'fiat', expires_at: 'FUTURE' },
        'currency',
      ],
      ['method "cash"', { title: 't', method: 'cash', expires_at: 'FUTURE' }, 'method'],
      ['expires_at "tomorrow"', { title: 't', expires_at: 'tomorrow' }, 'expires_at'],
      ['expires_at date only', { title: 't', expires_at: '2026-01-16' }, 'expires_at'],
      ['expires_at without zone', { title: 't', expires_at: '2026-01-16T10:00:00' }, 'expires_at'],
      ['expires_at Feb 30', { title: 't', expires_at: '2026-02-30T10:00:00Z' }, 'expires_at'],
      ['expires_at as epoch number', { title: 't', expires_at: 1_800_000_000 }, 'expires_at'],
      [
        'customer_country "US"',
        { title: 't', customer_name: 'c', customer_country: 'US', expires_at: 'FUTURE' },
        'customer_country',
      ],
      [
        'customer_country "XXX"',
        { title: 't', customer_name: 'c', customer_country: 'XXX', expires_at: 'FUTURE' },
        'customer_country',
      ],
      [
        'customer_email "nope"',
        { title: 't', customer_email: 'nope', expires_at: 'FUTURE' },
        'customer_email',
      ],
      ['customer_id not a uuid', { title: 't', customer_id: '123', expires_at: 'FUTURE' }, 'customer_id'],
      ['chains not an array', { title: 't', chains: 'tron', expires_at: 'FUTURE' }, 'chains'],
      ['chains with a number', { title: 't', chains: [1], expires_at: 'FUTURE' }, 'chains'],
      [
        'chains with the fiat method',
        { title: 't', method: 'fiat', chains: ['tron'], expires_at: 'FUTURE' },
        'chains',
      ],
      [
        'success_url not a URL',
        { title: 't', success_url: 'not a url', expires_at: 'FUTURE' },
        'success_url',
      ],
      ['reference empty', { title: 't', reference: '', expires_at: 'FUTURE' }, 'reference'],
      ['title null', { title: null, expires_at: 'FUTURE' }, 'title'],
      ['description null', { title: 't', description: null, expires_at: 'FUTURE' }, 'description'],
      ['title an object', { title: { en: 'x' }, expires_at: 'FUTURE' }, 'title'],
      ['merchant_id not a uuid', { title: 't', merchant_id: 'm', expires_at: 'FUTURE' }, 'merchant_id'],
    ])('%s', async (_label, payload, field) => {
      const body = { ...payload } as Record<string, unknown>;
      if (body.expires_at === 'FUTURE') body.expires_at = at(DAY);
      const message = expectError(await post(body), 422);
      expect(message.startsWith(field) || message.includes(`${field}:`), message).toBe(true);
      const list = ok<Checkout[]>(
        await call(sandbox, { method: 'GET', url: '/v1/checkouts', headers: actor.auth }),
      );
      expect(list).toEqual([]);
    });

    it('customer_email without a name and no existing customer → 422 naming customer_name', async () => {
      expectError(
        await post({ title: 't', customer_email: 'new@example.com', expires_at: at(DAY) }),
        422,
        'customer_name',
      );
    });

    it('merchant_id of another merchant (no reseller connection) → 403', async () => {
      const other = await createMerchant(sandbox, 'Other');
      expectError(
        await post({ title: 't', merchant_id: other.merchantId, expires_at: at(DAY) }),
        403,
        'merchant_id',
      );
    });

    it('expires_at with a leap second (valid date-time syntax, unparseable date) is a 4xx, not a 500', async () => {
      const res = await post({ title: 't', expires_at: '2026-06-30T23:59:60Z' });
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      expectError(res, res.statusCode, 'expires_at');
    });
  });
});
