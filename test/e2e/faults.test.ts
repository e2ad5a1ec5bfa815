/// <reference lib="dom" />
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, resultsDir, setupDashboard } from './harness.js';

// The Faults page in real Chromium: a rule set through the form faults a real /v1 call, the
// Requests page marks that call with the rule and its effect, and "Clear all" ends it.

const h = setupDashboard();
const byTestId = (id: string) => h.page.getByTestId(id);
const el = (selector: string) => h.page.locator(selector);

describe('faults page', () => {
  it('sets a rule, sees the faulted request marked on the Requests page, then clears', async () => {
    const { page } = h;
    const { merchant, api_key: key } = await call<{ merchant: { id: string }; api_key: { key: string } }>(
      h.sandbox,
      'POST',
      '/sandbox/merchants',
      { name: 'Faulty Co' },
    );
    const createCustomer = () =>
      h.sandbox.apps.test.inject({
        method: 'POST',
        url: '/v1/customers',
        headers: { authorization: `Bearer ${key.key}` },
        payload: { name: 'Ada Lovelace', email: 'ada@example.com' },
      });

    // Arrange: one 503 on the next customer creation, from a seed.
    await page.goto(h.dashboardUrl);
    await byTestId('nav-faults').click();
    await byTestId('faults-empty').waitFor();
    await byTestId('fault-method').selectOption('POST');
    await byTestId('fault-path').fill('/v1/customers');
    await byTestId('fault-count').fill('1');
    await byTestId('fault-effect').selectOption('status');
    await byTestId('fault-status').selectOption('503');
    await byTestId('fault-id').fill('flaky-create');
    await byTestId('fault-seed').fill('e2e-1');
    await byTestId('fault-add').click();
    const rule = el('[data-testid="fault-rule"][data-rule="flaky-create"]');
    await rule.waitFor();
    expect(await byTestId('faults-seed').textContent()).toBe('e2e-1');
    expect(await rule.getByTestId('fault-rule-match').textContent()).toBe('POST /v1/customers');
    expect(await rule.getByTestId('fault-rule-effect').textContent()).toBe('HTTP 503');
    expect(await rule.getByTestId('fault-rule-remaining').textContent()).toBe('1');
    // What the dashboard set is what the API holds.
    const held = await call<{ seed: string; rules: { id: string; count: number }[] }>(
      h.sandbox,
      'GET',
      '/sandbox/faults',
    );
    expect(held).toMatchObject({ seed: 'e2e-1', rules: [{ id: 'flaky-create', count: 1 }] });

    // The server's refusal is shown beside the form: a second rule with the same name.
    await byTestId('fault-id').fill('flaky-create');
    await byTestId('fault-effect').selectOption('timeout');
    await byTestId('fault-add').click();
    await expect.poll(() => byTestId('fault-error').textContent()).toContain('names another rule too');
    await byTestId('fault-id').fill('');
    await byTestId('fault-effect').selectOption('status');

    // Act: the app's call is faulted once, the next one is answered.
    const faulted = await createCustomer();
    expect(faulted.statusCode).toBe(503);
    expect((faulted.json() as { error: string }).error).toContain('flaky-create');
    // The page follows the request stream: the rule is spent.
    await expect
      .poll(() => rule.getByTestId('fault-rule-applied').textContent(), { timeout: 5_000 })
      .toBe('1');
    expect(await rule.getByTestId('fault-rule-remaining').textContent()).toBe('0');
    expect((await createCustomer()).statusCode).toBe(200);

    // Assert: the Requests page marks the faulted call, and only it.
    await byTestId('nav-requests').click();
    await byTestId('scope-merchant').selectOption(merchant.id);
    const marked = el('[data-testid="request-row"][data-fault="flaky-create"]');
    await marked.waitFor();
    expect(await marked.getAttribute('data-status')).toBe('503');
    const badge = marked.getByTestId('request-fault');
    expect(await badge.textContent()).toBe('fault flaky-create: HTTP 503');
    expect(await badge.getAttribute('data-effect')).toBe('status');
    await expect.poll(() => byTestId('request-row').count(), { timeout: 5_000 }).toBe(2);
    expect(
      await el('[data-testid="request-row"][data-status="200"]').getByTestId('request-fault').count(),
    ).toBe(0);
    await marked.getByTestId('request-open').click();
    expect(await byTestId('request-detail-fault').textContent()).toContain('fault flaky-create: HTTP 503');
    await page.screenshot({ path: join(resultsDir, 'requests-fault.png'), fullPage: true });

    // Clear all: no rules, and the API holds none.
    await byTestId('nav-faults').click();
    await rule.waitFor();
    await page.screenshot({ path: join(resultsDir, 'faults.png'), fullPage: true });
    await byTestId('faults-clear').click();
    await byTestId('faults-empty').waitFor();
    expect(await call<{ rules: unknown[] }>(h.sandbox, 'GET', '/sandbox/faults')).toMatchObject({
      rules: [],
    });
    expect((await createCustomer()).statusCode).toBe(200);
  });

  it('shows rules set and cleared elsewhere (the CLI, a test helper) without a reload', async () => {
    await h.page.goto(`${h.dashboardUrl}#/faults`);
    await byTestId('page-faults').waitFor();
    const put = await h.sandbox.apps.test.inject({
      method: 'PUT',
      url: '/sandbox/faults',
      payload: { rules: [{ id: 'from-the-cli', match: { method: 'POST' }, effect: { status: 502 } }] },
    });
    expect(put.statusCode).toBe(200);
    const rule = el('[data-testid="fault-rule"][data-rule="from-the-cli"]');
    await rule.waitFor();
    expect(await rule.getByTestId('fault-rule-effect').textContent()).toBe('HTTP 502');
    const cleared = await h.sandbox.apps.test.inject({ method: 'DELETE', url: '/sandbox/faults' });
    expect(cleared.statusCode).toBe(204);
    await rule.waitFor({ state: 'detached' });
    await byTestId('faults-empty').waitFor();
  });

  it('adds a latency rule beside one in force, keeping what that one has left', async () => {
    const put = await h.sandbox.apps.test.inject({
      method: 'PUT',
      url: '/sandbox/faults',
      payload: {
        seed: 'kept',
        rules: [
          {
            id: 'slow-list',
            match: { method: 'GET' },
            count: 3,
            effect: { latency_ms: { min: 5, max: 10 } },
          },
        ],
      },
    });
    expect(put.statusCode).toBe(200);
    // The app's call uses one of the three: two are left.
    const { api_key: key } = await call<{ api_key: { key: string } }>(
      h.sandbox,
      'POST',
      '/sandbox/merchants',
      {
        name: 'Slow Co',
      },
    );
    await call(h.sandbox, 'GET', '/v1/checkouts', undefined, key.key);
    await h.page.goto(`${h.dashboardUrl}#/faults`);
    const slow = el('[data-testid="fault-rule"][data-rule="slow-list"]');
    await slow.waitFor();
    expect(await slow.getByTestId('fault-rule-applied').textContent()).toBe('1');
    expect(await slow.getByTestId('fault-rule-remaining').textContent()).toBe('2');
    await byTestId('fault-effect').selectOption('latency');
    await byTestId('fault-latency-min').fill('20');
    await byTestId('fault-latency-max').fill('10');
    // Checked in the page before it is sent.
    expect(await byTestId('fault-problem').textContent()).toContain('minimum must not be greater');
    expect(await byTestId('fault-add').isDisabled()).toBe(true);
    await byTestId('fault-latency-max').fill('40');
    await byTestId('fault-rate').fill('0.5');
    await byTestId('fault-add').click();
    const added = el('[data-testid="fault-rule"][data-rule="rule-2"]');
    await added.waitFor();
    expect(await added.getByTestId('fault-rule-effect').textContent()).toBe('latency 20–40 ms');
    const held = await call<{ seed: string; rules: { id: string; rate: number; count: number | null }[] }>(
      h.sandbox,
      'GET',
      '/sandbox/faults',
    );
    expect(held.seed).toBe('kept');
    // Sent back with what it had left (2), not its original count (3), which would start it over.
    expect(held.rules.map((r) => [r.id, r.rate, r.count])).toEqual([
      ['slow-list', 1, 2],
      ['rule-2', 0.5, null],
    ]);
    // Remove one: the other stays.
    await added.getByTestId('fault-rule-remove').click();
    await added.waitFor({ state: 'detached' });
    expect(await byTestId('fault-rule').count()).toBe(1);
  });
});
