import { type Static, Type } from 'typebox';
import { described, EnvName, Nullable, StringEnum, Timestamp, Uuid } from './common.js';
import { EVENT_DATA, EVENT_TYPES, type EventType } from './events.js';

/**
 * Delivery chaos of an endpoint (a QA tool): what the sandbox does wrong on purpose, decided by a
 * seeded random sequence of the endpoint so the same seed and the same events give the same
 * decisions in any sandbox. Probabilities are per attempt.
 */
export const ChaosSettingsInput = Type.Object(
  {
    /** restarts the random sequence; omitted: the current seed (or a new one when chaos was off) */
    seed: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    /** the same request (id, bytes, signature) sent a second time after the first is answered */
    duplicate: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
    /** up to this many sends held and released in a shuffled order (0 or 1: off) */
    reorder_window: Type.Optional(Type.Integer({ minimum: 0, maximum: 50 })),
    /** each send waits a random time in this range (ms, both ends included) */
    delay: Type.Optional(
      Type.Object(
        {
          min_ms: Type.Integer({ minimum: 0, maximum: 10_000 }),
          max_ms: Type.Integer({ minimum: 0, maximum: 10_000 }),
        },
        { additionalProperties: false },
      ),
    ),
    /** the attempt is never sent: recorded as a timeout and retried on the schedule */
    drop: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
    /** the signature is wrong (a valid-looking HMAC of another key): the receiver must reject it */
    bad_signature: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
  },
  {
    additionalProperties: false,
    description:
      'Delivery chaos, per attempt: duplicate (same request twice), reorder_window (held, released shuffled), delay (ms range), drop (never sent: a timeout, retried), bad_signature (0..1 each). The whole settings; the seed, when given, restarts the sequence.',
    examples: [
      { seed: 'qa-1', duplicate: 0.3, reorder_window: 5, delay: { min_ms: 100, max_ms: 500 }, drop: 0.1 },
    ],
  },
);
export type ChaosSettingsInput = Static<typeof ChaosSettingsInput>;

/** The chaos settings in force, every field filled (GET of an endpoint). */
export const ChaosSettings = Type.Object({
  seed: Type.String(),
  duplicate: Type.Number(),
  reorder_window: Type.Integer(),
  delay: Nullable(Type.Object({ min_ms: Type.Integer(), max_ms: Type.Integer() })),
  drop: Type.Number(),
  bad_signature: Type.Number(),
});
export type ChaosSettings = Static<typeof ChaosSettings>;

/**
 * What chaos did to one attempt. `dropped` is alone (nothing was sent); the others combine, in
 * the order they happened: held in a reorder window, delayed, signed wrong, sent twice.
 */
export const ChaosEffect = Type.Union([
  Type.Object({ kind: Type.Literal('dropped') }),
  Type.Object({
    kind: Type.Literal('reordered'),
    /** its place in the shuffled release (1-based) among `of` held together */
    position: Type.Integer(),
    of: Type.Integer(),
  }),
  Type.Object({ kind: Type.Literal('delayed'), ms: Type.Integer() }),
  Type.Object({ kind: Type.Literal('bad_signature') }),
  Type.Object({
    kind: Type.Literal('duplicated'),
    /** the second send's answer (the attempt's own fields are the first's) */
    response_status: Nullable(Type.Integer()),
    error: Nullable(Type.String()),
  }),
]);
export type ChaosEffect = Static<typeof ChaosEffect>;
export const CHAOS_EFFECT_KINDS = ['dropped', 'reordered', 'delayed', 'bad_signature', 'duplicated'] as const;
export type ChaosEffectKind = ChaosEffect['kind'];

export const WebhookEndpoint = Type.Object({
  id: Uuid,
  merchant_id: Uuid,
  env: EnvName,
  url: Type.String(),
  /** event types, or ["*"] for every event */
  events: Type.Array(Type.String()),
  /** signing secret (whsec_...), viewable again like in the service's dashboard */
  secret: Type.String(),
  /** a disabled endpoint is kept but gets no new deliveries (its pending ones still run) */
  disabled: Type.Boolean(),
  /**
   * Set on the temporary endpoints `svc-sandbox listen` makes: the URL it forwards their deliveries
   * to (`url` is listen's own local address). Null on every other endpoint.
   */
  forward_to: Nullable(Type.String()),
  /** delivery chaos in force; null: off */
  chaos: Nullable(ChaosSettings),
  created_at: Timestamp,
});

/** A signing secret a client chooses (listen's one secret for all its endpoints). */
export const WebhookSecret = Type.String({ pattern: '^whsec_[A-Za-z0-9]{16,64}$' });

