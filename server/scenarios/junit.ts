/**
 * JUnit XML for CI systems (GitLab, Jenkins, GitHub test reporters): one <testsuite> per scenario
 * file, one <testcase> per step; a failed step has a <failure>, a step not run after a failure is
 * <skipped>, and an invalid file is a suite with one failed case listing its problems.
 */
import type { Scenario } from './format.js';
import type { ScenarioError } from './parse.js';
import type { ScenarioRun } from './run.js';
import { stepLabel } from './steps.js';

export type FileReport =
  | { file: string; invalid: ScenarioError[] }
  | { file: string; scenario: Scenario; run: ScenarioRun; started_at: string };

/** Text safe in XML content and attribute values (characters XML cannot hold are dropped). */
export function xmlEscape(text: string): string {
  return (
    text
      // biome-ignore lint/suspicious/noControlCharactersInRegex: removing what XML 1.0 forbids
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&apos;')
  );
}

const attrs = (values: Record<string, string | number>) =>
  Object.entries(values)
    .map(([k, v]) => ` ${k}="${xmlEscape(String(v))}"`)
    .join('');

const seconds = (ms: number) => (ms / 1000).toFixed(3);

interface Case {
  name: string;
  line: number;
  ms: number;
  failure?: string;
  skipped?: string;
}

function suite(report: FileReport): {
  xml: string;
  tests: number;
  failures: number;
  skipped: number;
  ms: number;
} {
  let name: string;
  let cases: Case[];
  let timestamp: string | undefined;
  if ('invalid' in report) {
    name = report.file;
    const message = report.invalid.map((e) => `${report.file}:${e.line}: ${e.path}: ${e.message}`).join('\n');
    cases = [{ name: 'valid scenario file', line: report.invalid[0]?.line ?? 1, ms: 0, failure: message }];
  } else {
    name = report.scenario.name;
    timestamp = report.started_at;
    const failedAt = report.run.steps.find((s) => !s.ok && s.kind !== 'expect');
    cases = report.scenario.steps.map((step, i) => {
      const result = report.run.steps[i];
      const label = `${i + 1} ${result?.label ?? stepLabel(step)}`;
      if (!result) {
        return {
          name: label,
          line: step.line,
          ms: 0,
          skipped: `not run: step ${failedAt?.index ?? '?'} failed before it`,
        };
      }
      return {
        name: label,
        line: result.line,
        ms: result.duration_ms,
        ...(result.ok ? {} : { failure: result.error ?? 'failed' }),
      };
    });
  }
  const failures = cases.filter((c) => c.failure !== undefined).length;
  const skipped = cases.filter((c) => c.skipped !== undefined).length;
  const ms = cases.reduce((sum, c) => sum + c.ms, 0);
  const body = cases
    .map((c) => {
      const open = `    <testcase${attrs({ name: c.name, classname: name, file: report.file, line: c.line, time: seconds(c.ms) })}`;
      if (c.failure !== undefined) {
        const first = c.failure.split('\n')[0]!;
        return `${open}>\n      <failure${attrs({ message: first, type: 'ScenarioFailure' })}>${xmlEscape(c.failure)}</failure>\n    </testcase>`;
      }
      if (c.skipped !== undefined)
        return `${open}>\n      <skipped${attrs({ message: c.skipped })}/>\n    </testcase>`;
      return `${open}/>`;
    })
    .join('\n');
  const head = attrs({
    name,
    file: report.file,
    tests: cases.length,
    failures,
    errors: 0,
    skipped,
    time: seconds(ms),
    ...(timestamp === undefined ? {} : { timestamp }),
  });
  return { xml: `  <testsuite${head}>\n${body}\n  </testsuite>`, tests: cases.length, failures, skipped, ms };
}

export function junitXml(reports: FileReport[]): string {
  const suites = reports.map(suite);
  const total = (key: 'tests' | 'failures' | 'skipped' | 'ms') => suites.reduce((sum, s) => sum + s[key], 0);
  const head = attrs({
    name: 'svc-sandbox scenarios',
    tests: total('tests'),
    failures: total('failures'),
    errors: 0,
    skipped: total('skipped'),
    time: seconds(total('ms')),
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites${head}>\n${suites.map((s) => s.xml).join('\n')}\n</testsuites>\n`;
}
