/**
 * Pure helpers of the recorder: how a path, a body, a duration or the whole file is written in a
 * scenario file. No state, no I/O.
 */
import { stringify } from 'yaml';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (value: string): boolean => UUID.test(value);

/** Values a later step may repeat and that differ in every sandbox: ids, keys, deposit addresses. */
export function isVolatile(key: string, value: string): boolean {
  return UUID.test(value) || value.startsWith('svcb_') || (key === 'address' && value.length >= 16);
}

/** A reference name from a merchant name: `Acme Coffee` → `acme_coffee`. */
export function slug(name: string): string {
  const s = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 40)
    .replace(/_+$/, '');
  if (s === '') return 'merchant';
  return /^[a-z]/.test(s) ? s : `m_${s}`;
}

/** The short prefix of the names given to objects a route creates (`co1`, `card2`). */
const PREFIXES: Record<string, string> = {
  checkouts: 'co',
  refund: 'refund',
  refunds: 'refund',
  customers: 'cus',
  invoices: 'inv',
  cardholders: 'holder',
  cards: 'card',
  apply: 'app',
  applications: 'app',
  connections: 'conn',
  'reseller-connections': 'conn',
  provision: 'prov',
  'static-addresses': 'addr',
  'api-keys': 'key',
  'webhook-endpoints': 'hook',
  payments: 'pay',
  deposits: 'dep',
  payouts: 'payout',
  authorizations: 'auth',
  inboxes: 'inbox',
  credit: 'credit',
};

export function prefixFor(route: string): string {
  const statics = route
    .split('/')
    .filter((s) => s !== '' && !s.startsWith(':') && s !== 'v1' && s !== 'sandbox');
  const last = statics.at(-1) ?? 'obj';
  return PREFIXES[last] ?? (last.replace(/[^a-z0-9]/gi, '').toLowerCase() || 'obj');
}

/** Whole seconds as the format's duration: `2h`, `30m`, `1h30m`, `7d`, `0s`. */
export function duration(seconds: number): string {
  let rest = Math.round(Math.abs(seconds));
  if (rest === 0) return '0s';
  let text = '';
  for (const [unit, size] of [
    ['d', 86_400],
    ['h', 3_600],
    ['m', 60],
    ['s', 1],
  ] as const) {
    const n = Math.floor(rest / size);
    if (n > 0) text += `${n}${unit}`;
    rest -= n * size;
  }
  return text;
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/**
 * A timestamp in a request body as a reference to the sandbox time when the step runs
 * (`clock.in.24h`), so the file means the same in any sandbox at any time. Whole seconds: what a
 * dashboard or a script computed as "now + 24 h" a few milliseconds earlier is still 24 h.
 */
export function relativeTime(value: string, nowMs: number): string | undefined {
  if (!ISO_TIME.test(value)) return undefined;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  const seconds = Math.round((at - nowMs) / 1000);
  return seconds >= 0 ? `clock.in.${duration(seconds)}` : `clock.ago.${duration(seconds)}`;
}

/** A literal `${` stays literal: `$${` is the format's escape. */
const escapeRefs = (text: string) => text.replaceAll('${', () => '$${');

/**
 * Replaces every string of a JSON value equal to a known value by its reference, and a string that
 * starts with one of `prefixes` (the sandbox's own addresses) by that reference spliced in.
 */
export function substitute(
  value: unknown,
  refOf: (s: string) => string | undefined,
  prefixes: readonly [prefix: string, ref: string][] = [],
): unknown {
  if (typeof value === 'string') {
    const ref = refOf(value);
    if (ref !== undefined) return `\${${ref}}`;
    const splice = prefixes.find(
      ([prefix]) => value.startsWith(prefix) && /^([/?#]|$)/.test(value.slice(prefix.length)),
    );
    if (splice) return `\${${splice[1]}}${escapeRefs(value.slice(splice[0].length))}`;
    return escapeRefs(value);
  }
  if (Array.isArray(value)) return value.map((v) => substitute(v, refOf, prefixes));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, refOf, prefixes)]));
  }
  return value;
}

