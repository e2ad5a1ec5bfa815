import { type Static, Type } from 'typebox';
import { EnvName, Timestamp } from './common.js';

/**
 * Recording: while a recording runs, every change made to the sandbox — control-API
 * calls (the dashboard's clicks are those), `/v1` calls in either environment — becomes a step of a
 * scenario file (docs/scenarios.md). Stop returns the file's YAML text.
 */

export const RecordingStartBody = Type.Object({
  /** the scenario's name (default: "recording <sandbox time>") */
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
});
export type RecordingStartBody = Static<typeof RecordingStartBody>;

/** An object created while recording, under the name later steps refer to it by (`${co1.id}`). */
export const RecordedResource = Type.Object({
  /** the reference (`co1`, `acme`) */
  name: Type.String(),
  /** the object's id as it is in this sandbox */
  id: Type.String(),
  /** where its current state can be read: a `/v1` path, or a control-API path */
  path: Type.String(),
  env: EnvName,
  /** what it is, in words (`checkout`, `card transaction`) */
  kind: Type.String(),
  /** its title or name, when it has one (`Espresso beans`, a cardholder's name) */
  title: Type.Optional(Type.String()),
  /** its amount in minor units (null: an open amount), when it has one */
  amount: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
  currency: Type.Optional(Type.String()),
});
export type RecordedResource = Static<typeof RecordedResource>;

/** GET /sandbox/recording (also `event: recording` on GET /sandbox/events, on every change). */
export const RecordingState = Type.Object({
  recording: Type.Boolean(),
  name: Type.Optional(Type.String()),
  started_at: Type.Optional(Timestamp),
  /** steps recorded so far (expectations included) */
  steps: Type.Integer({ minimum: 0 }),
  /** the objects created so far that an expectation can be added for, oldest first */
  resources: Type.Optional(Type.Array(RecordedResource)),
});
export type RecordingState = Static<typeof RecordingState>;

/** POST /sandbox/recording/stop: the scenario (YAML text) made of everything recorded. */
export const RecordingStopped = Type.Object({
  recording: Type.Literal(false),
  name: Type.String(),
  steps: Type.Integer({ minimum: 0 }),
  scenario: Type.String(),
});
export type RecordingStopped = Static<typeof RecordingStopped>;

/**
 * POST /sandbox/recording/expect: an expectation from the current state of a resource. `path` is
 * a `/v1` path (`/v1/checkouts/<id>`, read as the merchant that owns the object) or a control-API
 * path (`/sandbox/checkouts/<id>`); `fields` are the top-level fields to expect (default: `status`
 * when the resource has one, else every top-level string, number or boolean field).
 */
export const RecordingExpectBody = Type.Object({
  kind: Type.Literal('resource'),
  path: Type.String({ pattern: '^/(v1|sandbox)/', maxLength: 2048 }),
  fields: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 1 })),
});
export type RecordingExpectBody = Static<typeof RecordingExpectBody>;

export const RecordingExpectResult = Type.Object({
  recording: Type.Literal(true),
  steps: Type.Integer({ minimum: 0 }),
  /** the step added, as YAML */
  step: Type.String(),
});
export type RecordingExpectResult = Static<typeof RecordingExpectResult>;
