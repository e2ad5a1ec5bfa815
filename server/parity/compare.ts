/**
 * One recorded JSON value against the sandbox's: the whole value walked, each difference said once
 * at the field it is in. Values that differ in every world (ids, times, addresses, keys, URLs)
 * compare by their format; a `${name.field}` reference compares with what it names in the replay;
 * every other value compares as it is.
 */
import type { ParityDifferenceKind } from '../contract/parity.js';
import { referencesIn } from '../scenarios/refs.js';
import type { Contract, Schema } from './contract.js';

/** A field path: names, and array indexes as numbers. */
export type Path = (string | number)[];

/** `checkout.payments[0].amount` from ['checkout', 'payments', 0, 'amount'], under a prefix. */
export function formatPath(path: Path, prefix = ''): string {
  let out = prefix;
  for (const segment of path) {
    out += typeof segment === 'number' ? `[${segment}]` : out === '' ? segment : `.${segment}`;
  }
  return out;
}

export interface Found {
  kind: ParityDifferenceKind;
  path: string;
  message: string;
}

export interface CompareContext {
  contract: Contract | undefined;
  /** what a reference names in the replay; undefined when it names nothing there */
  lookup(name: string, path: string[]): { value: unknown } | undefined;
  /** an error answer: its fields and their types compare, not its wording */
  shapeOnly?: boolean;
  /** in a webhook's payload: missing, extra and type become `webhook_shape` */
  webhook?: boolean;
  /** the text the paths start with (`webhook:checkout.paid.data`) */
  prefix?: string;
}

type Format = 'uuid' | 'date-time' | 'date' | 'url' | 'token';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const URL_TEXT = /^[a-z][a-z0-9+.-]*:\/\/\S+$/i;
/** A long run of letters and digits with both in it: an address, a transaction hash, a key. */
const TOKEN = /^(?=.*\d)(?=.*[A-Za-z])[A-Za-z0-9_:.-]{20,}$/;
/**
 * Fields whose value is an identifier, a secret or something else the service generates, whatever
 * it looks like (a cardholder's username is "generated" in the spec).
 */
const VOLATILE_KEY =
  /(^|_)(id|ids|address|txid|tx_hash|hash|signature|key|secret|token|session|url|nonce|cursor|username)$/;
/** A secret the recorder left out (or wrote as a marker): the sandbox having it is no difference. */
const SECRET_KEY = /(^|_)(key|secret|password|pin|pan|cvv|cvc|number|token|session)$/;
const MARKER = /^[[<](redacted|secret|omitted|hidden)[\]>]$/i;
/** Fields that hold where a resource is in its life: a different value is a state reached differently. */
const STATE_KEY = /(^|_)(status|state)$/;

function formatOf(value: string, key: string | undefined, declared: string | undefined): Format | undefined {
  if (UUID.test(value) || declared === 'uuid') return 'uuid';
  if (DATE_TIME.test(value) || declared === 'date-time') return 'date-time';
  if (declared === 'date') return 'date';
  if (URL_TEXT.test(value) || declared === 'uri' || declared === 'url') return 'url';
  if (DATE.test(value) && key !== undefined && /(_at|date)$/.test(key)) return 'date';
  if ((key !== undefined && VOLATILE_KEY.test(key)) || TOKEN.test(value)) return 'token';
  return undefined;
}

/** The formats of the contract parity knows, by the name it gives them. */
function declaredFormat(format: string | undefined): Format | undefined {
  if (format === 'uuid' || format === 'date-time' || format === 'date') return format;
  if (format === 'uri' || format === 'url') return 'url';
  return undefined;
}

function hasFormat(value: unknown, format: Format): boolean {
  if (typeof value !== 'string') return false;
  switch (format) {
    case 'uuid':
      return UUID.test(value);
    case 'date-time':
      return DATE_TIME.test(value) && !Number.isNaN(Date.parse(value));
    case 'date':
      return DATE.test(value);
    case 'url':
      return URL_TEXT.test(value);
    case 'token':
      return value.length > 0 && !/\s/.test(value);
  }
}

