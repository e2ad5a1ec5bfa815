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
