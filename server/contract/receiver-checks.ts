import { type Static, Type } from 'typebox';
import { Nullable } from './common.js';
import { EventTypeName } from './events.js';

/**
 * POST /sandbox/receiver-checks: grades the developer's webhook receiver at `url` by sending it
 * deliveries signed with `secret` (only to that URL; nothing is recorded in the workspace).
 */
export const ReceiverCheckBody = Type.Object({
  url: Type.String({
    format: 'uri',
    pattern: '^https?://',
    maxLength: 2048,
    description: "the receiver's URL",
  }),
  secret: Type.String({
    minLength: 1,
    maxLength: 256,
    description: 'the signing secret it checks with (whsec_...)',
  }),
  events: Type.Optional(
    Type.Array(EventTypeName, {
      minItems: 1,
      maxItems: 50,
      uniqueItems: true,
      description: 'the event types to send (default: every one)',
    }),
  ),
  seed: Type.Optional(
    Type.String({ minLength: 1, maxLength: 128, description: 'the same seed sends the same bodies' }),
  ),
  effects_url: Type.Optional(
    Type.String({
      format: 'uri',
      pattern: '^https?://',
      maxLength: 2048,
      description:
        'A GET of this URL answers how many deliveries the receiver has processed (a JSON number, or ' +
        '`{"processed": n}`): the duplicate case then checks "processed once", not only "answered".',
    }),
  ),
});
export type ReceiverCheckBody = Static<typeof ReceiverCheckBody>;

export const ReceiverCheckCase = Type.Object({
  name: Type.String(),
  ok: Type.Boolean(),
  expected: Type.String({ description: 'what the receiver should have done, in words' }),
  actual: Type.String({ description: 'what came back: status, the first bytes of the body, the time' }),
  sent: Type.String({ description: 'what was sent, in words' }),
  status: Nullable(Type.Integer()),
  ms: Type.Integer({ minimum: 0, description: 'the slowest answer of the case, in milliseconds' }),
});
export type ReceiverCheckCase = Static<typeof ReceiverCheckCase>;

export const ReceiverCheckResult = Type.Object({
  url: Type.String(),
  seed: Type.String({ description: 'the seed the bodies came from: the same seed sends the same bodies' }),
  timeout_ms: Type.Integer({ description: 'the sandbox’s delivery timeout (setting webhook_timeout_ms)' }),
  passed: Type.Integer({ minimum: 0 }),
  failed: Type.Integer({ minimum: 0 }),
  cases: Type.Array(ReceiverCheckCase),
  hints: Type.Array(Type.String(), {
    description:
      'What to do about what failed, in words: nothing answering at the URL, a secret that is ' +
      'probably not the receiver’s, a delivery processed twice. Empty when every case holds.',
  }),
});
export type ReceiverCheckResult = Static<typeof ReceiverCheckResult>;
