/** Scenarios (docs/scenarios.md): running one against this sandbox, and its progress. */
import { type Static, Type } from 'typebox';
import { EnvName } from './common.js';

export const ScenarioRunBody = Type.Object(
  {
    /** the scenario file's text: YAML or JSON */
    scenario: Type.String({ minLength: 1, maxLength: 1_000_000 }),
    /** environment of the steps that name none (takes the place of the file's env) */
    env: Type.Optional(EnvName),
  },
  {
    additionalProperties: false,
    examples: [
      {
        scenario:
          'name: smoke\nsteps:\n  - merchant: acme\n  - call: GET /v1/checkouts\n    expect: { status: 200 }\n',
        env: 'test',
      },
    ],
  },
);
export type ScenarioRunBody = Static<typeof ScenarioRunBody>;

export const ScenarioStepResult = Type.Object({
  /** 1-based position in the file's steps */
  index: Type.Integer({ minimum: 1 }),
  /** the line of the file the step starts on */
  line: Type.Integer({ minimum: 1 }),
  kind: Type.String(),
  label: Type.String(),
  ok: Type.Boolean(),
  /** what failed: the expected and the actual value */
  error: Type.Optional(Type.String()),
  duration_ms: Type.Integer({ minimum: 0 }),
});
export type ScenarioStepResult = Static<typeof ScenarioStepResult>;

/** The steps that ran, in order; a failed action (not expectation) ends the run. */
export const ScenarioRun = Type.Object({
  ok: Type.Boolean(),
  name: Type.String(),
  steps: Type.Array(ScenarioStepResult),
});
export type ScenarioRun = Static<typeof ScenarioRun>;

/** GET /sandbox/events, `event: scenario`: each finished step of a run on this sandbox. */
export const ScenarioProgress = Type.Object({
  run_id: Type.String(),
  name: Type.String(),
  step: ScenarioStepResult,
  /** the run's last step: every step ran, or this one failed and ended it */
  done: Type.Boolean(),
});
export type ScenarioProgress = Static<typeof ScenarioProgress>;

/**
 * The JSON Schema of scenario files (a JSON Schema document; only its outline is fixed here —
 * its `$schema` and `$id` keywords go through as additional properties: as declared properties,
 * OpenAPI tooling would take them for the response schema's own keywords).
 */
export const ScenarioJsonSchema = Type.Object(
  {
    title: Type.String(),
    type: Type.Literal('object'),
    properties: Type.Record(Type.String(), Type.Unknown()),
    required: Type.Array(Type.String()),
  },
  { additionalProperties: true },
);
