import { describe, expect, it } from 'vitest';
import { type Checkout, call, createMerchant, expectError, ok, UNKNOWN_ID } from '../../helpers/api.js';
import { actor, at, DAY, post, sandbox, useCheckoutSuite } from '../../helpers/checkouts.js';

describe('checkouts', () => {
  useCheckoutSuite();

  describe('create', () => {
    describe('inline customer', () => {
      it('customer_name creates a customer visible in GET /v1/customers', async () => {
        const checkout = ok<Checkout>(
          await post({
            title: 't',
            expires_at: at(DAY),
            customer_name: 'Grace',
            customer_email: 'grace@example.com',
            customer_country: 'USA',
          }),
        );
        expect(checkout.customer_id).not.toBeNull();
        const customers = ok<{ id: string; name: string; email: string; country: string }[]>(
          await call(sandbox, { method: 'GET', url: '/v1/customers', headers: actor.auth }),
        );
        expect(customers).toHaveLength(1);
        expect(customers[0]).toMatchObject({
          id: checkout.customer_id,
          name: 'Grace',
          email: 'grace@example.com',
          country: 'USA',
        });
      });

      it('customer_email of an existing customer attaches it (no new customer)', async () => {
        const existing = ok<{ id: string }>(
          await call(sandbox, {
            method: 'POST',
            url: '/v1/customers',
            headers: actor.auth,
            payload: { name: 'Lin', email: 'lin@example.com' },
          }),
        );
        const checkout = ok<Checkout>(
          await post({ title: 't', expires_at: at(DAY), customer_email: 'lin@example.com' }),
        );
        expect(checkout.customer_id).toBe(existing.id);
        const withName = ok<Checkout>(
          await post({
            title: 't',
            expires_at: at(DAY),
            customer_email: 'lin@example.com',
            customer_name: 'Lin',
          }),
        );
        expect(withName.customer_id).toBe(existing.id);
        const customers = ok<unknown[]>(
          await call(sandbox, { method: 'GET', url: '/v1/customers', headers: actor.auth }),
        );
        expect(customers).toHaveLength(1);
      });

      it('customer_email of another merchant’s customer does not attach it', async () => {
        const other = await createMerchant(sandbox, 'Other');
        const theirs = ok<{ id: string }>(
          await call(sandbox, {
            method: 'POST',
            url: '/v1/customers',
            headers: other.auth,
            payload: { name: 'Lin', email: 'lin@example.com' },
          }),
        );
        const checkout = ok<Checkout>(
          await post({
            title: 't',
            expires_at: at(DAY),
            customer_email: 'lin@example.com',
            customer_name: 'Lin',
          }),
        );
        expect(checkout.customer_id).not.toBe(theirs.id);
        expect(checkout.customer_id).not.toBeNull();
      });

      it('customer_id attaches; another merchant’s → 403; unknown → 404', async () => {
        const mine = ok<{ id: string }>(
          await call(sandbox, {
            method: 'POST',
            url: '/v1/customers',
            headers: actor.auth,
            payload: { name: 'M' },
          }),
        );
        const attached = ok<Checkout>(await post({ title: 't', expires_at: at(DAY), customer_id: mine.id }));
        expect(attached.customer_id).toBe(mine.id);
        const other = await createMerchant(sandbox, 'Other');
        const theirs = ok<{ id: string }>(
          await call(sandbox, {
            method: 'POST',
            url: '/v1/customers',
            headers: other.auth,
            payload: { name: 'T' },
          }),
        );
        expectError(await post({ title: 't', expires_at: at(DAY), customer_id: theirs.id }), 403);
        expectError(
          await post({ title: 't', expires_at: at(DAY), customer_id: UNKNOWN_ID }),
          404,
          UNKNOWN_ID,
        );
        // the refused calls created no checkout
        const list = ok<Checkout[]>(
          await call(sandbox, { method: 'GET', url: '/v1/checkouts', headers: actor.auth }),
        );
        expect(list.map((c) => c.id)).toEqual([attached.id]);
      });

      it('a failed create does not leave an inline customer behind', async () => {
        ok(await post({ title: 'a', reference: 'dup', expires_at: at(DAY) }));
        expectError(
          await post({ title: 'b', reference: 'dup', customer_name: 'Ghost', expires_at: at(DAY) }),
          400,
        );
        const customers = ok<unknown[]>(
          await call(sandbox, { method: 'GET', url: '/v1/customers', headers: actor.auth }),
        );
        expect(customers).toEqual([]);
      });
    });
  });
});
