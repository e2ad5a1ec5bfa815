import { describe, expect, it } from 'vitest';
import { type Checkout, call, control, expectError, getCheckout, ok, pay } from '../../helpers/api.js';
import { actor, at, DAY, post, sandbox, time, useCheckoutSuite } from '../../helpers/checkouts.js';

describe('checkouts', () => {
  useCheckoutSuite();

  describe('cancel (DELETE)', () => {
    it('active → 204 with no body, then status cancelled', async () => {
      const checkout = ok<Checkout>(await post({ title: 't', amount: 25_000_000, expires_at: at(DAY) }));
      time.tick(2000);
      const res = await call(sandbox, {
        method: 'DELETE',
        url: `/v1/checkouts/${checkout.id}`,
        headers: actor.auth,
      });
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      const after = await getCheckout(sandbox, actor, checkout.id);
      expect(after.status).toBe('cancelled');
      expect(Date.parse(after.updated_at) - Date.parse(checkout.updated_at)).toBe(2000);
      expect({ ...after, status: 'active', updated_at: checkout.updated_at }).toEqual(checkout);
    });

    it('DELETE again → 400 naming the status', async () => {
      const checkout = ok<Checkout>(await post({ title: 't', expires_at: at(DAY) }));
      expect(
        (await call(sandbox, { method: 'DELETE', url: `/v1/checkouts/${checkout.id}`, headers: actor.auth }))
          .statusCode,
      ).toBe(204);
      expectError(
        await call(sandbox, { method: 'DELETE', url: `/v1/checkouts/${checkout.id}`, headers: actor.auth }),
        400,
        'cancelled',
      );
    });

    it.each([
      ['paid', async (id: string) => ok(await pay(sandbox, id))],
      [
        'completed',
        async (id: string) => {
          ok(await pay(sandbox, id));
          ok(await control(sandbox, 'POST', `/sandbox/checkouts/${id}/complete`));
        },
      ],
      [
        'expired',
        async (id: string) => ok(await control(sandbox, 'POST', `/sandbox/checkouts/${id}/expire`)),
      ],
      [
        'partial',
        async (id: string) => {
          ok(await pay(sandbox, id, { amount: 1_000_000 }));
          ok(await control(sandbox, 'POST', `/sandbox/checkouts/${id}/expire`));
        },
      ],
    ])('DELETE of a %s checkout → 400 naming the status, nothing changes', async (status, prepare) => {
      const checkout = ok<Checkout>(await post({ title: 't', amount: 25_000_000, expires_at: at(DAY) }));
      await prepare(checkout.id);
      const before = await getCheckout(sandbox, actor, checkout.id);
      expect(before.status).toBe(status);
      expectError(
        await call(sandbox, { method: 'DELETE', url: `/v1/checkouts/${checkout.id}`, headers: actor.auth }),
        400,
        status,
      );
      expect(await getCheckout(sandbox, actor, checkout.id)).toEqual(before);
    });

    it('a cancelled checkout cannot be paid and does not expire later', async () => {
      const checkout = ok<Checkout>(await post({ title: 't', amount: 25_000_000, expires_at: at(3600_000) }));
      await call(sandbox, { method: 'DELETE', url: `/v1/checkouts/${checkout.id}`, headers: actor.auth });
      expectError(await pay(sandbox, checkout.id), 400, 'cancelled');
      ok(await control(sandbox, 'POST', '/sandbox/clock/advance', { seconds: 7200 }));
      expect((await getCheckout(sandbox, actor, checkout.id)).status).toBe('cancelled');
    });
  });
});
