import { writeFileSync } from 'node:fs';
import { addCoverage, type Coverage } from '../contract/coverage.js';
import type { Scenario } from '../scenarios/format.js';
import { type FileReport, junitXml } from '../scenarios/junit.js';
import { formatErrors } from '../scenarios/parse.js';
import { type RunOptions, runScenario, type ScenarioRun } from '../scenarios/run.js';
import { stepLabel } from '../scenarios/steps.js';
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
  workspaceOption,
} from './common.js';

export const RUN_USAGE = `Usage: svc-sandbox run FILE... [--junit report.xml] [--url URL [--keep | --workspace ID]]

Runs scenario files (YAML or JSON, see docs/scenarios.md) and prints each step with a tick or the
failure. Each file runs in a fresh world of its own with the file's seed and clock, so ids and
timestamps repeat: an in-memory sandbox started for it or, with --url, a fresh ephemeral workspace
of that running sandbox (no new process), deleted afterwards.

Options:
  --junit <file>    also write a JUnit XML report: one test suite per file, one test case per step
  --coverage <file> also write the coverage the files reached, added up over every file's world
                    (JSON, as GET /sandbox/coverage; svc-sandbox coverage explains it)
  --env <env>       environment of the steps that name none: test or production (default: the file's)
  --url <url>       run in this running sandbox, each file in a new ephemeral workspace
  --keep            with --url: keep each file's workspace afterwards (to look at it; the
                    sandbox forgets it when it stops)
  --workspace <id|name>
                    with --url: run every file in this existing workspace instead (its own
                    ids and clock; $SVC_SANDBOX_WORKSPACE does not apply here)
  --json            print each file's result as one JSON object per line (with its workspace)
  -h, --help        show this help

Exit codes: 0 every step held, 1 a step failed (or no sandbox answers at --url), 2 a file is
invalid (each problem printed as FILE:LINE: FIELD: MESSAGE; nothing is run) or a bad command line.

Examples (CI):
  npx svc-sandbox run scenarios/*.yaml --junit report.xml
  npx svc-sandbox run scenarios/*.yaml --url http://127.0.0.1:4010
`;

/** Where --url runs go: the sandbox, and the one workspace --workspace named, if any. */
interface Target {
  client: SandboxClient;
  urls: { test: string; production: string };
  controlToken: string | undefined;
  keep: boolean;
  /**
   * reads a workspace's coverage before it goes (with --coverage); `cumulative`: the workspace
   * every file runs in, whose count already holds the files before
   */
  collect: ((client: SandboxClient, cumulative?: boolean) => Promise<void>) | undefined;
}

interface Loaded {
  file: string;
  scenario?: Scenario;
  report?: FileReport;
}

function load(file: string): Loaded {
  const parsed = readScenarioFile(file);
  return parsed.ok ? { file, scenario: parsed.scenario } : { file, report: { file, invalid: parsed.errors } };
}

function printRun(run: ScenarioRun, scenario: Scenario): void {
  const ran = run.steps.length;
  for (const [i, step] of scenario.steps.entries()) {
    if (i < ran) continue;
    out(`  - ${i + 1} ${stepLabel(step)} (line ${step.line}): not run`);
  }
  const failed = run.steps.filter((s) => !s.ok).length;
  const skipped = scenario.steps.length - ran;
  out(
    `  ${run.ok ? 'passed' : 'FAILED'}: ${ran - failed} of ${scenario.steps.length} steps held` +
      `${failed ? `, ${failed} failed` : ''}${skipped ? `, ${skipped} not run` : ''}`,
  );
}

