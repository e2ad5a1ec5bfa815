import { stringify } from 'yaml';
import type { Env } from '../contract/common.js';
import type {
  RecordingExpectBody,
  RecordingExpectResult,
  RecordingState,
  RecordingStopped,
} from '../contract/recording.js';
import type { CheckoutLifecycle } from '../domain/checkouts/lifecycle.js';
import type { EventRecorder } from '../domain/events/recorder.js';
import type { Ledger } from '../domain/ledger/service.js';
import type { MerchantService } from '../domain/merchants/service.js';
import { AppError, ConflictError, NotFoundError, ValidationError } from '../errors.js';
import {
  type Exchange,
  type FiredEvents,
  FiredEventsScope,
  type ResourceReader,
  recordable,
} from './exchange.js';
import { defaultFields, type StateReads, stateExpectations, stateReads } from './outcomes.js';
import { adoptedCheckoutBody, asOwnUrl, withoutWorkspace } from './own.js';
import { newSession, type Session, type Step } from './session.js';
import {
  callStep,
  controlStep,
  nameMerchant,
  nextName,
  type Translation,
  takeName,
  uniqueName,
} from './steps.js';
import { clipDepth, isUuid, renderScenario, slug, strings, substitute, substitutePath } from './translate.js';

export type { Exchange, ResourceReader } from './exchange.js';

export interface ScenarioRecorderDeps {
  clock: { now(): number; nowIso(): string };
  merchants: Pick<MerchantService, 'get' | 'listKeys'>;
  /** every merchant's balances now (the baseline a recording's balance expectations start from) */
  ledger: Pick<Ledger, 'merchantBalancesNow'>;
  /** every event recorded, as it is recorded (inside the request that fires it) */
  events: Pick<EventRecorder, 'onRecord'>;
  /** the sandbox's own addresses: a URL under one (a webhook endpoint on the built-in inbox) is
   * written as `${sandbox.urls.test}/...`, so it points at the replaying sandbox */
  baseUrl: (env: Env) => string;
  /** earlier checkouts, to adopt one a step uses; whether a delivery id is one of the workspace's own */
  checkouts?: Pick<CheckoutLifecycle, 'findIfExists' | 'present'> | undefined;
  ownDelivery?: ((deliveryId: string) => boolean) | undefined;
}

/**
 * Turns what is done to the sandbox while a recording runs into a scenario file (docs/scenarios.md).
 * One per sandbox, shared by both listeners. Choices (docs/decisions.md, "Recording"):
 * - reads (GET) are left out; a failed write (4xx) is kept with `expect: { status }`, since a QA
 *   reproduction may be about the error; 401, 415, 429 and 5xx are left out;
 * - a merchant the session uses but did not create gets a `merchant:` step of its current state;
 * - every id, key and deposit address an answer reveals is a reference in later steps.
 */
export class ScenarioRecorder {
  private session: Session | null = null;
  private readonly listeners = new Set<(state: RecordingState) => void>();
  private readonly readers = new Map<Env, ResourceReader>();
  private readonly fired: FiredEventsScope;

  constructor(private readonly deps: ScenarioRecorderDeps) {
    this.fired = new FiredEventsScope(deps.events, () => this.session !== null);
  }

  /** Runs `next` (a request's handling) collecting the events it fires; null when none is recorded. */
  track(next: () => void): FiredEvents | null {
    if (this.session) return this.fired.track(next);
    next();
    return null;
  }

  /** Each listener's app registers how to read a resource in its environment. */
  attachReader(env: Env, reader: ResourceReader): void {
    this.readers.set(env, reader);
  }

