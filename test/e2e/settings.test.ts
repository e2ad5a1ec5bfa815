/// <reference lib="dom" />
import { describe, expect, it } from 'vitest';
import { dashboardUrl, page, sandbox, setupDashboard } from './harness.js';

setupDashboard();

const byTestId = (id: string) => page.getByTestId(id);
const settings = async () =>
  (await sandbox.apps.test.inject({ url: '/sandbox/settings' })).json() as Record<string, unknown>;

describe('settings view', () => {
  it('saves settings in human units, refuses bad input in the field’s own unit', async () => {
    await page.goto(`${dashboardUrl}#/settings`);
    await byTestId('settings-form').waitFor();
    expect(await byTestId('settings-settlement-delay').inputValue()).toBe('1');
    expect(await byTestId('settings-settlement-unit').inputValue()).toBe('minutes');

    // Bad input: a days field speaks of days; nothing is sent.
    await byTestId('settings-settlement-unit').selectOption('days');
    await byTestId('settings-settlement-delay').fill('45');
    await byTestId('settings-platform-rate').fill('abc');
    await byTestId('settings-save').click();
    const delayError = await byTestId('settings-settlement-delay-error').textContent();
    expect(delayError).toBe('The settlement delay is at most 30 days.');
    expect(delayError).not.toMatch(/second/);
    expect(await byTestId('settings-platform-rate-error').textContent()).toContain('percentage');
    expect((await settings()).settlement_delay_seconds).toBe(60);

    // Good input: saved through the API in its units (bps, seconds, ms).
    await byTestId('settings-settlement-delay').fill('2');
    await byTestId('settings-platform-rate').fill('1.5');
    await byTestId('settings-webhook-timeout').fill('2.5');
    await byTestId('settings-application-review').selectOption('manual');
    await byTestId('settings-rate-limit').fill('0');
    await byTestId('settings-save').click();
    await byTestId('notice-success').filter({ hasText: 'Settings saved.' }).waitFor();
    expect(await settings()).toMatchObject({
      platform_rate: 150,
      settlement_delay_seconds: 2 * 86400,
      webhook_timeout_ms: 2500,
      application_review: 'manual',
      rate_limit_per_minute: 0,
    });

    // A script's change shows in the form (it is not being edited).
    await sandbox.apps.test.inject({
      method: 'PATCH',
      url: '/sandbox/settings',
      payload: { concurrency_limit: 3 },
    });
    await page.locator('[data-testid="settings-concurrency-limit"][value="3"]').waitFor({ timeout: 1000 });
  });

  it('edits a token’s limits and gas fee in its own units', async () => {
    await page.goto(`${dashboardUrl}#/settings`);
    const row = page.locator('[data-testid="token-row"][data-token="ethereum/USDC"]');
    expect(await row.textContent()).toContain('Ethereum');
    expect(await row.textContent()).toContain('10.00 USDC');
    await row.getByTestId('token-edit').click();
    const editor = byTestId('token-editor');
    expect(await editor.getByTestId('token-min').inputValue()).toBe('10.00');

    await editor.getByTestId('token-min').fill('50');
    await editor.getByTestId('token-max').fill('20');
    await editor.getByTestId('token-save').click();
    expect(await editor.getByTestId('token-error').textContent()).toBe(
      'The minimum (50.00 USDC) is above the maximum (20.00 USDC).',
    );

    await editor.getByTestId('token-max').fill('');
    await editor.getByTestId('token-gas').fill('0.5');
    await editor.getByTestId('token-save').click();
    await row.filter({ hasText: '50.00 USDC' }).waitFor();
    const chains = (await settings()).chains as { chain: string; tokens: { name: string }[] }[];
    expect(chains.find((c) => c.chain === 'ethereum')?.tokens.find((t) => t.name === 'USDC')).toMatchObject({
      min: 50_000_000,
      max: 0,
      gas_fee: 500_000,
    });
  });

  it('sets the selected merchant’s KYB status and resets the workspace after confirmation', async () => {
    const created = (
      await sandbox.apps.test.inject({
        method: 'POST',
        url: '/sandbox/merchants',
        payload: { name: 'KYB Co', kyb_status: 'pending' },
      })
    ).json() as { merchant: { id: string } };
    await page.goto(`${dashboardUrl}#/settings`);
    await byTestId('settings-kyb-status').waitFor();
    expect(await byTestId('settings-kyb-status').inputValue()).toBe('pending');
    await byTestId('settings-kyb-status').selectOption('approved');
    await byTestId('notice-success').filter({ hasText: 'KYB approved' }).waitFor();
    const merchants = (await sandbox.apps.test.inject({ url: '/sandbox/merchants' })).json() as {
      id: string;
      kyb_status: string;
    }[];
    expect(merchants.find((m) => m.id === created.merchant.id)?.kyb_status).toBe('approved');

    await byTestId('workspace-reset').click();
    expect((await sandbox.apps.test.inject({ url: '/sandbox/merchants' })).json()).toHaveLength(1);
    await byTestId('workspace-reset-confirm').click();
    await byTestId('settings-kyb').getByText('No merchant yet').waitFor();
    expect((await sandbox.apps.test.inject({ url: '/sandbox/merchants' })).json()).toEqual([]);
  });
});
