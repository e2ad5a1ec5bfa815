/**
 * `${name.path}` references in scenario strings: found by the parser (an unknown name is an error
 * before anything runs) and resolved by the runner against the results named so far.
 */

export interface Reference {
  /** the whole `${...}` text */
  raw: string;
  name: string;
  /** fields below the name: `${co.items.0.id}` → ['items', '0', 'id'] */
  path: string[];
}

const REFERENCE = /\$(\$?)\{([^}]*)\}/g;
const EXPRESSION = /^[A-Za-z_][A-Za-z0-9_-]*(\.[A-Za-z0-9_-]+)*$/;

/**
 * Names every scenario may refer to: the sandbox it runs against (`${sandbox.url}`,
 * `${sandbox.urls.production}`) and its clock at the step (`${clock.now}`, `${clock.in.1h}`,
 * `${clock.ago.30m}`), so a scenario needs no absolute time and runs on any sandbox.
 */
export const BUILTIN_NAMES = new Set(['sandbox', 'clock']);

/** Why a reference to a built-in name is not one it gives, or undefined when it is fine. */
export function builtinProblem(ref: Reference, isDuration: (text: string) => boolean): string | undefined {
  const path = ref.path.join('.');
  if (ref.name === 'sandbox') {
    return ['url', 'urls.test', 'urls.production'].includes(path)
      ? undefined
      : `${ref.raw}: sandbox gives url, urls.test and urls.production`;
  }
  if (ref.name === 'clock') {
    const [field, duration, ...rest] = ref.path;
    if (field === 'now' && duration === undefined) return undefined;
    if (
      (field === 'in' || field === 'ago') &&
      duration !== undefined &&
      rest.length === 0 &&
      isDuration(duration)
    )
      return undefined;
    return `${ref.raw}: clock gives now, in.<duration> and ago.<duration> (e.g. \${clock.in.1h})`;
  }
  return undefined;
}

/** The references in a string; `$${...}` is a literal `${...}`, not a reference. */
export function referencesIn(text: string): (Reference | { raw: string; invalid: string })[] {
  const found: (Reference | { raw: string; invalid: string })[] = [];
  for (const match of text.matchAll(REFERENCE)) {
    if (match[1] === '$') continue;
    const expression = match[2]!.trim();
    if (!EXPRESSION.test(expression)) {
      found.push({ raw: match[0], invalid: expression });
      continue;
    }
    const [name, ...path] = expression.split('.');
    found.push({ raw: match[0], name: name!, path });
  }
  return found;
}

/** Every string in a JSON value, with its path (for line numbers), keys included. */
export function stringsIn(value: unknown, path: (string | number)[] = []): [string, (string | number)[]][] {
  if (typeof value === 'string') return [[value, path]];
  if (Array.isArray(value)) return value.flatMap((item, i) => stringsIn(item, [...path, i]));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) => [
      ...(key.includes('${') ? ([[key, [...path, key]]] as [string, (string | number)[]][]) : []),
      ...stringsIn(item, [...path, key]),
    ]);
  }
  return [];
}

export class UnresolvedReference extends Error {}

/** Looks a reference up in the results; throws a UnresolvedReference saying what is missing. */
export function lookup(results: ReadonlyMap<string, unknown>, ref: Reference): unknown {
  if (!results.has(ref.name)) throw new UnresolvedReference(`${ref.raw}: nothing is named ${ref.name}`);
  let value = results.get(ref.name);
  const walked = [ref.name];
  for (const field of ref.path) {
    if (value === null || typeof value !== 'object' || !(field in value)) {
      throw new UnresolvedReference(`${ref.raw}: ${walked.join('.')} has no field ${field}`);
    }
    value = (value as Record<string, unknown>)[field];
    walked.push(field);
  }
  return value;
}

/**
 * Replaces the references in a JSON value. A string that is exactly one reference takes the
 * referred value as it is (a number stays a number); otherwise values are spliced in as text.
 */
export function resolve<T>(value: T, results: ReadonlyMap<string, unknown>): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return resolveString(v, results);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') {
      return Object.fromEntries(
        Object.entries(v).map(([k, item]) => [
          k.includes('${') ? String(resolveString(k, results)) : k,
          walk(item),
        ]),
      );
    }
    return v;
  };
  return walk(value) as T;
}

function resolveString(text: string, results: ReadonlyMap<string, unknown>): unknown {
  const refs = referencesIn(text);
  const only = refs.length === 1 ? refs[0]! : undefined;
  if (only && 'name' in only && only.raw === text) return lookup(results, only);
  return text.replace(REFERENCE, (raw: string, escaped: string, expression: string) => {
    if (escaped === '$') return raw.slice(1);
    const ref = refs.find((r) => r.raw === raw);
    if (!ref || !('name' in ref)) throw new UnresolvedReference(`${raw}: not a reference (${expression})`);
    const value = lookup(results, ref);
    return typeof value === 'string' ? value : JSON.stringify(value);
  });
}
