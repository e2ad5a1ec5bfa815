import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Checkout, call, expectError, getCheckout, ok } from '../../helpers/api.js';
import { actor, at, DAY, post, sandbox, useCheckoutSuite } from '../../helpers/checkouts.js';

describe('checkouts', () => {
  useCheckoutSuite();

  describe('request bodies: JSON parsing, content types, odd and random input', () => {
    it('malformed JSON → 400; empty JSON body → 400', async () => {
      const headers = { ...actor.auth, 'content-type': 'application/json' };
      expectError(
        await call(sandbox, { method: 'POST', url: '/v1/checkouts', headers, payload: '{"title": ' }),
        400,
        'JSON',
      );
      expectError(
        await call(sandbox, { method: 'POST', url: '/v1/checkouts', headers, payload: '{bad}' }),
        400,
        'JSON',
      );
      expectError(
        await call(sandbox, { method: 'POST', url: '/v1/checkouts', headers, payload: '' }),
        400,
        'JSON',
      );
    });

    it('JSON that is not an object → 422', async () => {
      const headers = { ...actor.auth, 'content-type': 'application/json' };
      for (const payload of ['[]', '"text"', '42', 'null', 'true']) {
        expectError(
          await call(sandbox, { method: 'POST', url: '/v1/checkouts', headers, payload }),
          422,
          'body',
        );
      }
    });

    it('a __proto__ key is refused, not merged', async () => {
      const headers = { ...actor.auth, 'content-type': 'application/json' };
      const res = await call(sandbox, {
        method: 'POST',
        url: '/v1/checkouts',
        headers,
        payload: `{"title":"t","expires_at":"${at(DAY)}","__proto__":{"amount":5}}`,
      });
      expectError(res, 400);
    });

    it('text/plain, form and no content type → 415 (JSON only)', async () => {
      const body = JSON.stringify({ title: 't', expires_at: at(DAY) });
      for (const type of [
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
      ]) {
        expectError(
          await call(sandbox, {
            method: 'POST',
            url: '/v1/checkouts',
            headers: { ...actor.auth, 'content-type': type },
            payload: body,
          }),
          415,
          'application/json',
        );
      }
      const list = ok<Checkout[]>(
        await call(sandbox, { method: 'GET', url: '/v1/checkouts', headers: actor.auth }),
      );
      expect(list).toEqual([]);
    });

    it('application/json with a charset parameter is accepted', async () => {
      ok(
        await call(sandbox, {
          method: 'POST',
          url: '/v1/checkouts',
          headers: { ...actor.auth, 'content-type': 'application/json; charset=utf-8' },
          payload: JSON.stringify({ title: 't', expires_at: at(DAY) }),
        }),
      );
    });

    it('odd inputs never give a 500: huge numbers, deep nesting, unicode, nulls', async () => {
      const headers = { ...actor.auth, 'content-type': 'application/json' };
      const raw = [
        `{"title":"t","amount":1e400,"expires_at":"${at(DAY)}"}`,
        `{"title":"t","amount":123456789012345678901234567890,"expires_at":"${at(DAY)}"}`,
        `{"title":"t","amount":-0,"expires_at":"${at(DAY)}"}`,
        `{"title":"t","amount":1e2,"expires_at":"${at(DAY)}"}`,
        `{"title":${'['.repeat(3000)}${']'.repeat(3000)},"expires_at":"${at(DAY)}"}`,
        `{"title":"t","expires_at":"${at(DAY)}","chains":null}`,
        `{"title":"t","expires_at":null}`,
        `{"title":"\\ud800","expires_at":"${at(DAY)}"}`,
        `{"title":"t","expires_at":"${at(DAY)}","reference":"${'r'.repeat(10_000)}"}`,
        `{"title":"t","expires_at":"${at(DAY)}","currency":"usdc"}`,
        `{"title":"t","expires_at":"${at(DAY)}","customer_name":"\u0000"}`,
        `{"title":"t","title":"twice","expires_at":"${at(DAY)}"}`,
        `{"title":"t","expires_at":"99999-01-01T00:00:00Z"}`,
        `{"title":"t","expires_at":"${at(DAY)}","chains":["${'x'.repeat(40)}"]}`,
      ];
      for (const payload of raw) {
        const res = await call(sandbox, { method: 'POST', url: '/v1/checkouts', headers, payload });
        expect(res.statusCode, `${payload.slice(0, 80)} → ${res.body}`).toBeLessThan(500);
        if (res.statusCode >= 400) expectError(res, res.statusCode);
      }
      const unicode = ok<Checkout>(
        await post({ title: 'Café 💸 日本 \u202e', description: 'ü'.repeat(100), expires_at: at(DAY) }),
      );
      expect((await getCheckout(sandbox, actor, unicode.id)).title).toBe('Café 💸 日本 \u202e');
      // 1e2 is the integer 100 in JSON
      const list = ok<Checkout[]>(
        await call(sandbox, { method: 'GET', url: '/v1/checkouts', headers: actor.auth }),
      );
      expect(list.some((c) => c.amount === 100)).toBe(true);
    });

    it('property: random JSON bodies to POST /v1/checkouts and /v1/customers never give a 500 or a non-{error} error', async () => {
      const field = fc.oneof(
        fc.string(),
        fc.integer(),
        fc.double(),
        fc.boolean(),
        fc.constant(null),
        fc.array(fc.string(), { maxLength: 3 }),
        fc.dictionary(fc.string({ maxLength: 5 }), fc.string(), { maxKeys: 3 }),
        fc.constantFrom(
          'USDC',
          'ETH',
          'fiat',
          'any',
          'crypto',
          'USA',
          'US',
          'tron',
          'a@b.co',
          at(DAY),
          at(-DAY),
        ),
      );
      const keys = fc.constantFrom(
        'title',
        'amount',
        'currency',
        'method',
        'chains',
        'reference',
        'expires_at',
        'customer_id',
        'customer_name',
        'customer_email',
        'customer_country',
        'success_url',
        'name',
        'email',
        'country',
        'phone',
        'notes',
        'merchant_id',
      );
      await fc.assert(
        fc.asyncProperty(fc.dictionary(keys, field), fc.boolean(), async (body, toCustomers) => {
          const res = await call(sandbox, {
            method: 'POST',
            url: toCustomers ? '/v1/customers' : '/v1/checkouts',
            headers: actor.auth,
            payload: body,
          });
          expect(res.statusCode, `${JSON.stringify(body)} → ${res.body}`).toBeLessThan(500);
          if (res.statusCode >= 400) {
            const parsed = res.json() as Record<string, unknown>;
            expect(Object.keys(parsed)).toEqual(['error']);
            expect(typeof parsed.error).toBe('string');
          }
        }),
        { numRuns: 150, seed: 42 },
      );
    });
  });
});
