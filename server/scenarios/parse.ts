/**
 * Scenario text (YAML, or JSON, which is YAML too) → a checked `Scenario`, or every problem with
 * the line it is on. Nothing runs until a file parses: a bad field, a bad duration or a reference
 * to a name no earlier step gives is reported here (the CLI's exit 2).
 */
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { isMap, isPair, isScalar, isSeq, LineCounter, type Node, parseDocument } from 'yaml';
import {
  BalanceExpectation,
  ClockStep,
  DEFAULT_CLOCK_START,
  DURATION_PATTERN,
  durationSeconds,
  EventExpectation,
  GetExpectation,
  RequestsExpectation,
  type Scenario,
  ScenarioFile,
  type ScenarioStep,
  STEP_KINDS,
  STEP_SCHEMAS,
  type StepKind,
  StepLabel,
  WebhookExpectation,
} from './format.js';
import { BUILTIN_NAMES, builtinProblem, referencesIn, stringsIn } from './refs.js';

export interface ScenarioError {
  line: number;
  /** where in the file: `steps[2].expect.event.type` */
  path: string;
  message: string;
}

export type ParseResult = { ok: true; scenario: Scenario } | { ok: false; errors: ScenarioError[] };

type Path = (string | number)[];

const ACTIONS = ['call', 'control', 'clock', 'settings', 'faults'] as const satisfies StepKind[];

/** `steps[2].call` from ['steps', 2, 'call']. */
export function formatPath(path: Path): string {
  let out = '';
  for (const segment of path) {
    out += typeof segment === 'number' ? `[${segment}]` : out === '' ? segment : `.${segment}`;
  }
  return out || '(file)';
}

const EXPECTATIONS = {
  get: GetExpectation,
  event: EventExpectation,
  webhook: WebhookExpectation,
  balance: BalanceExpectation,
  requests: RequestsExpectation,
} as const;

