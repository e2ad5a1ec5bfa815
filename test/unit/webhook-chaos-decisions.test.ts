import { describe, expect, it } from 'vitest';
import type { ChaosSettings } from '../../server/contract/webhooks.js';
import { ValidationError } from '../../server/errors.js';
import { withChaosSeed } from '../../server/recording/translate.js';
import {
  applySettings,
  decide,
  effectsOf,
  REORDER_IDLE_MS,
  ReorderWindows,
  seedState,
  wrongSignature,
} from '../../server/webhooks/chaos.js';
import { sign, verify } from '../../server/webhooks/signing.js';

const SETTINGS: ChaosSettings = {
  seed: 'abc',
  duplicate: 0.3,
  reorder_window: 5,
  delay: { min_ms: 100, max_ms: 500 },
  drop: 0.1,
  bad_signature: 0.05,
};

function sequence(settings: ChaosSettings, n: number) {
  let state = seedState(settings.seed);
  const plans = [];
  for (let i = 0; i < n; i++) {
    const next = decide(settings, state);
    plans.push(next.plan);
    state = next.state;
  }
  return { plans, state };
}

describe('chaos decisions', () => {
  it('the same seed gives the same decisions; another seed other ones', () => {
    expect(sequence(SETTINGS, 200)).toEqual(sequence(SETTINGS, 200));
    expect(sequence({ ...SETTINGS, seed: 'abd' }, 200).plans).not.toEqual(sequence(SETTINGS, 200).plans);
    expect(seedState('abc')).toBe(seedState('abc'));
    expect(seedState('abc')).not.toBe(seedState('abd'));
  });

  it('a stored state continues the sequence exactly where it stopped', () => {
    const whole = sequence(SETTINGS, 20).plans;
    const firstHalf = sequence(SETTINGS, 10);
    let state = firstHalf.state;
    const rest = [];
    for (let i = 0; i < 10; i++) {
      const next = decide(SETTINGS, state);
      rest.push(next.plan);
      state = next.state;
    }
    expect([...firstHalf.plans, ...rest]).toEqual(whole);
  });

  it('the rates come out near their probabilities, delays stay in range', () => {
    const { plans } = sequence(SETTINGS, 10_000);
    const rate = (pick: (p: (typeof plans)[number]) => boolean) => plans.filter(pick).length / plans.length;
    expect(rate((p) => p.drop)).toBeCloseTo(0.1, 1);
    expect(rate((p) => p.duplicate)).toBeCloseTo(0.3, 1);
    expect(rate((p) => p.badSignature)).toBeCloseTo(0.05, 1);
    const delays = plans.map((p) => p.delayMs!);
    expect(Math.min(...delays)).toBe(100);
    expect(Math.max(...delays)).toBe(500);
    expect(plans.every((p) => p.window === 5)).toBe(true);
  });

  it('0 never fires, 1 always does; the knobs do not shift the sequence', () => {
    const off = sequence({ ...SETTINGS, duplicate: 0, drop: 0, bad_signature: 0, delay: null }, 500).plans;
    expect(off.some((p) => p.drop || p.duplicate || p.badSignature || p.delayMs !== null)).toBe(false);
    const on = sequence({ ...SETTINGS, duplicate: 1, drop: 1, bad_signature: 1 }, 500).plans;
    expect(on.every((p) => p.drop && p.duplicate && p.badSignature)).toBe(true);
    // every decision draws the same amount, so turning a knob keeps the others' decisions
    const keys = (plans: typeof off) => plans.map((p) => p.holdKey);
    expect(keys(on)).toEqual(keys(off));
  });
});

describe('chaos settings', () => {
  const seeds = () => 'generated';

  it('fills every field; a given seed restarts, an omitted one keeps the sequence', () => {
    const fresh = applySettings({ duplicate: 0.5 }, { settings: null, state: null }, seeds);
    expect(fresh.settings).toEqual({
      seed: 'generated',
      duplicate: 0.5,
      reorder_window: 0,
      delay: null,
      drop: 0,
      bad_signature: 0,
    });
    expect(fresh.state).toBe(seedState('generated'));
    const kept = applySettings({ drop: 1 }, { settings: fresh.settings, state: 42 }, seeds);
    expect(kept).toEqual({ settings: { ...fresh.settings, duplicate: 0, drop: 1 }, state: 42 });
    const restarted = applySettings({ seed: 'generated' }, { settings: fresh.settings, state: 42 }, seeds);
    expect(restarted.state).toBe(seedState('generated'));
  });

  it('refuses min_ms > max_ms naming chaos.delay', () => {
    expect(() =>
      applySettings({ delay: { min_ms: 5, max_ms: 4 } }, { settings: null, state: null }, seeds),
    ).toThrow(ValidationError);
    expect(() =>
      applySettings({ delay: { min_ms: 5, max_ms: 4 } }, { settings: null, state: null }, seeds),
    ).toThrow(/min_ms/);
  });
});

