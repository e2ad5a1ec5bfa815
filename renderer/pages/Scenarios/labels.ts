import type { RecordedResource } from '../../../server/contract/recording.js';
import { formatMoney } from '../../lib/format.js';

/**
 * An object created while recording, named the way the pages name it:
 * "Checkout · Espresso beans · 12.50 USDC" (and "· production" outside test), never its raw path.
 */
export function resourceLabel(resource: RecordedResource): string {
  const kind = resource.kind.charAt(0).toUpperCase() + resource.kind.slice(1);
  const parts = [kind];
  if (resource.title) parts.push(resource.title);
  if (resource.amount !== undefined && resource.currency)
    parts.push(formatMoney(resource.amount, resource.currency));
  if (resource.env !== 'test') parts.push(resource.env);
  return parts.join(' · ');
}

/** Every resource's label; two that read the same are told apart by their name in the file (co2). */
export function resourceLabels(resources: readonly RecordedResource[]): Map<string, string> {
  const labels = resources.map(resourceLabel);
  const count = new Map<string, number>();
  for (const label of labels) count.set(label, (count.get(label) ?? 0) + 1);
  return new Map(
    resources.map((r, i) => [r.path, count.get(labels[i]!)! > 1 ? `${labels[i]} (${r.name})` : labels[i]!]),
  );
}

/** How much of a failure shows before "Full message": about two lines of the runner's column. */
export const FAILURE_PREVIEW = 180;

export interface Failure {
  /** the message, cut to the preview length at a word where it can be */
  summary: string;
  /** whether the summary is the whole message */
  complete: boolean;
  /** `where: expected X, actual Y`, split, when the message has that form */
  diff?: { where: string; expected: string; actual: string };
}

/** JSON made readable (indented) when it is JSON; anything else as it is. */
function pretty(text: string): string {
  const trimmed = text.trim();
  if (!/^[[{"]/.test(trimmed)) return text;
  try {
    return JSON.stringify(JSON.parse(trimmed), null, 2);
  } catch {
    return text;
  }
}

/** A runner message as the page shows it: a short summary, and the full diff behind a disclosure. */
export function describeFailure(message: string): Failure {
  const firstLine = message.split('\n', 1)[0]!;
  let summary = firstLine;
  if (summary.length > FAILURE_PREVIEW) {
    const cut = summary.slice(0, FAILURE_PREVIEW);
    const space = cut.lastIndexOf(' ');
    summary = `${space > FAILURE_PREVIEW / 2 ? cut.slice(0, space) : cut}…`;
  }
  const match = /^(.*?): expected ([\s\S]*?), actual ([\s\S]*)$/.exec(message);
  if (!match) return { summary, complete: summary === message };
  const [, where = '', expected = '', actual = ''] = match;
  // A list of another length: "expected 0 items, actual 5: [...]".
  const counted = /^\d+ items?$/.test(expected) ? /^(\d+): ([\s\S]*)$/.exec(actual) : null;
  return {
    summary,
    complete: summary === message,
    diff: {
      where,
      expected: pretty(expected),
      actual: counted ? `${counted[1]} items: ${pretty(counted[2]!)}` : pretty(actual),
    },
  };
}
