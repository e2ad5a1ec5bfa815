/// <reference lib="dom" />
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { resultsDir, setupDashboard } from './harness.js';

// The Scenarios page's parity check: a recorded session pasted in, replayed by the sandbox, and
// its differences shown grouped by kind, each naming its step and field.

const h = setupDashboard();
const byTestId = (id: string) => h.page.getByTestId(id);

const SESSION = readFileSync(
  fileURLToPath(new URL('../fixtures/parity/session.yaml', import.meta.url)),
  'utf8',
);

/** The fixture with step 7 recording an unknown checkout status and step 6's webhooks swapped. */
function drifted(): string {
  const doc = parseDocument(SESSION);
  doc.setIn(['steps', 6, 'recorded', 'body', 'status'], 'settling');
  (doc.getIn(['steps', 5, 'recorded', 'webhooks']) as { items: unknown[] }).items.reverse();
  return doc.toString();
}

describe('scenarios page: parity', () => {
  it('replays a pasted session and lists its differences by kind, with step and field', async () => {
    const { page } = h;
    page.setDefaultTimeout(15_000);
    await page.goto(h.dashboardUrl);
    await byTestId('nav-scenarios').click();

    await byTestId('parity-text').fill(drifted());
    await byTestId('parity-run').click();
    await byTestId('parity-report').waitFor();
    expect(await byTestId('parity-result').textContent()).toBe('2 differences');
    const enumDifference = byTestId('parity-kind-enum').getByTestId('parity-difference');
    expect(await enumDifference.textContent()).toMatch(
      /^Step 7 · line 440 · GET \/v1\/checkouts\/\$\{co\.id\}status recorded "settling", which the sandbox's contract does not list/,
    );
    const order = byTestId('parity-kind-webhook_order').getByTestId('parity-difference');
    expect(await order.textContent()).toMatch(
      /^Step 6 · line 367 · clock advance 2hwebhook:checkout\.partial out of order/,
    );
    await byTestId('parity').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(resultsDir, 'scenarios-parity.png'), fullPage: true });

    // Ignored paths are set aside and counted; an invalid session says where.
    await byTestId('parity-ignore').fill('status, webhook:*');
    await byTestId('parity-run').click();
    await page.locator('[data-testid="parity-report"][data-ok="true"]').waitFor();
    expect(await byTestId('parity-result').textContent()).toBe('Like the real service');
    await byTestId('parity-text').fill('name: broken\nsteps: []\n');
    await byTestId('parity-run').click();
    expect(await byTestId('parity-error').textContent()).toMatch(
      /invalid scenario: line 2: steps: must be a list/,
    );
  });
});
