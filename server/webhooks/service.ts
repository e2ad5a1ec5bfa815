import type { Clock } from '../clock.js';
import type { EventType } from '../contract/events.js';
import {
  type ChaosEffect,
  type ChaosSettings,
  type Delivery as DeliveryView,
  type ListenSession,
  type ListenSessionBody,
  sampleData,
  TEST_EVENT_TYPES,
  type UpdateEndpointBody,
  type WebhookEndpoint,
} from '../contract/webhooks.js';
import type { UnitOfWork } from '../db/unit-of-work.js';
import type {
  AttemptRead,
  DeliveryFilter,
  DeliveryRow,
  EndpointRow,
  ListedDeliveryRow,
  WebhooksRepo,
} from '../db/webhooks.js';
import { EVENT_TYPES, type RecordedEvent } from '../domain/events/recorder.js';
import { deliveryStates } from '../domain/state.js';
import type { Env } from '../domain/types.js';
import { BusinessRuleError, NotFoundError, ValidationError } from '../errors.js';
import type { Ids } from '../ids.js';
import type { JobQueue } from '../scheduler.js';
import { applySettings } from './chaos.js';
import { JOB_DELIVER, type WebhookDispatcher } from './dispatcher.js';
import { envelopeBody, type OutgoingDelivery, outgoing, resourceOfData, sentRequest } from './envelope.js';

export const ALL_EVENTS = '*';

export type { Delivery as DeliveryView, WebhookEndpoint } from '../contract/webhooks.js';

export interface WebhookDeps {
  repo: WebhooksRepo;
  clock: Clock;
  ids: Ids;
  scheduler: JobQueue;
  dispatcher: WebhookDispatcher;
  unit: Pick<UnitOfWork, 'atomically'>;
}

const toEndpoint = ({ chaos_state: _state, ...row }: EndpointRow): WebhookEndpoint => ({
  ...row,
  events: JSON.parse(row.events) as string[],
  disabled: row.disabled === 1,
  chaos: row.chaos === null ? null : (JSON.parse(row.chaos) as ChaosSettings),
});

export function presentDelivery(row: ListedDeliveryRow, attempts: readonly AttemptRead[]): DeliveryView {
  return {
    id: row.id,
    event_id: row.event_id,
    event: row.event,
    merchant_id: row.merchant_id,
    env: row.env,
    endpoint_id: row.endpoint_id,
    url: row.url,
    status: row.status,
    attempt_count: row.attempt_count,
    next_attempt_at: row.next_attempt_at === null ? null : new Date(row.next_attempt_at).toISOString(),
    created_at: row.created_at,
    updated_at: row.updated_at,
    attempts: attempts.map((a) => {
      const sent = sentRequest(a);
      return {
        number: a.number,
        at: a.at,
        request_headers: sent.headers,
        request_body: sent.body,
        response_status: a.response_status,
        response_body: a.response_body,
        duration_ms: a.duration_ms,
        error: a.error,
        chaos: a.chaos === null ? [] : (JSON.parse(a.chaos) as ChaosEffect[]),
      };
    }),
  };
}

/** A listen session as the service keeps it (in memory: it lasts as long as listen runs). */
interface ListenSessionState {
  id: string;
  env: Env;
  url: string;
  secret: string;
  body: ListenSessionBody;
  endpointIds: Set<string>;
}

/** Webhook endpoints (the spec's dashboard feature) and the fan-out of events into deliveries. */
export class WebhookService {
  private readonly subscriptions = new Map<string, readonly string[]>();
  private readonly listenSessions = new Map<string, ListenSessionState>();

  constructor(private readonly deps: WebhookDeps) {}

  createEndpoint(
    merchantId: string,
    env: Env,
    body: {
      url: string;
      events?: string[] | undefined;
      secret?: string | undefined;
      forward_to?: string | undefined;
    },
  ): WebhookEndpoint {
    const row: EndpointRow = {
      id: this.deps.ids.uuid(),
      merchant_id: merchantId,
      env,
      url: checkUrl(body.url),
      events: subscriptions(body.events),
      secret: body.secret ?? `whsec_${this.deps.ids.token(32)}`,
      disabled: 0,
      forward_to: body.forward_to === undefined ? null : checkUrl(body.forward_to, 'forward_to'),
      chaos: null,
      chaos_state: null,
      created_at: this.deps.clock.nowIso(),
    };
    this.deps.repo.insertEndpoint(row);
    return toEndpoint(row);
  }

