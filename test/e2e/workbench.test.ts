/// <reference lib="dom" />
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Delivery, WebhookEndpoint } from '../../server/contract/webhooks.js';
import { startReceiver } from '../helpers/receiver.js';
import { call, dismissNotices, resultsDir, setupDashboard } from './harness.js';

// The webhook workbench and the import guard in real Chromium: listen's endpoints marked as
// temporary, each endpoint's health, the deliveries' time column, "resend to…", and an import that
// asks first, naming what it would replace. Screenshots go to test-results/.

const h = setupDashboard();
const byTestId = (id: string) => h.page.getByTestId(id);
const el = (selector: string) => h.page.locator(selector);

async function merchant(name: string) {
  return call<{ merchant: { id: string }; api_key: { key: string } }>(
    h.sandbox,
    'POST',
    '/sandbox/merchants',
    {
      name,
    },
  );
}

const checkout = (key: string, title: string) =>
  call<{ id: string }>(
    h.sandbox,
    'POST',
    '/v1/checkouts',
    { title, amount: 1_000_000, expires_at: new Date(Date.now() + 86_400_000).toISOString() },
    key,
  );

describe('Webhooks page: the workbench', () => {
  it('marks listen endpoints, shows health and delivery times, and resends a delivery', async () => {
    const { page } = h;
    page.setDefaultTimeout(8000);
    const created = await merchant('Hooks Co');
    const merchantId = created.merchant.id;
    const app = await startReceiver();
    const broken = await startReceiver();
    broken.respond = () => ({ status: 500, body: 'down' });
    const add = (payload: object) =>
      call<WebhookEndpoint>(h.sandbox, 'POST', `/sandbox/merchants/${merchantId}/webhook-endpoints`, payload);
    const failing = await add({ url: `${broken.url}/hooks`, events: ['checkout.created'] });
    const listen = await add({
      url: `${app.url}/${merchantId}`,
      events: ['checkout.created'],
      secret: 'whsec_0123456789abcdefABCDEF',
      forward_to: 'http://localhost:3000/webhooks',
    });
    await checkout(created.api_key.key, 'Order 1');
    await h.sandbox.ctx.dispatcher.idle();
    // Every retry of the failing endpoint fails too: the delivery is given up.
    for (const seconds of [300, 1800, 7200, 18_000]) {
      await call(h.sandbox, 'POST', '/sandbox/clock/advance', { seconds });
      await h.sandbox.ctx.dispatcher.idle();
    }

    await page.goto(h.dashboardUrl);
    await byTestId('nav-webhooks').click();
    await byTestId('scope-merchant').selectOption(merchantId);

    const listenRow = el(`[data-testid="endpoint-row"][data-endpoint-id="${listen.id}"]`);
    const failingRow = el(`[data-testid="endpoint-row"][data-endpoint-id="${failing.id}"]`);
    await listenRow.getByTestId('endpoint-temporary').waitFor();
    expect(await listenRow.getByTestId('endpoint-temporary').textContent()).toContain('temporary (listen)');
    expect(await listenRow.getByTestId('endpoint-forward-to').textContent()).toBe(
      'http://localhost:3000/webhooks',
    );
    expect(await failingRow.getByTestId('endpoint-temporary').count()).toBe(0);

    const failingHealth = failingRow.getByTestId('endpoint-health');
    await el(
      `[data-testid="endpoint-row"][data-endpoint-id="${failing.id}"] [data-testid="endpoint-health"][data-state="down"]`,
    ).waitFor();
    expect(await failingHealth.getAttribute('data-failure-streak')).toBe('5');
    expect(await failingHealth.getAttribute('data-given-up')).toBe('1');
    expect(await failingHealth.getByTestId('endpoint-health-badge').textContent()).toBe('Down');
    expect(await failingHealth.getByTestId('endpoint-health-facts').textContent()).toBe(
      'no success yet · 5 failed attempts in a row · 1 delivery given up',
    );
    const listenHealth = listenRow.getByTestId('endpoint-health');
    expect(await listenHealth.getAttribute('data-state')).toBe('healthy');
    expect(await listenHealth.getByTestId('endpoint-health-facts').textContent()).toMatch(
      /^last success .+ UTC$/,
    );

    // The deliveries have a time column (sandbox time of creation).
    const [given] = await call<Delivery[]>(h.sandbox, 'GET', `/sandbox/deliveries?endpoint_id=${failing.id}`);
    const givenRow = el(`[data-testid="delivery-row"][data-delivery-id="${given!.id}"]`);
    expect(await givenRow.getAttribute('data-status')).toBe('failed');
    expect(await givenRow.getByTestId('delivery-time').textContent()).toMatch(/ UTC$/);
    expect(await el('[data-testid="deliveries"] th').first().textContent()).toBe('Time');
    // listen's deliveries name where listen forwards them, not listen's own address.
    const [viaListen] = await call<Delivery[]>(
      h.sandbox,
      'GET',
      `/sandbox/deliveries?endpoint_id=${listen.id}`,
    );
    expect(
      await el(`[data-testid="delivery-row"][data-delivery-id="${viaListen!.id}"]`)
        .getByTestId('delivery-target')
        .textContent(),
    ).toBe('http://localhost:3000/webhooks (via listen)');
    expect(await givenRow.getByTestId('delivery-target').getAttribute('title')).toBe(`${broken.url}/hooks`);
    await page.screenshot({ path: join(resultsDir, 'webhooks-workbench.png'), fullPage: true });

    // Resend the given-up delivery to listen's endpoint.
    await givenRow.getByTestId('delivery-resend').click();
    const target = givenRow.getByTestId('delivery-resend-target');
    await target.selectOption(listen.id);
    await page.screenshot({ path: join(resultsDir, 'webhooks-resend.png') });
    await givenRow.getByTestId('delivery-resend-send').click();
    await el(
      '[data-testid="notice-success"]:has-text("Resent checkout.created to http://localhost:3000/webhooks")',
    ).waitFor();
    await app.count(2);
    expect(app.received[1]!.body.data).toEqual(broken.received[0]!.body.data);
    const resent = await call<Delivery[]>(h.sandbox, 'GET', `/sandbox/deliveries?endpoint_id=${listen.id}`);
    expect(resent).toHaveLength(2);
    await el(
      `[data-testid="delivery-row"][data-delivery-id="${resent[0]!.id}"][data-status="delivered"]`,
    ).waitFor();
  }, 60_000);
});

