/**
 * The scenario file format (docs/scenarios.md): one TypeBox schema is the validation, the
 * TypeScript types and the JSON Schema editors use (docs/scenario.schema.json, served at
 * GET /sandbox/scenario.schema.json).
 */
import { type Static, type TSchema, Type } from 'typebox';
import { EnvName, StringEnum } from '../contract/common.js';
import { FaultsInput } from '../contract/faults.js';
import { CreateMerchantBody } from '../contract/merchants.js';
import { VerifyRequestsBody } from '../contract/requests.js';
import { SettingsPatch } from '../contract/settings.js';
import { CHAOS_EFFECT_KINDS } from '../contract/webhooks.js';

const strict = { additionalProperties: false } as const;

/** The same schema with a description of its use here (editors show it). */
const describe = <T extends TSchema>(schema: T, description: string) =>
  Type.Unsafe<Static<T>>({ ...schema, description });

/** A name a step gives its result, referred to later as `${name}` or `${name.path}`. */
export const ResultName = Type.String({
  pattern: '^[A-Za-z_][A-Za-z0-9_-]{0,63}$',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a scenario reference, not a template
  description: 'a name for this result; later steps refer to it as ${name.field}',
});

/** Whole seconds, days to seconds: 30s, 5m, 2h, 7d, 1h30m. */
export const DURATION_PATTERN = '^(\\d+[dhms])+$';
export const Duration = Type.String({
  pattern: DURATION_PATTERN,
  description: 'a duration: 30s, 5m, 2h, 7d, or combined like 1h30m',
});

export const StepLabel = Type.String({ minLength: 1, maxLength: 200, description: 'label shown in reports' });
const Label = Type.Optional(StepLabel);
const Env = Type.Optional(describe(EnvName, 'environment (default: the scenario env, then test)'));
const MerchantRef = Type.Optional(
  describe(ResultName, 'the named merchant (a `merchant` step) whose owner key makes the call'),
);
// biome-ignore lint/suspicious/noTemplateCurlyInString: a scenario reference, not a template
const Json = Type.Unknown({ description: 'any JSON value; ${...} references are resolved in its strings' });
const Query = Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean()]), {
  description: 'query string parameters',
});
const HttpStatus = Type.Integer({ minimum: 100, maximum: 599 });

/**
 * The types of the events a step fires, in the order it fires them: exactly these, in every
 * merchant's log the scenario made (the recorder writes it after each action).
 */
export const FiredEvents = Type.Array(
  Type.String({ minLength: 1, maxLength: 64, description: 'event type, e.g. checkout.paid' }),
  {
    maxItems: 1000,
    description:
      'the types of the events this step fires, in order: exactly these (an empty list: none) in the logs of the merchants the scenario made',
  },
);

export const ResponseExpectation = Type.Object(
  {
    status: Type.Optional(describe(HttpStatus, 'expected HTTP status (default: any 2xx)')),
    body: Type.Optional(describe(Json, 'expected fields of the response body (subset match)')),
    events: Type.Optional(FiredEvents),
  },
  strict,
);
export type ResponseExpectation = Static<typeof ResponseExpectation>;

/** A webhook the real service delivered while a session was recorded (`svc-sandbox record --webhooks-to`). */
export const RecordedWebhook = Type.Object(
  {
    type: Type.String({ minLength: 1, maxLength: 64, description: 'the event type, e.g. checkout.paid' }),
    data: Type.Optional(
      describe(
        Json,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a scenario reference, not a template
        "the event's data as delivered (ids and addresses as ${...} references, secrets left out)",
      ),
    ),
  },
  strict,
);
export type RecordedWebhook = Static<typeof RecordedWebhook>;