/** A URL path and query with ids, keys and addresses replaced by references. */
export function substitutePath(url: string, refOf: (s: string) => string | undefined): string {
  const [path = '', query] = url.split('?', 2);
  const segments = path.split('/').map((segment) => {
    const decoded = safeDecode(segment);
    const ref = refOf(decoded);
    return ref === undefined ? segment : `\${${ref}}`;
  });
  if (query === undefined || query === '') return segments.join('/');
  const pairs = query.split('&').map((pair) => {
    const [k = '', v] = pair.split('=', 2);
    if (v === undefined) return pair;
    const ref = refOf(safeDecode(v.replace(/\+/g, ' ')));
    return ref === undefined ? pair : `${k}=\${${ref}}`;
  });
  return `${segments.join('/')}?${pairs.join('&')}`;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Every (path, string) pair of a JSON value, depth first: `['items', 0, 'id']` → `items.0.id`. */
export function* strings(value: unknown, path: string[] = []): Generator<[string[], string]> {
  if (typeof value === 'string') yield [path, value];
  else if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) yield* strings(v, [...path, String(i)]);
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) yield* strings(v, [...path, k]);
  }
}

export const isEmptyBody = (body: unknown): boolean =>
  body === undefined ||
  body === null ||
  (typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0);

/** The deepest nesting a recorded body keeps: the API's bodies nest a few levels at most. */
export const MAX_RECORDED_DEPTH = 32;

/**
 * A copy of a JSON value whose arrays and objects deeper than `maxDepth` levels are replaced by a
 * note. The copy's own recursion stops at `maxDepth`, and everything the recorder does with the
 * value afterwards (references, the YAML) walks the bounded copy: a client's 100,000-deep body
 * costs no stack. No body the API accepts nests that deep, so a replay means the same: the deep
 * part was an ignored key or the reason for the error, and stays one.
 */
export function clipDepth(value: unknown, maxDepth = MAX_RECORDED_DEPTH, depth = 0): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth >= maxDepth) return `<nested deeper than ${maxDepth} levels: not recorded>`;
  if (Array.isArray(value)) return value.map((v) => clipDepth(v, maxDepth, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, clipDepth(v, maxDepth, depth + 1)]));
}

/**
 * Delivery chaos set without a seed got one (the answer shows it): the recorded body carries it,
 * so a replay draws the same decisions. Other exchanges are returned as they are.
 */
export function withChaosSeed<T extends { method: string; route: string; body: unknown; response: unknown }>(
  ex: T,
): T {
  if (ex.method !== 'PATCH' || ex.route !== '/sandbox/webhook-endpoints/:id') return ex;
  const chaos = (ex.body as { chaos?: unknown } | null)?.chaos;
  const seed = (ex.response as { chaos?: { seed?: unknown } | null } | undefined)?.chaos?.seed;
  if (chaos === null || typeof chaos !== 'object' || 'seed' in chaos || typeof seed !== 'string') return ex;
  return { ...ex, body: { ...(ex.body as object), chaos: { seed, ...chaos } } };
}

export const topId = (response: unknown): string | undefined => {
  const id = (response as { id?: unknown } | null | undefined)?.id;
  return typeof id === 'string' ? id : undefined;
};

/**
 * The scenario file: steps in order, `as` kept only where a step refers to it; `recorded` says where
 * and when a session recorded against the real service was made.
 */
export function renderScenario(
  name: string,
  startedAt: string,
  steps: Record<string, unknown>[],
  recorded?: { upstream: string; at: string },
): string {
  const text = JSON.stringify(steps);
  const used = (ref: string) => text.includes(`\${${ref}.`) || text.includes(`\${${ref}}`);
  const kept = steps.map((step) => {
    if (typeof step.as !== 'string' || used(step.as)) return step;
    const { as: _unused, ...rest } = step;
    return rest;
  });
  // The replay starts at the sandbox time the recording started (frozen, so only the recorded clock
  // steps move it): absolute times in bodies (expires_at) mean the same thing in both.
  return stringify(
    { name, ...(recorded ? { recorded } : {}), clock: { start: startedAt, frozen: true }, steps: kept },
    { lineWidth: 0 },
  );
}
