/** The event types an endpoint can subscribe to (the server's list; kept by hand like api/types.ts). */
export const EVENT_TYPES = [
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
] as const;

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
