import type { Env } from '../contract/common.js';
import type { RecordedResource } from '../contract/recording.js';

/** What a recording keeps while it runs (server/recording/recorder.ts). */
export type Step = Record<string, unknown>;

export interface Owner {
  merchantId: string;
  env: Env;
}

export interface Session {
  name: string;
  startedAt: string;
  steps: Step[];
  /** a value seen in an answer (id, key, address) → its reference (`co1.id`) */
  refs: Map<string, string>;
  /** merchant id → the merchant step's name */
  merchants: Map<string, string>;
  names: Set<string>;
  counters: Map<string, number>;
  /** an object created while recording → who owns it, in which environment (to read it back) */
  owners: Map<string, Owner>;
  resources: RecordedResource[];
  /**
   * Each merchant's balance when the recording started (`merchantId env currency`): a balance
   * expectation is what the session moved, so it holds wherever a replay starts.
   */
  balancesAtStart: Map<string, { available: number; held: number }>;
}

/** A session with no step yet. */
export function newSession(
  name: string,
  startedAt: string,
  balancesAtStart: Session['balancesAtStart'] = new Map(),
): Session {
  return {
    name,
    startedAt,
    steps: [],
    refs: new Map(),
    merchants: new Map(),
    // built-in reference names of the format
    names: new Set(['sandbox', 'clock']),
    counters: new Map(),
    owners: new Map(),
    resources: [],
    balancesAtStart,
  };
}