  /**
   * Starts a listen session: an endpoint at `<url>/<merchant id>` for each of `merchantIds` now, and
   * for any other merchant (unless the body names one) as its first event is recorded, inside that
   * event's transaction, so the event itself is delivered. Kept in memory until closed: a sandbox
   * restart ends it (listen's endpoints then stay, as after a listen that was killed).
   */
  openListenSession(
    env: Env,
    body: ListenSessionBody,
    merchantIds: readonly string[],
    secret: string,
  ): ListenSession {
    const session: ListenSessionState = {
      id: this.deps.ids.uuid(),
      env,
      url: checkUrl(body.url).replace(/\/+$/, ''),
      secret,
      body,
      endpointIds: new Set(),
    };
    if (body.forward_to !== undefined) checkUrl(body.forward_to, 'forward_to');
    const endpoints = this.deps.unit.atomically(() =>
      merchantIds.map((merchantId) => this.sessionEndpoint(session, merchantId)),
    );
    this.listenSessions.set(session.id, session);
    return { id: session.id, env, url: session.url, endpoints };
  }

  /** Ends a listen session and removes its endpoints (those not already gone). */
  closeListenSession(id: string): { removed: number } {
    const session = this.listenSessions.get(id);
    if (!session) throw new NotFoundError('Listen session', id);
    this.listenSessions.delete(id);
    let removed = 0;
    for (const endpointId of session.endpointIds) {
      if (!this.deps.repo.findEndpoint(endpointId)) continue;
      this.deleteEndpoint(endpointId);
      removed++;
    }
    return { removed };
  }

  private sessionEndpoint(session: ListenSessionState, merchantId: string): WebhookEndpoint {
    let endpoint = this.createEndpoint(merchantId, session.env, {
      url: `${session.url}/${encodeURIComponent(merchantId)}`,
      events: session.body.events,
      secret: session.secret,
      forward_to: session.body.forward_to,
    });
    if (session.body.chaos !== undefined)
      endpoint = this.updateEndpoint(endpoint.id, { chaos: session.body.chaos });
    session.endpointIds.add(endpoint.id);
    return endpoint;
  }

  /** Gives the merchant its endpoint in each open listen session that covers it and lacks one. */
  private coverBySessions(merchantId: string, env: Env): void {
    for (const session of this.listenSessions.values()) {
      if (session.env !== env) continue;
      if (session.body.merchant_id !== undefined && session.body.merchant_id !== merchantId) continue;
      const url = `${session.url}/${encodeURIComponent(merchantId)}`;
      // By address, not by the ids made: a reset removes endpoints under an open session.
      if (this.deps.repo.endpointsOf(merchantId, env).some((e) => e.url === url)) continue;
      this.sessionEndpoint(session, merchantId);
    }
  }

  listEndpoints(merchantId: string, env: Env): WebhookEndpoint[] {
    return this.deps.repo.endpointsOf(merchantId, env).map(toEndpoint);
  }

  getEndpoint(id: string): WebhookEndpoint {
    const row = this.deps.repo.findEndpoint(id);
    if (!row) throw new NotFoundError('Webhook endpoint', id);
    return toEndpoint(row);
  }

