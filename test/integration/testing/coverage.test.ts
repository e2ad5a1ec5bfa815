import { describe, expect, it } from 'vitest';
import type { Coverage, CoverageTransition } from '../../../server/contract/coverage.js';
import { EVENT_TYPES } from '../../../server/contract/events.js';
import { UNLISTED } from '../../../server/domain/coverage/service.js';
import type { Sandbox } from '../../../server/sandbox.js';
import { call, control, createCheckout, ok, pay } from '../../helpers/api.js';
import { BYSTANDER, createMerchant, testSandbox } from '../../helpers/sandbox.js';

// GET /sandbox/coverage: the spec's events and state transitions a workspace reached.

async function coverageOf(sandbox: Sandbox, workspace?: string): Promise<Coverage> {
  const headers = workspace === undefined ? {} : { 'x-svc-workspace': workspace };
  return ok<Coverage>(await call(sandbox, { url: '/sandbox/coverage', headers }));
}

const count = (report: Coverage, machine: string, from: string, to: string) =>
  report.transitions.find((t) => t.machine === machine && t.from === from && t.to === to)?.count;
const eventCount = (report: Coverage, type: string) => report.events.find((e) => e.type === type)?.count;

describe('coverage', () => {
  it("counts a paid checkout's active → paid and checkout.paid, and lists unreached ones with 0", async () => {
    const sandbox = await testSandbox();
    const actor = await createMerchant(sandbox);
    const fresh = await coverageOf(sandbox);
    expect(fresh.events.map((e) => e.type)).toEqual(EVENT_TYPES);
    expect(fresh.events.every((e) => e.count === 0)).toBe(true);
    expect(fresh.transitions.every((t) => t.count === 0)).toBe(true);
    const machines = new Set(fresh.transitions.map((t) => t.machine));
    for (const machine of [
      'checkout',
      'invoice',
      'card',
      'cardholder_kyc',
      'card_application',
      'reseller_connection',
      'payout',
      'webhook_delivery',
    ])
      expect(machines).toContain(machine);

    const checkout = await createCheckout(sandbox, actor);
    ok(await pay(sandbox, checkout.id));
    const report = await coverageOf(sandbox);
    expect(count(report, 'checkout', '(new)', 'active')).toBe(1);
    expect(count(report, 'checkout', 'active', 'paid')).toBe(1);
    expect(eventCount(report, 'checkout.created')).toBe(1);
    expect(eventCount(report, 'checkout.paid')).toBe(1);
    expect(count(report, 'checkout', 'paid', 'completed')).toBe(0);
    expect(count(report, 'invoice', 'draft', 'cancelled')).toBe(0);
    expect(eventCount(report, 'payout.failed')).toBe(0);
    const paid = report.transitions.find(
      (t) => t.machine === 'checkout' && t.to === 'paid',
    ) as CoverageTransition;
    expect(paid.via).toBe('payment detected on-chain');
    expect(report.transitions.filter((t) => t.via === UNLISTED)).toEqual([]);
  });

  it('reports a status write no state table lists, so a test can refuse it', async () => {
    const sandbox = await testSandbox();
    const actor = await createMerchant(sandbox);
    const checkout = await createCheckout(sandbox, actor);
    // Written past the domain, as a bug would: the table has no active → completed.
    sandbox.ctx.db.prepare("UPDATE checkouts SET status = 'completed' WHERE id = ?").run(checkout.id);
    const unlisted = (await coverageOf(sandbox)).transitions.filter((t) => t.via === UNLISTED);
    expect(unlisted).toEqual([
      { machine: 'checkout', from: 'active', to: 'completed', via: UNLISTED, count: 1 },
    ]);
  });

  it('counts a move that keeps the status: two partial refunds are two moves, the second partially_refunded → partially_refunded', async () => {
    const sandbox = await testSandbox();
    const actor = await createMerchant(sandbox);
    const checkout = await createCheckout(sandbox, actor, { amount: 20_000_000 });
    ok(await pay(sandbox, checkout.id));
    ok(await control(sandbox, 'POST', `/sandbox/checkouts/${checkout.id}/complete`));
    for (const amount of [5_000_000, 3_000_000]) {
      const refunded = ok<{ status: string }>(
        await call(sandbox, {
          method: 'POST',
          url: `/v1/checkouts/${checkout.id}/refund`,
          headers: actor.auth,
          payload: { amount },
        }),
      );
      expect(refunded.status).toBe('partially_refunded');
    }
    const report = await coverageOf(sandbox);
    expect(count(report, 'checkout', 'completed', 'partially_refunded')).toBe(1);
    expect(count(report, 'checkout', 'partially_refunded', 'partially_refunded')).toBe(1);
    expect(count(report, 'checkout', 'partially_refunded', 'refunded')).toBe(0);
    expect(eventCount(report, 'checkout.refunded')).toBe(2);
    // A write that keeps any other status is no move: the checkout's other writes counted nothing more.
    expect(
      report.transitions
        .filter((t) => t.machine === 'checkout' && t.count > 0)
        .map((t) => [t.from, t.to, t.count]),
    ).toEqual([
      ['(new)', 'active', 1],
      ['active', 'paid', 1],
      ['paid', 'completed', 1],
      ['completed', 'partially_refunded', 1],
      ['partially_refunded', 'partially_refunded', 1],
    ]);
  });

  it("is the workspace's own: what one workspace reached leaves a second one at 0", async () => {
    const sandbox = await testSandbox();
    const actor = await createMerchant(sandbox);
    const checkout = await createCheckout(sandbox, actor);
    ok(await pay(sandbox, checkout.id));
    const reached = await coverageOf(sandbox);
    expect(eventCount(reached, 'checkout.paid')).toBe(1);
    expect(count(reached, 'checkout', 'active', 'paid')).toBe(1);
    // The sandbox's second workspace, live all along, reached nothing.
    const second = await coverageOf(sandbox, BYSTANDER);
    expect(second.events.length).toBe(reached.events.length);
    expect(second.transitions.length).toBe(reached.transitions.length);
    expect(second.events.filter((e) => e.count !== 0)).toEqual([]);
    expect(second.transitions.filter((t) => t.count !== 0)).toEqual([]);
  });

  it('starts again at 0 after a reset, and goes back with a checkpoint', async () => {
    const sandbox = await testSandbox();
    const actor = await createMerchant(sandbox);
    await createCheckout(sandbox, actor);
    ok(await control(sandbox, 'POST', '/sandbox/checkpoints', { name: 'one' }), 201);
    await createCheckout(sandbox, actor);
    expect(eventCount(await coverageOf(sandbox), 'checkout.created')).toBe(2);
    ok(await control(sandbox, 'POST', '/sandbox/checkpoints/one/restore'));
    expect(eventCount(await coverageOf(sandbox), 'checkout.created')).toBe(1);
    ok(await control(sandbox, 'POST', '/sandbox/reset'));
    const reset = await coverageOf(sandbox);
    expect(reset.events.every((e) => e.count === 0)).toBe(true);
    expect(reset.transitions.every((t) => t.count === 0)).toBe(true);
  });
});
