/// <reference lib="dom" />
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dashboardUrl, page, resultsDir, sandbox, setupDashboard } from './harness.js';

// The dashboard in real Chromium against a real sandbox: the page is served by the sandbox itself,
// exactly as the Electron window and `svc-sandbox serve` show it.

// The README's hero shot (docs/screenshot.png) is the Checkouts page, taken by flows.test.ts when
// UPDATE_SCREENSHOT is set; this one is for looking at after a run.
const screenshotPath = join(resultsDir, 'merchants.png');

setupDashboard();

const byTestId = (id: string) => page.getByTestId(id);
const keyRow = (role: string, status?: 'active' | 'revoked') =>
  page.locator(
    `[data-testid="api-key-row"][data-role="${role}"]${status ? `[data-status="${status}"]` : ''}`,
  );

async function createMerchant(name: string, country: string) {
  await byTestId('nav-merchants').click();
  await byTestId('merchant-name-input').fill(name);
  await byTestId('merchant-country-input').fill(country);
  await byTestId('create-merchant-submit').click();
  await byTestId('merchant-name').filter({ hasText: name }).waitFor();
}

async function controlPost(url: string, payload: object) {
  const response = await sandbox.apps.test.inject({ method: 'POST', url, payload });
  if (response.statusCode !== 200) throw new Error(`POST ${url}: ${response.statusCode} ${response.body}`);
  return response.json();
}

async function dismissNotices() {
  const close = byTestId('notice-dismiss');
  while ((await close.count()) > 0) await close.first().click();
}

