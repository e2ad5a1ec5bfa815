import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { ChaosEffect, ChaosSettings, ChaosSettingsInput } from '../contract/webhooks.js';
import type { EndpointRow, WebhooksRepo } from '../db/webhooks.js';
import { ValidationError } from '../errors.js';
import { sign } from './signing.js';
import type { SendResult } from './transport.js';

/**
 * Delivery chaos: the seeded random sequence of an endpoint, the decisions drawn from it for each
 * attempt, and the reorder windows that hold sends. Decisions are drawn where a send is decided
 * (the fan-out's transaction, the scheduler's, a manual retry's), in that deterministic order,
 * and the sequence's new state is written in the same transaction: the same seed and the same
 * events give the same decisions in any sandbox, across restarts.
 */

/** What chaos decided for one attempt. */
export interface ChaosPlan {
  drop: boolean;
  duplicate: boolean;
  badSignature: boolean;
  /** how long the send waits first (ms); null: no delay */
  delayMs: number | null;
  /** held in a reorder window of this size, released in the order of `holdKey`; null: not held */
  window: number | null;
  holdKey: number;
}

/**
 * How long a reorder window that is not full waits after the last send joined it before it counts
 * its endpoint's queue as idle and releases what it holds. A quiet period, not a deadline from the
 * first send: while sends keep coming (a slow CI machine's calls 150 ms apart as much as a fast
 * one's 1 ms apart) the window holds the next N sends of the sequence, whatever the pace.
 */
export const REORDER_IDLE_MS = 2_000;

/** Draws per attempt, whatever the settings: a decision always consumes the same part of the sequence. */
const DRAWS = 5;

/** The sequence's start for a seed: the first 32 bits of its SHA-256. */
export function seedState(seed: string): number {
  return createHash('sha256').update(seed, 'utf8').digest().readUInt32BE(0);
}

/**
 * mulberry32: a 32-bit state, one add and a few multiplies per draw. Good enough for chaos
 * decisions (not for secrets), and its state fits one integer column.
 */
export function draw(state: number): [value: number, state: number] {
  const next = (state + 0x6d2b79f5) >>> 0;
  let t = next;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return [((t ^ (t >>> 14)) >>> 0) / 4294967296, next];
}

/** The next attempt's decisions under `settings`, and the sequence's state after them. */
export function decide(settings: ChaosSettings, state: number): { plan: ChaosPlan; state: number } {
  const values: number[] = [];
  let current = state;
  for (let i = 0; i < DRAWS; i++) {
    const [value, next] = draw(current);
    values.push(value);
    current = next;
  }
  const [drop, duplicate, badSignature, delay, holdKey] = values as [number, number, number, number, number];
  const range = settings.delay;
  return {
    plan: {
      drop: drop < settings.drop,
      duplicate: duplicate < settings.duplicate,
      badSignature: badSignature < settings.bad_signature,
      delayMs: range ? range.min_ms + Math.floor(delay * (range.max_ms - range.min_ms + 1)) : null,
      window: settings.reorder_window > 1 ? settings.reorder_window : null,
      holdKey,
    },
    state: current,
  };
}

/**
 * The settings a PATCH asks for, every field filled: the given object is the whole of them
 * (omitted knobs are off); the seed is the given one, else the current one, else `newSeed()`.
 * Returns the state to store: the seed's start when the seed is given or new, else `current`.
 */
export function applySettings(
  input: ChaosSettingsInput,
  current: { settings: ChaosSettings | null; state: number | null },
  newSeed: () => string,
): { settings: ChaosSettings; state: number } {
  if (input.delay && input.delay.min_ms > input.delay.max_ms) {
    throw new ValidationError(
      'chaos.delay',
      `min_ms (${input.delay.min_ms}) must not be greater than max_ms (${input.delay.max_ms})`,
    );
  }
  const seed = input.seed ?? current.settings?.seed ?? newSeed();
  const settings: ChaosSettings = {
    seed,
    duplicate: input.duplicate ?? 0,
    reorder_window: input.reorder_window ?? 0,
    delay: input.delay ? { min_ms: input.delay.min_ms, max_ms: input.delay.max_ms } : null,
    drop: input.drop ?? 0,
    bad_signature: input.bad_signature ?? 0,
  };
  const restart = input.seed !== undefined || current.state === null || current.settings === null;
  return { settings, state: restart ? seedState(seed) : current.state! };
}

/** A signature that looks right and is not: the HMAC of the body under a key that is not the secret. */
export function wrongSignature(secret: string, body: string): string {
  return sign(`${secret}:chaos`, body);
}

/** The effects of a plan that was carried out, for the attempt's record, in the order they happened. */
export function effectsOf(
  plan: ChaosPlan,
  turn: { position: number; of: number } | undefined,
  second: { response_status: number | null; error: string | null } | undefined,
): ChaosEffect[] {
  if (plan.drop) return [{ kind: 'dropped' }];
  const effects: ChaosEffect[] = [];
  if (turn) effects.push({ kind: 'reordered', position: turn.position, of: turn.of });
  if (plan.delayMs !== null && plan.delayMs > 0) effects.push({ kind: 'delayed', ms: plan.delayMs });
  if (plan.badSignature) effects.push({ kind: 'bad_signature' });
  if (second) effects.push({ kind: 'duplicated', ...second });
  return effects;
}

/** A held send's turn: its place in the release, and `done` to call once it has been sent. */
export interface Turn {
  position: number;
  of: number;
  done: () => void;
}

interface Held {
  key: number;
  start: (turn: Turn) => void;
}

