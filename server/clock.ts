/**
 * The sandbox clock: real time plus an offset, which can be frozen and advanced.
 * Every time-driven rule reads `now()` from here; only this module touches the real clock,
 * and only through the injected `realNow`, so tests can drive it completely.
 */
export interface ClockState {
  offsetMs: number;
  /** When frozen, the sandbox time at which it stands still (ms since epoch). */
  frozenAt: number | null;
}

export interface ClockStore {
  load(): ClockState | undefined;
  save(state: ClockState): void;
}

/** Where a new workspace's clock starts (a scenario's replay): used only when none is stored yet. */
export interface ClockStart {
  /** sandbox time at start (ms since epoch) */
  at: number;
  /** stand still at `at` until advanced or resumed (default), or run on from it */
  frozen?: boolean;
}

export interface Clock {
  now(): number;
  nowIso(): string;
}

export class SandboxClock implements Clock {
  private state: ClockState;

  constructor(
    private readonly store: ClockStore,
    private readonly realNow: () => number = Date.now,
    start?: ClockStart,
  ) {
    const stored = store.load();
    if (stored) this.state = stored;
    else if (start === undefined) this.state = { offsetMs: 0, frozenAt: null };
    else {
      this.state =
        start.frozen === false
          ? { offsetMs: start.at - realNow(), frozenAt: null }
          : { offsetMs: 0, frozenAt: start.at };
      store.save(this.state);
    }
  }

  now(): number {
    return this.state.frozenAt ?? this.realNow() + this.state.offsetMs;
  }

  nowIso(): string {
    const now = this.now();
    // Many requests share a millisecond under load; formatting a Date costs more than the rest.
    if (now !== this.isoAt) {
      this.isoAt = now;
      this.iso = new Date(now).toISOString();
    }
    return this.iso;
  }

  private isoAt = Number.NaN;
  private iso = '';

  get frozen(): boolean {
    return this.state.frozenAt !== null;
  }

  get offsetMs(): number {
    return this.state.frozenAt === null ? this.state.offsetMs : this.state.frozenAt - this.realNow();
  }

  /** Moves sandbox time forward. Running what became due is the scheduler's job. */
  advance(ms: number): void {
    if (!Number.isSafeInteger(ms) || ms < 0) throw new RangeError('advance takes a non-negative integer');
    this.state =
      this.state.frozenAt === null
        ? { offsetMs: this.state.offsetMs + ms, frozenAt: null }
        : { offsetMs: this.state.offsetMs, frozenAt: this.state.frozenAt + ms };
    this.store.save(this.state);
  }

  freeze(): void {
    if (this.state.frozenAt !== null) return;
    this.state = { offsetMs: this.state.offsetMs, frozenAt: this.now() };
    this.store.save(this.state);
  }

  resume(): void {
    if (this.state.frozenAt === null) return;
    this.state = { offsetMs: this.state.frozenAt - this.realNow(), frozenAt: null };
    this.store.save(this.state);
  }

  /** Reads the state again from the store (a workspace import replaced it underneath). */
  reload(): void {
    this.state = this.store.load() ?? { offsetMs: 0, frozenAt: null };
  }

  /**
   * Runs on from real time plus `offsetMs` (negative: in the past), unfrozen. For an empty
   * workspace only: what is already scheduled keeps its own times (serve --demo builds its month
   * of history from a start 30 days back).
   */
  restart(offsetMs: number): void {
    if (!Number.isSafeInteger(offsetMs)) throw new RangeError('restart takes an integer offset');
    this.state = { offsetMs, frozenAt: null };
    this.store.save(this.state);
  }

  /** Stands still at sandbox time `at` (a restored checkpoint of a frozen clock). */
  restartFrozen(at: number): void {
    if (!Number.isSafeInteger(at)) throw new RangeError('restartFrozen takes an integer time');
    this.state = { offsetMs: 0, frozenAt: at };
    this.store.save(this.state);
  }

  /** Back to real time, unfrozen (used by a workspace reset). */
  reset(): void {
    this.state = { offsetMs: 0, frozenAt: null };
    this.store.save(this.state);
  }
}

export function toIso(ms: number): string {
  return new Date(ms).toISOString();
}