describe('chaos effects and signatures', () => {
  const plan = decide({ ...SETTINGS, drop: 0, duplicate: 1, bad_signature: 1 }, 1).plan;

  it('lists what happened in order; a drop is alone', () => {
    expect(effectsOf(plan, { position: 2, of: 3 }, { response_status: 200, error: null })).toEqual([
      { kind: 'reordered', position: 2, of: 3 },
      { kind: 'delayed', ms: plan.delayMs },
      { kind: 'bad_signature' },
      { kind: 'duplicated', response_status: 200, error: null },
    ]);
    expect(effectsOf({ ...plan, drop: true }, undefined, undefined)).toEqual([{ kind: 'dropped' }]);
    expect(effectsOf({ ...plan, delayMs: null, badSignature: false }, undefined, undefined)).toEqual([]);
  });

  it('a wrong signature has the right form and does not verify', () => {
    const bad = wrongSignature('whsec_x', '{"a":1}');
    expect(bad).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(bad).not.toBe(sign('whsec_x', '{"a":1}'));
    expect(verify('whsec_x', '{"a":1}', bad)).toBe(false);
  });
});

describe('reorder windows', () => {
  it('holds until full, then releases one at a time in key order', async () => {
    const windows = new ReorderWindows();
    const order: number[] = [];
    const keys = [0.7, 0.1, 0.5];
    const sends = keys.map((key, i) =>
      windows.hold('ep', 3, key).then((turn) => {
        order.push(i);
        expect(turn.of).toBe(3);
        // the next is released only once this one is done
        return new Promise<number>((resolve) =>
          setTimeout(() => {
            turn.done();
            resolve(turn.position);
          }, 5),
        );
      }),
    );
    expect(await Promise.all(sends)).toEqual([3, 1, 2]);
    expect(order).toEqual([1, 2, 0]);
  });

  it('releases a window that does not fill once its queue is idle, or at once when asked', async () => {
    const windows = new ReorderWindows();
    const started = performance.now();
    const turn = await windows.hold('a', 10, 0.5);
    expect(performance.now() - started).toBeGreaterThanOrEqual(REORDER_IDLE_MS - 20);
    expect(turn).toMatchObject({ position: 1, of: 1 });
    turn.done();
    const held = windows.hold('b', 10, 0.5);
    windows.releaseAll();
    expect(await held).toMatchObject({ position: 1, of: 1 });
  });
});

describe('reorder windows follow the sequence, not the pace', () => {
  /** Six sends in windows of three, `gapMs` apart; the order their turns come in. */
  async function arrivals(gapMs: number): Promise<number[]> {
    const windows = new ReorderWindows();
    const keys = [0.9, 0.2, 0.5, 0.4, 0.8, 0.1];
    const order: number[] = [];
    const sends: Promise<void>[] = [];
    for (const [i, key] of keys.entries()) {
      sends.push(
        windows.hold('ep', 3, key).then(async (turn) => {
          order.push(i);
          // the receiver takes a while to answer: the next window is full meanwhile
          await new Promise((resolve) => setTimeout(resolve, 20));
          turn.done();
        }),
      );
      if (gapMs > 0) await new Promise((resolve) => setTimeout(resolve, gapMs));
    }
    await Promise.all(sends);
    return order;
  }

  it('gives the same order whether the sends come at once or 150 ms apart; windows never interleave', async () => {
    const fast = await arrivals(0);
    expect(fast).toEqual([1, 2, 0, 5, 3, 4]);
    expect(await arrivals(150)).toEqual(fast);
  });
});

describe('recording chaos settings', () => {
  const ex = (
    body: unknown,
    response: unknown,
    method = 'PATCH',
    route = '/sandbox/webhook-endpoints/:id',
  ) => ({
    method,
    route,
    body,
    response,
  });

  it('adds the seed the answer shows when the call gave none', () => {
    expect(withChaosSeed(ex({ chaos: { drop: 1 } }, { chaos: { seed: 'Xy12', drop: 1 } })).body).toEqual({
      chaos: { seed: 'Xy12', drop: 1 },
    });
  });

  it('leaves a given seed, chaos turned off, other fields and other routes as they are', () => {
    for (const given of [
      ex({ chaos: { seed: 'mine', drop: 1 } }, { chaos: { seed: 'mine', drop: 1 } }),
      ex({ chaos: null }, { chaos: null }),
      ex({ url: 'http://127.0.0.1:9/x' }, { chaos: { seed: 's' } }),
      ex(
        { chaos: { drop: 1 } },
        { chaos: { seed: 's' } },
        'POST',
        '/sandbox/merchants/:id/webhook-endpoints',
      ),
    ])
      expect(withChaosSeed(given)).toBe(given);
  });
});
