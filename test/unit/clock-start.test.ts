import { describe, expect, it } from 'vitest';
import { type ClockState, SandboxClock } from '../../server/clock.js';
import { createSandbox } from '../../server/sandbox.js';
import { tempDir } from '../helpers/sandbox.js';

const START = Date.parse('2026-01-01T00:00:00.000Z');

function setup(initial: ClockState | undefined, start: { at: number; frozen?: boolean }) {
  let real = Date.parse('2026-11-23T12:00:00.000Z');
  const saved: ClockState[] = [];
  const clock = new SandboxClock({ load: () => initial, save: (s) => void saved.push(s) }, () => real, start);
  const tick = (ms: number) => {
    real += ms;
  };
  return { clock, saved, tick };
}

describe('a clock start (scenario replays)', () => {
  it('frozen by default: stands at the start until advanced, and the state is stored', () => {
    const { clock, saved, tick } = setup(undefined, { at: START });
    expect(clock.nowIso()).toBe('2026-01-01T00:00:00.000Z');
    tick(5000);
    expect(clock.now()).toBe(START);
    expect(clock.frozen).toBe(true);
    expect(saved).toEqual([{ offsetMs: 0, frozenAt: START }]);
    clock.advance(60_000);
    expect(clock.nowIso()).toBe('2026-01-01T00:01:00.000Z');
  });

  it('frozen: false runs on from the start at real speed', () => {
    const { clock, tick } = setup(undefined, { at: START, frozen: false });
    expect(clock.now()).toBe(START);
    tick(1500);
    expect(clock.now()).toBe(START + 1500);
    expect(clock.frozen).toBe(false);
  });

  it('is ignored when a clock is already stored (an existing workspace keeps its time)', () => {
    const { clock, saved } = setup({ offsetMs: 42, frozenAt: null }, { at: START });
    expect(clock.now()).toBe(Date.parse('2026-11-23T12:00:00.000Z') + 42);
    expect(saved).toEqual([]);
  });

  it('createSandbox({ clock }) starts a new database there and leaves an existing one alone', async () => {
    const dbPath = `${tempDir()}/ws.db`;
    const first = await createSandbox({ dbPath, ports: { test: 0, production: 0 }, clock: { at: START } });
    expect(first.ctx.clock.nowIso()).toBe('2026-01-01T00:00:00.000Z');
    first.ctx.clock.advance(3_600_000);
    await first.close();
    const again = await createSandbox({
      dbPath,
      ports: { test: 0, production: 0 },
      clock: { at: Date.parse('2030-01-01T00:00:00.000Z') },
    });
    expect(again.ctx.clock.nowIso()).toBe('2026-01-01T01:00:00.000Z');
    await again.close();
  });
});
