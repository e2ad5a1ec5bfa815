import { type Static, Type } from 'typebox';
import { EnvName, Nullable, StringEnum } from './common.js';

/** The answers a status fault gives instead of running the handler. */
export const FAULT_STATUSES = [429, 500, 502, 503, 504] as const;

/**
 * What a fault does to a request: exactly one of `status` (with `retry_after_s` on a 429),
 * `latency_ms`, `timeout` or `lost_response`.
 */
export const FaultEffect = Type.Object(
  {
    /** answered with this status and `{error}` naming the rule; the handler does not run */
    status: Type.Optional(
      Type.Unsafe<(typeof FAULT_STATUSES)[number]>({ type: 'integer', enum: [...FAULT_STATUSES] }),
    ),
    /** the `Retry-After` of a 429, in seconds (default 1) */
    retry_after_s: Type.Optional(Type.Integer({ minimum: 0, maximum: 3600 })),
    /** the right answer, after a wait drawn from this range (ms, both ends included) */
    latency_ms: Type.Optional(
      Type.Object(
        {
          min: Type.Integer({ minimum: 0, maximum: 60_000 }),
          max: Type.Integer({ minimum: 0, maximum: 60_000 }),
        },
        { additionalProperties: false },
      ),
    ),
    /** no answer: the connection is closed once the client gives up, or after the server's request timeout */
    timeout: Type.Optional(Type.Literal(true)),
    /** the handler runs and commits, then the connection is closed without an answer */
    lost_response: Type.Optional(Type.Literal(true)),
  },
  { additionalProperties: false },
);
export type FaultEffect = Static<typeof FaultEffect>;

/** Which /v1 requests a rule applies to (every given field must match). */
export const FaultMatch = Type.Object(
  {
    method: Type.Optional(StringEnum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'])),
    /** a route template (`/v1/checkouts/{id}`) or an exact path (`/v1/checkouts`), without the query */
    path: Type.Optional(Type.String({ minLength: 1, maxLength: 512, pattern: '^/v1(/|$)' })),
    env: Type.Optional(EnvName),
  },
  { additionalProperties: false },
);
export type FaultMatch = Static<typeof FaultMatch>;

export const FaultRuleInput = Type.Object(
  {
    /** names the rule in answers and the request log (default `rule-<n>`, from 1) */
    id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_.:-]+$' })),
    match: Type.Optional(FaultMatch),
    /** the chance that a matching request is changed (default 1) */
    rate: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
    /** only the next `count` requests the rule changes; omitted: no limit */
    count: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
    effect: FaultEffect,
  },
  { additionalProperties: false },
);
export type FaultRuleInput = Static<typeof FaultRuleInput>;

/** PUT /sandbox/faults: the whole set of rules (replacing any before). */
export const FaultsInput = Type.Object(
  {
    seed: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description: 'restarts the random sequence; omitted: a new seed',
      }),
    ),
    rules: Type.Array(FaultRuleInput, {
      maxItems: 50,
      description: 'the first rule that matches a request and whose draw falls under its rate changes it',
    }),
  },
  {
    additionalProperties: false,
    description:
      'API faults for this workspace: the first rule that matches a /v1 request and whose draw falls under its rate changes it. The same seed and the same requests give the same decisions.',
    examples: [
      {
        seed: 'ci-1',
        rules: [
          {
            id: 'flaky-create',
            match: { method: 'POST', path: '/v1/checkouts' },
            count: 2,
            effect: { status: 503 },
          },
        ],
      },
    ],
  },
);
export type FaultsInput = Static<typeof FaultsInput>;

export const FaultRule = Type.Object({
  id: Type.String(),
  match: FaultMatch,
  rate: Type.Number(),
  /** the count asked for; null: no limit */
  count: Nullable(Type.Integer()),
  /** how many more requests it may change; null: no limit */
  remaining: Nullable(Type.Integer()),
  /** how many requests it has changed */
  applied: Type.Integer(),
  effect: FaultEffect,
});
export type FaultRule = Static<typeof FaultRule>;

/** The faults in force (no rules: none). */
export const Faults = Type.Object({
  /** the seed of the sequence; null when no rules were ever set */
  seed: Nullable(Type.String()),
  rules: Type.Array(FaultRule),
});
export type Faults = Static<typeof Faults>;

/** What a fault did to a request, as the request log keeps it. */
export const FaultMark = Type.Object({
  rule: Type.String(),
  /** `status`, `latency`, `timeout` or `lost_response`; `status` and `latency_ms` say how much */
  effect: StringEnum(['status', 'latency', 'timeout', 'lost_response']),
  status: Type.Optional(Type.Integer()),
  latency_ms: Type.Optional(Type.Integer()),
});
export type FaultMark = Static<typeof FaultMark>;
