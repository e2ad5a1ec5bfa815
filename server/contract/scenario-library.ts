import { type Static, Type } from 'typebox';
import { described, EnvName } from './common.js';
import { EventTypeName } from './events.js';
import { ScenarioRun } from './scenarios.js';

/** One built-in scenario: GET /sandbox/scenarios/library lists these. */
export const LibraryScenario = Type.Object({
  name: Type.String(),
  description: Type.String(),
  /** the webhook event types it produces, in order */
  events: Type.Array(EventTypeName),
});
export type LibraryScenario = Static<typeof LibraryScenario>;

export const LibraryList = Type.Object({ items: Type.Array(LibraryScenario) });
export type LibraryList = Static<typeof LibraryList>;

/** GET /sandbox/scenarios/library/{name}: the entry and its scenario file (YAML text). */
export const LibraryScenarioDetail = Type.Object({ ...LibraryScenario.properties, scenario: Type.String() });
export type LibraryScenarioDetail = Static<typeof LibraryScenarioDetail>;

export const LibraryNameParams = Type.Object({ name: Type.String({ minLength: 1, maxLength: 100 }) });

export const LibraryRunBody = Type.Object({
  env: Type.Optional(
    described(EnvName, "environment of the steps that name none (default: the file's, else test)"),
  ),
  reuse_merchants: Type.Optional(
    Type.Boolean({
      description:
        'merchant steps take the newest merchant of the same name instead of making another, and the answer says what the run changed',
    }),
  ),
});
export type LibraryRunBody = Static<typeof LibraryRunBody>;

/**
 * What a library run changed in the sandbox (POST /sandbox/scenarios/library/{name}/run with
 * `reuse_merchants`, as `svc-sandbox trigger` runs them): the merchants it made or reused (by the
 * name its steps give them), how far it moved the clock, and the events it fired for them.
 */
export const RunChanges = Type.Object({
  merchants: Type.Array(
    Type.Object({
      /** the name the steps give it (`merchant: shop`) */
      step: Type.String(),
      name: Type.String(),
      id: Type.String(),
      /** false: an existing merchant of that name was reused */
      made: Type.Boolean(),
    }),
  ),
  /** `moved_seconds`: what the run's clock steps advanced it by (a running clock also moves with real time) */
  clock: Type.Object({ from: Type.String(), to: Type.String(), moved_seconds: Type.Integer() }),
  events: Type.Array(Type.Object({ type: Type.String(), count: Type.Integer({ minimum: 1 }) })),
});
export type RunChanges = Static<typeof RunChanges>;

/** A library run's answer: the run, and with `reuse_merchants` what it changed. */
export const LibraryRun = Type.Object({ ...ScenarioRun.properties, changes: Type.Optional(RunChanges) });
export type LibraryRun = Static<typeof LibraryRun>;
