import { type Static, Type } from 'typebox';
import { EnvName, Nullable, StringEnum, Timestamp, Uuid } from './common.js';

export const WebhookEndpoint = Type.Object({
  id: Uuid,
  merchant_id: Uuid,
  env: EnvName,
  url: Type.String(),
  /** event types, or ["*"] for every event */
  events: Type.Array(Type.String()),
  /** signing secret (whsec_...), viewable again like in the service's dashboard */
  secret: Type.String(),
  created_at: Timestamp,
});

export const CreateEndpointBody = Type.Object({
  url: Type.String({ minLength: 1, maxLength: 2048 }),
  events: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 20 })),
});

export type WebhookEndpoint = Static<typeof WebhookEndpoint>;
export type CreateEndpointBody = Static<typeof CreateEndpointBody>;

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
  merchant_id: Type.Optional(Uuid),
  env: Type.Optional(EnvName),
  endpoint_id: Type.Optional(Uuid),
  event: Type.Optional(Type.String({ maxLength: 64 })),
  status: Type.Optional(DeliveryStatus),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
});

export type DeliveryQuery = Static<typeof DeliveryQuery>;

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

export const InboxQuery = Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })) });

export const ConfigureInboxBody = Type.Object({
  response_status: Type.Integer({ minimum: 200, maximum: 599 }),
});
export type ConfigureInboxBody = Static<typeof ConfigureInboxBody>;
