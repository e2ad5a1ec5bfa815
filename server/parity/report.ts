/**
 * How a parity report reads: as text grouped by kind (the CLI), and as JUnit XML (CI), one test
 * suite per session file and one test case per compared step, failed with its differences.
 */
import type { ParityDifference, ParityDifferenceKind, ParityReport } from '../contract/parity.js';
import type { Scenario } from '../scenarios/format.js';
import { xmlEscape } from '../scenarios/junit.js';
import type { ScenarioError } from '../scenarios/parse.js';
import { stepLabel } from '../scenarios/steps.js';

/** Each kind's heading, in the order reports list them. */
export const KIND_TITLES: Record<ParityDifferenceKind, string> = {
  status: 'Status codes',
  missing: 'Fields the sandbox does not give',
  extra: 'Fields only the sandbox gives',
  type: 'Fields of another type or format',
  enum: 'Enum values the sandbox never produces',
  state: 'States reached differently',
  value: 'Other values',
  webhook_missing: 'Webhooks the sandbox does not send',
  webhook_extra: 'Webhooks only the sandbox sends',
  webhook_order: 'Webhooks out of order',
  webhook_shape: 'Webhook payloads of another shape',
  replay: 'Steps the sandbox could not replay',
};

const KINDS = Object.keys(KIND_TITLES) as ParityDifferenceKind[];

/** One line per difference: where (step, line, label, field) and what each side had. */
export const differenceLine = (d: ParityDifference): string =>
  `step ${d.step.index} (line ${d.step.line}, ${d.step.label}): ${d.path}: ${d.message}`;

/** The differences by kind, in the order of KIND_TITLES, each kind with its count. */
export function byKind(
  differences: readonly ParityDifference[],
): { kind: ParityDifferenceKind; title: string; differences: ParityDifference[] }[] {
  return KINDS.map((kind) => ({
    kind,
    title: KIND_TITLES[kind],
    differences: differences.filter((d) => d.kind === kind),
  })).filter((group) => group.differences.length > 0);
}

/** The text report of one session: a summary line, then each kind with its differences. */
export function textReport(file: string, report: ParityReport): string[] {
  const n = report.differences.length;
  const ignored = report.ignored > 0 ? ` (${report.ignored} ignored)` : '';
  const lines = [
    `${report.name} (${file}): ${n === 0 ? 'no difference' : `${n} difference${n === 1 ? '' : 's'}`} in ${report.compared} compared step${report.compared === 1 ? '' : 's'} of ${report.steps}${ignored}`,
  ];
  for (const group of byKind(report.differences)) {
    lines.push(`  ${group.title} (${group.differences.length})`);
    for (const d of group.differences) lines.push(`    ${differenceLine(d)}`);
  }
  return lines;
}

export type ParityFileReport =
  | { file: string; invalid: ScenarioError[] }
  | { file: string; scenario: Scenario; report: ParityReport; started_at: string; duration_ms: number };

const attrs = (values: Record<string, string | number>) =>
  Object.entries(values)
    .map(([k, v]) => ` ${k}="${xmlEscape(String(v))}"`)
    .join('');

/** JUnit XML: a suite per file, a case per step with a recorded answer; a difference fails its case. */
export function parityJunit(reports: readonly ParityFileReport[]): string {
  let tests = 0;
  let failures = 0;
  const suites = reports.map((r) => {
    const cases: { name: string; line: number; failure?: string }[] = [];
    let name: string;
    let extra: Record<string, string> = {};
    if ('invalid' in r) {
      name = r.file;
      cases.push({
        name: 'valid session file',
        line: r.invalid[0]?.line ?? 1,
        failure: r.invalid.map((e) => `${r.file}:${e.line}: ${e.path}: ${e.message}`).join('\n'),
      });
    } else {
      name = r.scenario.name;
      extra = { timestamp: r.started_at };
      for (const [i, step] of r.scenario.steps.entries()) {
        const differences = r.report.differences.filter((d) => d.step.index === i + 1);
        const recorded = 'recorded' in step && step.recorded !== undefined;
        if (!recorded && differences.length === 0) continue;
        cases.push({
          name: `${i + 1} ${stepLabel(step)}`,
          line: step.line,
          ...(differences.length === 0
            ? {}
            : {
                failure: differences.map((d) => `${KIND_TITLES[d.kind]}: ${d.path}: ${d.message}`).join('\n'),
              }),
        });
      }
    }
    const failed = cases.filter((c) => c.failure !== undefined).length;
    tests += cases.length;
    failures += failed;
    const time = 'invalid' in r ? 0 : r.duration_ms / 1000;
    const body = cases
      .map((c) => {
        const open = `    <testcase${attrs({ name: c.name, classname: name, file: r.file, line: c.line, time: '0.000' })}`;
        if (c.failure === undefined) return `${open}/>`;
        return `${open}>\n      <failure${attrs({ message: c.failure.split('\n')[0]!, type: 'ParityDifference' })}>${xmlEscape(c.failure)}</failure>\n    </testcase>`;
      })
      .join('\n');
    const head = attrs({
      name,
      file: r.file,
      tests: cases.length,
      failures: failed,
      errors: 0,
      skipped: 0,
      time: time.toFixed(3),
      ...extra,
    });
    return `  <testsuite${head}>\n${body}\n  </testsuite>`;
  });
  const head = attrs({ name: 'svc-sandbox parity', tests, failures, errors: 0, skipped: 0 });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites${head}>\n${suites.join('\n')}\n</testsuites>\n`;
}
