import { type Static, Type } from 'typebox';
import { described, EnvName, Nullable, Timestamp, Uuid } from './common.js';
import { FaultMark } from './faults.js';

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
  /** what an API fault did to the request (GET /sandbox/faults); absent: nothing */
  fault: Type.Optional(FaultMark),
});
export type RequestLogEntry = Static<typeof RequestLogEntry>;

/** An exact status (`404`) or a class (`4xx`). */
export const StatusFilter = Type.String({ pattern: '^[1-5](?:[0-9]{2}|xx)$' });

/**
 * GET /sandbox/request-log: newest first, optionally one merchant (or, with `unauthenticated=true`,
 * the requests no merchant's key matched), environment and status (class).
 */
export const RequestLogQuery = Type.Object({
  merchant_id: Type.Optional(described(Uuid, "only this merchant's requests")),
  unauthenticated: Type.Optional(
    Type.Boolean({
      description:
        'true: only requests that matched no merchant (a missing, malformed, unknown or revoked key: 401s); false: only those that did. Not with merchant_id.',
    }),
  ),
  env: Type.Optional(described(EnvName, 'only this environment')),
  status: Type.Optional(described(StatusFilter, 'an exact status (404) or a class (4xx)')),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 1000, default: 100, description: 'at most this many, newest first' }),
  ),
  starting_after: Type.Optional(described(Uuid, 'the next page: the requests older than this one')),
});
export type RequestLogQuery = Static<typeof RequestLogQuery>;

/** How many matching requests a verification expects (default: at least one). */
export const CountExpectation = Type.Object(
  {
    eq: Type.Optional(Type.Integer({ minimum: 0 })),
    gte: Type.Optional(Type.Integer({ minimum: 0 })),
    lte: Type.Optional(Type.Integer({ minimum: 0 })),
  },
  { additionalProperties: false },
);
export type CountExpectation = Static<typeof CountExpectation>;

/**
 * POST /sandbox/request-log/verify: which /v1 requests the app should have sent. Every given
 * field must match; `body` is a subset (the fields given, at any depth), `query` the parameters given.
 */
export const VerifyRequestsBody = Type.Object(
  {
    method: Type.Optional(Type.String({ minLength: 1, maxLength: 10, description: 'e.g. POST' })),
    path: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 512,
        description: 'a route template (/v1/checkouts/{id}) or an exact path, without the query',
      }),
    ),
    env: Type.Optional(described(EnvName, 'only this environment')),
    status: Type.Optional(
      Type.Union([Type.Integer({ minimum: 100, maximum: 599 }), StatusFilter], {
        description: 'an exact status (201) or a class (4xx)',
      }),
    ),
    query: Type.Optional(
      Type.Record(Type.String(), Type.String(), { description: 'query parameters the request had' }),
    ),
    body: Type.Optional(
      Type.Unknown({ description: 'what the request body must hold (a subset, at any depth)' }),
    ),
    since: Type.Optional(
      Type.Union([Uuid, Timestamp], {
        description: 'only requests after this request id, or at or after this time',
      }),
    ),
    count: Type.Optional(described(CountExpectation, 'how many must match (default {gte: 1})')),
  },
  {
    additionalProperties: false,
    examples: [{ method: 'POST', path: '/v1/checkouts', body: { amount: 5000 }, count: { eq: 1 } }],
  },
);
export type VerifyRequestsBody = Static<typeof VerifyRequestsBody>;

/** A request the verification looked at, briefly. */
export const VerifiedRequest = Type.Object({
  id: Uuid,
  created_at: Timestamp,
  env: EnvName,
  method: Type.String(),
  path: Type.String(),
  status: Type.Integer(),
  request_body: Nullable(Type.String()),
});
export type VerifiedRequest = Static<typeof VerifiedRequest>;

export const VerifyRequestsResult = Type.Object({
  /** the number of matching requests meets `count` */
  ok: Type.Boolean(),
  /** how many requests matched */
  matched: Type.Integer(),
  /** the expectation applied (`{gte: 1}` unless given) */
  count: CountExpectation,
  /** the matching requests, newest first (at most 20) */
  requests: Type.Array(VerifiedRequest),
  /** when not ok: the closest requests that did not match, each with what differed */
  near_misses: Type.Array(
    Type.Object({
      request: VerifiedRequest,
      /** `body.amount: expected 5000, actual 1000` */
      differences: Type.Array(Type.String()),
    }),
  ),
});
export type VerifyRequestsResult = Static<typeof VerifyRequestsResult>;
