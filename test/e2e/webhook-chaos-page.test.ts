/// <reference lib="dom" />
import { describe, expect, it } from 'vitest';
import type { Delivery, WebhookEndpoint } from '../../server/contract/webhooks.js';
import { startReceiver } from '../helpers/receiver.js';
import { call, setupDashboard } from './harness.js';

// Delivery chaos on the Webhooks page: set on an endpoint through its form, shown on the endpoint,
// and what it did shown on each attempt; turned off again.

const h = setupDashboard();
const byTestId = (id: string) => h.page.getByTestId(id);

describe('webhooks page: delivery chaos', () => {
  it('sets chaos in the form, shows it on the endpoint and what it did on the attempt, turns it off', async () => {
    const created = await call<{ merchant: { id: string }; api_key: { key: string } }>(
      h.sandbox,
      'POST',
      '/sandbox/merchants',
      { name: 'Chaos Co' },
    );
    const merchantId = created.merchant.id;
    const receiver = await startReceiver();
    await call(h.sandbox, 'POST', `/sandbox/merchants/${merchantId}/webhook-endpoints`, {
      url: receiver.url,
    });
    await h.page.goto(h.dashboardUrl);
    await byTestId('nav-webhooks').click();
    await byTestId('scope-merchant').selectOption(merchantId);
    const row = byTestId('endpoint-row');
    await row.waitFor();
    expect(await row.getByTestId('endpoint-chaos').getAttribute('data-chaos')).toBe('off');

    // A bad value is refused in the form, naming it; Save stays disabled.
    await row.getByTestId('endpoint-chaos-edit').click();
    await byTestId('chaos-duplicate').fill('1.5');
    expect(await byTestId('chaos-problem').textContent()).toContain('Duplicate must be a probability');
    expect(await byTestId('chaos-save').isDisabled()).toBe(true);
    await byTestId('chaos-duplicate').fill('1');
    await byTestId('chaos-delay-min').fill('20');
    await byTestId('chaos-delay-max').fill('40');
    await byTestId('chaos-seed').fill('demo-seed');
    await byTestId('chaos-save').click();
    await h.page.locator('[data-testid="endpoint-chaos"][data-chaos="on"]').waitFor();
    const chips = await row.getByTestId('endpoint-chaos-chip').allTextContents();
    expect(chips).toEqual(['duplicate 100%', 'delay 20–40 ms']);
    const [endpoint] = await call<WebhookEndpoint[]>(
      h.sandbox,
      'GET',
      `/sandbox/merchants/${merchantId}/webhook-endpoints`,
    );
    expect(endpoint!.chaos).toEqual({
      seed: 'demo-seed',
      duplicate: 1,
      reorder_window: 0,
      delay: { min_ms: 20, max_ms: 40 },
      drop: 0,
      bad_signature: 0,
    });

    // A test event: duplicated and delayed, both shown on its attempt.
    await row.getByTestId('endpoint-send-test').click();
    const deliveryRow = h.page.locator('[data-testid="delivery-row"][data-status="delivered"]');
    await deliveryRow.waitFor();
    await deliveryRow.getByTestId('delivery-toggle').click();
    // The attempts are read when the row opens: wait for both badges before reading them.
    await h.page.getByTestId('attempt-chaos-badge').nth(1).waitFor();
    const badges = await h.page.getByTestId('attempt-chaos-badge').allTextContents();
    const [delivery] = await call<Delivery[]>(
      h.sandbox,
      'GET',
      `/sandbox/deliveries?merchant_id=${merchantId}`,
    );
    const delayed = delivery!.attempts[0]!.chaos.find((e) => e.kind === 'delayed') as { ms: number };
    expect(badges).toEqual([`chaos: delayed ${delayed.ms} ms`, 'chaos: duplicated (2nd: HTTP 200)']);
    expect(receiver.received).toHaveLength(2);

    // Off again.
    await row.getByTestId('endpoint-chaos-edit').click();
    await byTestId('chaos-off').click();
    await h.page.locator('[data-testid="endpoint-chaos"][data-chaos="off"]').waitFor();
    const [after] = await call<WebhookEndpoint[]>(
      h.sandbox,
      'GET',
      `/sandbox/merchants/${merchantId}/webhook-endpoints`,
    );
    expect(after!.chaos).toBeNull();
  });
});
