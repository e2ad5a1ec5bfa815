import * as api from '../api/sandbox';
import type { ClockState } from '../api/types';
import { describeFired } from '../lib/workspaces';
import { serialized } from './merchant-scope';
import { attempt } from './notices';
import type { Slice } from './types';

export interface ClockSlice {
  clock: ClockState | null;
  /** Local time (Date.now) when `clock` was read: a running clock is shown as clock.now + elapsed. */
  clockReadAt: number;
  clockBusy: boolean;
  loadClock: () => Promise<void>;
  advanceClock: (seconds: number) => Promise<boolean>;
  freezeClock: () => Promise<boolean>;
  resumeClock: () => Promise<boolean>;
}

const ranNote = (state: ClockState) =>
  state.ran ? ` ${state.ran} scheduled ${state.ran === 1 ? 'job' : 'jobs'} ran.` : '';

export const createClockSlice: Slice<ClockSlice> = (set, get) => {
  /** Clock changes go one at a time: a second click waits for the answer to the first. */
  const change = <S extends ClockState>(call: () => Promise<S>, message: (state: S) => string) => {
    if (get().clockBusy) return Promise.resolve(false);
    set({ clockBusy: true });
    return attempt(get, async () => {
      const state = await call();
      set({ clock: state, clockReadAt: Date.now() });
      get().notify('success', message(state));
    }).finally(() => set({ clockBusy: false }));
  };

  return {
    clock: null,
    clockReadAt: 0,
    clockBusy: false,
    loadClock: serialized(async () => {
      await attempt(get, async () => {
        const clock = await api.getClock();
        set({ clock, clockReadAt: Date.now() });
      });
    }),
    advanceClock: (seconds) =>
      change(
        () => api.advanceClock(seconds),
        // What fell due in this workspace on the way.
        (state) => `Clock advanced by ${describeSeconds(seconds)}. ${describeFired(state.fired)}`,
      ),
    freezeClock: () =>
      change(api.freezeClock, () => 'Clock frozen: sandbox time stands still until you resume it.'),
    resumeClock: () => change(api.resumeClock, (state) => `Clock resumed.${ranNote(state)}`),
  };
};

export function describeSeconds(seconds: number): string {
  if (seconds % 86400 === 0) return `${seconds / 86400} ${seconds === 86400 ? 'day' : 'days'}`;
  if (seconds % 3600 === 0) return `${seconds / 3600} ${seconds === 3600 ? 'hour' : 'hours'}`;
  if (seconds % 60 === 0) return `${seconds / 60} ${seconds === 60 ? 'minute' : 'minutes'}`;
  return `${seconds} ${seconds === 1 ? 'second' : 'seconds'}`;
}

/** Sandbox time now, in ms: the last read, plus the real time since while the clock runs. */
export function sandboxNow(state: Pick<ClockSlice, 'clock' | 'clockReadAt'>): number {
  const { clock, clockReadAt } = state;
  if (!clock) return Date.now();
  const base = Date.parse(clock.now);
  return clock.frozen ? base : base + (Date.now() - clockReadAt);
}
