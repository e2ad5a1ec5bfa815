import { Type } from 'typebox';
import { EnvName, Nullable, PositiveAmount, StringEnum, Timestamp, Uuid } from './common.js';

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
  env: Type.String(),
  endpoint_id: Uuid,
  url: Type.String(),
  status: StringEnum(['pending', 'delivered', 'failed']),
  attempt_count: Type.Integer(),
  next_attempt_at: Nullable(Timestamp),
  created_at: Timestamp,
  updated_at: Timestamp,
  attempts: Type.Array(DeliveryAttempt),
});

export const DeliveryQuery = Type.Object({
  merchant_id: Type.Optional(Uuid),
  env: Type.Optional(EnvName),
  endpoint_id: Type.Optional(Uuid),
  event: Type.Optional(Type.String({ maxLength: 64 })),
  status: Type.Optional(StringEnum(['pending', 'delivered', 'failed'])),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
});

export const InboxName = Type.Object({ name: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' }) });

export const Inbox = Type.Object({
  name: Type.String(),
  response_status: Type.Integer(),
  messages: Type.Array(
    Type.Object({
      id: Type.Integer(),
      received_at: Timestamp,
      headers: Type.Record(Type.String(), Type.String()),
      body: Type.String(),
      signature_valid: Nullable(Type.Boolean()),
      response_status: Type.Integer(),
    }),
  ),
});

export const ConfigureInboxBody = Type.Object({
  response_status: Type.Integer({ minimum: 200, maximum: 599 }),
});

export const DepositBody = Type.Object({
  merchant_id: Uuid,
  env: Type.Optional(EnvName),
  chain: Type.String({ minLength: 1, maxLength: 32 }),
  currency: Type.String({ minLength: 1, maxLength: 16 }),
  amount: PositiveAmount,
  txid: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
});

export const AddressDepositBody = Type.Object({
  currency: Type.String({ minLength: 1, maxLength: 16 }),
  amount: PositiveAmount,
  txid: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
});

export const Deposit = Type.Object({
  id: Uuid,
  merchant_id: Uuid,
  env: Type.String(),
  chain: Type.String(),
  address: Type.String(),
  currency: Type.String(),
  amount: Type.Integer(),
  txid: Type.String(),
  created_at: Timestamp,
});

export const PayoutBody = Type.Object({
  merchant_id: Uuid,
  env: Type.Optional(EnvName),
  amount: PositiveAmount,
  currency: Type.String({ pattern: '^[A-Za-z]{3,5}$' }),
  destination: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
  outcome: Type.Optional(StringEnum(['completed', 'failed'])),
  failure_reason: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
});

export const Payout = Type.Object({
  id: Uuid,
  merchant_id: Uuid,
  env: Type.String(),
  amount: Type.Integer(),
  currency: Type.String(),
  destination: Nullable(Type.String()),
  status: StringEnum(['completed', 'failed']),
  failure_reason: Nullable(Type.String()),
  created_at: Timestamp,
});

export const Balance = Type.Object({
  currency: Type.String(),
  available: Type.Integer(),
  held: Type.Integer(),
});

export const CreditBody = Type.Object({
  env: Type.Optional(EnvName),
  currency: Type.String({ pattern: '^[A-Za-z]{3,5}$' }),
  amount: PositiveAmount,
  memo: Type.Optional(Type.String({ maxLength: 200 })),
});

export const LedgerTransaction = Type.Object({
  id: Uuid,
  env: Type.String(),
  kind: Type.String(),
  ref_id: Nullable(Type.String()),
  memo: Nullable(Type.String()),
  created_at: Timestamp,
  entries: Type.Array(
    Type.Object({ account: Type.String(), currency: Type.String(), amount: Type.Integer() }),
  ),
});
