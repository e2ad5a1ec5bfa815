import { EventEmitter } from 'node:events';
import type { Clock } from '../../clock.js';
import type { EventData, EventType } from '../../contract/events.js';
import type { EventsRepo } from '../../db/events.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import type { Ids } from '../../ids.js';
import type { Env } from '../types.js';

export { EVENT_TYPES, type EventType } from '../../contract/events.js';

export interface RecordedEvent {
  id: string;
  env: Env;
  merchant_id: string;
  type: EventType;
  resource_id: string | null;
  data: Record<string, unknown>;
  created_at: string;
}

/**
 * Records every state change as an event row, inside the caller's transaction, and publishes it
 * to in-process listeners (SSE, webhook fan-out) only once that transaction has committed
 * (`afterCommit` of the unit of work, server/db/unit-of-work.ts).
 */
export class EventRecorder {
  private readonly bus = new EventEmitter();
  private readonly hooks: ((event: RecordedEvent) => void)[] = [];

  constructor(
    private readonly repo: EventsRepo,
    private readonly clock: Clock,
    private readonly ids: Ids,
    private readonly unit: Pick<UnitOfWork, 'afterCommit'>,
  ) {
    this.bus.setMaxListeners(0);
  }

  /** `data` is the event type's schema in the contract (EVENT_DATA): the typecheck holds every caller to it. */
  record<T extends EventType>(
    env: Env,
    merchantId: string,
    type: T,
    data: EventData<T>,
    resourceId: string | null = idOf(data),
  ): RecordedEvent {
    const event: RecordedEvent = {
      id: this.ids.uuid(),
      env,
      merchant_id: merchantId,
      type,
      resource_id: resourceId,
      data,
      created_at: this.clock.nowIso(),
    };
    this.repo.insert({ ...event, data: JSON.stringify(data) });
    for (const hook of this.hooks) hook(event);
    // Dropped with the caller's work when it rolls back: then the event never happened.
    this.unit.afterCommit(() => this.bus.emit('event', event));
    return event;
  }

  /** Runs inside the recording transaction (webhook fan-out): what it writes commits with the event. */
  onRecord(hook: (event: RecordedEvent) => void): void {
    this.hooks.push(hook);
  }

  /** Called after commit (live stream, dispatcher wake-up). */
  on(listener: (event: RecordedEvent) => void): () => void {
    this.bus.on('event', listener);
    return () => this.bus.off('event', listener);
  }
}

/** The resource an event is about: its data's `id`, where the data has one. */
function idOf(data: object): string | null {
  const id = (data as { id?: unknown }).id;
  return typeof id === 'string' ? id : null;
}