const FORMAT_WORDS: Record<Format, string> = {
  uuid: 'a uuid',
  'date-time': 'a date-time',
  date: 'a date',
  url: 'a URL',
  token: 'an identifier',
};

type JsonType = 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object';
const typeOf = (value: unknown): JsonType =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'array'
      : (typeof value as 'boolean' | 'number' | 'string' | 'object');

const SHOWN = 80;
export const shown = (value: unknown): string => {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value);
  return text.length <= SHOWN ? text : `${text.slice(0, SHOWN)}…`;
};

const article = (type: JsonType) =>
  type === 'null' ? 'null' : `${type === 'array' || type === 'object' ? 'an' : 'a'} ${type}`;

/** A string that is references (in whole or in part), resolved; undefined when one names nothing. */
function resolveText(
  text: string,
  ctx: CompareContext,
): { value: unknown; whole: boolean; raw: string } | undefined | 'none' {
  const refs = referencesIn(text);
  if (refs.length === 0) return 'none';
  const only = refs.length === 1 ? refs[0]! : undefined;
  if (only && 'name' in only && only.raw === text) {
    const found = ctx.lookup(only.name, only.path);
    return found && { value: found.value, whole: true, raw: text };
  }
  let missing = false;
  const value = text.replace(/\$(\$?)\{([^}]*)\}/g, (raw: string, escaped: string) => {
    if (escaped === '$') return raw.slice(1);
    const ref = refs.find((r) => r.raw === raw);
    const found = ref && 'name' in ref ? ctx.lookup(ref.name, ref.path) : undefined;
    if (!found) {
      missing = true;
      return raw;
    }
    return typeof found.value === 'string' ? found.value : JSON.stringify(found.value);
  });
  return missing ? undefined : { value, whole: false, raw: text };
}

