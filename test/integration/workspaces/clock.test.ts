import { beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../server/sandbox.js';
import {
  call,
  control,
  createCheckout,
  createMerchant,
  expectError,
  getCheckout,
  ok,
  pay,
} from '../../helpers/api.js';
import { ManualTime, tempDir, testSandbox } from '../../helpers/sandbox.js';
import { useSharedSandbox } from '../../helpers/suite.js';

interface ClockJson {
  now: string;
  offset_ms: number;
  frozen: boolean;
  ran?: number;
}

describe('the sandbox clock (control API)', () => {
  const time = new ManualTime();
  const shared = useSharedSandbox(() => ({ realNow: time.now }));
  let sandbox: Sandbox;
  const clock = async () => ok<ClockJson>(await control(sandbox, 'GET', '/sandbox/clock'));
  const post = async (path: string, payload?: Record<string, unknown>) =>
    ok<ClockJson>(await control(sandbox, 'POST', `/sandbox/clock/${path}`, payload));
  const iso = (ms: number) => new Date(ms).toISOString();

  beforeEach(async () => {
    sandbox = shared();
    // back to real time, unfrozen, no data
    ok(await control(sandbox, 'POST', '/sandbox/reset'));
  });

  it('GET follows real time with no offset, unfrozen', async () => {
    expect(await clock()).toEqual({ now: iso(time.ms), offset_ms: 0, frozen: false });
    time.tick(1234);
    expect((await clock()).now).toBe(iso(time.ms));
  });

  it('advance moves now and the offset forward, and real time keeps flowing on top', async () => {
    const start = time.ms;
    const advanced = await post('advance', { seconds: 3600 });
    expect(advanced).toMatchObject({ now: iso(start + 3600_000), offset_ms: 3600_000, frozen: false });
    expect(typeof advanced.ran).toBe('number');
    time.tick(5000);
    expect(await clock()).toEqual({ now: iso(start + 3605_000), offset_ms: 3600_000, frozen: false });
    await post('advance', { seconds: 0 });
    expect((await clock()).offset_ms).toBe(3600_000);
  });

  it('freeze: time stands still while real time passes', async () => {
    time.tick(1000);
    const frozen = await post('freeze');
    expect(frozen).toMatchObject({ now: iso(time.ms), frozen: true });
    time.tick(60_000);
    const later = await clock();
    expect(later.now).toBe(frozen.now);
    expect(later.frozen).toBe(true);
    // the reported offset is what makes real time read as the frozen time
    expect(Date.parse(later.now) - time.ms).toBe(later.offset_ms);
    // freezing again is harmless
    expect((await post('freeze')).now).toBe(frozen.now);
  });

  it('advance while frozen moves the frozen time, which then stays put', async () => {
    const frozen = await post('freeze');
    time.tick(10_000);
    const advanced = await post('advance', { seconds: 90 });
    expect(advanced.now).toBe(iso(Date.parse(frozen.now) + 90_000));
    expect(advanced.frozen).toBe(true);
    time.tick(10_000);
    expect((await clock()).now).toBe(advanced.now);
  });

  it('resume continues from the frozen time (no jump), then follows real time', async () => {
    const frozen = await post('freeze');
    time.tick(30_000);
    const resumed = await post('resume');
    expect(resumed).toMatchObject({ now: frozen.now, frozen: false });
    time.tick(2000);
    expect((await clock()).now).toBe(iso(Date.parse(frozen.now) + 2000));
    // resuming an unfrozen clock changes nothing
    const again = await post('resume');
    expect(again.now).toBe(iso(Date.parse(frozen.now) + 2000));
  });

  it('timestamps on resources come from the sandbox clock', async () => {
    await post('advance', { seconds: 86_400 });
    await post('freeze');
    time.tick(99_000);
    const actor = await createMerchant(sandbox);
    const checkout = await createCheckout(sandbox, actor, {
      expires_at: iso(Date.parse((await clock()).now) + 3600_000),
    });
    expect(checkout.created_at).toBe((await clock()).now);
  });

  it('a frozen clock does not expire anything until advanced; resume runs what is due', async () => {
    const actor = await createMerchant(sandbox);
    const checkout = await createCheckout(sandbox, actor, { expires_at: iso(time.ms + 60_000) });
    await post('freeze');
    time.tick(120_000);
    await post('advance', { seconds: 0 });
    expect((await getCheckout(sandbox, actor, checkout.id)).status).toBe('active');
    await post('resume');
    // resuming continues from the frozen time, so still not due
    expect((await getCheckout(sandbox, actor, checkout.id)).status).toBe('active');
    time.tick(60_000);
    await post('advance', { seconds: 0 });
    expect((await getCheckout(sandbox, actor, checkout.id)).status).toBe('expired');
  });

  it('advance runs settlement and expiry that fall inside the jump', async () => {
    const actor = await createMerchant(sandbox);
    const expiring = await createCheckout(sandbox, actor, { expires_at: iso(time.ms + 600_000) });
    const paid = await createCheckout(sandbox, actor, { expires_at: iso(time.ms + 600_000) });
    ok(await pay(sandbox, paid.id));
    await post('freeze');
    await post('advance', { seconds: 601 });
    expect((await getCheckout(sandbox, actor, expiring.id)).status).toBe('expired');
    expect((await getCheckout(sandbox, actor, paid.id)).status).toBe('completed');
  });

  it.each([
    ['negative seconds', { seconds: -1 }],
    ['fractional seconds', { seconds: 1.5 }],
    ['seconds as a string', { seconds: '60' }],
    ['missing seconds', {}],
    ['more than ten years', { seconds: 10 * 365 * 86_400 + 1 }],
  ])('advance with %s → 422 naming seconds, clock unchanged', async (_label, payload) => {
    const before = await clock();
    expectError(await control(sandbox, 'POST', '/sandbox/clock/advance', payload), 422, 'seconds');
    expect(await clock()).toEqual(before);
  });

  it('advance with no body → 422 naming seconds; malformed JSON → 400', async () => {
    expectError(await control(sandbox, 'POST', '/sandbox/clock/advance'), 422, 'seconds');
    expectError(
      await call(sandbox, {
        method: 'POST',
        url: '/sandbox/clock/advance',
        headers: { 'content-type': 'application/json' },
        payload: '{"seconds":',
      }),
      400,
    );
  });

  it('the clock state survives a restart of the sandbox on the same database', async () => {
    const dbPath = `${tempDir()}/clock.db`;
    const first = await testSandbox({ dbPath, realNow: time.now });
    await control(first, 'POST', '/sandbox/clock/advance', { seconds: 500 });
    await control(first, 'POST', '/sandbox/clock/freeze');
    const frozenAt = ok<ClockJson>(await control(first, 'GET', '/sandbox/clock')).now;
    await first.close();
    time.tick(77_000);
    const second = await testSandbox({ dbPath, realNow: time.now });
    expect(ok<ClockJson>(await control(second, 'GET', '/sandbox/clock'))).toMatchObject({
      now: frozenAt,
      frozen: true,
    });
  });
});
