/**
 * Parity (README "Is the sandbox still like the real service?"): a session recorded against the
 * real service, replayed in a fresh workspace of this sandbox, and every place where the sandbox
 * answered otherwise.
 */
import { type Static, Type } from 'typebox';
import { EnvName, StringEnum } from './common.js';

/**
 * What kind of difference: an HTTP status; a field missing from the sandbox's answer, only in it,
 * or of another type or format; an enum value the sandbox's contract does not list; a status or
 * state field with another value; any other value; a webhook missing, extra, out of order or with a
 * payload of another shape; a step the sandbox could not replay at all.
 */
export const PARITY_DIFFERENCE_KINDS = [
  'status',
  'missing',
  'extra',
  'type',
  'enum',
  'state',
  'value',
  'webhook_missing',
  'webhook_extra',
  'webhook_order',
  'webhook_shape',
  'replay',
] as const;
export const ParityDifferenceKind = StringEnum(PARITY_DIFFERENCE_KINDS);
export type ParityDifferenceKind = Static<typeof ParityDifferenceKind>;

export const ParityStep = Type.Object({
  /** 1-based position in the file's steps */
  index: Type.Integer({ minimum: 1 }),
  /** the line of the file the step starts on */
  line: Type.Integer({ minimum: 1 }),
  label: Type.String(),
});
export type ParityStep = Static<typeof ParityStep>;

export const ParityDifference = Type.Object({
  kind: ParityDifferenceKind,
  step: ParityStep,
  /**
   * Where: `(status)`, a field of the answer (`checkout.payments[0].amount`, `(body)` for the whole
   * of it), a webhook (`webhook:checkout.paid`) or a field of its payload
   * (`webhook:checkout.paid.data.status`), or `(step)`.
   */
  path: Type.String(),
  /** what the recording had and what the sandbox had */
  message: Type.String(),
});
export type ParityDifference = Static<typeof ParityDifference>;

export const ParityBody = Type.Object(
  {
    /** the session file's text (YAML or JSON), as `svc-sandbox record` wrote it: a scenario file */
    scenario: Type.String({ minLength: 1, maxLength: 1_000_000 }),
    /** field paths whose differences are accepted (`checkout.metadata`, `*.created_at`, `webhook:card.transaction`) */
    ignore: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 200 })),
    /** environment of the steps that name none (takes the place of the file's env) */
    env: Type.Optional(EnvName),
  },
  {
    additionalProperties: false,
    examples: [
      {
        scenario:
          'name: session\nsteps:\n  - merchant: acme\n  - call: GET /v1/checkouts\n    recorded: { status: 200, body: [] }\n',
        ignore: ['*.created_at'],
      },
    ],
  },
);
export type ParityBody = Static<typeof ParityBody>;

export const ParityReport = Type.Object({
  /** no difference left once the ignored ones are set aside, and every step replayed */
  ok: Type.Boolean(),
  /** the session's name */
  name: Type.String(),
  /** the steps in the file */
  steps: Type.Integer({ minimum: 0 }),
  /** the steps with a recorded answer that were replayed and compared */
  compared: Type.Integer({ minimum: 0 }),
  /** every difference, in step order, each once */
  differences: Type.Array(ParityDifference),
  /** differences an ignore pattern accepted (not listed) */
  ignored: Type.Integer({ minimum: 0 }),
});
export type ParityReport = Static<typeof ParityReport>;