  /**
   * Changes the URL, the events or the disabled flag; the secret stays (rotation is delete +
   * recreate). Deliveries already made keep the URL they were made for; a disabled endpoint gets no
   * new ones, and its pending retries still run (disabling is not deleting).
   *
   * `chaos` replaces the delivery chaos settings whole (null: off). Its seed, when given, restarts
   * the random sequence; omitted, the current seed and sequence go on (a new seed is chosen, and
   * shown, when chaos was off).
   */
  updateEndpoint(id: string, body: UpdateEndpointBody): WebhookEndpoint {
    const row = this.deps.repo.findEndpoint(id);
    if (!row) throw new NotFoundError('Webhook endpoint', id);
    let chaos: Pick<EndpointRow, 'chaos' | 'chaos_state'> = row;
    if (body.chaos === null) chaos = { chaos: null, chaos_state: null };
    else if (body.chaos !== undefined) {
      const current = {
        settings: row.chaos === null ? null : (JSON.parse(row.chaos) as ChaosSettings),
        state: row.chaos_state,
      };
      const { settings, state } = applySettings(body.chaos, current, () => this.deps.ids.token(12));
      chaos = { chaos: JSON.stringify(settings), chaos_state: state };
    }
    const updated: EndpointRow = {
      ...row,
      url: body.url === undefined ? row.url : checkUrl(body.url),
      events: body.events === undefined ? row.events : subscriptions(body.events),
      disabled: body.disabled === undefined ? row.disabled : body.disabled ? 1 : 0,
      chaos: chaos.chaos,
      chaos_state: chaos.chaos_state,
    };
    this.deps.unit.atomically(() => {
      this.deps.repo.updateEndpoint(updated);
      if (body.chaos !== undefined) this.deps.repo.updateChaos(updated);
    });
    return toEndpoint(updated);
  }

  /**
   * A test event (the dashboard's "Send test event"): one delivery of a sample payload to this
   * endpoint alone, signed and sent by the dispatcher like any delivery, so it is listed with its
   * attempt and retried on failure. Resolves after the first attempt.
   */
  async sendTest(id: string, event?: EventType): Promise<DeliveryView> {
    const endpoint = this.deps.repo.findEndpoint(id);
    if (!endpoint) throw new NotFoundError('Webhook endpoint', id);
    if (endpoint.disabled === 1) {
      throw new BusinessRuleError(`Webhook endpoint ${id} is disabled: enable it to send a test event`);
    }
    const subscribed = JSON.parse(endpoint.events) as string[];
    const type =
      event ??
      TEST_EVENT_TYPES.find((t) => subscribed.includes(t)) ??
      ('checkout.created' satisfies EventType);
    // The sample as the contract has it; where its shape carries the merchant, it is this one.
    const sample = sampleData(type) ?? {};
    const data = 'merchant_id' in sample ? { ...sample, merchant_id: endpoint.merchant_id } : sample;
    const deliveryId = this.deps.ids.uuid();
    const now = this.deps.clock.nowIso();
    const json = JSON.stringify(data);
    // The payload's data is its own: no recorded event holds it.
    const row: DeliveryRow & OutgoingDelivery = {
      id: deliveryId,
      // no recorded event stands behind a test delivery: its own id keeps event_id unique
      event_id: this.deps.ids.uuid(),
      endpoint_id: endpoint.id,
      merchant_id: endpoint.merchant_id,
      env: endpoint.env,
      event: type,
      url: endpoint.url,
      data: json,
      body: envelopeBody(deliveryId, type, json),
      status: 'pending',
      attempt_count: 0,
      next_attempt_at: this.deps.clock.now(),
      created_at: now,
      updated_at: now,
    };
    this.deps.unit.atomically(() => this.deps.repo.insertDelivery(row));
    const after = await this.deps.dispatcher.retry(row);
    return presentDelivery(after, this.deps.repo.attemptsOf(deliveryId));
  }

  /** Rotation is delete + recreate (spec). Pending deliveries to it stop being retried. */
  deleteEndpoint(id: string): void {
    const endpoint = this.getEndpoint(id);
    this.deps.unit.atomically(() => this.removeEndpoint(endpoint));
  }

  private removeEndpoint(endpoint: WebhookEndpoint): void {
    const id = endpoint.id;
    const now = this.deps.clock.nowIso();
    for (const delivery of this.deps.repo.pendingOfEndpoint(endpoint)) {
      this.deps.scheduler.cancel(JOB_DELIVER, delivery.id);
      this.deps.repo.updateDelivery({
        ...deliveryStates.move(delivery, 'failed'),
        next_attempt_at: null,
        updated_at: now,
      });
    }
    this.deps.repo.deleteEndpoint(id);
  }

