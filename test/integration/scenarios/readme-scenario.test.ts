import { execFile, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { testSandbox } from '../../helpers/sandbox.js';

const readme = readFileSync(join(import.meta.dirname, '../../../README.md'), 'utf8');
const has = (tool: string) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;

/** The README's "A scripted scenario", exactly as written, with its base URL pointed at a live sandbox. */
function scenario(base: string): string {
  const block = /### A scripted scenario\s+```sh\n([\s\S]*?)```/.exec(readme)?.[1];
  if (!block) throw new Error('README: no "A scripted scenario" sh block');
  return `set -eu\n${block.replace(/^B=.*$/m, `B=${base}`)}\necho "ID=$ID"\n`;
}

describe('the README scripted scenario', () => {
  it.skipIf(!has('curl') || !has('jq'))(
    'works on every run, also after an earlier run advanced the clock (needs curl and jq)',
    { timeout: 30_000 },
    async () => {
      const sandbox = await testSandbox();
      const { test } = await sandbox.listen();
      for (const run of [1, 2, 3]) {
        // Asynchronously: the sandbox answers curl from this very process.
        const result = await promisify(execFile)('bash', ['-c', scenario(test)], { timeout: 20_000 });
        const id = /ID=([0-9a-f-]{36})/.exec(result.stdout)?.[1];
        expect(id, `run ${run}: ${result.stdout}`).toBeDefined();
        const res = await sandbox.apps.test.inject({ method: 'GET', url: `/sandbox/checkouts/${id}` });
        const { checkout } = res.json() as { checkout: { status: string; paid_amount: number } };
        expect(checkout.status, `run ${run}`).toBe('partial');
        expect(checkout.paid_amount).toBe(10_000_000);
      }
    },
  );
});