interface Window {
  held: Held[];
  /** the quiet period's timer (restarted by each send that joins) */
  timer: NodeJS.Timeout | null;
}

/**
 * Reorder windows, one per endpoint. What a window holds follows the delivery sequence: the
 * endpoint's next N sends, in the order they were decided. It is released when it is full, when
 * someone waits for the dispatcher's sends (a clock advance, a resume, a settle, an export: an
 * explicit flush), or when its endpoint's queue has gone idle (no send joined it for
 * REORDER_IDLE_MS); then its sends leave one after another (each once the previous has been
 * answered) in the order of their keys, which were drawn with their decisions. A window's release
 * waits for the previous window of the same endpoint to have sent everything, so two windows never
 * interleave. Nothing is held forever.
 */
export class ReorderWindows {
  private readonly windows = new Map<string, Window>();
  /** per endpoint: the sends of its windows released so far, done; the next release waits for it */
  private readonly draining = new Map<string, Promise<void>>();

  hold(endpointId: string, size: number, key: number): Promise<Turn> {
    return new Promise((start) => {
      let window = this.windows.get(endpointId);
      if (!window) {
        window = { held: [], timer: null };
        this.windows.set(endpointId, window);
      }
      window.held.push({ key, start });
      if (window.held.length >= size) {
        this.release(endpointId);
        return;
      }
      if (window.timer) clearTimeout(window.timer);
      window.timer = setTimeout(() => this.release(endpointId), REORDER_IDLE_MS);
      window.timer.unref();
    });
  }

  /** Releases every window now. */
  releaseAll(): void {
    for (const id of [...this.windows.keys()]) this.release(id);
  }

  private release(endpointId: string): void {
    const window = this.windows.get(endpointId);
    if (!window) return;
    this.windows.delete(endpointId);
    if (window.timer) clearTimeout(window.timer);
    const order = [...window.held].sort((a, b) => a.key - b.key);
    const before = this.draining.get(endpointId);
    let drained!: () => void;
    const done = new Promise<void>((resolve) => {
      drained = resolve;
    });
    this.draining.set(endpointId, done);
    const next = (i: number): void => {
      const held = order[i];
      if (!held) {
        if (this.draining.get(endpointId) === done) this.draining.delete(endpointId);
        drained();
        return;
      }
      let called = false;
      held.start({
        position: i + 1,
        of: order.length,
        done: () => {
          if (called) return;
          called = true;
          next(i + 1);
        },
      });
    };
    if (before) void before.then(() => next(0));
    else next(0);
  }
}

/**
 * The dispatcher's chaos: draws the decisions for the attempts to endpoints with chaos on (and
 * keeps their sequences), holds sends in reorder windows and delays them.
 */
export class DeliveryChaos {
  /** stored settings, parsed once per distinct text (a handful) */
  private readonly parsed = new Map<string, ChaosSettings>();
  private readonly windows = new ReorderWindows();
  /** delays under way: cut short when the workspace goes */
  private readonly delays = new Set<() => void>();

  constructor(private readonly repo: Pick<WebhooksRepo, 'updateChaosState'>) {}

  /** Waits until the send's turn in its endpoint's reorder window. */
  hold(endpointId: string, window: number, key: number): Promise<Turn> {
    return this.windows.hold(endpointId, window, key);
  }

  /** The wait a delay decided (real time, as the network it stands for). */
  delay(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const end = () => {
        clearTimeout(timer);
        this.delays.delete(end);
        resolve();
      };
      const timer = setTimeout(end, ms);
      this.delays.add(end);
    });
  }

  /** Releases every held send now (someone waits for the sends: a clock advance, a settle). */
  release(): void {
    this.windows.releaseAll();
  }

  /** The workspace goes: nothing stays held or waiting. */
  stop(): void {
    this.windows.releaseAll();
    for (const end of [...this.delays]) end();
  }

  /**
   * The decisions for the next attempt to `endpoint` (undefined: chaos is off), drawn from its
   * sequence, whose new state is written in the caller's transaction.
   */
  plan(endpoint: EndpointRow | undefined): ChaosPlan | undefined {
    if (!endpoint || endpoint.chaos === null || endpoint.chaos_state === null) return undefined;
    const { plan, state } = decide(this.settings(endpoint.chaos), endpoint.chaos_state);
    this.repo.updateChaosState(endpoint.id, state);
    // The row may be used again in this transaction: it moves on too.
    endpoint.chaos_state = state;
    return plan;
  }

  private settings(text: string): ChaosSettings {
    let settings = this.parsed.get(text);
    if (!settings) {
      settings = JSON.parse(text) as ChaosSettings;
      if (this.parsed.size >= 1000) this.parsed.clear();
      this.parsed.set(text, settings);
    }
    return settings;
  }
}

/**
 * The request sent as chaos decided: not at all (a drop, recorded as the timeout it stands for),
 * once, or twice (a duplicate: the same request again once the first is answered). `durationMs`
 * is the first exchange's.
 */
export async function sendAsPlanned(
  plan: ChaosPlan | undefined,
  post: () => Promise<SendResult>,
  timeoutMs: number,
): Promise<{ result: SendResult; durationMs: number; second?: SendResult }> {
  if (plan?.drop)
    return {
      result: { status: null, body: null, error: `timeout: no answer within ${timeoutMs} ms` },
      durationMs: 0,
    };
  const started = performance.now();
  const result = await post();
  const durationMs = Math.round(performance.now() - started);
  return plan?.duplicate ? { result, durationMs, second: await post() } : { result, durationMs };
}
