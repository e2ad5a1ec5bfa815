import { type Static, Type } from 'typebox';
import { EnvName } from './common.js';
import { EventTypeName } from './events.js';

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
  /** environment of the steps that name none (default: the file's, else test) */
  env: Type.Optional(EnvName),
});
export type LibraryRunBody = Static<typeof LibraryRunBody>;

/**
 * The result of a run, as the shared scenario contract has it (ScenarioRun: ok, name, steps with
 * index, line, kind, label, ok, error?, duration_ms). Kept here unnamed so it cannot clash with the
 * runner's own named ScenarioRun schema; the two are the same shape.
 */
export const LibraryRunResult = Type.Object({
  ok: Type.Boolean(),
  name: Type.String(),
  steps: Type.Array(
    Type.Object({
      index: Type.Integer(),
      line: Type.Integer(),
      kind: Type.String(),
      label: Type.String(),
      ok: Type.Boolean(),
      error: Type.Optional(Type.String()),
      duration_ms: Type.Number(),
    }),
  ),
});
export type LibraryRunResult = Static<typeof LibraryRunResult>;
