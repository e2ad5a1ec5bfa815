import type { Coverage } from '../contract/coverage.js';
import { clientFor } from './client.js';
import { COMMON_HELP, json, noExtra, out, parse } from './common.js';

export const COVERAGE_USAGE = `Usage: svc-sandbox coverage [options]

Prints what the workspace reached since it was made or last reset: each event type of the spec and
each transition of its state machines (checkout, invoice, card, cardholder KYC, card application,
card transaction, reseller connection, payout, webhook delivery), with a count. Unreached entries
are marked with "--".

Options:
${COMMON_HELP}
Examples:
  svc-sandbox coverage --workspace ci-run-7
  svc-sandbox coverage --json > coverage.json
`;

export async function coverage(argv: string[]): Promise<number | 'help'> {
  const { values, positionals } = parse(argv, {});
  if (values.help) return 'help';
  noExtra(positionals, 1);
  const report = await clientFor(values).call('sandboxGetCoverage');
  if (values.json) json(report);
  else for (const line of coverageTable(report)) out(line);
  return 0;
}

/** The report as a text table: events, then each machine's transitions; unreached marked `--`. */
export function coverageTable(report: Coverage): string[] {
  const mark = (count: number) => (count === 0 ? '--' : String(count)).padStart(6);
  const reachedEvents = report.events.filter((e) => e.count > 0).length;
  const reachedMoves = report.transitions.filter((t) => t.count > 0).length;
  const lines = [
    `coverage: ${reachedEvents}/${report.events.length} event types, ${reachedMoves}/${report.transitions.length} transitions reached`,
    '',
    'events',
  ];
  const width = Math.max(...report.events.map((e) => e.type.length));
  for (const e of report.events) lines.push(`${mark(e.count)}  ${e.type.padEnd(width)}`);
  let machine = '';
  for (const t of report.transitions) {
    if (t.machine !== machine) {
      machine = t.machine;
      lines.push('', machine);
    }
    lines.push(`${mark(t.count)}  ${`${t.from} → ${t.to}`.padEnd(36)}  ${t.via}`);
  }
  return lines;
}
