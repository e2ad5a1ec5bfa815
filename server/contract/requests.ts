import { type Static, Type } from 'typebox';
import { EnvName, Nullable, Timestamp, Uuid } from './common.js';

/**
 * One /v1 request as the request log keeps it (GET /sandbox/request-log, and `event: request` on
 * GET /sandbox/events). Bodies are the raw JSON text, at most 16 KiB each (longer ones end in a
 * `…[truncated …]` marker), `"[redacted]"` on the card secret and PIN routes; the key is masked.
 */
export const RequestLogEntry = Type.Object({
  /** the request id */
  id: Uuid,
  /** sandbox time the request finished */
  created_at: Timestamp,
  env: EnvName,
  /** the authenticated merchant; null when no merchant's key matched (see `unauthenticated`) */
  merchant_id: Nullable(Type.String()),
  api_key_id: Nullable(Type.String()),
  /** the key sent, masked: `svcb_…` and its last 4 characters */
  api_key: Nullable(Type.String()),
  method: Type.String(),
  /** the route pattern (`/v1/checkouts/:id`); null when no route matched */
  route: Nullable(Type.String()),
  /** the URL as called, query included */
  path: Type.String(),
  status: Type.Integer(),
  duration_ms: Type.Number({ minimum: 0 }),
  request_body: Nullable(Type.String()),
  response_body: Nullable(Type.String()),
});
export type RequestLogEntry = Static<typeof RequestLogEntry>;

/** An exact status (`404`) or a class (`4xx`). */
export const StatusFilter = Type.String({ pattern: '^[1-5](?:[0-9]{2}|xx)$' });

/**
 * GET /sandbox/request-log: newest first, optionally one merchant (or, with `unauthenticated=true`,
 * the requests no merchant's key matched), environment and status (class).
 */
export const RequestLogQuery = Type.Object({
  merchant_id: Type.Optional(Uuid),
  /**
   * true: only requests that matched no merchant (a missing, malformed, unknown or revoked key:
   * 401s); false: only those that did. Not with merchant_id.
   */
  unauthenticated: Type.Optional(Type.Boolean()),
  env: Type.Optional(EnvName),
  status: Type.Optional(StatusFilter),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
  starting_after: Type.Optional(Uuid),
});
export type RequestLogQuery = Static<typeof RequestLogQuery>;
