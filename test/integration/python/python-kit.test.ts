import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../../server/testing/index.js';
import { CLI, cliEnv, ensureBuilt, ROOT } from '../../helpers/cli.js';

/**
 * The Python kit (clients/python) as a Python project uses it: its example consumer project
 * (clients/python/example) set up in a folder of its own with a venv of its own, the kit installed
 * by pip from the wheel built now (scripts/python-kit-project.sh; the third-party packages come
 * from the venv scripts/python-kit-venv.sh caches outside the clone). Its suite runs with
 * `pytest -n 4` twice: against a sandbox the plugin starts itself (SVC_SANDBOX_COMMAND: this
 * checkout's built CLI), and against one already running (SVC_SANDBOX_URL). The kit's types are
 * checked with mypy --strict. Never skipped: without python3, venv or a package this fails,
 * saying what is missing.
 */

const run = promisify(execFile);

mkdirSync(join(ROOT, '.tmp'), { recursive: true });
const DIR = mkdtempSync(join(ROOT, '.tmp', 'python-kit-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

interface Outcome {
  code: number;
  /** stdout */
  stdout: string;
  /** stdout, then stderr */
  output: string;
}

/** Runs a program to its end, whatever its exit code. */
async function outcome(file: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv }) {
  try {
    const { stdout, stderr } = await run(file, args, {
      ...options,
      timeout: 600_000,
      maxBuffer: 32 * 1024 * 1024,
    });
    return { code: 0, stdout, output: `${stdout}${stderr}` } satisfies Outcome;
  } catch (error) {
    const failed = error as { code?: number | string; stdout?: string; stderr?: string; message: string };
    const code = typeof failed.code === 'number' ? failed.code : 1;
    const stdout = failed.stdout ?? '';
    return { code, stdout, output: `${stdout}${failed.stderr ?? failed.message}` } satisfies Outcome;
  }
}

/** The last lines of a program's output, for a failure's message. */
const tail = (text: string, lines = 60) => text.trimEnd().split('\n').slice(-lines).join('\n');

/** `tests`, `failures`, `errors` and `skipped` of a JUnit report. */
function junit(path: string): Record<'tests' | 'failures' | 'errors' | 'skipped', number> {
  const suite = /<testsuite\b[^>]*>/.exec(readFileSync(path, 'utf8'))?.[0] ?? '';
  const count = (name: string) => Number(new RegExp(`\\b${name}="(\\d+)"`).exec(suite)?.[1] ?? Number.NaN);
  return {
    tests: count('tests'),
    failures: count('failures'),
    errors: count('errors'),
    skipped: count('skipped'),
  };
}

/** This checkout's built CLI, as SVC_SANDBOX_COMMAND names it for the plugin. */
const COMMAND = `${process.execPath} ${CLI}`;

let python = '';
let kitVenv = '';

describe('the Python kit (clients/python) in a consumer project', () => {
  beforeAll(async () => {
    ensureBuilt();
    const venv = await outcome('bash', [join(ROOT, 'scripts/python-kit-venv.sh')], {});
    expect(venv.code, tail(venv.output)).toBe(0);
    kitVenv = venv.stdout.trim().split('\n').at(-1) ?? '';
    const project = await outcome('bash', [join(ROOT, 'scripts/python-kit-project.sh'), DIR], {});
    expect(project.code, tail(project.output)).toBe(0);
    python = project.stdout.trim().split('\n').at(-1) ?? '';
  }, 900_000);

  it('is installed from its wheel into the project, typed, and its plugin registered', async () => {
    const where = await outcome(
      python,
      [
        '-c',
        'import importlib.metadata as m, importlib.resources as r, svc_sandbox; ' +
          "print(svc_sandbox.__file__); print(r.files('svc_sandbox').joinpath('py.typed').is_file()); " +
          "print([e.value for e in m.entry_points(group='pytest11') if e.name == 'svc_sandbox'])",
      ],
      { cwd: DIR },
    );
    expect(where.code, where.output).toBe(0);
    expect(where.output.split('\n').slice(0, 3)).toEqual([
      expect.stringMatching(
        new RegExp(`^${DIR}/\\.venv/lib/python3\\.\\d+/site-packages/svc_sandbox/__init__\\.py$`),
      ),
      'True',
      "['svc_sandbox.pytest_plugin']",
    ]);
    // mypy --strict on the kit's sources ([tool.mypy] of its pyproject), its cache kept with the venv.
    const typed = await outcome(
      join(kitVenv, 'bin/python'),
      [
        '-m',
        'mypy',
        '--config-file',
        join(ROOT, 'clients/python/pyproject.toml'),
        '--cache-dir',
        join(kitVenv, '.mypy_cache'),
        join(ROOT, 'clients/python/src/svc_sandbox'),
      ],
      { cwd: join(ROOT, 'clients/python') },
    );
    expect(typed.code, typed.output).toBe(0);
    expect(typed.output).toMatch(/^Success: no issues found/m);
  }, 120_000);

  /** The example suite with `pytest -n 4`, its JUnit report read back. */
  async function suite(name: string, env: Record<string, string>) {
    const report = join(DIR, `${name}.xml`);
    const result = await outcome(
      python,
      ['-m', 'pytest', '-n', '4', '-p', 'no:cacheprovider', `--junitxml=${report}`, '-rfEs'],
      { cwd: DIR, env: { ...cliEnv(env), PYTHONDONTWRITEBYTECODE: '1' } },
    );
    expect(result.code, tail(result.output)).toBe(0);
    expect(result.output).toMatch(/4 workers \[\d+ items\]/);
    const counts = junit(report);
    expect(counts, tail(result.output)).toEqual({ ...counts, failures: 0, errors: 0, skipped: 0 });
    expect(counts.tests).toBeGreaterThanOrEqual(10);
    console.log(`python kit (${name}): ${counts.tests} tests passed, pytest -n 4`);
    return { counts, output: result.output };
  }

  let started = 0;

  it('passes against the sandbox the plugin starts (SVC_SANDBOX_COMMAND), workers in parallel', async () => {
    const { counts, output } = await suite('started', { SVC_SANDBOX_COMMAND: COMMAND });
    expect(output).toMatch(
      /svc-sandbox: starts svc-sandbox serve when a test needs it \(SVC_SANDBOX_COMMAND=/,
    );
    started = counts.tests;
  }, 300_000);

  it('passes against a sandbox already running (SVC_SANDBOX_URL), and leaves no workspace in it', async () => {
    const sandbox = await startSandbox({ mode: 'child', setEnv: false });
    try {
      // The command too: test_plugin.py starts sandboxes of its own, to see the plugin do it.
      const { counts, output } = await suite('running', {
        SVC_SANDBOX_URL: sandbox.urls.test,
        SVC_SANDBOX_COMMAND: COMMAND,
      });
      expect(output).toContain(`svc-sandbox: the sandbox at ${sandbox.urls.test} (SVC_SANDBOX_URL)`);
      expect(counts.tests).toBe(started);
      const listed = (await (await fetch(`${sandbox.urls.test}/sandbox/workspaces`)).json()) as {
        id: string;
      }[];
      expect(listed.map((w) => w.id)).toEqual(['default']);
    } finally {
      await sandbox.close();
    }
  }, 300_000);
});
