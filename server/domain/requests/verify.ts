import type {
  CountExpectation,
  RequestLogEntry,
  VerifiedRequest,
  VerifyRequestsBody,
  VerifyRequestsResult,
} from '../../contract/requests.js';

/** Matching requests listed in an answer, newest first. */
export const VERIFY_LIST_CAP = 20;
/** Near misses listed when a verification fails. */
export const NEAR_MISS_CAP = 3;

/** `/v1/checkouts/:id` and `/v1/checkouts/{checkout_id}` alike: each parameter is `{}`. */
const shape = (path: string) => path.replace(/:[^/]+/g, '{}').replace(/\{[^}/]*\}/g, '{}');

const show = (value: unknown): string => (value === undefined ? 'missing' : JSON.stringify(value));

function parse(text: string | null): unknown {
  if (text === null) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Where `actual` differs from the subset `expected`, as `field: expected …, actual …` lines. */
function subsetDifferences(field: string, expected: unknown, actual: unknown, out: string[]): void {
  if (expected !== null && typeof expected === 'object' && !Array.isArray(expected)) {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) {
      out.push(`${field}: expected an object, actual ${show(actual)}`);
      return;
    }
    for (const [key, value] of Object.entries(expected))
      subsetDifferences(`${field}.${key}`, value, (actual as Record<string, unknown>)[key], out);
    return;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) {
      out.push(`${field}: expected ${show(expected)}, actual ${show(actual)}`);
      return;
    }
    for (let i = 0; i < expected.length; i++)
      subsetDifferences(`${field}[${i}]`, expected[i], actual[i], out);
    return;
  }
  if (expected !== actual) out.push(`${field}: expected ${show(expected)}, actual ${show(actual)}`);
}

function statusMatches(wanted: number | string, status: number): boolean {
  if (typeof wanted === 'number') return wanted === status;
  if (wanted.endsWith('xx')) return Math.floor(status / 100) === Number(wanted[0]);
  return Number(wanted) === status;
}

/** What of `criteria` this request does not meet (empty: it matches). */
export function differences(criteria: VerifyRequestsBody, entry: RequestLogEntry): string[] {
  const out: string[] = [];
  const query = entry.path.indexOf('?');
  const path = query === -1 ? entry.path : entry.path.slice(0, query);
  if (criteria.method !== undefined && criteria.method.toUpperCase() !== entry.method)
    out.push(`method: expected ${criteria.method.toUpperCase()}, actual ${entry.method}`);
  if (
    criteria.path !== undefined &&
    criteria.path !== path &&
    (entry.route === null || shape(criteria.path) !== shape(entry.route))
  )
    out.push(`path: expected ${criteria.path}, actual ${path}`);
  if (criteria.env !== undefined && criteria.env !== entry.env)
    out.push(`env: expected ${criteria.env}, actual ${entry.env}`);
  if (criteria.status !== undefined && !statusMatches(criteria.status, entry.status))
    out.push(`status: expected ${criteria.status}, actual ${entry.status}`);
  if (criteria.query !== undefined) {
    const params = new URLSearchParams(query === -1 ? '' : entry.path.slice(query + 1));
    for (const [key, value] of Object.entries(criteria.query)) {
      const actual = params.get(key);
      if (actual !== value)
        out.push(
          `query.${key}: expected ${show(value)}, actual ${actual === null ? 'missing' : show(actual)}`,
        );
    }
  }
  if (criteria.body !== undefined) subsetDifferences('body', criteria.body, parse(entry.request_body), out);
  return out;
}

export function countMet(count: CountExpectation, matched: number): boolean {
  return (
    (count.eq === undefined || matched === count.eq) &&
    (count.gte === undefined || matched >= count.gte) &&
    (count.lte === undefined || matched <= count.lte)
  );
}

const brief = (entry: RequestLogEntry): VerifiedRequest => ({
  id: entry.id,
  created_at: entry.created_at,
  env: entry.env,
  method: entry.method,
  path: entry.path,
  status: entry.status,
  request_body: entry.request_body,
});

/**
 * Checks `criteria` against `entries` (newest first, already cut at `since`). The near misses are
 * the requests of the method asked for first (a POST that was not made is not explained by GETs),
 * then those with the fewest differing fields, newest first among equals.
 */
export function verify(
  criteria: VerifyRequestsBody,
  entries: readonly RequestLogEntry[],
): VerifyRequestsResult {
  const count: CountExpectation = criteria.count ?? { gte: 1 };
  const matching: RequestLogEntry[] = [];
  const misses: { entry: RequestLogEntry; differences: string[] }[] = [];
  for (const entry of entries) {
    const found = differences(criteria, entry);
    if (found.length === 0) matching.push(entry);
    else misses.push({ entry, differences: found });
  }
  const ok = countMet(count, matching.length);
  return {
    ok,
    matched: matching.length,
    count,
    requests: matching.slice(0, VERIFY_LIST_CAP).map(brief),
    near_misses: ok
      ? []
      : misses
          .map((miss, order) => ({ ...miss, order }))
          .sort(
            (a, b) =>
              otherMethod(criteria, a.entry) - otherMethod(criteria, b.entry) ||
              a.differences.length - b.differences.length ||
              a.order - b.order,
          )
          .slice(0, NEAR_MISS_CAP)
          .map(({ entry, differences: found }) => ({ request: brief(entry), differences: found })),
  };
}

/** 1 when the criteria name a method and the request used another, else 0 (for sorting near misses). */
const otherMethod = (criteria: VerifyRequestsBody, entry: RequestLogEntry): number =>
  criteria.method !== undefined && criteria.method.toUpperCase() !== entry.method ? 1 : 0;