  on(listener: (state: RecordingState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get recording(): boolean {
    return this.session !== null;
  }

  start(name?: string): RecordingState {
    if (this.session) throw new ConflictError(`A recording is already running: ${this.session.name}`);
    const startedAt = this.deps.clock.nowIso();
    this.session = newSession(
      name ?? `recording ${startedAt}`,
      startedAt,
      this.deps.ledger.merchantBalancesNow(),
    );
    return this.changed();
  }

  state(): RecordingState {
    const s = this.session;
    if (!s) return { recording: false, steps: 0 };
    return {
      recording: true,
      name: s.name,
      started_at: s.startedAt,
      steps: s.steps.length,
      resources: s.resources.map((r) => ({ ...r })),
    };
  }

  stop(): RecordingStopped {
    const s = this.session;
    if (!s) throw new ConflictError('No recording is running: start one with POST /sandbox/recording/start');
    this.session = null;
    const scenario = renderScenario(s.name, s.startedAt, s.steps);
    this.changed();
    return { recording: false, name: s.name, steps: s.steps.length, scenario };
  }

  /**
   * Records one exchange if a recording runs and it changed something (or tried to). It may throw
   * (a merchant that vanished meanwhile): the plugin logs that, the request never sees it. After a
   * simulation it also reads the state it left (the promise; the plugin answers once it settles).
   */
  capture(raw: Exchange): Promise<void> | undefined {
    const s = this.session;
    if (!s || !recordable(raw)) return undefined;
    // The sandbox's own webhook arriving at its built-in inbox is not something the user did.
    if (raw.deliveryId && this.deps.ownDelivery?.(raw.deliveryId)) return undefined;
    // Bounded first: every walk over the body below, and the render at stop, recurse per level.
    const exchange = { ...raw, body: clipDepth(raw.body), response: clipDepth(raw.response) };
    exchange.url = withoutWorkspace(exchange.url);
    const t = this.translation(s);
    const step = exchange.url.startsWith('/v1/') ? callStep(s, exchange, t) : controlStep(s, exchange, t);
    if (!step) return undefined;
    s.steps.push(step);
    this.changed();
    if (exchange.status >= 400) return undefined;
    const reads = stateReads(exchange);
    return reads.get || reads.balance ? this.expectState(s, step, reads) : undefined;
  }

  /** After a simulation: the state it left, as expectations right after its step (./outcomes.ts). */
  private async expectState(s: Session, step: Step, reads: StateReads): Promise<void> {
    const read = this.readers.get('test');
    if (!read) return;
    const added = await stateExpectations(
      reads,
      read,
      (v) => s.refs.get(v),
      (id) => s.merchants.get(id),
      (merchantId, env, currency) => s.balancesAtStart.get(`${merchantId} ${env} ${currency}`),
    );
    // The recording may have stopped meanwhile, or other steps come in: right after its own step.
    if (added.length === 0 || this.session !== s) return;
    s.steps.splice(s.steps.indexOf(step) + 1, 0, ...added);
    this.changed();
  }

  /** Adds `expect: { get, body }` from the current state of the resource at `path`. */
  async expect(body: RecordingExpectBody): Promise<RecordingExpectResult> {
    const s = this.session;
    if (!s) throw new ConflictError('No recording is running: start one with POST /sandbox/recording/start');
    const path = body.path.split('?')[0]!;
    const isV1 = path.startsWith('/v1/');
    const ids = path.split('/').filter((segment) => s.refs.has(segment));
    const owner = [...ids]
      .reverse()
      .map((id) => s.owners.get(id))
      .find((o) => o !== undefined);
    if (isV1 && !owner) {
      throw new ValidationError(
        'path',
        'names no object created while recording (use a control-API path, /sandbox/..., for other objects)',
      );
    }
    const env = owner?.env ?? 'test';
    const reader = this.readers.get(env);
    if (!reader) throw new AppError(503, `The ${env} listener is not available to read ${path}`);
    const key = owner && isV1 ? this.ownerKey(owner.merchantId) : null;
    const read = await reader(path, key);
    if (read.status === 404) throw new NotFoundError('Resource', path);
    if (
      read.status >= 400 ||
      read.body === null ||
      typeof read.body !== 'object' ||
      Array.isArray(read.body)
    ) {
      throw new ValidationError('path', `GET ${path} answered ${read.status}, not an object to expect on`);
    }
    const current = read.body as Record<string, unknown>;
    const fields = body.fields ?? defaultFields(current);
    const missing = fields.find((f) => !(f in current));
    if (missing !== undefined) throw new ValidationError('fields', `${path} has no field ${missing}`);
    const expected = Object.fromEntries(fields.map((f) => [f, current[f]]));
    const refOf = (v: string) => s.refs.get(v);
    const expectation: Step = { get: substitutePath(path, refOf) };
    if (isV1 && owner) {
      expectation.merchant = this.merchantName(s, owner.merchantId);
      if (owner.env !== 'test') expectation.env = owner.env;
    }
    expectation.body = substitute(expected, refOf);
    const step: Step = { expect: expectation };
    s.steps.push(step);
    this.changed();
    return { recording: true, steps: s.steps.length, step: stringify([step]).trimEnd() };
  }

  private changed(): RecordingState {
    const state = this.state();
    for (const listener of this.listeners) listener(state);
    return state;
  }

  private ownUrls(): [string, string][] {
    return (['test', 'production'] as const).map((env) => [this.deps.baseUrl(env), `sandbox.urls.${env}`]);
  }

  private ownerKey(merchantId: string): string | null {
    const keys = this.deps.merchants.listKeys(merchantId).filter((k) => k.revoked_at === null);
    return (keys.find((k) => k.role === 'owner') ?? keys[0])?.key ?? null;
  }

  // ---- translation (./steps.ts) ------------------------------------------------------------------

  private translation(s: Session): Translation {
    return {
      now: this.deps.clock.now(),
      merchantName: (id) => this.merchantName(s, id),
      adopt: (ex) => this.adoptMerchants(s, ex),
      ownUrl: (v) => asOwnUrl(v, this.deps.baseUrl),
      ownUrls: this.ownUrls(),
    };
  }

  /** The merchant step's name for a merchant id; one the session did not create is added first. */
  private merchantName(s: Session, merchantId: string): string {
    const known = s.merchants.get(merchantId);
    if (known) return known;
    const merchant = this.deps.merchants.get(merchantId);
    const name = uniqueName(s, slug(merchant.name));
    nameMerchant(s, merchantId, name);
    const body: Record<string, unknown> = { name: merchant.name, kyb_status: merchant.kyb_status };
    if (merchant.legal_name !== null) body.legal_name = merchant.legal_name;
    if (merchant.country !== null) body.country = merchant.country;
    if (merchant.website !== null) body.website = merchant.website;
    s.steps.push({ merchant: name, body });
    const key = this.ownerKey(merchantId);
    if (key) s.refs.set(key, `${name}.key`);
    return name;
  }

  /**
   * Merchants the call names (a path parameter, a body field such as a connection's `merchant_id`)
   * that the session did not create: each gets a `merchant:` step first, so the reference exists.
   */
  private adoptMerchants(s: Session, ex: Exchange): void {
    const candidates = new Set<string>();
    for (const value of Object.values(ex.params)) if (isUuid(value)) candidates.add(value);
    for (const [, value] of strings(ex.body)) if (isUuid(value)) candidates.add(value);
    for (const id of candidates) {
      if (s.refs.has(id)) continue;
      if (this.adoptCheckout(s, id)) continue;
      try {
        this.merchantName(s, id);
      } catch {
        // not a merchant (or not any more): the value stays literal
      }
    }
  }

  /** An earlier checkout a step uses: a step making one like it (./own.ts) comes first. */
  private adoptCheckout(s: Session, id: string): boolean {
    const row = this.deps.checkouts?.findIfExists(id);
    if (!row) return false;
    const merchant = this.merchantName(s, row.merchant_id);
    const body = adoptedCheckoutBody(this.deps.checkouts!.present(row), this.deps.clock.now());
    const name = nextName(s, 'co');
    takeName(s, 'co', name);
    s.refs.set(id, `${name}.id`);
    s.owners.set(id, { merchantId: row.merchant_id, env: row.env });
    s.steps.push({ call: 'POST /v1/checkouts', merchant, env: row.env, as: name, body });
    return true;
  }
}