export const CreateEndpointBody = Type.Object({
  url: Type.String({ minLength: 1, maxLength: 2048, description: "the receiver's URL" }),
  events: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
      maxItems: 20,
      description: 'the event types it gets (e.g. checkout.partial), or ["*"] (the default) for every one',
    }),
  ),
  secret: Type.Optional(described(WebhookSecret, 'the signing secret to use (default: a new random one)')),
  /** marks the endpoint as listen's temporary one, forwarding to this URL (see WebhookEndpoint) */
  forward_to: Type.Optional(Type.String({ minLength: 1, maxLength: 2048 })),
});

export type WebhookEndpoint = Static<typeof WebhookEndpoint>;
export type CreateEndpointBody = Static<typeof CreateEndpointBody>;

/** PATCH /sandbox/webhook-endpoints/{id}: what is given changes; the secret stays. */
export const UpdateEndpointBody = Type.Object(
  {
    url: Type.Optional(CreateEndpointBody.properties.url),
    events: Type.Optional(CreateEndpointBody.properties.events),
    disabled: Type.Optional(
      Type.Boolean({
        description: 'a disabled endpoint gets no new deliveries (its pending ones still run)',
      }),
    ),
    /** delivery chaos: settings to apply, or null to turn it off */
    chaos: Type.Optional(
      described(Nullable(ChaosSettingsInput), 'delivery chaos to apply, or null to turn it off'),
    ),
  },
  { minProperties: 1 },
);
export type UpdateEndpointBody = Static<typeof UpdateEndpointBody>;

/** The sample `data` of an event type: its payload schema's example, when the contract has one. */
export const sampleData = (type: EventType): Record<string, unknown> | undefined =>
  (EVENT_DATA[type] as { examples?: Record<string, unknown>[] }).examples?.[0];

/** The event types a test event can be: those whose payload has a sample in the contract. */
export const TEST_EVENT_TYPES = EVENT_TYPES.filter((type) => sampleData(type) !== undefined);

/**
 * POST /sandbox/webhook-endpoints/{id}/test: a signed delivery of a sample event (the payload
 * schema's example, with the endpoint's merchant id) to this endpoint only, through the dispatcher
 * like any other delivery. `event` defaults to the endpoint's first subscribed type that has a
 * sample, else checkout.created. No event is recorded: other endpoints get nothing.
 */
export const TestEventBody = Type.Object({
  event: Type.Optional(
    StringEnum(TEST_EVENT_TYPES, {
      description: "the sample event to send (default: the endpoint's first subscribed type that has one)",
    }),
  ),
});
export type TestEventBody = Static<typeof TestEventBody>;

/**
 * The headers every webhook request carries besides `content-type` (lowercase, as sent). The
 * envelope (server/webhooks/envelope.ts) writes them; receivers and the inbox read them by these
 * names.
 */
export const WEBHOOK_HEADER = {
  event: 'x-svc-event',
  deliveryId: 'x-svc-delivery-id',
  signature: 'x-svc-signature',
} as const;

/** The user agent of every webhook request. */
export const WEBHOOK_USER_AGENT = 'svc-sandbox-webhooks/1';

export const DeliveryStatus = StringEnum(['pending', 'delivered', 'failed']);
export type DeliveryStatus = Static<typeof DeliveryStatus>;

export const DeliveryAttempt = Type.Object({
  number: Type.Integer(),
  at: Timestamp,
  request_headers: Type.Record(Type.String(), Type.String()),
  request_body: Type.String(),
  response_status: Nullable(Type.Integer()),
  response_body: Nullable(Type.String()),
  duration_ms: Type.Integer(),
  error: Nullable(Type.String()),
  /** what delivery chaos did to this attempt (empty: nothing) */
  chaos: Type.Array(ChaosEffect),
});

export const Delivery = Type.Object({
  id: Uuid,
  event_id: Uuid,
  event: Type.String(),
  merchant_id: Uuid,
  env: EnvName,
  endpoint_id: Uuid,
  url: Type.String(),
  status: DeliveryStatus,
  attempt_count: Type.Integer(),
  next_attempt_at: Nullable(Timestamp),
  created_at: Timestamp,
  updated_at: Timestamp,
  attempts: Type.Array(DeliveryAttempt),
});

export type DeliveryAttempt = Static<typeof DeliveryAttempt>;
export type Delivery = Static<typeof Delivery>;

export const DeliveryQuery = Type.Object({
  merchant_id: Type.Optional(described(Uuid, "only this merchant's")),
  env: Type.Optional(described(EnvName, 'only this environment')),
  endpoint_id: Type.Optional(described(Uuid, "only this endpoint's")),
  event: Type.Optional(Type.String({ maxLength: 64, description: 'only this event type' })),
  status: Type.Optional(described(DeliveryStatus, 'only pending, delivered or failed ones')),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 1000, description: 'at most this many, newest first' }),
  ),
  starting_after: Type.Optional(described(Uuid, 'the next page: the deliveries older than this one')),
});