/** What the real service answered to a step (`svc-sandbox record`); `parity` compares, `run` ignores it. */
export const RecordedAnswer = Type.Object(
  {
    status: describe(HttpStatus, "the service's HTTP status"),
    body: Type.Optional(
      describe(
        Json,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a scenario reference, not a template
        "the service's whole response body (ids, keys and addresses as ${...} references, secrets and card data left out)",
      ),
    ),
    webhooks: Type.Optional(
      Type.Array(RecordedWebhook, {
        maxItems: 1000,
        description:
          'the webhooks the service delivered after this step and before the next, in arrival order',
      }),
    ),
  },
  strict,
);
export type RecordedAnswer = Static<typeof RecordedAnswer>;

/** The webhooks that followed a step of the recorder's own (the service answered no request there). */
export const RecordedWebhooks = Type.Object(
  {
    webhooks: Type.Optional(
      Type.Array(RecordedWebhook, {
        maxItems: 1000,
        description: 'the webhooks the service delivered meanwhile, in arrival order',
      }),
    ),
  },
  strict,
);

/** Why the recorder wrote a control or clock step the real session had no request for. */
const Inferred = Type.Optional(
  Type.String({
    minLength: 1,
    maxLength: 500,
    description:
      'what the outside world did in the recorded session that this step plays here (e.g. "checkout.paid: 60 USDC arrived", "a note: customer paid")',
  }),
);

export const MerchantStep = Type.Object(
  {
    merchant: describe(ResultName, 'create a merchant and its owner key under this name'),
    body: Type.Optional(
      Type.Partial(CreateMerchantBody, {
        description: 'POST /sandbox/merchants body (name defaults to the step name)',
      }),
    ),
    name: Label,
  },
  strict,
);

const METHODS = 'GET|POST|PUT|PATCH|DELETE';

export const CallStep = Type.Object(
  {
    call: Type.String({
      pattern: `^(${METHODS}) /v1/\\S*$`,
      description: 'METHOD /v1/path, made with the merchant key',
    }),
    merchant: MerchantRef,
    env: Env,
    query: Type.Optional(Query),
    body: Type.Optional(Json),
    headers: Type.Optional(Type.Record(Type.String(), Type.String())),
    as: Type.Optional(ResultName),
    expect: Type.Optional(ResponseExpectation),
    recorded: Type.Optional(RecordedAnswer),
    name: Label,
  },
  strict,
);

export const ControlStep = Type.Object(
  {
    control: Type.String({
      pattern: `^(${METHODS}) /sandbox/\\S*$`,
      description: 'METHOD /sandbox/path: any control-API call',
    }),
    query: Type.Optional(Query),
    body: Type.Optional(Json),
    as: Type.Optional(ResultName),
    expect: Type.Optional(ResponseExpectation),
    recorded: Type.Optional(
      Type.Union([RecordedAnswer, RecordedWebhooks], {
        description:
          'what the service answered; on an inferred step (no request of the session) only the webhooks that followed it',
      }),
    ),
    inferred: Inferred,
    name: Label,
  },
  strict,
);

export const ClockStep = Type.Object(
  {
    clock: Type.Union([StringEnum(['freeze', 'resume']), Type.Object({ advance: Duration }, strict)]),
    expect: Type.Optional(Type.Object({ events: FiredEvents }, strict)),
    recorded: Type.Optional(RecordedWebhooks),
    inferred: Inferred,
    name: Label,
  },
  strict,
);

export const SettingsStep = Type.Object(
  {
    settings: describe(SettingsPatch, 'PATCH /sandbox/settings'),
    as: Type.Optional(ResultName),
    name: Label,
  },
  strict,
);

export const FaultsStep = Type.Object(
  {
    faults: Type.Union([
      describe(FaultsInput, 'PUT /sandbox/faults: the API faults of the run from here on'),
      Type.Literal('clear', { description: 'DELETE /sandbox/faults' }),
    ]),
    as: Type.Optional(ResultName),
    name: Label,
  },
  strict,
);

