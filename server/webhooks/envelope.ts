import {
  type ChaosEffect,
  type DeliveryAttempt,
  WEBHOOK_HEADER,
  WEBHOOK_USER_AGENT,
} from '../contract/webhooks.js';
import type { AttemptRead, DeliveryRead, ListedDeliveryRow, StoredAttempt } from '../db/webhooks.js';

/**
 * The webhook envelope: the one place where a delivery becomes the bytes and headers of its HTTP
 * request, and where they are read back. Storage keeps the parts (a delivery's id, type and data,
 * an attempt's signature); every body signed, sent, shown or verified is made here from them.
 *
 *   body:    {"id":<delivery id>,"event":<event type>,"data":<the event's data>}
 *   headers: content-type, user-agent, x-svc-event, x-svc-delivery-id, x-svc-signature
 */

/** A delivery with the body its attempts send (always the same bytes: the signature is of them). */
export interface OutgoingDelivery extends ListedDeliveryRow {
  body: string;
}

/**
 * The body of delivery `id` of an event of type `event`, whose data is the JSON text `data`.
 * Byte for byte `JSON.stringify({ id, event, data: JSON.parse(data) })` when `data` is itself
 * `JSON.stringify` output (as an event row's data is), with the data serialised once per event
 * instead of once per endpoint.
 */
export function envelopeBody(id: string, event: string, data: string): string {
  return `{"id":${JSON.stringify(id)},"event":${JSON.stringify(event)},"data":${data}}`;
}

/**
 * The headers of every webhook request, in this order; `signature` is `sign(secret, body)` (null:
 * no signature header at all, what the receiver check sends to see it refused).
 */
export function envelopeHeaders(
  event: string,
  deliveryId: string,
  signature: string | null,
): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': WEBHOOK_USER_AGENT,
    [WEBHOOK_HEADER.event]: event,
    [WEBHOOK_HEADER.deliveryId]: deliveryId,
  };
  if (signature !== null) headers[WEBHOOK_HEADER.signature] = signature;
  return headers;
}

/**
 * A body with the envelope's fields whose bytes are not what re-serializing its JSON gives: spaces
 * around every token, the data's text as given (escaped unicode, keys in its own order). A receiver
 * that verifies the HMAC over re-serialized JSON instead of the raw bytes fails on it.
 */
export function looseEnvelopeBody(id: string, event: string, dataText: string): string {
  return `{ "event" : ${JSON.stringify(event)} ,\n  "id" : ${JSON.stringify(id)} ,\n  "data" : ${dataText} }\n`;
}

/** A delivery as read from storage, with its body made. */
export function outgoing({ data, verbatim_body, ...row }: DeliveryRead): OutgoingDelivery {
  return { ...row, body: verbatim_body ?? envelopeBody(row.id, row.event, data ?? 'null') };
}

/** The request an attempt sent: its headers and body, as the API shows them. */
export function sentRequest(attempt: AttemptRead): { headers: Record<string, string>; body: string } {
  return {
    headers:
      attempt.verbatim_headers === null
        ? envelopeHeaders(attempt.event, attempt.delivery_id, attempt.signature)
        : (JSON.parse(attempt.verbatim_headers) as Record<string, string>),
    body:
      attempt.verbatim_body ??
      attempt.delivery_verbatim_body ??
      envelopeBody(attempt.delivery_id, attempt.event, attempt.data ?? 'null'),
  };
}

/** What a request's headers say about its delivery, read back by their names. */
export function readHeaders(headers: Record<string, string | undefined>): {
  event: string | undefined;
  deliveryId: string | undefined;
  signature: string | undefined;
} {
  return {
    event: headers[WEBHOOK_HEADER.event],
    deliveryId: headers[WEBHOOK_HEADER.deliveryId],
    signature: headers[WEBHOOK_HEADER.signature],
  };
}

/**
 * The resource a payload is about, which orders the sends to one endpoint: its `data.id` (else
 * the event id).
 */
export function resourceOfData(data: unknown, eventId: string): string {
  const id = typeof data === 'object' && data !== null ? (data as { id?: unknown }).id : undefined;
  return typeof id === 'string' ? id : eventId;
}

/** The resource of a delivery, its body parsed back. */
export function resourceOf(delivery: Pick<OutgoingDelivery, 'body' | 'event_id'>): string {
  let data: unknown;
  try {
    data = (JSON.parse(delivery.body) as { data?: unknown } | null)?.data;
  } catch {
    data = undefined;
  }
  return resourceOfData(data, delivery.event_id);
}

/** An attempt just made, with the request it sent, as the API shows one (the live stream's). */
export function sentAttempt(delivery: OutgoingDelivery, attempt: StoredAttempt): DeliveryAttempt {
  return {
    number: attempt.number,
    at: attempt.at,
    request_headers: envelopeHeaders(delivery.event, delivery.id, attempt.signature),
    request_body: delivery.body,
    response_status: attempt.response_status,
    response_body: attempt.response_body,
    duration_ms: attempt.duration_ms,
    error: attempt.error,
    chaos: attempt.chaos === null ? [] : (JSON.parse(attempt.chaos) as ChaosEffect[]),
  };
}