/** Every difference between a recorded value and the sandbox's, under `path`. */
export function compareValues(
  recorded: unknown,
  actual: unknown,
  ctx: CompareContext,
  path: Path = [],
  schema: Schema | undefined = undefined,
): Found[] {
  const found: Found[] = [];
  const at = () => formatPath(path, ctx.prefix) || '(body)';
  const key = typeof path.at(-1) === 'string' ? (path.at(-1) as string) : undefined;
  const shapeKind = (kind: 'missing' | 'extra' | 'type'): ParityDifferenceKind =>
    ctx.webhook ? 'webhook_shape' : kind;
  const say = (kind: ParityDifferenceKind, message: string) => found.push({ kind, path: at(), message });

  if (actual === undefined) {
    say(shapeKind('type'), `recorded ${shown(recorded)}; the sandbox answered no body`);
    return found;
  }

  let expected = recorded;
  if (typeof recorded === 'string') {
    const resolved = resolveText(recorded, ctx);
    if (resolved === undefined) {
      // names nothing in the replay (its step did not give it): a value, whatever it is
      if (actual === null) say(shapeKind('type'), `recorded ${recorded}, the sandbox null`);
      return found;
    }
    if (resolved !== 'none') {
      if (resolved.whole) {
        const same = JSON.stringify(resolved.value) === JSON.stringify(actual);
        if (!same && typeOf(resolved.value) !== typeOf(actual))
          say(
            shapeKind('type'),
            `recorded ${resolved.raw} (${article(typeOf(resolved.value))}), the sandbox ${article(typeOf(actual))} ${shown(actual)}`,
          );
        else if (!same)
          say(
            'value',
            `recorded ${resolved.raw} (here ${shown(resolved.value)}), the sandbox ${shown(actual)}`,
          );
        return found;
      }
      expected = resolved.value;
    }
    if (MARKER.test(recorded)) {
      if (actual === null) say(shapeKind('type'), `recorded ${recorded}, the sandbox null`);
      return found;
    }
  }

  const field = ctx.contract?.field(schema) ?? { nullable: false };
  const recordedType = typeOf(expected);
  const actualType = typeOf(actual);
  if (recordedType !== actualType) {
    const nullOnOneSide = recordedType === 'null' || actualType === 'null';
    if (nullOnOneSide && field.nullable) {
      // A field the contract lets be null, set on one side only: a value, not a shape.
      say(
        key !== undefined && STATE_KEY.test(key) ? 'state' : 'value',
        `recorded ${shown(expected)}, the sandbox ${shown(actual)}`,
      );
    } else
      say(
        shapeKind('type'),
        `recorded ${article(recordedType)} (${shown(expected)}), the sandbox ${article(actualType)} (${shown(actual)})`,
      );
    return found;
  }

  if (recordedType === 'object') {
    const rec = expected as Record<string, unknown>;
    const act = actual as Record<string, unknown>;
    for (const [name, value] of Object.entries(rec)) {
      const child = [...path, name];
      if (!(name in act)) {
        found.push({
          kind: shapeKind('missing'),
          path: formatPath(child, ctx.prefix),
          message: `recorded ${shown(value)}; the sandbox has no such field`,
        });
      } else found.push(...compareValues(value, act[name], ctx, child, ctx.contract?.child(schema, name)));
    }
    for (const [name, value] of Object.entries(act)) {
      if (name in rec) continue;
      if (typeof value === 'string' && SECRET_KEY.test(name)) continue;
      found.push({
        kind: shapeKind('extra'),
        path: formatPath([...path, name], ctx.prefix),
        message: `the sandbox has ${shown(value)}; the recording has no such field`,
      });
    }
    return found;
  }

  if (recordedType === 'array') {
    const rec = expected as unknown[];
    const act = actual as unknown[];
    for (let i = 0; i < Math.max(rec.length, act.length); i++) {
      const child = [...path, i];
      if (i >= act.length)
        found.push({
          kind: shapeKind('missing'),
          path: formatPath(child, ctx.prefix),
          message: `recorded ${shown(rec[i])}; the sandbox's list has ${act.length} item${act.length === 1 ? '' : 's'}`,
        });
      else if (i >= rec.length)
        found.push({
          kind: shapeKind('extra'),
          path: formatPath(child, ctx.prefix),
          message: `the sandbox has ${shown(act[i])}; the recorded list has ${rec.length} item${rec.length === 1 ? '' : 's'}`,
        });
      else found.push(...compareValues(rec[i], act[i], ctx, child, ctx.contract?.child(schema, i)));
    }
    return found;
  }

  if (typeof expected === 'string') {
    const declared = declaredFormat(field.format);
    if (declared && !hasFormat(expected, declared) && hasFormat(actual, declared)) {
      say(
        shapeKind('type'),
        `recorded ${shown(expected)}, not ${FORMAT_WORDS[declared]}; the sandbox ${FORMAT_WORDS[declared]} (${shown(actual)})`,
      );
      return found;
    }
    const format = formatOf(
      expected,
      key,
      declared && hasFormat(expected, declared) ? field.format : undefined,
    );
    if (format !== undefined) {
      if (!hasFormat(actual, format))
        say(
          shapeKind('type'),
          `recorded ${FORMAT_WORDS[format]} (${shown(expected)}), the sandbox ${shown(actual)}`,
        );
      return found;
    }
  }
  if (ctx.shapeOnly || expected === actual) return found;
  if (field.enum && !field.enum.includes(expected)) {
    say(
      'enum',
      `recorded ${shown(expected)}, which the sandbox's contract does not list (${field.enum.map((v) => shown(v)).join(', ')}); the sandbox ${shown(actual)}`,
    );
  } else if (key !== undefined && STATE_KEY.test(key)) {
    say('state', `recorded ${shown(expected)}, the sandbox ${shown(actual)}`);
  } else say('value', `recorded ${shown(expected)}, the sandbox ${shown(actual)}`);
  return found;
}