export type DeliveryQuery = Static<typeof DeliveryQuery>;

/** GET /sandbox/listen-secret: the one signing secret `svc-sandbox listen` gives its endpoints. */
export const ListenSecret = Type.Object({ secret: WebhookSecret });
export type ListenSecret = Static<typeof ListenSecret>;

/**
 * POST /sandbox/listen-sessions: what `svc-sandbox listen` registers before it prints Ready. The
 * sandbox gives every merchant of the environment (or the one named) an endpoint at
 * `<url>/<merchant id>`, signed with the listen secret, now and for every merchant that has its
 * first event later: no event of the workspace goes unforwarded, however soon after Ready it comes.
 */
export const ListenSessionBody = Type.Object(
  {
    /** listen's local listener; each merchant's endpoint is `<url>/<merchant id>` */
    url: CreateEndpointBody.properties.url,
    forward_to: Type.String({ minLength: 1, maxLength: 2048 }),
    events: CreateEndpointBody.properties.events,
    /** only this merchant (default: every merchant, including those made later) */
    merchant_id: Type.Optional(Uuid),
    /** delivery chaos for each of the session's endpoints */
    chaos: Type.Optional(ChaosSettingsInput),
  },
  { additionalProperties: false },
);
export type ListenSessionBody = Static<typeof ListenSessionBody>;

export const ListenSession = Type.Object({
  id: Uuid,
  env: EnvName,
  url: Type.String(),
  /** the endpoints made so far (more are made as new merchants have events) */
  endpoints: Type.Array(WebhookEndpoint),
});
export type ListenSession = Static<typeof ListenSession>;

/** A closed `listen` session: how many of its endpoints went with it. */
export const ListenSessionClosed = Type.Object({ removed: Type.Integer() });

/**
 * An endpoint's health, from its deliveries' record (GET /sandbox/merchants/{id}/webhook-endpoints/
 * health). `failure_streak` counts the failed attempts since the last successful one; `given_up`
 * the deliveries that failed for good (retries exhausted, or the endpoint was removed under them).
 * `state`: `idle` (never sent to), `healthy` (the last attempt succeeded), `failing` (the last
 * attempts failed, retries still to come), `down` (the streak ends in a delivery given up).
 */
export const EndpointHealthState = StringEnum(['idle', 'healthy', 'failing', 'down']);
export const EndpointHealth = Type.Object({
  endpoint_id: Uuid,
  state: EndpointHealthState,
  last_success_at: Nullable(Timestamp),
  last_failure_at: Nullable(Timestamp),
  failure_streak: Type.Integer({ minimum: 0 }),
  given_up: Type.Integer({ minimum: 0 }),
  pending: Type.Integer({ minimum: 0 }),
  delivered: Type.Integer({ minimum: 0 }),
});
export type EndpointHealth = Static<typeof EndpointHealth>;
export type EndpointHealthState = Static<typeof EndpointHealthState>;

/**
 * POST /sandbox/deliveries/{id}/resend: this delivery's payload (its event and data) as a new
 * delivery to another endpoint of the same merchant and environment, signed with that endpoint's
 * secret. The new delivery has its own id (the body carries it) and keeps the event id, as a
 * second endpoint's delivery of the same event would. Answers once its first attempt is recorded.
 */
export const ResendBody = Type.Object({ endpoint_id: Uuid });
export type ResendBody = Static<typeof ResendBody>;

export const InboxName = Type.Object({ name: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' }) });

export const InboxMessage = Type.Object({
  id: Type.Integer(),
  received_at: Timestamp,
  headers: Type.Record(Type.String(), Type.String()),
  body: Type.String(),
  /** null when no endpoint of this inbox's URL has a secret to check it with */
  signature_valid: Nullable(Type.Boolean()),
  response_status: Type.Integer(),
});
export type InboxMessage = Static<typeof InboxMessage>;

export const InboxSummary = Type.Object({ name: Type.String(), response_status: Type.Integer() });
export type InboxSummary = Static<typeof InboxSummary>;

export const Inbox = Type.Object({
  ...InboxSummary.properties,
  messages: Type.Array(InboxMessage),
});
export type Inbox = Static<typeof Inbox>;

/** What the built-in inbox answers a delivery with (at its configured status). */
export const InboxReceipt = Type.Object({ received: Type.Literal(true) });

export const InboxQuery = Type.Object({
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 1000, description: 'at most this many messages, newest first' }),
  ),
});

export const ConfigureInboxBody = Type.Object({
  response_status: Type.Integer({
    minimum: 200,
    maximum: 599,
    description: 'the HTTP status it answers deliveries with (2xx: accepted; else they retry)',
  }),
});
export type ConfigureInboxBody = Static<typeof ConfigureInboxBody>;
