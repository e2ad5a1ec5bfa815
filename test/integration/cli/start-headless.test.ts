import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { afterEveryTest } from '../../helpers/cleanup.js';
import { CLI, cliEnv, ensureBuilt, ROOT } from '../../helpers/cli.js';

// `npm start` where Electron's binary is absent (CI, containers, a skipped download): it runs the
// sandbox headless, the documented path there, and says so in one line with no repair advice.

beforeAll(() => ensureBuilt([CLI]), 180_000);

const started: ReturnType<typeof spawn>[] = [];
// SIGTERM, which start.js forwards to the sandbox it started (in a process group of its own, so a
// SIGKILL of start.js would leave that sandbox running); SIGKILL only if it has not ended in 5 s.
afterEveryTest(async () => {
  await Promise.all(
    started.splice(0).map(async (child) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const ended = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await ended;
      clearTimeout(timer);
    }),
  );
});

/** Runs scripts/start.js until its ready line; resolves with everything it printed by then. */
function startUntilReady(env: Record<string, string>): Promise<{ stdout: string; stderr: string }> {
  const child = spawn(
    process.execPath,
    [join(ROOT, 'scripts/start.js'), '--port', '0', '--prod-port', '0', '--db', ':memory:'],
    {
      cwd: ROOT,
      env: { ...cliEnv(env), DISPLAY: '', WAYLAND_DISPLAY: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  started.push(child);
  let stdout = '';
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line\n${stdout}\n${stderr}`)), 15_000);
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (/svc-sandbox ready /.test(stdout)) {
        clearTimeout(timer);
        resolve({ stdout, stderr });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`start.js exited (${code})\n${stdout}\n${stderr}`));
    });
  });
}

it("says in one line that it runs headless because Electron's binary is absent, and nothing about deleting it", async () => {
  // Wherever the tests run, Electron's binary is then missing: its package points at this folder.
  const { stdout, stderr } = await startUntilReady({
    ELECTRON_OVERRIDE_DIST_PATH: join(ROOT, '.tmp', 'no-electron'),
  });
  const first = stdout.split('\n')[0];
  expect(first).toBe(
    "svc-sandbox: running headless (Electron's binary is not installed here); open the dashboard URL below in a browser.",
  );
  expect(`${stdout}${stderr}`).not.toMatch(/delete|failed to install|try installing/i);
  const ready = /^svc-sandbox ready test=(http:\/\/127\.0\.0\.1:\d+) /.exec(stdout.split('\n')[1] ?? '');
  expect(ready).not.toBeNull();
  // Stopped as a user stops it (SIGTERM, or Ctrl-C), the sandbox it started stops too.
  const child = started[0]!;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  await exited;
  await expect(
    fetch(`${ready![1]}/sandbox/health`, { signal: AbortSignal.timeout(2_000) }),
  ).rejects.toThrow();
});
