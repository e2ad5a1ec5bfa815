import { describe, expect, it } from 'vitest';
import type { Coverage, CoverageTransition } from '../../../server/contract/coverage.js';
import { EVENT_TYPES } from '../../../server/contract/events.js';
import { UNLISTED } from '../../../server/domain/coverage/service.js';
import type { Sandbox } from '../../../server/sandbox.js';
import { call, control, createCheckout, ok, pay } from '../../helpers/api.js';
import { createMerchant, testSandbox } from '../../helpers/sandbox.js';

// GET /sandbox/coverage: the spec's events and state transitions a workspace reached.

async function coverageOf(sandbox: Sandbox): Promise<Coverage> {
  return ok<Coverage>(await call(sandbox, { url: '/sandbox/coverage' }));
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
