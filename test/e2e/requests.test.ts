/// <reference lib="dom" />
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, resultsDir, setupDashboard } from './harness.js';

// The Requests page: the request log of one merchant in one environment, live.

const h = setupDashboard();
const byTestId = (id: string) => h.page.getByTestId(id);
const el = (selector: string) => h.page.locator(selector);

interface Created {
  merchant: { id: string };
  api_key: { key: string };
}

describe('requests page', () => {
  it('shows /v1 calls made by a script as they happen, filters by status class, opens the detail', async () => {
    const { page } = h;
    const { merchant, api_key: key } = await call<Created>(h.sandbox, 'POST', '/sandbox/merchants', {
      name: 'Logged Co',
    });
    await page.goto(h.dashboardUrl);
    await byTestId('nav-requests').click();
    await byTestId('scope-merchant').selectOption(merchant.id);
    await byTestId('requests-empty').waitFor();

    // A script calls the API while the page is open: the rows appear without a reload.
    const customer = await call<{ id: string }>(
      h.sandbox,
      'POST',
      '/v1/customers',
      { name: 'Ada Lovelace', email: 'ada@example.com' },
      key.key,
    );
    const missing = await h.sandbox.apps.test.inject({
      method: 'GET',
      url: '/v1/customers/00000000-0000-4000-8000-000000000000',
      headers: { authorization: `Bearer ${key.key}` },
    });
    expect(missing.statusCode).toBe(404);
    await el('[data-testid="request-row"][data-status="404"]').waitFor();
    const ok = el('[data-testid="request-row"][data-status="200"]');
    await ok.waitFor();
    await expect.poll(() => byTestId('request-row').count(), { timeout: 5_000 }).toBe(2);
    expect(await ok.getByTestId('request-method').textContent()).toBe('POST');
    expect(await ok.getByTestId('request-path').textContent()).toBe('/v1/customers');

    // The detail: both bodies, pretty-printed.
    await ok.getByTestId('request-open').click();
    await byTestId('request-detail').waitFor();
    const requestBody = (await byTestId('request-detail-request-body').textContent())!;
    expect(JSON.parse(requestBody)).toEqual({ name: 'Ada Lovelace', email: 'ada@example.com' });
    expect(requestBody).toContain('\n  "name"');
    const responseBody = (await byTestId('request-detail-response-body').textContent())!;
    expect((JSON.parse(responseBody) as { id: string }).id).toBe(customer.id);
    await page.screenshot({ path: join(resultsDir, 'requests.png'), fullPage: true });

    // Status classes: 4xx shows the 404 only; a new 2xx does not enter that list.
    await byTestId('request-filter-4xx').click();
    await el('[data-testid="request-row"][data-status="200"]').waitFor({ state: 'detached' });
    await expect.poll(() => byTestId('request-row').count(), { timeout: 5_000 }).toBe(1);
    await call(h.sandbox, 'GET', '/v1/customers', undefined, key.key);
    await byTestId('request-filter-all').click();
    await el('[data-testid="request-row"]').nth(2).waitFor();
    await expect.poll(() => byTestId('request-row').count(), { timeout: 5_000 }).toBe(3);
    // Real durations, with decimals (never a flat "0.0 ms").
    for (const text of await byTestId('request-duration').allTextContents()) {
      expect(text).toMatch(/^\d+\.\d{1,2} ms$/);
      expect(Number.parseFloat(text)).toBeGreaterThan(0);
    }
  });

  it('shows the calls whose key matched no merchant under Unauthenticated, live', async () => {
    const { page } = h;
    const { merchant } = await call<Created>(h.sandbox, 'POST', '/sandbox/merchants', { name: 'Keyless Co' });
    const refused = async (headers: Record<string, string>, url: string) => {
      const res = await h.sandbox.apps.test.inject({ method: 'GET', url, headers });
      expect(res.statusCode).toBe(401);
    };
    await refused({ authorization: 'Bearer svcb_mistypedmistypedKEY1' }, '/v1/checkouts?before');
    await page.goto(h.dashboardUrl);
    await byTestId('nav-requests').click();
    await byTestId('scope-merchant').selectOption(merchant.id);
    // The merchant's own list is empty, and says where such a call went.
    await expect.poll(() => byTestId('requests-empty').textContent()).toContain('Unauthenticated');

    await byTestId('request-filter-unauthenticated').click();
    const before = el('[data-testid="request-row"][data-status="401"]');
    await before.first().waitFor();
    expect(await before.first().getByTestId('request-path').textContent()).toBe('/v1/checkouts?before');
    expect(await before.first().getByTestId('request-key').textContent()).toBe('svcb_…KEY1');

    // New ones arrive while the page is open: a missing key too. The production listener's do not.
    await refused({}, '/v1/customers?live');
    const prod = await h.sandbox.apps.production.inject({ method: 'GET', url: '/v1/customers?prod' });
    expect(prod.statusCode).toBe(401);
    const live = el('[data-testid="request-row"]').filter({ hasText: '/v1/customers?live' });
    await live.waitFor();
    expect(await live.getByTestId('request-key').textContent()).toBe('none');
    expect(await live.getByTestId('request-duration').textContent()).toMatch(/^\d+\.\d{1,2} ms$/);
    expect(await el('[data-testid="request-row"]').filter({ hasText: '?prod' }).count()).toBe(0);
    await live.getByTestId('request-open').click();
    expect(await byTestId('request-detail-response-body').textContent()).toContain('Missing API key');
    await page.screenshot({ path: join(resultsDir, 'requests-unauthenticated.png'), fullPage: true });

    // Back to All: the merchant's own (none), not the 401s.
    await byTestId('request-filter-all').click();
    await byTestId('requests-empty').waitFor();
  });
});
