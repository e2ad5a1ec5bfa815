import type { Clock } from '../clock.js';
import type { Delivery as DeliveryView, WebhookEndpoint } from '../contract/webhooks.js';
import type { AttemptRow, DeliveryFilter, DeliveryRow, EndpointRow, WebhooksRepo } from '../db/webhooks.js';
import { EVENT_TYPES, type EventRecorder, type RecordedEvent } from '../domain/events/recorder.js';
import { deliveryStates } from '../domain/state.js';
import type { Env } from '../domain/types.js';
import { NotFoundError, ValidationError } from '../errors.js';
import type { Ids } from '../ids.js';
import type { JobQueue, Scheduler } from '../scheduler.js';
import { JOB_DELIVER, type WebhookDispatcher } from './dispatcher.js';

export const ALL_EVENTS = '*';

export type { Delivery as DeliveryView, WebhookEndpoint } from '../contract/webhooks.js';

export interface WebhookDeps {
  repo: WebhooksRepo;
  clock: Clock;
  ids: Ids;
  scheduler: JobQueue & Pick<Scheduler, 'wake'>;
  dispatcher: WebhookDispatcher;
  events: Pick<EventRecorder, 'onRecord' | 'on' | 'transaction'>;
}

const toEndpoint = (row: EndpointRow): WebhookEndpoint => ({
  ...row,
  events: JSON.parse(row.events) as string[],
});

export function presentDelivery(row: DeliveryRow, attempts: readonly AttemptRow[]): DeliveryView {
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
    attempts: attempts.map((a) => ({
      number: a.number,
      at: a.at,
      request_headers: JSON.parse(a.request_headers) as Record<string, string>,
      request_body: a.request_body,
      response_status: a.response_status,
      response_body: a.response_body,
      duration_ms: a.duration_ms,
      error: a.error,
    })),
  };
}

/** Webhook endpoints (the spec's dashboard feature) and the fan-out of events into deliveries. */
export class WebhookService {
  constructor(private readonly deps: WebhookDeps) {
    // Every recorded event fans out into deliveries in its own transaction; new deliveries are
    // due at once, so the scheduler is woken after the commit rather than at its next tick (only
    // when an event produced deliveries: most writes have nothing due).
    let due = false;
    deps.events.onRecord((event) => {
      if (this.fanOut(event) > 0) due = true;
    });
    deps.events.on(() => {
      if (!due) return;
      due = false;
      deps.scheduler.wake();
    });
  }

  createEndpoint(
    merchantId: string,
    env: Env,
    body: { url: string; events?: string[] | undefined },
  ): WebhookEndpoint {
    let url: URL;
    try {
      url = new URL(body.url);
    } catch {
      throw new ValidationError('url', `not a valid URL: ${body.url}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new ValidationError('url', `must be an http(s) URL, got ${url.protocol}`);
    }
    const events =
      body.events === undefined || body.events.length === 0 ? [ALL_EVENTS] : [...new Set(body.events)];
    events.forEach((event, i) => {
      if (event !== ALL_EVENTS && !(EVENT_TYPES as readonly string[]).includes(event)) {
        throw new ValidationError(
          `events[${i}]`,
          `unknown event type ${event} (one of ${EVENT_TYPES.join(', ')}, or *)`,
        );
      }
    });
    const row: EndpointRow = {
      id: this.deps.ids.uuid(),
      merchant_id: merchantId,
      env,
      url: body.url,
      events: JSON.stringify(events.includes(ALL_EVENTS) ? [ALL_EVENTS] : events),
      secret: `whsec_${this.deps.ids.token(32)}`,
      created_at: this.deps.clock.nowIso(),
    };
    this.deps.repo.insertEndpoint(row);
    return toEndpoint(row);
  }

  listEndpoints(merchantId: string, env: Env): WebhookEndpoint[] {
    return this.deps.repo.endpointsOf(merchantId, env).map(toEndpoint);
  }

  getEndpoint(id: string): WebhookEndpoint {
    const row = this.deps.repo.findEndpoint(id);
    if (!row) throw new NotFoundError('Webhook endpoint', id);
    return toEndpoint(row);
  }

  /** Rotation is delete + recreate (spec). Pending deliveries to it stop being retried. */
  deleteEndpoint(id: string): void {
    this.getEndpoint(id);
    this.deps.events.transaction(() => this.removeEndpoint(id));
  }

  private removeEndpoint(id: string): void {
    const now = this.deps.clock.nowIso();
    for (const delivery of this.deps.repo.pendingOfEndpoint(id)) {
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
   * that merchant and environment, due now. Committing with the event means none can be lost.
   */
  fanOut(event: RecordedEvent): number {
    let created = 0;
    for (const endpoint of this.deps.repo.endpointsOf(event.merchant_id, event.env)) {
      const events = JSON.parse(endpoint.events) as string[];
      if (!events.includes(ALL_EVENTS) && !events.includes(event.type)) continue;
      const id = this.deps.ids.uuid();
      const now = this.deps.clock.now();
      this.deps.repo.insertDelivery({
        id,
        event_id: event.id,
        endpoint_id: endpoint.id,
        merchant_id: event.merchant_id,
        env: event.env,
        event: event.type,
        url: endpoint.url,
        body: JSON.stringify({ id, event: event.type, data: event.data }),
        status: 'pending',
        attempt_count: 0,
        next_attempt_at: now,
        created_at: event.created_at,
        updated_at: event.created_at,
      });
      this.deps.scheduler.schedule(JOB_DELIVER, id, now);
      created++;
    }
    return created;
  }

  listDeliveries(filter: DeliveryFilter): DeliveryView[] {
    const rows = this.deps.repo.listDeliveries(filter);
    const attempts = new Map<string, AttemptRow[]>();
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
    const after = await this.deps.dispatcher.retry(row);
    return presentDelivery(after, this.deps.repo.attemptsOf(id));
  }
}