export const RequestsExpectation = Type.Object(
  {
    requests: describe(
      VerifyRequestsBody,
      'POST /sandbox/request-log/verify: the /v1 requests sent (count default: at least one)',
    ),
  },
  strict,
);

export const GetExpectation = Type.Object(
  {
    get: Type.String({ pattern: '^/(v1|sandbox)/\\S*$', description: 'a /v1 or /sandbox path to GET' }),
    merchant: MerchantRef,
    env: Env,
    query: Type.Optional(Query),
    status: Type.Optional(describe(HttpStatus, 'expected HTTP status (default 200)')),
    body: Type.Optional(describe(Json, 'expected fields of the response (subset match)')),
  },
  strict,
);

export const EventExpectation = Type.Object(
  {
    event: Type.Object(
      {
        type: Type.String({ minLength: 1, maxLength: 64, description: 'event type, e.g. checkout.paid' }),
        data: Type.Optional(describe(Json, 'expected fields of the event data (subset match)')),
        merchant: Type.Optional(describe(ResultName, 'whose event log (default: every named merchant)')),
        env: Env,
        count: Type.Optional(Type.Integer({ minimum: 0, description: 'exactly this many matching events' })),
      },
      strict,
    ),
  },
  strict,
);

export const WebhookExpectation = Type.Object(
  {
    webhook: Type.Object(
      {
        event: Type.String({ minLength: 1, maxLength: 64, description: 'the delivered event type' }),
        data: Type.Optional(describe(Json, 'expected fields of the event data (subset match)')),
        status: Type.Optional(StringEnum(['pending', 'delivered', 'failed'])),
        attempts: Type.Optional(Type.Integer({ minimum: 0, description: 'attempts made so far' })),
        chaos: Type.Optional(
          Type.Array(StringEnum(CHAOS_EFFECT_KINDS), {
            description:
              "what delivery chaos did to its attempts, in order (each attempt's effects, one list): e.g. [dropped, duplicated]; [] for nothing",
          }),
        ),
        merchant: Type.Optional(describe(ResultName, 'whose deliveries (default: any)')),
        env: Env,
      },
      strict,
    ),
  },
  strict,
);

export const BalanceExpectation = Type.Object(
  {
    balance: Type.Object(
      {
        merchant: ResultName,
        currency: Type.String({ minLength: 1, maxLength: 8 }),
        available: Type.Optional(Type.Integer({ description: 'minor units' })),
        held: Type.Optional(Type.Integer({ description: 'minor units' })),
        env: Env,
      },
      strict,
    ),
  },
  strict,
);

export const Expectation = Type.Union([
  GetExpectation,
  EventExpectation,
  WebhookExpectation,
  BalanceExpectation,
  RequestsExpectation,
]);
export type Expectation = Static<typeof Expectation>;

export const ExpectStep = Type.Object({ expect: Expectation, name: Label }, strict);

export type MerchantStep = Static<typeof MerchantStep>;
export type CallStep = Static<typeof CallStep>;
export type ControlStep = Static<typeof ControlStep>;
export type ClockStep = Static<typeof ClockStep>;
export type SettingsStep = Static<typeof SettingsStep>;
export type FaultsStep = Static<typeof FaultsStep>;
export type ExpectStep = Static<typeof ExpectStep>;

/** What makes a step the kind it is: its key. `merchant` is also a field of other kinds. */
export const STEP_SCHEMAS = {
  call: CallStep,
  control: ControlStep,
  clock: ClockStep,
  settings: SettingsStep,
  faults: FaultsStep,
  expect: ExpectStep,
  merchant: MerchantStep,
} as const satisfies Record<string, TSchema>;
export type StepKind = keyof typeof STEP_SCHEMAS;
export const STEP_KINDS = Object.keys(STEP_SCHEMAS) as StepKind[];

export const Step = Type.Union([
  MerchantStep,
  CallStep,
  ControlStep,
  ClockStep,
  SettingsStep,
  FaultsStep,
  ExpectStep,
]);

