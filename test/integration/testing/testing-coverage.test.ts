import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { coverageReport, startSandbox, type TestSandbox } from '../../../server/testing/index.js';
import { tempDir } from '../../helpers/sandbox.js';

// svc-sandbox/testing: coverage over a whole test run, added up from every workspace it closed.

let sandbox: TestSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

describe('coverageReport()', () => {
  it("adds up the run's workspaces and writes JSON and a Markdown table", async () => {
    sandbox = await startSandbox({ coverage: true });
    for (let i = 0; i < 3; i++) {
      const ws = await sandbox.workspace();
      const checkout = await ws.api<{ id: string }>('POST', '/v1/checkouts', {
        body: {
          title: `Order ${i}`,
          amount: 5_000_000,
          expires_at: new Date(Date.now() + 3600_000).toISOString(),
        },
      });
      if (i < 2) await ws.control('POST', `/checkouts/${checkout.id}/payments`);
      await ws.close();
    }
    const dir = tempDir();
    const report = coverageReport({ json: join(dir, 'c.json'), markdown: join(dir, 'c.md') });
    expect(report.workspaces).toBe(3);
    expect(report.events.find((e) => e.type === 'checkout.created')?.count).toBe(3);
    expect(report.events.find((e) => e.type === 'checkout.paid')?.count).toBe(2);
    const json = JSON.parse(readFileSync(join(dir, 'c.json'), 'utf8')) as typeof report;
    expect(json.transitions.find((t) => t.machine === 'checkout' && t.to === 'paid')?.count).toBe(2);
    const markdown = readFileSync(join(dir, 'c.md'), 'utf8');
    expect(markdown).toContain('over 3 workspaces');
    expect(markdown).toContain('| checkout.paid | 2 |');
    expect(markdown).toContain('| active | paid | payment detected on-chain | 2 |');
    expect(markdown).toContain('| checkout.refunded | **0 (unreached)** |');
  });
});