export async function run(argv: string[]): Promise<number | 'help'> {
  const { values, positionals } = parse(argv, {
    junit: { type: 'string' },
    env: { type: 'string' },
    keep: { type: 'boolean' },
    coverage: { type: 'string' },
  });
  if (values.help) return 'help';
  const files = positionals.slice(1);
  if (files.length === 0) throw new UsageError('run needs at least one scenario file');
  const env = envOption(values.env);
  const junit = values.junit as string | undefined;
  const asJson = values.json === true;
  if (values.url === undefined && (values.keep || values.workspace !== undefined))
    throw new UsageError(`--${values.keep ? 'keep' : 'workspace'} goes with --url (a running sandbox)`);
  if (values.keep && values.workspace !== undefined)
    throw new UsageError('give --keep or --workspace, not both (a named workspace is always kept)');
  const coverageFile = values.coverage as string | undefined;
  const coverages: Coverage[] = [];
  const collect = coverageFile
    ? async (client: SandboxClient, cumulative = false) => {
        const report = await client.call('sandboxGetCoverage');
        if (cumulative) coverages.splice(0);
        coverages.push(report);
      }
    : undefined;
  let target: Target | undefined;
  if (values.url !== undefined) {
    // Only the flag: a run against a sandbox makes its own workspaces unless told otherwise.
    const workspace = values.workspace === undefined ? undefined : workspaceOption(values);
    const client = new SandboxClient(baseUrl(values), workspace);
    const health = await client.call('sandboxGetHealth');
    target = { client, urls: health.urls, controlToken: controlToken(), keep: values.keep === true, collect };
  }

  const loaded = files.map(load);
  const invalid = loaded.filter((l) => l.report);
  if (invalid.length > 0) {
    for (const { file, report } of invalid) {
      if (report && 'invalid' in report)
        process.stderr.write(`${formatErrors(file, report.invalid).join('\n')}\n`);
    }
    process.stderr.write(
      `svc-sandbox: ${invalid.length} invalid scenario file${invalid.length === 1 ? '' : 's'}: nothing was run\n`,
    );
    if (junit)
      write(
        junit,
        invalid.map((l) => l.report!),
      );
    return 2;
  }

  const runFresh = target ? undefined : (await import('./fresh.js')).runFresh;
  const reports: FileReport[] = [];
  let allOk = true;
  for (const { file, scenario } of loaded) {
    if (!scenario) continue;
    if (!asJson) out(`${scenario.name} (${file})`);
    const options: RunOptions = {
      ...(env === undefined ? {} : { env }),
      onStep: (r) => {
        if (asJson) return;
        out(`  ${r.ok ? '✓' : '✗'} ${r.index} ${r.label}${r.ok ? '' : ` (line ${r.line})`}`);
        if (!r.ok && r.error) for (const line of r.error.split('\n')) out(`      ${line}`);
      },
    };
    const startedAt = new Date().toISOString();
    let result: ScenarioRun;
    let workspace: string | undefined;
    try {
      if (target) {
        const ran = await runInWorkspace(target, scenario, options, (line) => {
          if (!asJson) out(line);
        });
        result = ran.run;
        workspace = ran.workspace;
      } else
        result = await runFresh!(
          scenario,
          options,
          collect && ((url) => collect(new SandboxClient(url, undefined))),
        );
    } catch (error) {
      throw new CliFailure(`${file}: ${(error as Error).message}`);
    }
    if (asJson) json({ file, ...(workspace === undefined ? {} : { workspace }), ...result });
    else printRun(result, scenario);
    allOk &&= result.ok;
    reports.push({ file, scenario, run: result, started_at: startedAt });
  }
  if (junit) write(junit, reports);
  if (coverageFile) {
    try {
      writeFileSync(coverageFile, `${JSON.stringify(addCoverage(coverages), null, 2)}\n`);
    } catch (error) {
      throw new CliFailure(`cannot write ${coverageFile}: ${(error as Error).message}`);
    }
  }
  if (!asJson && files.length > 1) {
    const passed = reports.filter((r) => 'run' in r && r.run.ok).length;
    out(`${files.length} scenarios: ${passed} passed, ${files.length - passed} failed`);
  }
  return allOk ? 0 : 1;
}

function write(file: string, reports: FileReport[]): void {
  try {
    writeFileSync(file, junitXml(reports));
  } catch (error) {
    throw new CliFailure(`cannot write ${file}: ${(error as Error).message}`);
  }
}

/**
 * One file against a running sandbox: in the workspace --workspace named, else in a new ephemeral
 * workspace with the file's seed and clock, deleted afterwards (kept with --keep). Says which.
 */
async function runInWorkspace(
  target: Target,
  scenario: Scenario,
  options: RunOptions,
  say: (line: string) => void,
): Promise<{ run: ScenarioRun; workspace: string }> {
  const { client, urls, controlToken } = target;
  if (client.workspace !== undefined) {
    const named = await client.findWorkspace(client.workspace);
    say(`  in workspace ${named.id} (${named.name})`);
    const run = await runScenario({ urls, controlToken, workspace: named.id }, scenario, options);
    await target.collect?.(client.in(named.id), true);
    return { run, workspace: named.id };
  }
  const created = await client.call('sandboxCreateWorkspace', {
    body: {
      ephemeral: true,
      seed: scenario.seed,
      clock: { start: scenario.clock.start, frozen: scenario.clock.frozen },
    },
  });
  const remove = () =>
    client.call('sandboxDeleteWorkspace', { params: { id: created.id } }).catch((error: unknown) => {
      process.stderr.write(
        `svc-sandbox: could not delete workspace ${created.id}: ${(error as Error).message}\n`,
      );
    });
  // Interrupted mid-run (Ctrl-C, a CI job cancelled): the workspace goes too, not only at the end.
  const interrupted = (signal: NodeJS.Signals) => {
    void remove().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  if (!target.keep) {
    process.once('SIGINT', interrupted);
    process.once('SIGTERM', interrupted);
  }
  // Said once the handlers are in place: a signal sent on seeing this line finds them.
  say(
    target.keep
      ? `  in workspace ${created.id} (kept: --workspace ${created.id})`
      : `  in workspace ${created.id} (ephemeral, deleted afterwards)`,
  );
  try {
    const run = await runScenario({ urls, controlToken, workspace: created.id }, scenario, options);
    await target.collect?.(client.in(created.id));
    return { run, workspace: created.id };
  } finally {
    if (!target.keep) {
      process.off('SIGINT', interrupted);
      process.off('SIGTERM', interrupted);
      await remove();
    }
  }
}