  /**
   * Called inside the transaction that records an event: one delivery per subscribed endpoint of
   * that merchant and environment, due now, leased and sent by the dispatcher once the transaction
   * commits. Committing with the event means none can be lost.
   */
  fanOut(event: RecordedEvent): number {
    // What orders sends to one endpoint (the dispatcher's `resourceOf` of the body built below).
    const resource = resourceOfData(event.data, event.id);
    let data: string | undefined;
    const made: { delivery: OutgoingDelivery; endpoint: EndpointRow }[] = [];
    let now: number | undefined;
    if (this.listenSessions.size > 0) this.coverBySessions(event.merchant_id, event.env);
    for (const endpoint of this.deps.repo.endpointsOf(event.merchant_id, event.env)) {
      if (endpoint.disabled === 1) continue;
      const events = this.subscribed(endpoint.events);
      if (!events.includes(ALL_EVENTS) && !events.includes(event.type)) continue;
      const id = this.deps.ids.uuid();
      now ??= this.deps.clock.now();
      // serialised once per event, as the event row holds it
      data ??= JSON.stringify(event.data);
      const row: DeliveryRow & OutgoingDelivery = {
        id,
        event_id: event.id,
        endpoint_id: endpoint.id,
        merchant_id: event.merchant_id,
        env: event.env,
        event: event.type,
        url: endpoint.url,
        // not stored: the payload's data is its event's
        data: null,
        body: envelopeBody(id, event.type, data),
        status: 'pending',
        attempt_count: 0,
        next_attempt_at: now,
        created_at: event.created_at,
        updated_at: event.created_at,
      };
      this.deps.repo.insertDelivery(row);
      made.push({ delivery: row, endpoint });
    }
    this.deps.dispatcher.dispatchNew(event.id, made, resource);
    return made.length;
  }

  /** An endpoint's stored subscription list, parsed once per distinct text (a handful). */
  private subscribed(text: string): readonly string[] {
    let events = this.subscriptions.get(text);
    if (!events) {
      events = JSON.parse(text) as string[];
      if (this.subscriptions.size >= 1000) this.subscriptions.clear();
      this.subscriptions.set(text, events);
    }
    return events;
  }

  listDeliveries(filter: DeliveryFilter): DeliveryView[] {
    const rows = this.deps.repo.listDeliveries(filter);
    if (rows === undefined) {
      throw new ValidationError('starting_after', `no such delivery: ${filter.starting_after}`);
    }
    const attempts = new Map<string, AttemptRead[]>();
    for (const attempt of this.deps.repo.attemptsForMany(rows.map((r) => r.id))) {
      const list = attempts.get(attempt.delivery_id) ?? [];
      list.push(attempt);
      attempts.set(attempt.delivery_id, list);
    }
    return rows.map((row) => presentDelivery(row, attempts.get(row.id) ?? []));
  }

  getDelivery(id: string): DeliveryView {
    const row = this.deps.repo.findDelivery(id);
    if (!row) throw new NotFoundError('Delivery', id);
    return presentDelivery(row, this.deps.repo.attemptsOf(id));
  }

  async retry(id: string): Promise<DeliveryView> {
    const row = this.deps.repo.findDelivery(id);
    if (!row) throw new NotFoundError('Delivery', id);
    const after = await this.deps.dispatcher.retry(outgoing(row));
    return presentDelivery(after, this.deps.repo.attemptsOf(id));
  }
}

function checkUrl(text: string, field = 'url'): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ValidationError(field, `not a valid URL: ${text}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ValidationError(field, `must be an http(s) URL, got ${url.protocol}`);
  }
  return text;
}

/** The stored subscription list: known types, deduplicated; none (or `*` among them) is `["*"]`. */
function subscriptions(given: string[] | undefined): string {
  const events = given === undefined || given.length === 0 ? [ALL_EVENTS] : [...new Set(given)];
  events.forEach((event, i) => {
    if (event !== ALL_EVENTS && !(EVENT_TYPES as readonly string[]).includes(event)) {
      throw new ValidationError(
        `events[${i}]`,
        `unknown event type ${event} (one of ${EVENT_TYPES.join(', ')}, or *)`,
      );
    }
  });
  return JSON.stringify(events.includes(ALL_EVENTS) ? [ALL_EVENTS] : events);
}
