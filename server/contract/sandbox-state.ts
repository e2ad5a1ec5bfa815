import { type Static, Type } from 'typebox';
import { EnvName, Nullable, Timestamp, Uuid } from './common.js';

export const Urls = Type.Object({ test: Type.String(), production: Type.String(), dashboard: Type.String() });
export type Urls = Static<typeof Urls>;

export const Health = Type.Object({
  status: Type.Literal('ok'),
  version: Type.String(),
  now: Timestamp,
  urls: Urls,
  /** the workspace a dashboard opens on when it has none in mind (`serve --demo`: the demo's) */
  start_workspace: Type.Optional(Nullable(Type.String())),
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

/** What a clock advance ran: the events recorded, delivery attempts made, jobs run. */
export const Fired = Type.Object({
  events: Type.Array(
    Type.Object({
      type: Type.String(),
      id: Type.String({ description: 'the event' }),
      resource_id: Nullable(
        Type.String({ description: 'what the event is about: the checkout, card, payout…' }),
      ),
    }),
  ),
  deliveries: Type.Integer({ minimum: 0 }),
  jobs: Type.Integer({ minimum: 0 }),
});
export type Fired = Static<typeof Fired>;

/** POST /sandbox/clock/advance: the clock after it, and what fell due on the way. */
export const AdvanceResult = Type.Object({ ...ClockState.properties, fired: Fired });

export const AdvanceBody = Type.Object({
  seconds: Type.Integer({
    minimum: 0,
    maximum: 10 * 365 * 86400,
    description: 'how far to move the clock, in seconds (3600: an hour)',
  }),
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

/** What a change touched, by area: the dashboard re-reads the views showing that area. */
export const ChangeKind = Type.Union([
  Type.Literal('merchant'),
  Type.Literal('api_key'),
  Type.Literal('checkout'),
  Type.Literal('invoice'),
  Type.Literal('customer'),
  Type.Literal('refund'),
  Type.Literal('funds'),
  Type.Literal('ledger'),
  Type.Literal('card'),
  Type.Literal('webhook'),
  Type.Literal('delivery'),
  Type.Literal('inbox'),
  Type.Literal('reseller'),
  Type.Literal('event'),
  Type.Literal('address'),
  Type.Literal('keys'),
  Type.Literal('clock'),
  Type.Literal('settings'),
  Type.Literal('workspace'),
  /** a table no area claims (none today: TABLE_KINDS in server/db/tables.ts names every table) */
  Type.Literal('other'),
]);
export type ChangeKind = Static<typeof ChangeKind>;

/** One thing a commit changed; `merchant_id`/`env` absent when the write did not say (any may be affected). */
export const Change = Type.Object({
  kind: ChangeKind,
  id: Type.Optional(Type.String()),
  merchant_id: Type.Optional(Nullable(Type.String())),
  env: Type.Optional(EnvName),
});

/**
 * `event: change` on GET /sandbox/events: one notice per committed write (a group commit of many
 * requests is one notice), whatever caused it — /v1, the control API, a scheduled job, a hosted
 * page, a reset. `seq` counts notices since the server started.
 */
export const ChangeNotice = Type.Object({
  seq: Type.Integer({ minimum: 1 }),
  changes: Type.Array(Change),
});
export type Change = Static<typeof Change>;
export type ChangeNotice = Static<typeof ChangeNotice>;
