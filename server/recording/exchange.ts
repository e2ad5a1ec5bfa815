/**
 * What the recording plugin hands the recorder: one HTTP exchange, and the events its handling fired
 * (collected per request, `FiredEventsScope`).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Env } from '../contract/common.js';
import type { EventRecorder } from '../domain/events/recorder.js';

/** One HTTP exchange as the recording plugin saw it, after its response left. */
export interface Exchange {
  /** the listener's environment */
  env: Env;
  method: string;
  /** the URL as called, query included */
  url: string;
  /** the matched route pattern (`/v1/checkouts/:id`) */
  route: string;
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
  status: number;
  /** the parsed JSON answer (undefined when none) */
  response: unknown;
  /** `/v1`: the authenticated merchant (null when authentication failed) */
  merchantId: string | null;
  /** the events handling it fired, in order (null: not collected, it began before the recording) */
  fired?: readonly Fired[] | null;
  /** the webhook delivery id the request carried (X-SVC-Delivery-Id): a webhook arriving, maybe the sandbox's own */
  deliveryId?: string | null;
}

/** Reads a resource's current state through the app of an environment (GET, as a merchant's key). */
export type ResourceReader = (path: string, key: string | null) => Promise<{ status: number; body: unknown }>;

/** An event a request fired: its type, and whose log it is in. */
export interface Fired {
  type: string;
  merchantId: string;
  /** the object the event is about (a checkout's id), when it names one */
  resourceId: string | null;
}

/** The events one request fires while it is handled. */
export interface FiredEvents {
  events: Fired[];
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
      if (fired?.open)
        fired.events.push({ type: event.type, merchantId: event.merchant_id, resourceId: event.resource_id });
    });
  }

  /** Runs `next` (the rest of a request's handling) where the events it fires are collected. */
  track(next: () => void): FiredEvents {
    const fired: FiredEvents = { events: [], open: true };
    this.scope.run(fired, next);
    return fired;
  }
}

/**
 * The types of the events in the logs of `known` merchants (the only logs a replay sees), in order;
 * with `about`, only those of objects it accepts (or of none in particular).
 */
export const typesIn = (
  fired: readonly Fired[],
  known: ReadonlyMap<string, unknown>,
  about?: (resourceId: string) => boolean,
): string[] =>
  fired
    .filter((e) => known.has(e.merchantId) && (!about || e.resourceId === null || about(e.resourceId)))
    .map((e) => e.type);

/** Paths never recorded: the recorder's own routes, streams, documents, runs and bundles. */
const EXCLUDED =
  /^\/sandbox\/(recording|events|openapi\.json|scenario\.schema\.json|scenarios|export|import)(\/|\?|$)/;
/** Statuses that say nothing a replay could reproduce (no key, rate limit, not JSON, server fault). */
const SKIPPED_STATUS = new Set([401, 415, 429]);

/** Whether an exchange can be a step: a write to /v1 or /sandbox, answered with something a replay reproduces. */
export function recordable(ex: Exchange): boolean {
  if (ex.method === 'GET' || ex.method === 'HEAD' || ex.method === 'OPTIONS') return false;
  if (!ex.url.startsWith('/v1/') && !ex.url.startsWith('/sandbox/')) return false;
  if (EXCLUDED.test(ex.url)) return false;
  if (ex.status >= 500 || ex.status < 200 || SKIPPED_STATUS.has(ex.status)) return false;
  return true;
}
