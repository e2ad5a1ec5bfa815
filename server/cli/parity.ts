import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { ParityReport } from '../contract/parity.js';
import {
  checkParity,
  checkParityInNewWorkspace,
  ignoreMatcher,
  type ParityOptions,
} from '../parity/index.js';
import { type ParityFileReport, parityJunit, textReport } from '../parity/report.js';
import type { Scenario } from '../scenarios/format.js';
import { formatErrors } from '../scenarios/parse.js';
import { SandboxClient } from './client.js';
import {
  baseUrl,
  CliFailure,
  controlToken,
  envOption,
  json,
  out,
  parse,
  readScenarioFile,
  UsageError,
} from './common.js';

export const PARITY_USAGE = `Usage: svc-sandbox parity FILE... [--junit report.xml] [--ignore <field path>]... [--url URL]

Replays sessions recorded against the real service (svc-sandbox record) in a fresh sandbox and
reports every place where the sandbox answers otherwise: status codes, fields missing, extra or of
another type, enum values the sandbox never produces, states reached differently, other values,
and webhooks missing, extra, out of order or with another payload. Each file runs in a world of
its own with the file's seed and clock: an in-memory sandbox started for it or, with --url, a
fresh ephemeral workspace of that running sandbox, deleted afterwards.

Options:
  --ignore <path>   accept the differences at this field path (repeatable):
                      checkout.metadata          that field and everything under it
                      payments.amount            every list item's amount (items are not named)
                      *.created_at               created_at at any depth (* is any run of fields)
                      webhook:card.transaction   every difference in that event's webhooks
                      webhook:checkout.paid.data.fee   one field of a webhook's payload
                      (status)                   status codes
  --junit <file>    also write a JUnit XML report: one test suite per file, one test case per
                    step with a recorded answer, failed with its differences
  --env <env>       environment of the steps that name none: test or production (default: the file's)
  --url <url>       replay in this running sandbox, each file in a new ephemeral workspace
  --json            print each file's report as one JSON object per line
  -h, --help        show this help

Exit codes: 0 no difference, 1 a difference (or no sandbox answers at --url), 2 an invalid file
(each problem printed as FILE:LINE: FIELD: MESSAGE; nothing is replayed) or a bad command line.

Example (CI):
  npx svc-sandbox parity sessions/*.yaml --junit parity.xml --ignore '*.updated_at'
`;

type Invalid = Extract<ParityFileReport, { invalid: unknown }>;

function load(file: string): { scenario: Scenario } | { invalid: Invalid } {
  const parsed = readScenarioFile(file);
  return parsed.ok ? { scenario: parsed.scenario } : { invalid: { file, invalid: parsed.errors } };
}

function write(file: string, reports: ParityFileReport[]): void {
  try {
    writeFileSync(file, parityJunit(reports));
  } catch (error) {
    throw new CliFailure(`cannot write ${file}: ${(error as Error).message}`);
  }
}

export async function parity(argv: string[]): Promise<number | 'help'> {
  const { values, positionals } = parse(argv, {
    junit: { type: 'string' },
    env: { type: 'string' },
    ignore: { type: 'string', multiple: true },
  });
  if (values.help) return 'help';
  const files = positionals.slice(1);
  if (files.length === 0) throw new UsageError('parity needs at least one session file');
  if (values.workspace !== undefined)
    throw new UsageError('parity replays each file in a fresh workspace: --workspace does not apply');
  const env = envOption(values.env);
  const junit = values.junit as string | undefined;
  const ignore = (values.ignore as unknown as string[] | undefined) ?? [];
  try {
    ignoreMatcher(ignore);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const options: ParityOptions = { ignore, ...(env === undefined ? {} : { env }) };
  const asJson = values.json === true;

  let sandbox: { urls: { test: string; production: string }; controlToken: string | undefined } | undefined;
  if (values.url !== undefined) {
    const health = await new SandboxClient(baseUrl(values), undefined).call('sandboxGetHealth');
    sandbox = { urls: health.urls, controlToken: controlToken() };
  }

  const loaded = files.map((file) => ({ file, ...load(file) }));
  const invalid = loaded.flatMap((l) => ('invalid' in l ? [l.invalid] : []));
  if (invalid.length > 0) {
    for (const report of invalid)
      process.stderr.write(`${formatErrors(report.file, report.invalid).join('\n')}\n`);
    process.stderr.write(
      `svc-sandbox: ${invalid.length} invalid session file${invalid.length === 1 ? '' : 's'}: nothing was replayed\n`,
    );
    if (junit) write(junit, invalid);
    return 2;
  }

  const fresh = sandbox ? undefined : await import('./fresh.js');
  const reports: ParityFileReport[] = [];
  for (const entry of loaded) {
    if (!('scenario' in entry)) continue;
    const { file, scenario } = entry;
    const startedAt = new Date().toISOString();
    const started = performance.now();
    let report: ParityReport;
    try {
      if (sandbox) report = await checkParityInNewWorkspace(scenario, sandbox, options);
      else {
        const { createSandbox } = await import('../sandbox.js');
        const own = await createSandbox(fresh!.freshSandboxOptions(scenario));
        try {
          report = await checkParity(scenario, { urls: await own.listen() }, options);
        } finally {
          await own.close();
        }
      }
    } catch (error) {
      throw new CliFailure(`${file}: ${(error as Error).message}`);
    }
    if (asJson) json({ file, ...report });
    else for (const line of textReport(file, report)) out(line);
    reports.push({
      file,
      scenario,
      report,
      started_at: startedAt,
      duration_ms: Math.round(performance.now() - started),
    });
  }
  if (junit) write(junit, reports);
  const drifted = reports.filter((r) => 'report' in r && !r.report.ok).length;
  if (!asJson && files.length > 1)
    out(`${files.length} sessions: ${files.length - drifted} like the sandbox, ${drifted} with differences`);
  return drifted === 0 ? 0 : 1;
}
