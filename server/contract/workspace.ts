import { type Static, Type } from 'typebox';
import { EnvName, Nullable, Timestamp, Uuid } from './common.js';

export const Urls = Type.Object({ test: Type.String(), production: Type.String(), dashboard: Type.String() });
export type Urls = Static<typeof Urls>;

export const Health = Type.Object({
  status: Type.Literal('ok'),
  version: Type.String(),
  now: Timestamp,
  urls: Urls,
});
export type Health = Static<typeof Health>;

export const ClockState = Type.Object({
  now: Timestamp,
  offset_ms: Type.Integer(),
  frozen: Type.Boolean(),
  /** jobs that fell due and ran because of this call (advance, resume) */
  ran: Type.Optional(Type.Integer()),
});
export type ClockState = Static<typeof ClockState>;

export const AdvanceBody = Type.Object({
  seconds: Type.Integer({ minimum: 0, maximum: 10 * 365 * 86400 }),
});
export type AdvanceBody = Static<typeof AdvanceBody>;

export const ResetResult = Type.Object({ reset: Type.Literal(true) });

/** A recorded event, as the event log lists it and the stream sends it (`event: event`). */
export const SandboxEvent = Type.Object({
  id: Type.String(),
  env: EnvName,
  merchant_id: Type.String(),
  type: Type.String(),
  resource_id: Nullable(Type.String()),
  data: Type.Record(Type.String(), Type.Unknown()),
  created_at: Timestamp,
});
export type SandboxEvent = Static<typeof SandboxEvent>;

/** GET /sandbox/events (text/event-stream): which events and deliveries to stream. */
export const StreamQuery = Type.Object({ env: Type.Optional(EnvName), merchant_id: Type.Optional(Uuid) });