describe('Dashboard import: asks first', () => {
  it('names what the import replaces; Cancel keeps the workspace, Replace imports', async () => {
    const { page } = h;
    page.setDefaultTimeout(8000);
    const kept = await merchant('Bundled Co');
    const exported = await h.sandbox.apps.test.inject({ url: '/sandbox/export' });
    expect(exported.statusCode).toBe(200);
    const file = join(resultsDir, 'workbench-import.svcbundle');
    writeFileSync(file, exported.rawPayload);
    // After the export: more that the import would replace.
    const later = await merchant('Later Co');
    await checkout(later.api_key.key, 'Order 2');
    await checkout(later.api_key.key, 'Order 3');

    await page.goto(h.dashboardUrl);
    await byTestId('nav-scenarios').click();
    await byTestId('bundle-import').setInputFiles(file);
    const text = byTestId('import-confirm-text');
    await el('[data-testid="import-confirm-text"]:has-text("2 merchants")').waitFor();
    expect(await text.textContent()).toMatch(
      /^Replace 2 merchants, 2 checkouts, 2 events in this workspace with the contents of workbench-import\.svcbundle\? /,
    );
    await dismissNotices(page).catch(() => {});
    await byTestId('import-confirm').screenshot({ path: join(resultsDir, 'import-confirm.png') });
    await page.screenshot({ path: join(resultsDir, 'import-confirm-page.png') });

    await byTestId('import-confirm-cancel').click();
    await byTestId('import-confirm').waitFor({ state: 'detached' });
    const before = await call<{ id: string }[]>(h.sandbox, 'GET', '/sandbox/merchants');
    expect(before).toHaveLength(2);

    await byTestId('bundle-import').setInputFiles(file);
    await el('[data-testid="import-confirm-text"]:has-text("2 merchants")').waitFor();
    await byTestId('import-confirm-replace').click();
    await el('[data-testid="notice-success"]:has-text("Imported 1 merchant")').waitFor();
    const after = await call<{ id: string }[]>(h.sandbox, 'GET', '/sandbox/merchants');
    expect(after.map((m) => m.id)).toEqual([kept.merchant.id]);
  }, 60_000);
});