export const ScenarioClock = Type.Object(
  {
    start: Type.Optional(
      Type.String({
        format: 'date-time',
        description: 'sandbox time when the scenario starts (default 2026-01-01T00:00:00Z)',
      }),
    ),
    frozen: Type.Optional(
      Type.Boolean({ description: 'stand still until a clock step moves it (default true)' }),
    ),
  },
  strict,
);

export const ScenarioFile = Type.Object(
  {
    $schema: Type.Optional(Type.String()),
    name: Type.String({ minLength: 1, maxLength: 200 }),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
    seed: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'fixes ids, keys and addresses (default: the name)',
      }),
    ),
    env: Env,
    clock: Type.Optional(ScenarioClock),
    recorded: Type.Optional(
      Type.Object(
        {
          upstream: Type.String({
            minLength: 1,
            maxLength: 500,
            description: 'the origin of the service the session was recorded against (no credentials)',
          }),
          at: Type.String({ format: 'date-time', description: 'when the recording started (real time)' }),
        },
        { ...strict, description: 'where and when `svc-sandbox record` recorded this session' },
      ),
    ),
    steps: Type.Array(Step, { minItems: 1, maxItems: 10_000 }),
  },
  strict,
);

export type Step = MerchantStep | CallStep | ControlStep | ClockStep | SettingsStep | ExpectStep;

/** A parsed scenario: the file's fields, each step with its kind and where it is in the file. */
export interface Scenario {
  name: string;
  description?: string;
  seed: string;
  env?: Static<typeof EnvName>;
  clock: { start: string; frozen: boolean };
  /** Where and when `svc-sandbox record` recorded the file, when it did. */
  recorded?: { upstream: string; at: string };
  steps: ScenarioStep[];
}

export type ScenarioStep =
  | ({ kind: 'merchant'; line: number } & MerchantStep)
  | ({ kind: 'call'; line: number } & CallStep)
  | ({ kind: 'control'; line: number } & ControlStep)
  | ({ kind: 'clock'; line: number } & ClockStep)
  | ({ kind: 'settings'; line: number } & SettingsStep)
  | ({ kind: 'faults'; line: number } & FaultsStep)
  | ({ kind: 'expect'; line: number } & ExpectStep);

export const DEFAULT_CLOCK_START = '2026-01-01T00:00:00.000Z';

/** The outline of the JSON Schema document (the rest is the schema's own keywords). */
export interface ScenarioJsonSchemaDocument {
  $schema: string;
  $id: string;
  title: string;
  type: 'object';
  properties: Record<string, unknown>;
  required: string[];
  [keyword: string]: unknown;
}

/** The file's JSON Schema, as editors and GET /sandbox/scenario.schema.json get it. */
export function scenarioJsonSchema(): ScenarioJsonSchemaDocument {
  // A plain JSON copy: TypeBox's schemas carry non-enumerable markers an HTTP reply need not see.
  const { type, properties, required, ...keywords } = JSON.parse(JSON.stringify(ScenarioFile)) as {
    type: 'object';
    properties: Record<string, unknown>;
    required: string[];
    [keyword: string]: unknown;
  };
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://svc-sandbox.local/scenario.schema.json',
    title: 'svc-sandbox scenario',
    description: 'A sequence of sandbox steps and expectations (docs/scenarios.md).',
    type,
    ...keywords,
    properties,
    required,
  };
}

/** Seconds in a duration (`1h30m` → 5400), or undefined when it is not one. */
export function durationSeconds(text: string): number | undefined {
  if (!new RegExp(DURATION_PATTERN).test(text)) return undefined;
  const unit = { d: 86_400, h: 3_600, m: 60, s: 1 } as const;
  let total = 0;
  for (const [, n, u] of text.matchAll(/(\d+)([dhms])/g)) total += Number(n) * unit[u as keyof typeof unit];
  return total;
}
