import { describe, expect, it } from 'vitest';
import { type ClockState, SandboxClock, toIso } from '../../server/clock.js';

function setup(initial?: ClockState) {
  let real = Date.parse('2026-03-01T00:00:00.000Z');
  const saved: ClockState[] = [];
  const clock = new SandboxClock({ load: () => initial, save: (s) => void saved.push(s) }, () => real);
  return {
    clock,
    saved,
    tick: (ms: number) => {
      real += ms;
    },
    real: () => real,
  };
}

describe('SandboxClock', () => {
  it('follows real time with no offset by default', () => {
    const { clock, tick, real } = setup();
    expect(clock.now()).toBe(real());
    expect(clock.nowIso()).toBe('2026-03-01T00:00:00.000Z');
    tick(1500);
    expect(clock.now()).toBe(real());
    expect(clock.frozen).toBe(false);
    expect(clock.offsetMs).toBe(0);
  });

  it('advance adds to the offset and persists it', () => {
    const { clock, saved, tick, real } = setup();
    clock.advance(60_000);
    expect(clock.now()).toBe(real() + 60_000);
    expect(clock.offsetMs).toBe(60_000);
    tick(1000);
    expect(clock.now()).toBe(real() + 60_000);
    expect(saved.at(-1)).toEqual({ offsetMs: 60_000, frozenAt: null });
  });

  it('freeze stops time; advance moves the frozen time; resume continues without a jump', () => {
    const { clock, saved, tick, real } = setup();
    clock.advance(5000);
    clock.freeze();
    const frozenAt = clock.now();
    expect(frozenAt).toBe(real() + 5000);
    expect(clock.frozen).toBe(true);
    expect(saved.at(-1)).toEqual({ offsetMs: 5000, frozenAt });
    tick(60_000);
    expect(clock.now()).toBe(frozenAt);
    expect(clock.offsetMs).toBe(frozenAt - real());
    clock.advance(10_000);
    expect(clock.now()).toBe(frozenAt + 10_000);
    tick(60_000);
    expect(clock.now()).toBe(frozenAt + 10_000);
    clock.resume();
    expect(clock.frozen).toBe(false);
    expect(clock.now()).toBe(frozenAt + 10_000);
    tick(2000);
    expect(clock.now()).toBe(frozenAt + 12_000);
  });

  it('freeze twice and resume when running are no-ops', () => {
    const { clock, saved, tick } = setup();
    clock.resume();
    expect(saved).toEqual([]);
    clock.freeze();
    const at = clock.now();
    tick(1000);
    clock.freeze();
    expect(clock.now()).toBe(at);
    expect(saved).toHaveLength(1);
  });

  it('advance refuses negative, fractional and unsafe values', () => {
    const { clock } = setup();
    expect(() => clock.advance(-1)).toThrow(RangeError);
    expect(() => clock.advance(1.5)).toThrow(RangeError);
    expect(() => clock.advance(Number.NaN)).toThrow(RangeError);
    expect(() => clock.advance(2 ** 60)).toThrow(RangeError);
    expect(clock.offsetMs).toBe(0);
  });

  it('reset goes back to real time, unfrozen', () => {
    const { clock, real } = setup();
    clock.advance(99_000);
    clock.freeze();
    clock.reset();
    expect(clock.frozen).toBe(false);
    expect(clock.now()).toBe(real());
  });

  it('loads the stored state', () => {
    const frozen = setup({ offsetMs: 0, frozenAt: Date.parse('2030-01-01T00:00:00.000Z') });
    expect(frozen.clock.nowIso()).toBe('2030-01-01T00:00:00.000Z');
    expect(frozen.clock.frozen).toBe(true);
    const offset = setup({ offsetMs: 3600_000, frozenAt: null });
    expect(offset.clock.now()).toBe(offset.real() + 3600_000);
  });

  it('toIso', () => {
    expect(toIso(0)).toBe('1970-01-01T00:00:00.000Z');
  });
});