/** Patterns people write by hand, said in words. */
const PATTERN_MESSAGES: Record<string, string> = {
  [DURATION_PATTERN]: 'must be a duration like 30s, 5m, 2h, 7d or 1h30m',
  '^(GET|POST|PUT|PATCH|DELETE) /v1/\\S*$': "must be 'METHOD /v1/path', e.g. 'POST /v1/checkouts'",
  '^(GET|POST|PUT|PATCH|DELETE) /sandbox/\\S*$':
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a scenario reference, not a template
    "must be 'METHOD /sandbox/path', e.g. 'POST /sandbox/checkouts/${co.id}/payments'",
  '^/(v1|sandbox)/\\S*$': 'must be a /v1/... or /sandbox/... path',
  '^[A-Za-z_][A-Za-z0-9_-]{0,63}$':
    'must be a name: a letter or _, then letters, digits, _ or - (at most 64)',
};

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function parseScenario(text: string): ParseResult {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true });
  const errors: ScenarioError[] = [];

  if (doc.errors.length > 0) {
    return {
      ok: false,
      errors: doc.errors.map((e) => ({
        line: e.linePos?.[0].line ?? lineCounter.linePos(e.pos[0]).line,
        path: '(file)',
        message: e.message.split('\n')[0]!,
      })),
    };
  }

  /** The line of the value at `path`, or of the nearest enclosing node that exists. */
  const lineOf = (path: Path): number => {
    let node: unknown = doc.contents;
    let line = node && (node as Node).range ? lineCounter.linePos((node as Node).range![0]).line : 1;
    for (const segment of path) {
      if (isMap(node)) {
        const pair = node.items.find(
          (p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(segment),
        );
        if (!pair) break;
        const key = pair.key as Node;
        if (key.range) line = lineCounter.linePos(key.range[0]).line;
        node = pair.value;
      } else if (isSeq(node)) {
        const item = node.items[Number(segment)] as Node | undefined;
        if (!item) break;
        if (item.range) line = lineCounter.linePos(item.range[0]).line;
        node = item;
      } else break;
    }
    return line;
  };
  const fail = (path: Path, message: string) => {
    errors.push({ line: lineOf(path), path: formatPath(path), message });
  };
  /** TypeBox's errors for `value` against `schema`, as messages at paths below `base`. */
  const check = (schema: TSchema, value: unknown, base: Path) => {
    const seen = new Set<string>();
    let unmatched: Path | undefined;
    for (const error of Value.Errors(schema, value)) {
      const relative: Path = error.instancePath
        .split('/')
        .slice(1)
        .map((s) => (/^\d+$/.test(s) ? Number(s) : s.replace(/~1/g, '/').replace(/~0/g, '~')));
      let message: string;
      if (error.keyword === 'boolean' && error.schemaPath.endsWith('additionalProperties')) {
        message = `unknown field ${String(relative.at(-1))}`;
      } else if (error.keyword === 'additionalProperties' || error.keyword === 'anyOf') {
        // said better by the errors of the fields themselves, if there are any
        if (error.keyword === 'anyOf') unmatched ??= [...base, ...relative];
        continue;
      } else if (error.keyword === 'required') {
        const missing = (error.params as { requiredProperties?: string[] }).requiredProperties ?? [];
        message = `missing field ${missing.join(', ')}`;
      } else if (error.keyword === 'pattern') {
        const pattern = (error.params as { pattern?: string }).pattern ?? '';
        message = PATTERN_MESSAGES[pattern] ?? error.message ?? 'does not match';
      } else if (error.keyword === 'enum') {
        const allowed = (error.params as { allowedValues?: unknown[] }).allowedValues ?? [];
        message = `must be one of ${allowed.map(String).join(', ')}`;
      } else if (error.keyword === 'format' && (error.params as { format?: string }).format === 'date-time') {
        message = 'must be a date-time like 2026-01-01T00:00:00Z';
      } else message = error.message ?? `fails ${error.keyword}`;
      const path = [...base, ...relative];
      const key = `${formatPath(path)}: ${message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      // A union of types fails once per type at the same place: one message names them all.
      const previous = errors.at(-1);
      if (
        error.keyword === 'type' &&
        previous?.path === formatPath(path) &&
        previous.message.startsWith('must be ')
      ) {
        previous.message = `${previous.message.replace(/ or /g, ', ')} or ${message.slice('must be '.length)}`;
        continue;
      }
      fail(path, message);
    }
    if (seen.size === 0 && unmatched) fail(unmatched, 'matches none of the allowed forms');
  };

  let raw: unknown;
  try {
    raw = doc.toJS({ maxAliasCount: 100 });
  } catch (error) {
    // an alias bomb, or another document YAML parses but cannot turn into data
    return { ok: false, errors: [{ line: 1, path: '(file)', message: (error as Error).message }] };
  }
  if (!isObject(raw)) {
    return {
      ok: false,
      errors: [{ line: 1, path: '(file)', message: 'a scenario is a mapping with name and steps' }],
    };
  }
  const { steps: rawSteps, ...header } = raw;
  check(
    { ...ScenarioFile, required: ['name'], properties: { ...ScenarioFile.properties, steps: {} } },
    header,
    [],
  );
  if (rawSteps === undefined) fail([], 'missing field steps');
  else if (!Array.isArray(rawSteps) || rawSteps.length === 0)
    fail(['steps'], 'must be a list of at least one step');

  const steps: ScenarioStep[] = [];
  /** names given so far: merchant names and `as` names, with the line that gave them */
  const names = new Map<string, { line: number; merchant: boolean }>();
  let firstMerchant: string | undefined;

  for (const [index, step] of (Array.isArray(rawSteps) ? rawSteps : []).entries()) {
    const at: Path = ['steps', index];
    if (!isObject(step)) {
      fail(at, `a step is a mapping with one of ${STEP_KINDS.join(', ')}`);
      continue;
    }
    // `expect` is also a field of call and control steps, `merchant` of call steps.
    const kinds = ACTIONS.filter((k) => k in step);
    const kind: StepKind | undefined =
      kinds[0] ?? ('expect' in step ? 'expect' : 'merchant' in step ? 'merchant' : undefined);
    if (kind === undefined) {
      fail(at, `unknown step: it needs one of ${STEP_KINDS.join(', ')}`);
      continue;
    }
    if (kinds.length > 1) {
      fail([...at, kinds[1]!], `a step does one thing: it has both ${kinds[0]} and ${kinds[1]}`);
      continue;
    }
    const before = errors.length;
    if (kind === 'expect') {
      const { expect: expectation, name: label, ...rest } = step;
      for (const key of Object.keys(rest)) fail([...at, key], `unknown field ${key}`);
      if (label !== undefined) check(StepLabel, label, [...at, 'name']);
      const which = isObject(expectation)
        ? (Object.keys(EXPECTATIONS) as (keyof typeof EXPECTATIONS)[]).filter((k) => k in expectation)
        : [];
      if (which.length !== 1)
        fail([...at, 'expect'], `an expectation has exactly one of ${Object.keys(EXPECTATIONS).join(', ')}`);
      else check(EXPECTATIONS[which[0]!], expectation, [...at, 'expect']);
    } else if (kind === 'clock') {
      const clock = step.clock;
      const { clock: _, name: label, expect: fired, recorded, inferred, ...rest } = step;
      for (const key of Object.keys(rest)) fail([...at, key], `unknown field ${key}`);
      if (label !== undefined) check(StepLabel, label, [...at, 'name']);
      if (fired !== undefined) check(ClockStep.properties.expect, fired, [...at, 'expect']);
      if (recorded !== undefined) check(ClockStep.properties.recorded, recorded, [...at, 'recorded']);
      if (inferred !== undefined) check(ClockStep.properties.inferred, inferred, [...at, 'inferred']);
      if (isObject(clock)) {
        const keys = Object.keys(clock);
        if (keys.length !== 1 || keys[0] !== 'advance') {
          fail([...at, 'clock'], 'must be freeze, resume or { advance: <duration> }');
        } else if (typeof clock.advance !== 'string' || durationSeconds(clock.advance) === undefined) {
          fail([...at, 'clock', 'advance'], PATTERN_MESSAGES[DURATION_PATTERN]!);
        } else if (durationSeconds(clock.advance)! > 10 * 365 * 86_400) {
          fail([...at, 'clock', 'advance'], 'must be at most 10 years (3650d)');
        }
      } else if (clock !== 'freeze' && clock !== 'resume') {
        fail([...at, 'clock'], 'must be freeze, resume or { advance: <duration> }');
      }
    } else {
      check(STEP_SCHEMAS[kind], step, at);
    }

    // References: every name must be given by an earlier step (or be built in). What the real
    // service answered (`recorded`) may also name the step's own result: `${co.id}` in the body
    // of the call that made co.
    const known = (name: string) => BUILTIN_NAMES.has(name) || names.has(name);
    for (const [value, path] of stringsIn(step)) {
      const own = path[0] === 'recorded' && typeof step.as === 'string' ? step.as : undefined;
      for (const ref of referencesIn(value)) {
        if ('name' in ref && ref.name === own) continue;
        if ('invalid' in ref)
          fail([...at, ...path], `${ref.raw} is not a reference: write \${name} or \${name.field}`);
        else if (BUILTIN_NAMES.has(ref.name)) {
          const problem = builtinProblem(ref, (d) => durationSeconds(d) !== undefined);
          if (problem) fail([...at, ...path], problem);
        } else if (!known(ref.name))
          fail(
            [...at, ...path],
            `${ref.raw}: unknown name ${ref.name} (no earlier step is named ${ref.name})`,
          );
      }
    }
    const merchantField = (path: Path, name: unknown) => {
      if (typeof name !== 'string') return;
      const given = names.get(name);
      if (!given) fail(path, `unknown merchant ${name} (no earlier merchant step is named ${name})`);
      else if (!given.merchant)
        fail(path, `${name} is not a merchant (it names the result of line ${given.line})`);
    };
    const needsMerchant = (path: Path, name: unknown) => {
      if (name !== undefined) merchantField([...path.slice(0, -1), 'merchant'], name);
      else if (firstMerchant === undefined)
        fail(path, 'no merchant to act as: add a merchant step before this one, or name one with merchant:');
    };
    const line = lineOf(at);
    if (kind === 'call') needsMerchant([...at, 'call'], step.merchant);
    if (kind === 'expect' && isObject(step.expect)) {
      const e = step.expect;
      if (typeof e.get === 'string' && e.get.startsWith('/v1/'))
        needsMerchant([...at, 'expect', 'get'], e.merchant);
      else if ('merchant' in e) merchantField([...at, 'expect', 'merchant'], e.merchant);
      for (const key of ['event', 'webhook', 'balance'] as const) {
        const inner = e[key];
        if (isObject(inner) && 'merchant' in inner)
          merchantField([...at, 'expect', key, 'merchant'], inner.merchant);
      }
    }
    const give = (name: unknown, field: string, merchant: boolean) => {
      if (typeof name !== 'string') return;
      const earlier = names.get(name);
      if (BUILTIN_NAMES.has(name)) fail([...at, field], `${name} is a built-in name: choose another`);
      else if (earlier) fail([...at, field], `${name} is already the name of line ${earlier.line}'s result`);
      else names.set(name, { line, merchant });
    };
    // Named even when the step has problems, so later references to it are not reported too.
    if (kind === 'merchant') {
      give(step.merchant, 'merchant', true);
      if (typeof step.merchant === 'string') firstMerchant ??= step.merchant;
    } else give(step.as, 'as', false);
    if (errors.length > before) continue;
    steps.push({ kind, line, ...step } as ScenarioStep);
  }

  if (errors.length > 0) {
    errors.sort((a, b) => a.line - b.line);
    return { ok: false, errors };
  }
  const file = header as {
    name: string;
    description?: string;
    seed?: string;
    env?: Scenario['env'];
    recorded?: Scenario['recorded'];
  };
  const clock = (header.clock ?? {}) as { start?: string; frozen?: boolean };
  return {
    ok: true,
    scenario: {
      name: file.name,
      ...(file.description === undefined ? {} : { description: file.description }),
      seed: file.seed ?? file.name,
      ...(file.env === undefined ? {} : { env: file.env }),
      ...(file.recorded === undefined ? {} : { recorded: file.recorded }),
      clock: {
        start: new Date(clock.start ?? DEFAULT_CLOCK_START).toISOString(),
        frozen: clock.frozen ?? true,
      },
      steps,
    },
  };
}

/** `file:line: path: message` lines, as the CLI prints them. */
export function formatErrors(file: string, errors: ScenarioError[]): string[] {
  return errors.map((e) => `${file}:${e.line}: ${e.path}: ${e.message}`);
}
