import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runCli, spawnCli } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/sandbox.js';

// `serve` configured the way a container is: environment variables only, no flags. The built CLI
// as a real process on 127.0.0.1; then client commands against it, with and without the token.

beforeAll(() => ensureBuilt(), 120_000);

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function readyLine(child: ChildProcess, stderr: () => string): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no ready line within 15 s; stderr: ${stderr()}`)),
      15_000,
    );
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (!line.startsWith('svc-sandbox ready ')) return;
      clearTimeout(timer);
      resolve(line);
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr()}`)));
  });
}

describe('serve from environment variables', () => {
  it('takes every setting from SVC_SANDBOX_*, and the client commands send the control token', async () => {
    const [port, prodPort] = [await freePort(), await freePort()];
    const db = join(tempDir(), 'from-env.db');
    const env = {
      SVC_SANDBOX_PORT: String(port),
      SVC_SANDBOX_PROD_PORT: String(prodPort),
      SVC_SANDBOX_HOST: '127.0.0.1',
      SVC_SANDBOX_DB: db,
      SVC_SANDBOX_SEED: 'env-seed',
      SVC_SANDBOX_PUBLIC_URL: 'http://sandbox.ci.example:8080',
      SVC_SANDBOX_ALLOW_REMOTE_CONTROL: 'true',
      SVC_SANDBOX_CONTROL_TOKEN: 'env-token',
    };
    const child = spawnCli(['serve'], { env });
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const ready = await readyLine(child, () => stderr);
    expect(ready).toBe(
      'svc-sandbox ready test=http://sandbox.ci.example:8080 production=http://sandbox.ci.example:' +
        `${prodPort} dashboard=http://sandbox.ci.example:8080/`,
    );
    expect(stderr).toMatch(/remote control is on \(--allow-remote-control\), with a control token/);

    const local = `http://127.0.0.1:${port}`;
    const refused = await fetch(`${local}/sandbox/clock`);
    expect(refused.status).toBe(401);
    // The public URL's host is accepted as a Host; health answers without the token.
    const health = await fetch(`${local}/sandbox/health`);
    expect(((await health.json()) as { urls: { test: string } }).urls.test).toBe(
      'http://sandbox.ci.example:8080',
    );

    // Client commands read the same variable the server does.
    const withToken = await runCli(['merchants', 'create', 'Acme', '--json', '--url', local], {
      env: { SVC_SANDBOX_CONTROL_TOKEN: 'env-token' },
      timeoutMs: 15_000,
    });
    expect(withToken.stderr).toBe('');
    expect(withToken.code).toBe(0);
    expect(JSON.parse(withToken.stdout).merchant.name).toBe('Acme');
    const withoutToken = await runCli(['merchants', 'list', '--url', local], {
      env: { SVC_SANDBOX_CONTROL_TOKEN: '' },
      timeoutMs: 15_000,
    });
    expect(withoutToken.code).toBe(1);
    expect(withoutToken.stderr).toMatch(/401 .*control token/);

    // The database file came from the environment too: a restart on it finds the merchant.
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    const again = spawnCli(['serve'], { env });
    let stderr2 = '';
    again.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr2 += chunk;
    });
    await readyLine(again, () => stderr2);
    const listed = await runCli(['merchants', 'list', '--json', '--url', local], {
      env: { SVC_SANDBOX_CONTROL_TOKEN: 'env-token' },
      timeoutMs: 15_000,
    });
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain('Acme');
    again.kill('SIGTERM');
    await new Promise((resolve) => again.once('exit', resolve));
  }, 60_000);

  it('refuses a bad variable with the usage and exit 2, naming the variable', async () => {
    const result = await runCli(['serve'], {
      env: { SVC_SANDBOX_ALLOW_REMOTE_CONTROL: 'sometimes' },
      timeoutMs: 10_000,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/SVC_SANDBOX_ALLOW_REMOTE_CONTROL must be true or false/);
    const help = await runCli(['serve', '--help'], { timeoutMs: 10_000 });
    expect(help.stdout).toContain('SVC_SANDBOX_PUBLIC_URL');
    expect(help.stdout).toContain('SVC_SANDBOX_CONTROL_TOKEN');
  }, 30_000);
});
