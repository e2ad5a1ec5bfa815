import type { EventType } from '../../../server/contract/events.js';

/** The event types an endpoint can subscribe to, in the order the form shows them. */
const LISTED = [
  'checkout.created',
  'checkout.paid',
  'checkout.completed',
  'checkout.partial',
  'checkout.refunded',
  'checkout.expired',
  'checkout.cancelled',
  'invoice.paid',
  'invoice.sent',
  'payout.completed',
  'payout.failed',
  'card.created',
  'card.transaction',
  'deposit.received',
] as const satisfies readonly EventType[];

/** The contract's event types (EVENT_DATA in server/contract/events.ts) missing from the list. */
type Unlisted = Exclude<EventType, (typeof LISTED)[number]>;

/**
 * The renderer's own runtime list (it takes only types from the contract), checked against the
 * contract both ways: a name the server does not send fails `satisfies` above, and an event type the
 * contract gains without being listed turns this declared type into the missing name(s), which the
 * list cannot be assigned to.
 */
export const EVENT_TYPES: [Unlisted] extends [never] ? readonly EventType[] : Unlisted = LISTED;

/**
 * The event types a test event can be: those whose payload has a sample in the contract
 * (TEST_EVENT_TYPES in server/contract/webhooks.ts; test/unit/test-event-types.test.ts keeps the two
 * equal).
 */
export const TEST_EVENT_TYPES = [
  'checkout.created',
  'checkout.paid',
  'checkout.completed',
  'checkout.refunded',
  'card.created',
  'card.transaction',
  'deposit.received',
] as const satisfies readonly EventType[];
export type TestEventType = (typeof TEST_EVENT_TYPES)[number];

/** What the server sends when no type is chosen: the first subscribed type that has a sample. */
export function defaultTestType(subscribed: readonly string[]): TestEventType {
  return TEST_EVENT_TYPES.find((t) => subscribed.includes(t)) ?? 'checkout.created';
}

/** The envelope's event type, read from a delivered body (`{id, event, data}`); null if it is not JSON. */
export function eventOfBody(body: string): string | null {
  try {
    const parsed = JSON.parse(body) as { event?: unknown };
    return typeof parsed.event === 'string' ? parsed.event : null;
  } catch {
    return null;
  }
}

/** JSON bodies indented for reading; anything else as it came. */
export function prettyBody(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}
