/// <reference lib="dom" />
import { describe, expect, it } from 'vitest';
import type { SandboxEvent } from '../../server/contract/sandbox-state.js';
import type { InvoiceDetail } from '../../server/contract/views.js';
import { call, setupDashboard } from './harness.js';

// The customer, invoice and event views, and the paged lists (checkouts, deliveries, events), each
// checked against what the server holds.

const h = setupDashboard();
const byTestId = (id: string) => h.page.getByTestId(id);
const el = (selector: string) => h.page.locator(selector);

async function merchant(name: string) {
  const created = await call<{ merchant: { id: string }; api_key: { key: string } }>(
    h.sandbox,
    'POST',
    '/sandbox/merchants',
    { name },
  );
  return { id: created.merchant.id, key: created.api_key.key };
}

const inAnHour = () => new Date(Date.now() + 3600_000).toISOString();

async function open(page: string, merchantId: string) {
  await h.page.goto(h.dashboardUrl);
  await byTestId(`nav-${page}`).click();
  await byTestId('scope-merchant').selectOption(merchantId);
}

describe('customers and invoices', () => {
  it('finds a customer, opens their invoice with its lines, tax and checkout, and that checkout', async () => {
    const m = await merchant('Views Co');
    for (const [name, email] of [
      ['Ada Lovelace', 'ada@example.com'],
      ['Grace Hopper', 'grace@navy.example'],
      ['Alan Turing', 'alan@example.com'],
    ]) {
      await call(h.sandbox, 'POST', '/v1/customers', { name, email }, m.key);
    }
    const draft = await call<{ id: string }>(
      h.sandbox,
      'POST',
      '/v1/invoices',
      { title: 'Draft', customer_name: 'Someone', amount: 1_000_000 },
      m.key,
    );
    const invoice = await call<{ id: string; customer_id: string }>(
      h.sandbox,
      'POST',
      '/v1/invoices',
      {
        title: 'Consulting',
        customer_email: 'grace@navy.example',
        customer_name: 'Grace Hopper',
        line_items: [
          { description: 'Design', quantity: 2, unit_price: 1_500_000 },
          { description: 'Review', quantity: 1, unit_price: 500_000 },
        ],
        tax_rate: 2000,
      },
      m.key,
    );
    await call(h.sandbox, 'POST', `/v1/invoices/${invoice.id}/activate`, {}, m.key);
    const server = await call<InvoiceDetail>(h.sandbox, 'GET', `/sandbox/invoices/${invoice.id}`);
    expect(server.customer?.email).toBe('grace@navy.example');

    await open('customers', m.id);
    // The three customers and the inline one of the draft invoice.
    await el('[data-testid="customer-row"] >> nth=3').waitFor();
    await expect.poll(() => byTestId('customer-row').count(), { timeout: 5_000 }).toBe(4);
    await byTestId('customer-search').fill('navy');
    await el('[data-testid="customer-row"] >> nth=1').waitFor({ state: 'detached' });
    await el(`[data-testid="customer-row"][data-customer-id="${invoice.customer_id}"]`).waitFor();
    await expect.poll(() => byTestId('customer-row').count(), { timeout: 5_000 }).toBe(1);
    await byTestId('customer-row').click();
    expect(await byTestId('customer-name').textContent()).toBe('Grace Hopper');
    expect(await byTestId('customer-email').textContent()).toBe('grace@navy.example');
    expect(await byTestId('customer-id').textContent()).toBe(invoice.customer_id);
    const theirs = el(`[data-testid="customer-invoice"][data-invoice-id="${invoice.id}"]`);
    await theirs.waitFor();
    await byTestId('customer-checkouts').waitFor();

    // The invoice: lines, tax, totals, and the checkout activation made.
    await theirs.click();
    await byTestId('invoice-detail').waitFor();
    expect(h.page.url()).toMatch(/#\/invoices$/);
    expect(await byTestId('invoice-title').textContent()).toBe('Consulting');
    expect(await byTestId('invoice-status').getAttribute('data-status')).toBe('sent');
    await expect
      .poll(() => byTestId('invoice-line-total').allTextContents(), { timeout: 5_000 })
      .toEqual(['3.00 USDC', '0.50 USDC']);
    expect(await byTestId('invoice-subtotal').textContent()).toBe('3.50 USDC');
    expect(await byTestId('invoice-tax').textContent()).toBe('0.70 USDC');
    expect(await byTestId('invoice-total').textContent()).toBe('4.20 USDC');
    expect(await byTestId('invoice-customer').textContent()).toBe('Grace Hopper <grace@navy.example>');
    expect(await byTestId('invoice-checkout-id').textContent()).toBe(server.checkout?.id);
    expect(await byTestId('invoice-checkout-status').getAttribute('data-status')).toBe('active');

    // The list filters by status.
    await expect.poll(() => byTestId('invoice-row').count(), { timeout: 5_000 }).toBe(2);
    await byTestId('invoice-filter-draft').click();
    await el(`[data-testid="invoice-row"][data-invoice-id="${invoice.id}"]`).waitFor({ state: 'detached' });
    expect(await byTestId('invoice-row').getAttribute('data-invoice-id')).toBe(draft.id);

    // Opening the checkout goes to the Checkouts page with it selected.
    await byTestId('invoice-open-checkout').click();
    await el(`[data-testid="checkout-id"]:has-text("${server.checkout?.id}")`).waitFor();
    expect(h.page.url()).toMatch(/#\/checkouts$/);
  });
});

describe('events', () => {
  it('filters by type, finds by id, and shows the payload as JSON that can be copied', async () => {
    const m = await merchant('Events Co');
    const a = await call<{ id: string }>(
      h.sandbox,
      'POST',
      '/v1/checkouts',
      { title: 'A', amount: 2_000_000, expires_at: inAnHour() },
      m.key,
    );
    await call(
      h.sandbox,
      'POST',
      '/v1/checkouts',
      { title: 'B', amount: 3_000_000, expires_at: inAnHour() },
      m.key,
    );
    await call(h.sandbox, 'POST', `/sandbox/checkouts/${a.id}/payments`, {});
    const events = await call<SandboxEvent[]>(h.sandbox, 'GET', `/sandbox/merchants/${m.id}/events`);
    expect(events.map((e) => e.type)).toEqual(['checkout.paid', 'checkout.created', 'checkout.created']);
    await h.page.context().grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: new URL(h.dashboardUrl).origin,
    });

    await open('events', m.id);
    await el('[data-testid="event-row"] >> nth=2').waitFor();
    expect(
      await byTestId('event-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-event-id'))),
    ).toEqual(events.map((e) => e.id));

    await byTestId('event-type-filter').selectOption('checkout.paid');
    await el('[data-testid="event-row"][data-type="checkout.created"]')
      .first()
      .waitFor({ state: 'detached' });
    await el('[data-testid="event-row"][data-type="checkout.paid"]').waitFor();
    await expect.poll(() => byTestId('event-row').count(), { timeout: 5_000 }).toBe(1);

    await byTestId('event-type-filter').selectOption('all');
    const wanted = events[2]!;
    await byTestId('event-search').fill(wanted.id);
    await byTestId('event-search').press('Enter');
    await el('[data-testid="event-row"] >> nth=1').waitFor({ state: 'detached' });
    await el(`[data-testid="event-row"][data-event-id="${wanted.id}"]`).click();
    await expect.poll(() => byTestId('event-row').count(), { timeout: 5_000 }).toBe(1);
    expect(await byTestId('event-detail-id').textContent()).toContain(wanted.id);
    const shown = await byTestId('event-json').textContent();
    expect(shown).toBe(JSON.stringify(wanted.data, null, 2));
    expect(JSON.parse(shown ?? '')).toEqual(wanted.data);

    await byTestId('event-copy-json').click();
    await el('[data-testid="event-copy-json"][data-state="copied"]').waitFor();
    expect(JSON.parse(await h.page.evaluate(() => navigator.clipboard.readText()))).toEqual(wanted.data);
  });
});

