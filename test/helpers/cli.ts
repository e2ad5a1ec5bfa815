import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEveryTest } from './cleanup.js';

// The built CLI (`node dist/server/cli.js ...`) as a real child process, for the CLI tests.
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const CLI = join(ROOT, 'dist/server/cli.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

const children: ChildProcess[] = [];

afterEveryTest(() => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
});

/**
 * Builds the server (`npx tsc -p tsconfig.server.json`, or `command`) unless every path exists:
 * `npm test` builds first, a bare `vitest run` may find no build. Call it from a `beforeAll`.
 */
export function ensureBuilt(
  paths: string[] = [CLI],
  command: string[] = ['npx', 'tsc', '-p', 'tsconfig.server.json'],
): void {
  if (paths.every((path) => existsSync(path))) return;
  const [file, ...args] = command;
  execFileSync(file!, args, { cwd: ROOT, stdio: 'inherit' });
}

/** The environment of every child: no SVC_SANDBOX_URL from the caller's shell unless given. */
export function cliEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra };
  if (!('SVC_SANDBOX_URL' in extra)) delete env.SVC_SANDBOX_URL;
  return env;
}

export interface CliOptions {
  /** Working directory; the repository root unless given. */
  cwd?: string;
  /** Extra environment variables (see cliEnv). */
  env?: Record<string, string>;
}

/** Starts the CLI with piped stdout/stderr; it is killed after the test if still running. */
export function spawnCli(args: string[], options: CliOptions = {}): ChildProcess {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: options.cwd ?? ROOT,
    env: cliEnv(options.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return child;
}

/** Runs the CLI to completion; rejects (with its output) if it has not exited within `timeoutMs`. */
export function runCli(args: string[], options: CliOptions & { timeoutMs: number }): Promise<CliResult> {
  const child = spawnCli(args, options);
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () =>
        reject(new Error(`svc-sandbox ${args.join(' ')} did not exit\nstdout: ${stdout}\nstderr: ${stderr}`)),
      options.timeoutMs,
    );
    // 'close' (not 'exit'): both pipes are fully read by then.
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
