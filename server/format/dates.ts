/**
 * How a sandbox date reads, wherever a person sees one: the dashboard (renderer/lib/format.ts
 * re-exports these) and the hosted pages (their server-rendered HTML and their page script).
 *
 * One rule, written out by hand rather than through Intl: a browser's and Node's ICU data differ
 * by version ("Sep" or "Sept", a comma or not), and the hosted page is painted by the server and
 * then updated by the browser, so both must produce the same characters. Always UTC: the sandbox
 * clock is not the viewer's, and it is what the API returns and webhooks carry.
 *
 * This folder imports nothing (biome.json): the renderer bundles it, the server compiles it.
 */

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const two = (n: number) => String(n).padStart(2, '0');

const day = (at: Date) => `${two(at.getUTCDate())} ${MONTHS[at.getUTCMonth()]} ${at.getUTCFullYear()}`;

/** A timestamp (ISO text or epoch ms): "03 Dec 2026, 01:45 UTC"; text that is not a date as it is. */
export function formatTimestamp(value: string | number): string {
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) return String(value);
  return `${day(at)}, ${two(at.getUTCHours())}:${two(at.getUTCMinutes())} UTC`;
}

/** A running clock, to the second: "03 Dec 2026, 01:45:07 UTC". */
export function formatClock(value: string | number): string {
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) return String(value);
  return `${day(at)}, ${two(at.getUTCHours())}:${two(at.getUTCMinutes())}:${two(at.getUTCSeconds())} UTC`;
}

/**
 * A date without a time (an invoice's due date, "2026-12-31"), or a timestamp's day: "31 Dec 2026".
 * Text that is not a date is returned as it is.
 */
export function formatDay(value: string | number): string {
  const at = new Date(
    typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value,
  );
  return Number.isNaN(at.getTime()) ? String(value) : day(at);
}