describe('paging', () => {
  it('pages checkouts, events and deliveries 20 at a time', async () => {
    const m = await merchant('Busy Co');
    await call(h.sandbox, 'POST', `/sandbox/merchants/${m.id}/webhook-endpoints`, {
      url: `${new URL(h.dashboardUrl).origin}/sandbox/inbox/paging`,
    });
    const made: string[] = [];
    for (let i = 0; i < 25; i++) {
      const checkout = await call<{ id: string }>(
        h.sandbox,
        'POST',
        '/v1/checkouts',
        { title: `Order ${i}`, amount: 1_000_000 + i, expires_at: inAnHour() },
        m.key,
      );
      made.unshift(checkout.id);
    }

    const walk = async (list: string, row: string, idAttribute: string, expected: string[]) => {
      // (Polled: between pages the list may briefly show the loading state with no rows.)
      const ids = () =>
        byTestId(row).evaluateAll((rows, a) => rows.map((r) => r.getAttribute(a)), idAttribute);
      await el(`[data-testid="${row}"] >> nth=19`).waitFor();
      await expect.poll(ids, { timeout: 5_000 }).toEqual(expected.slice(0, 20));
      expect(await byTestId(`${list}-page`).textContent()).toBe('Page 1');
      expect(await byTestId(`${list}-newer`).isDisabled()).toBe(true);
      await byTestId(`${list}-older`).click();
      await byTestId(`${list}-page`).filter({ hasText: 'Page 2' }).waitFor();
      await el(`[data-testid="${row}"] >> nth=5`).waitFor({ state: 'detached' });
      await expect.poll(ids, { timeout: 5_000 }).toEqual(expected.slice(20));
      expect(await byTestId(`${list}-older`).isDisabled()).toBe(true);
      await byTestId(`${list}-newer`).click();
      await el(`[data-testid="${row}"] >> nth=19`).waitFor();
      await expect.poll(ids, { timeout: 5_000 }).toEqual(expected.slice(0, 20));
    };

    await open('checkouts', m.id);
    await walk('checkout-pager', 'checkout-row', 'data-checkout-id', made);

    const events = await call<SandboxEvent[]>(h.sandbox, 'GET', `/sandbox/merchants/${m.id}/events`);
    expect(events).toHaveLength(25);
    await byTestId('nav-events').click();
    await walk(
      'event-pager',
      'event-row',
      'data-event-id',
      events.map((e) => e.id),
    );

    // Deliveries go to the built-in inbox; wait until all 25 were attempted.
    const deliveries = async () =>
      call<{ id: string; status: string }[]>(h.sandbox, 'GET', `/sandbox/deliveries?merchant_id=${m.id}`);
    await expect
      .poll(async () => (await deliveries()).filter((d) => d.status === 'delivered').length, {
        timeout: 20_000,
      })
      .toBe(25);
    await byTestId('nav-webhooks').click();
    await walk(
      'delivery-pager',
      'delivery-row',
      'data-delivery-id',
      (await deliveries()).map((d) => d.id),
    );
  });
});
