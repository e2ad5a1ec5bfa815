import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Urls } from '../../../server/sandbox.js';
import { ensureBuilt, ROOT, runCli } from '../../helpers/cli.js';
import { callInWorkspace } from '../../helpers/http.js';
import { tempDir, testSandbox } from '../../helpers/sandbox.js';

/**
 * A recording made where money already sits, replayed the three ways QA runs one with the built
 * CLI: a fresh sandbox (`run`), an ephemeral workspace of a running sandbox (`run --url`), and the
 * very workspace that holds the money (`run --url --workspace`). Each is green; a changed amount
 * fails naming its step.
 */
const EXIT_TIMEOUT_MS = 60_000;

beforeAll(() => ensureBuilt([join(ROOT, 'dist/server/cli/run.js')]), 180_000);

type Json = Record<string, unknown>;

const call = (urls: Urls, ws: string, method: string, path: string, body?: object, key?: string) =>
  callInWorkspace(urls.test, ws, method, path, body, key);

const usdc = async (urls: Urls, ws: string, merchantId: string) =>
  ((await call(urls, ws, 'GET', `/sandbox/merchants/${merchantId}/balances`)) as unknown as Json[]).find(
    (b) => b.currency === 'USDC',
  );

describe('a recording made in a workspace that already holds money', () => {
  it('replays green in a fresh sandbox, an ephemeral workspace and that workspace; a changed amount fails', async () => {
    const sandbox = await testSandbox();
    const urls = await sandbox.listen();
    const ws = (await call(urls, 'default', 'POST', '/sandbox/workspaces', { name: 'qa' })).id as string;
    const made = await call(urls, ws, 'POST', '/sandbox/merchants', {
      name: 'Bean Shop',
      kyb_status: 'approved',
    });
    const merchant = made.merchant as { id: string };
    const inAnHour = () => new Date(sandbox.workspaces.require(ws).ctx.clock.now() + 3600_000).toISOString();
    const key = (made.api_key as { key: string }).key;
    // Earlier business: 24 USDC paid and settled.
    const earlier = await call(
      urls,
      ws,
      'POST',
      '/v1/checkouts',
      { title: 'Earlier', amount: 24_000_000, currency: 'USDC', expires_at: inAnHour() },
      key,
    );
    await call(urls, ws, 'POST', `/sandbox/checkouts/${earlier.id}/payments`, {});
    await call(urls, ws, 'POST', '/sandbox/clock/advance', { seconds: 3600 });
    const before = await usdc(urls, ws, merchant.id);
    expect(before?.available).toBeGreaterThan(0);

    await call(urls, ws, 'POST', '/sandbox/recording/start', { name: 'partial then paid' });
    const co = await call(
      urls,
      ws,
      'POST',
      '/v1/checkouts',
      { title: 'Beans', amount: 3_000_000, currency: 'USDC', expires_at: inAnHour() },
      key,
    );
    await call(urls, ws, 'POST', `/sandbox/checkouts/${co.id}/payments`, { amount: 1_000_000 });
    await call(urls, ws, 'POST', `/sandbox/checkouts/${co.id}/payments`, { amount: 2_000_000 });
    const { scenario } = await call(urls, ws, 'POST', '/sandbox/recording/stop');
    const text = scenario as string;
    // What the session moved, not what the merchant held.
    expect(text).toContain('held: 3000000');
    expect(text).not.toContain(`available: ${before?.available}`);

    const dir = tempDir();
    writeFileSync(join(dir, 'rec.yaml'), text);
    const changed = text.replace('amount: 2000000\n', 'amount: 2500000\n');
    expect(changed).not.toBe(text);
    writeFileSync(join(dir, 'changed.yaml'), changed);
    const run = (args: string[]) => runCli(['run', ...args], { cwd: dir, timeoutMs: EXIT_TIMEOUT_MS });

    const fresh = await run(['rec.yaml']);
    expect(fresh.code, fresh.stdout + fresh.stderr).toBe(0);
    const ephemeral = await run(['rec.yaml', '--url', urls.test]);
    expect(ephemeral.code, ephemeral.stdout + ephemeral.stderr).toBe(0);
    expect(ephemeral.stdout).toContain('ephemeral');
    const holding = await run(['rec.yaml', '--url', urls.test, '--workspace', ws]);
    expect(holding.code, holding.stdout + holding.stderr).toBe(0);
    // The workspace's own merchant kept what it held; the run made one of its own.
    expect((await usdc(urls, ws, merchant.id))?.available).toBe(before?.available);

    for (const args of [['changed.yaml'], ['changed.yaml', '--url', urls.test, '--workspace', ws]]) {
      const red = await run(args);
      expect(red.code, red.stdout).toBe(1);
      expect(red.stdout).toMatch(/✗ \d+ .*\(line \d+\)/);
      expect(red.stdout).toMatch(/2500000|2000000|3000000/);
    }
  }, 120_000);
});
