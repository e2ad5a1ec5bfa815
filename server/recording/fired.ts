import { AsyncLocalStorage } from 'node:async_hooks';
import type { EventRecorder } from '../domain/events/recorder.js';

/** The events one request fires while it is handled. */
export interface FiredEvents {
  types: string[];
  /** closed once its step is recorded: what a timer armed by the request fires later is not its */
  open: boolean;
}

/**
 * Which request fired an event: requests interleave on the event loop (and a group commit holds
 * several at once), so the request is the async context the event is recorded in, not the one that
 * happens to be answered next. Events are seen as they are recorded, inside the request's work.
 */
export class FiredEventsScope {
  private readonly scope = new AsyncLocalStorage<FiredEvents>();

  constructor(events: Pick<EventRecorder, 'onRecord'>, active: () => boolean) {
    events.onRecord((event) => {
      if (!active()) return;
      const fired = this.scope.getStore();
      if (fired?.open) fired.types.push(event.type);
    });
  }

  /** Runs `next` (the rest of a request's handling) where the events it fires are collected. */
  track(next: () => void): FiredEvents {
    const fired: FiredEvents = { types: [], open: true };
    this.scope.run(fired, next);
    return fired;
  }
}
