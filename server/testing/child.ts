import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** The line `serve` prints once both listeners are bound. */
const READY = /^svc-sandbox ready test=(\S+) production=(\S+) dashboard=(\S+)$/;

/** How long a stopping sandbox gets after SIGTERM before SIGKILL. */
const GRACE_MS = 3000;

export interface ChildSandbox {
  urls: { test: string; production: string; dashboard: string };
  stop(): Promise<void>;
}

/**
 * This package's built CLI. From the build (dist/server/testing.js, whose module URL the bundle
 * makes dist/server/testing/child.js) it is dist/server/cli.js; from the sources (server/testing/)
 * it is the build's, which must exist.
 */
function defaultCli(): string {
  for (const relative of ['../cli.js', '../../dist/server/cli.js']) {
    const path = fileURLToPath(new URL(relative, import.meta.url));
    if (existsSync(path)) return path;
  }
  throw new Error('svc-sandbox/testing: no built CLI (dist/server/cli.js); run `npm run build:server`');
}

/**
 * Starts `svc-sandbox serve` in memory on free ports and resolves with the addresses its ready
 * line names. The sandbox's own variables are left out of its environment: the flags say it all.
 */
export async function startChild(options: {
  cli?: string | undefined;
  seed?: string | undefined;
  controlToken?: string | undefined;
  timeoutMs?: number | undefined;
}): Promise<ChildSandbox> {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!name.startsWith('SVC_SANDBOX_')) env[name] = value;
  }
  const args = [options.cli ?? defaultCli(), 'serve', '--port', '0', '--prod-port', '0', '--db', ':memory:'];
  if (options.seed !== undefined) args.push('--seed', options.seed);
  if (options.controlToken !== undefined) args.push('--control-token', options.controlToken);
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
  // A test runner that exits without closing the sandbox takes it along.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  let urls: ChildSandbox['urls'];
  try {
    urls = await readyLine(child, options.timeoutMs ?? 20_000);
  } catch (error) {
    child.kill('SIGKILL');
    process.off('exit', killOnExit);
    throw error;
  }
  // Drained from now on: a full pipe would block the sandbox.
  child.stdout?.resume();
  child.stderr?.resume();
  return {
    urls,
    stop: () =>
      new Promise<void>((resolve) => {
        process.off('exit', killOnExit);
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), GRACE_MS);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

function readyLine(child: ChildProcess, timeoutMs: number): Promise<ChildSandbox['urls']> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    let stderr = '';
    const onStderr = (chunk: Buffer) => {
      stderr += chunk.toString();
    };
    const finish = (error: Error | undefined, urls?: ChildSandbox['urls']) => {
      clearTimeout(timer);
      lines.off('line', onLine);
      lines.close();
      child.off('exit', onExit);
      child.off('error', onError);
      child.stderr?.off('data', onStderr);
      if (error) reject(error);
      else resolve(urls!);
    };
    const onLine = (line: string) => {
      const match = READY.exec(line);
      if (match) finish(undefined, { test: match[1]!, production: match[2]!, dashboard: match[3]! });
    };
    const onExit = (code: number | null, signal: string | null) =>
      finish(new Error(`svc-sandbox serve exited (${signal ?? code}) before it was ready\n${stderr}`));
    const onError = (error: Error) => finish(new Error(`cannot start svc-sandbox serve: ${error.message}`));
    const timer = setTimeout(
      () => finish(new Error(`svc-sandbox serve not ready within ${timeoutMs} ms\n${stderr}`)),
      timeoutMs,
    );
    lines.on('line', onLine);
    child.stderr?.on('data', onStderr);
    child.once('exit', onExit);
    child.once('error', onError);
  });
}
