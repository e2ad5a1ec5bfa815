/// <reference lib="dom" />
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: scenario references (${cus.id}) are literal text here
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../server/sandbox.js';
import { parseScenario } from '../../server/scenarios/parse.js';
import { runScenario } from '../../server/scenarios/run.js';
import { resultsDir, setupDashboard } from './harness.js';

// The Scenarios page: a sequence recorded in the dashboard — clicks plus a /v1 call the
// test makes over HTTP — downloaded and run green in a fresh sandbox; a pasted scenario run from
// the page with its ticks.

const h = setupDashboard();
const byTestId = (id: string) => h.page.getByTestId(id);
const el = (selector: string) => h.page.locator(selector);

describe('scenarios page', () => {
  it('records clicks and /v1 calls, downloads the file, and the file replays green in a fresh sandbox', async () => {
    const { page } = h;
    const urls = h.sandbox.urls();
    page.setDefaultTimeout(8000);
    await page.goto(h.dashboardUrl);

    // Start recording: the indicator shows on every page from now on.
    await byTestId('nav-scenarios').click();
    await byTestId('recording-name').fill('dashboard repro');
    await byTestId('recording-start').click();
    await byTestId('recording-indicator').waitFor();
    expect(await byTestId('recording-indicator-steps').textContent()).toBe('0');

    // Clicks: a merchant, a checkout, a partial payment.
    await byTestId('nav-merchants').click();
    await byTestId('recording-indicator').waitFor();
    await byTestId('merchant-name-input').fill('Acme Ltd');
    await byTestId('create-merchant-submit').click();
    await el('[data-testid="api-key-row"][data-role="owner"]').waitFor();
    const ownerKey = (await byTestId('key-value').first().textContent())!;
    await byTestId('nav-checkouts').click();
    await byTestId('checkout-title-input').fill('Order #7');
    await byTestId('checkout-amount-input').fill('25');
    await byTestId('checkout-hours-input').fill('24');
    await byTestId('checkout-create-submit').click();
    await el('[data-testid="checkout-status"][data-status="active"]').waitFor();
    const checkoutId = (await byTestId('checkout-id').textContent())!;
    await byTestId('checkout-pay-amount').fill('10');
    await byTestId('checkout-pay-part').click();
    await el('[data-testid="checkout-received"]:text-is("10.00 USDC")').waitFor();
    // Expiry with something received: the checkout ends partial.
    await byTestId('checkout-expire').click();
    await el('[data-testid="checkout-status"][data-status="partial"]').waitFor();

    // The integration under test calls /v1 over HTTP meanwhile.
    const created = await fetch(`${urls.test}/v1/customers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ownerKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Ada Lovelace', email: 'ada@example.com' }),
    });
    expect(created.status).toBe(200);
    // Nine steps, counted live on the indicator (from the stream, no reload): each simulation is
    // followed by the state it left (the checkout read back, the merchant's balance).
    await el('[data-testid="recording-indicator-steps"]:text-is("9")').waitFor();

    // "Expect this checkout to be partial", then stop.
    await byTestId('nav-scenarios').click();
    await byTestId('recording-steps').waitFor();
    // The choices come from the recording's resources, read after the page shows.
    await expect
      .poll(() => byTestId('expect-resource').locator('option').allTextContents(), { timeout: 5_000 })
      .toEqual(['Checkout · Order #7 · 25.00 USDC', 'Customer · Ada Lovelace']);
    await byTestId('expect-resource').selectOption(`/v1/checkouts/${checkoutId}`);
    await byTestId('expect-add').click();
    await el('[data-testid="expect-last"]:has-text("status: partial")').waitFor();
    await el('[data-testid="recording-indicator-steps"]:text-is("10")').waitFor();
    await page.screenshot({ path: join(resultsDir, 'scenarios-recording.png'), fullPage: true });
    await byTestId('recording-stop').click();
    await byTestId('recorded-yaml').waitFor();
    await byTestId('recording-indicator').waitFor({ state: 'detached' });
    const shown = (await byTestId('recorded-yaml').textContent())!;
    expect(shown).toContain('merchant: acme_ltd');
    expect(shown).toContain('control: POST /sandbox/checkouts/${co1.id}/payments');
    expect(shown).toContain('control: POST /sandbox/checkouts/${co1.id}/expire');
    expect(shown).toContain('call: POST /v1/customers');
    expect(shown).not.toContain(checkoutId);
    // Outcomes: the partial payment's answer and events, and the state the expiry left.
    expect(shown).toContain('get: /sandbox/checkouts/${co1.id}');
    expect(shown).toContain('- checkout.partial');

    // The download is the file shown.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      byTestId('recorded-download').click(),
    ]);
    expect(download.suggestedFilename()).toBe('dashboard-repro.yaml');
    const file = join(resultsDir, 'dashboard-repro.yaml');
    await download.saveAs(file);
    const text = readFileSync(file, 'utf8');
    expect(text).toBe(shown);

    // It runs green from the page too, against this very sandbox (times are relative to its clock).
    await byTestId('recorded-to-runner').click();
    expect(await byTestId('scenario-text').inputValue()).toBe(shown);
    await byTestId('scenario-run').click();
    await el('[data-testid="scenario-result"][data-ok="true"]').waitFor();
    await expect
      .poll(() => el('li[data-testid^="scenario-step-"][data-ok="true"]').count(), { timeout: 5_000 })
      .toBe(10);

    // It runs green in a fresh sandbox, and ends where the recorded one is.
    const parsed = parseScenario(text);
    if (!parsed.ok) throw new Error(`downloaded scenario is invalid: ${JSON.stringify(parsed.errors)}`);
    const fresh = await createSandbox({
      ports: { test: 0, production: 0 },
      seed: parsed.scenario.seed,
      clock: { at: Date.parse(parsed.scenario.clock.start), frozen: parsed.scenario.clock.frozen },
    });
    try {
      const run = await runScenario({ urls: await fresh.listen() }, parsed.scenario);
      expect(run.steps.filter((s) => !s.ok)).toEqual([]);
      expect(run.ok).toBe(true);
      expect(run.steps.map((s) => s.kind)).toEqual([
        'merchant',
        'control',
        'control',
        'expect',
        'expect',
        'control',
        'expect',
        'expect',
        'call',
        'expect',
      ]);
      const [merchant] = (await fresh.apps.test.inject({ url: '/sandbox/merchants' })).json() as {
        id: string;
      }[];
      const checkouts = (
        await fresh.apps.test.inject({ url: `/sandbox/merchants/${merchant!.id}/checkouts?env=test` })
      ).json() as { title: string; status: string; paid_amount: number }[];
      expect(checkouts.map((c) => [c.title, c.status, c.paid_amount])).toEqual([
        ['Order #7', 'partial', 10_000_000],
      ]);
    } finally {
      await fresh.close();
    }
  }, 60_000);

  it('runs a pasted scenario against this sandbox with a tick per step, and shows a failed expectation', async () => {
    const { page } = h;
    page.setDefaultTimeout(8000);
    await page.goto(h.dashboardUrl);
    await byTestId('nav-scenarios').click();
    const scenario = [
      'name: pasted from a ticket',
      'steps:',
      '  - merchant: shop',
      '    body: { name: Pasted Shop }',
      '  - call: POST /v1/customers',
      '    merchant: shop',
      '    as: cus',
      '    body: { name: Ada }',
      '  - expect: { get: "/v1/customers/${cus.id}", merchant: shop, body: { name: Ada } }',
      '  - expect: { get: "/v1/customers/${cus.id}", merchant: shop, body: { name: Grace } }',
      '',
    ].join('\n');
    await byTestId('scenario-text').fill(scenario);
    await byTestId('scenario-run').click();

    for (const index of [1, 2, 3]) {
      await el(`[data-testid="scenario-step-${index}"][data-ok="true"]`).waitFor();
    }
    const failed = el('[data-testid="scenario-step-4"][data-ok="false"]');
    await failed.waitFor();
    expect(await failed.textContent()).toContain('body.name: expected "Grace", actual "Ada"');
    await el('[data-testid="scenario-result"][data-ok="false"]').waitFor();
    expect(await byTestId('scenario-result').textContent()).toBe('Failed: pasted from a ticket');
    await expect.poll(() => el('li[data-testid^="scenario-step-"]').count(), { timeout: 5_000 }).toBe(4);
    // It ran here: the merchant is in this sandbox now.
    const merchants = (await h.sandbox.apps.test.inject({ url: '/sandbox/merchants' })).json() as {
      name: string;
    }[];
    expect(merchants.map((m) => m.name)).toEqual(['Pasted Shop']);
    await page.screenshot({ path: join(resultsDir, 'scenarios-run.png'), fullPage: true });

    // Progress is live: a step shows while a later one (an event that never comes, looked for
    // during the runner's wait) still runs.
    await byTestId('scenario-text').fill(
      [
        'name: live progress',
        'steps:',
        '  - merchant: waiting',
        '  - expect: { event: { type: checkout.paid } }',
        '',
      ].join('\n'),
    );
    await byTestId('scenario-run').click();
    await el('[data-testid="scenario-step-1"][data-ok="true"]').waitFor();
    expect(await byTestId('scenario-run').textContent()).toBe('Running…');
    await expect.poll(() => el('li[data-testid^="scenario-step-"]').count(), { timeout: 5_000 }).toBe(1);
    await el('[data-testid="scenario-step-2"][data-ok="false"]').waitFor();
    expect(await byTestId('scenario-result').textContent()).toBe('Failed: live progress');

    // From the library, in production: the file loads into the editor and runs green there.
    await byTestId('scenario-library').selectOption('checkout.partial');
    await el('[data-testid="scenario-text"]:has-text("name: checkout.partial")').waitFor();
    await byTestId('scenario-env').selectOption('production');
    await byTestId('scenario-run').click();
    await el('[data-testid="scenario-result"][data-ok="true"]').waitFor();
    expect(await byTestId('scenario-result').textContent()).toBe('Passed: checkout.partial');
    await expect
      .poll(() => el('li[data-testid^="scenario-step-"][data-ok="true"]').count(), { timeout: 5_000 })
      .toBe(8);
    const all = (await h.sandbox.apps.test.inject({ url: '/sandbox/merchants' })).json() as {
      id: string;
      name: string;
    }[];
    const roaster = all.find((m) => m.name === 'Demo Coffee Roasters')!;
    const inProduction = (
      await h.sandbox.apps.test.inject({ url: `/sandbox/merchants/${roaster.id}/checkouts?env=production` })
    ).json() as { status: string }[];
    expect(inProduction.map((c) => c.status)).toEqual(['partial']);
  }, 60_000);

  it('exports the workspace as a bundle file and imports it back', async () => {
    const { page } = h;
    page.setDefaultTimeout(8000);
    const created = (
      await h.sandbox.apps.test.inject({
        method: 'POST',
        url: '/sandbox/merchants',
        payload: { name: 'Bundled Co' },
      })
    ).json() as { merchant: { id: string } };
    await page.goto(h.dashboardUrl);
    await byTestId('nav-scenarios').click();
    const [download] = await Promise.all([page.waitForEvent('download'), byTestId('bundle-export').click()]);
    expect(download.suggestedFilename()).toMatch(/^svc-sandbox-\d{4}-\d{2}-\d{2}\.svcbundle$/);
    const file = join(resultsDir, 'workspace.svcbundle');
    await download.saveAs(file);
    expect(readFileSync(file).subarray(0, 16).toString('latin1')).toBe('SQLite format 3\0');

    // The workspace is emptied, then the bundle brings the merchant back.
    await h.sandbox.apps.test.inject({ method: 'POST', url: '/sandbox/reset' });
    await byTestId('bundle-import').setInputFiles(file);
    // The import asks first (an empty workspace has nothing to lose).
    await el('[data-testid="import-confirm-text"]:has-text("Replace nothing")').waitFor();
    await byTestId('import-confirm-replace').click();
    await el('[data-testid="notice-success"]:has-text("Imported 1 merchant")').waitFor();
    const merchants = (await h.sandbox.apps.test.inject({ url: '/sandbox/merchants' })).json() as {
      id: string;
    }[];
    expect(merchants.map((m) => m.id)).toEqual([created.merchant.id]);
  }, 60_000);
});
