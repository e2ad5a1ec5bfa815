import type { Env } from '../contract/common.js';
import type { FaultEffect, FaultMark, FaultRule, Faults, FaultsInput } from '../contract/faults.js';
import type { KvRepo } from '../db/kv.js';
import { ValidationError } from '../errors.js';
import type { Ids } from '../ids.js';
import { draw, seedState } from '../webhooks/chaos.js';

/**
 * API faults: the network and the provider misbehaving on purpose for a workspace's /v1 requests
 * (errors, 429s, latency, timeouts, lost responses), decided by a seeded random sequence as
 * webhook chaos is. The rules and the sequence's state live in the workspace database (kv
 * `api_faults`), so checkpoints and exports carry them and a restart continues the sequence.
 */

/** The request a decision is made for. */
export interface FaultedRequest {
  method: string;
  /** the matched route as Fastify writes it (`/v1/checkouts/:id`); null when none matched */
  route: string | null;
  /** the URL as called (its query is ignored) */
  url: string;
  env: Env;
}

/** What a fault does to one request. */
export interface FaultDecision {
  rule: string;
  effect: FaultEffect;
  /** the wait a latency fault drew (ms) */
  delayMs: number;
  mark: FaultMark;
}

interface Stored {
  seed: string;
  state: number;
  rules: FaultRule[];
}

const KEY = 'api_faults';

/** `/v1/checkouts/:id` and `/v1/checkouts/{checkout_id}` alike: each parameter is `{}`. */
const shape = (path: string) => path.replace(/:[^/]+/g, '{}').replace(/\{[^}/]*\}/g, '{}');

export interface ApiFaultsDeps {
  kv: Pick<KvRepo, 'get' | 'set'>;
  ids: Pick<Ids, 'token'>;
  atomically: <T>(fn: () => T) => T;
}

export class ApiFaults {
  private stored: Stored | undefined;
  /** true while the workspace has rules left to apply: the /v1 hook's only check otherwise */
  active = false;

  constructor(private readonly deps: ApiFaultsDeps) {
    this.stored = deps.kv.get<Stored>(KEY);
    this.active = this.live();
  }

  get(): Faults {
    return { seed: this.stored?.seed ?? null, rules: this.stored?.rules ?? [] };
  }

  /** The whole set of rules; the seed, given or new, restarts the sequence. */
  set(input: FaultsInput): Faults {
    const ids = new Set<string>();
    const rules = input.rules.map((rule, i): FaultRule => {
      const field = `rules[${i}]`;
      const id = rule.id ?? `rule-${i + 1}`;
      if (ids.has(id)) throw new ValidationError(`${field}.id`, `"${id}" names another rule too`);
      ids.add(id);
      checkEffect(`${field}.effect`, rule.effect);
      return {
        id,
        match: { ...rule.match },
        rate: rule.rate ?? 1,
        count: rule.count ?? null,
        remaining: rule.count ?? null,
        applied: 0,
        effect: rule.effect,
      };
    });
    const seed = input.seed ?? this.deps.ids.token(12);
    this.save({ seed, state: seedState(seed), rules });
    return this.get();
  }

  /** No rules any more (the seed is kept, shown, and used again only if given). */
  clear(): void {
    if (!this.stored) return;
    this.save({ ...this.stored, rules: [] });
  }

  /** The fault for this request, if a rule's draw falls under its rate (the sequence moves on and is saved). */
  decide(request: FaultedRequest): FaultDecision | null {
    const stored = this.stored;
    if (!stored || !this.active) return null;
    const query = request.url.indexOf('?');
    const path = query === -1 ? request.url : request.url.slice(0, query);
    const route = request.route === null ? null : shape(request.route);
    let state = stored.state;
    let decision: FaultDecision | null = null;
    let considered = false;
    for (const rule of stored.rules) {
      if (rule.remaining === 0 || !matches(rule, request, path, route)) continue;
      considered = true;
      // Two draws per rule considered, whatever its effect: the sequence moves the same way for any rules.
      const [chance, afterChance] = draw(state);
      const [spread, next] = draw(afterChance);
      state = next;
      if (chance >= rule.rate) continue;
      decision = decisionOf(rule, spread);
      rule.applied += 1;
      if (rule.remaining !== null) rule.remaining -= 1;
      break;
    }
    if (!considered) return null;
    stored.state = state;
    this.save(stored);
    return decision;
  }

  private live(): boolean {
    return this.stored?.rules.some((rule) => rule.remaining !== 0) ?? false;
  }

  private save(next: Stored): void {
    this.deps.atomically(() => this.deps.kv.set(KEY, next));
    this.stored = next;
    this.active = this.live();
  }
}

function matches(rule: FaultRule, request: FaultedRequest, path: string, route: string | null): boolean {
  const { method, path: wanted, env } = rule.match;
  if (method !== undefined && method !== request.method) return false;
  if (env !== undefined && env !== request.env) return false;
  if (wanted === undefined) return true;
  return wanted === path || (route !== null && shape(wanted) === route);
}

function decisionOf(rule: FaultRule, spread: number): FaultDecision {
  const { effect } = rule;
  if (effect.status !== undefined)
    return {
      rule: rule.id,
      effect,
      delayMs: 0,
      mark: { rule: rule.id, effect: 'status', status: effect.status },
    };
  if (effect.latency_ms) {
    const { min, max } = effect.latency_ms;
    const delayMs = min + Math.floor(spread * (max - min + 1));
    return {
      rule: rule.id,
      effect,
      delayMs,
      mark: { rule: rule.id, effect: 'latency', latency_ms: delayMs },
    };
  }
  if (effect.timeout)
    return { rule: rule.id, effect, delayMs: 0, mark: { rule: rule.id, effect: 'timeout' } };
  return { rule: rule.id, effect, delayMs: 0, mark: { rule: rule.id, effect: 'lost_response' } };
}

/** Exactly one effect, and its numbers make sense. */
function checkEffect(field: string, effect: FaultEffect): void {
  const kinds = (['status', 'latency_ms', 'timeout', 'lost_response'] as const).filter(
    (kind) => effect[kind] !== undefined,
  );
  if (kinds.length !== 1)
    throw new ValidationError(
      field,
      kinds.length === 0
        ? 'give one of status, latency_ms, timeout, lost_response'
        : `give only one of ${kinds.join(', ')}`,
    );
  if (effect.retry_after_s !== undefined && effect.status !== 429)
    throw new ValidationError(`${field}.retry_after_s`, 'only with status 429');
  if (effect.latency_ms && effect.latency_ms.min > effect.latency_ms.max)
    throw new ValidationError(
      `${field}.latency_ms`,
      `min (${effect.latency_ms.min}) must not be greater than max (${effect.latency_ms.max})`,
    );
}
