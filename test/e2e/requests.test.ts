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
  });
});