describe('dashboard', () => {
  it('shows the server addresses on the developers page', async () => {
    await page.goto(`${dashboardUrl}#/developers`);

    await byTestId('url-test').filter({ hasText: sandbox.urls().test }).waitFor();
    expect(await byTestId('app-name').textContent()).toBe('svc-sandbox');
    expect(await byTestId('url-production').textContent()).toBe(sandbox.urls().production);
    expect(await byTestId('url-dashboard').textContent()).toBe(sandbox.urls().dashboard);
  });

  it('creates a merchant, manages its API keys and advances the clock', async () => {
    // Arrange: another merchant, made by a script through the control API.
    await controlPost('/sandbox/merchants', { name: 'Globex Corporation', country: 'US' });
    await page.goto(dashboardUrl);

    // Create a merchant: its owner key is shown in full. The POST carries the page's own Origin,
    // which the control API accepts.
    const createRequest = page.waitForRequest(
      (r) => r.method() === 'POST' && r.url().endsWith('/sandbox/merchants'),
    );
    await createMerchant('Acme Ltd', 'GB');
    expect((await (await createRequest).allHeaders()).origin).toBe(new URL(dashboardUrl).origin);
    await keyRow('owner', 'active').waitFor();
    const ownerKey = await keyRow('owner').getByTestId('key-value').textContent();
    expect(ownerKey).toMatch(/^svcb_\S+$/);
    expect(sandbox.ctx.merchants.list().map((m) => m.name)).toContain('Acme Ltd');
    await expect.poll(() => byTestId('merchant-item').count(), { timeout: 5_000 }).toBe(2);

    // An admin key, then a developer key.
    await byTestId('key-name-input').fill('Backend server');
    await byTestId('key-role-select').selectOption('admin');
    await byTestId('create-key-submit').click();
    await keyRow('admin', 'active').waitFor();
    await byTestId('key-name-input').fill('CI pipeline');
    await byTestId('key-role-select').selectOption('developer');
    await byTestId('create-key-submit').click();
    const developer = keyRow('developer', 'active');
    await developer.waitFor();
    expect(await developer.getByTestId('key-name').textContent()).toBe('CI pipeline');
    const developerKey = await developer.getByTestId('key-value').textContent();
    expect(developerKey).toMatch(/^svcb_\S+$/);
    expect(developerKey).not.toBe(ownerKey);

    // Revoke it (two clicks: revocation is immediate).
    await developer.getByTestId('key-revoke').click();
    await developer.getByTestId('key-revoke-confirm').click();
    await keyRow('developer', 'revoked').waitFor();
    expect(await keyRow('developer').getByTestId('key-status').textContent()).toBe('Revoked');
    expect(await keyRow('owner').getAttribute('data-status')).toBe('active');
    expect(await keyRow('admin').getAttribute('data-status')).toBe('active');
    const acme = sandbox.ctx.merchants.list().find((m) => m.name === 'Acme Ltd')!;
    const stored = sandbox.ctx.merchants.listKeys(acme.id);
    expect(stored.find((k) => k.role === 'developer')?.revoked_at).not.toBeNull();

    await dismissNotices();
    mkdirSync(dirname(screenshotPath), { recursive: true });
    await page.screenshot({ path: screenshotPath });

    // The clock: freeze it so the displayed time is exact, then jump one hour.
    await byTestId('nav-clock').click();
    await byTestId('clock-freeze').click();
    await byTestId('clock-state').filter({ hasText: 'Frozen' }).waitFor();
    const before = await byTestId('clock-now').getAttribute('data-iso');
    expect(before).toBe(sandbox.ctx.clock.nowIso());
    const beforeText = await byTestId('clock-now').textContent();

    await byTestId('clock-advance-hour').click();
    const expected = new Date(Date.parse(before!) + 3600_000).toISOString();
    await page.locator(`[data-testid="clock-now"][data-iso="${expected}"]`).waitFor();
    expect(await byTestId('clock-now').textContent()).not.toBe(beforeText);
    expect(sandbox.ctx.clock.nowIso()).toBe(expected);
    expect(await byTestId('sidebar-clock').textContent()).toContain('Frozen');

    await byTestId('clock-resume').click();
    await byTestId('clock-state').filter({ hasText: 'Running' }).waitFor();
    expect(await byTestId('clock-offset').textContent()).toMatch(/^\+(59 min|1 h)/);
  });

  it('shows events from the live stream as they happen', async () => {
    const { api_key } = (await controlPost('/sandbox/merchants', { name: 'Initech' })) as {
      api_key: { key: string };
    };
    await page.goto(`${dashboardUrl}#/developers`);
    await byTestId('live-status').filter({ hasText: 'Live' }).waitFor();

    const created = await sandbox.apps.test.inject({
      method: 'POST',
      url: '/v1/checkouts',
      headers: { authorization: `Bearer ${api_key.key}` },
      payload: {
        title: 'Order 1',
        amount: 25_000_000,
        expires_at: new Date(sandbox.ctx.clock.now() + 3600_000).toISOString(),
      },
    });
    expect(created.statusCode, created.body).toBe(200);

    const row = page.locator('[data-testid="live-event"][data-type="checkout.created"]');
    await row.waitFor();
    expect(await row.textContent()).toContain('Initech');
  });

  it("shows the API's error message when a call is refused", async () => {
    await page.goto(dashboardUrl);
    await byTestId('nav-merchants').click();
    await byTestId('merchants-empty').waitFor();

    await byTestId('merchant-name-input').fill('Bad Country Co');
    await byTestId('merchant-country-input').fill('gb');
    const response = page.waitForResponse(
      (r) => r.url().endsWith('/sandbox/merchants') && r.request().method() === 'POST',
    );
    await byTestId('create-merchant-submit').click();
    const body = (await (await response).json()) as { error: string };

    const notice = byTestId('notice-error');
    await notice.waitFor();
    expect(body.error).toBeTruthy();
    expect(await notice.textContent()).toContain(body.error);
    // Nothing was created, and the form keeps what was typed so it can be corrected.
    expect(sandbox.ctx.merchants.list()).toEqual([]);
    expect(await byTestId('merchant-name-input').inputValue()).toBe('Bad Country Co');
  });
});
