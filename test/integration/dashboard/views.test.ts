import { describe, expect, it } from 'vitest';
import type { CheckoutBase } from '../../../server/contract/checkouts.js';
import type { Customer } from '../../../server/contract/customers.js';
import type { Invoice } from '../../../server/contract/invoices.js';
import type { SandboxEvent } from '../../../server/contract/sandbox-state.js';
import type { CustomerDetail, InvoiceDetail } from '../../../server/contract/views.js';
import type { Delivery, WebhookEndpoint } from '../../../server/contract/webhooks.js';
import { verify } from '../../../server/webhooks/signing.js';
import { control, createCheckout, expectError, ok, pay, UNKNOWN_ID } from '../../helpers/api.js';
import { decryptPayload, newSession, readPinBlock } from '../../helpers/card-client.js';
import { startReceiver } from '../../helpers/receiver.js';
import { type Actor, createMerchant, testSandbox } from '../../helpers/sandbox.js';

/**
 * The control API's views for the dashboard (customers, invoices, filtered and paged
 * checkouts and events), webhook endpoint editing, disabling and test events, and the card secrets
 * exchange as the merchant's owner.
 */

type Sandbox = Awaited<ReturnType<typeof testSandbox>>;

const v1 = (sandbox: Sandbox, actor: Actor, method: 'GET' | 'POST', url: string, payload?: object) =>
  sandbox.apps.test.inject({ method, url, headers: actor.auth, ...(payload ? { payload } : {}) });

async function setup() {
  const sandbox = await testSandbox();
  const actor = await createMerchant(sandbox);
  return { sandbox, actor, base: `/sandbox/merchants/${actor.merchantId}` };
}

describe('customers and invoices views', () => {
  it('lists customers newest first, searches by name, email or id, pages, and opens one', async () => {
    const { sandbox, actor, base } = await setup();
    const made: Customer[] = [];
    for (const [name, email] of [
      ['Ada Lovelace', 'ada@example.com'],
      ['Grace Hopper', 'grace@navy.example'],
      ['Alan Turing', null],
    ] as const) {
      made.push(ok(await v1(sandbox, actor, 'POST', '/v1/customers', { name, email })));
    }
    const all = ok<Customer[]>(await control(sandbox, 'GET', `${base}/customers`));
    expect(all.map((c) => c.name)).toEqual(['Alan Turing', 'Grace Hopper', 'Ada Lovelace']);
    const byName = ok<Customer[]>(await control(sandbox, 'GET', `${base}/customers?q=hopp`));
    expect(byName.map((c) => c.name)).toEqual(['Grace Hopper']);
    const byEmail = ok<Customer[]>(await control(sandbox, 'GET', `${base}/customers?q=ADA%40EXAMPLE`));
    expect(byEmail.map((c) => c.name)).toEqual(['Ada Lovelace']);
    const byId = ok<Customer[]>(await control(sandbox, 'GET', `${base}/customers?q=${made[2]!.id}`));
    expect(byId.map((c) => c.name)).toEqual(['Alan Turing']);
    // `%` is literal, not a wildcard
    expect(ok<Customer[]>(await control(sandbox, 'GET', `${base}/customers?q=%25`))).toEqual([]);
    const first = ok<Customer[]>(await control(sandbox, 'GET', `${base}/customers?limit=2`));
    const second = ok<Customer[]>(
      await control(sandbox, 'GET', `${base}/customers?limit=2&starting_after=${first[1]!.id}`),
    );
    expect([...first, ...second].map((c) => c.name)).toEqual(all.map((c) => c.name));
    expect(ok<Customer[]>(await control(sandbox, 'GET', `${base}/customers?env=production`))).toEqual([]);

    const checkout = await createCheckout(sandbox, actor, { customer_id: made[0]!.id });
    const detail = ok<CustomerDetail>(await control(sandbox, 'GET', `/sandbox/customers/${made[0]!.id}`));
    expect(detail.customer.email).toBe('ada@example.com');
    expect(detail.env).toBe('test');
    expect(detail.checkouts.map((c) => c.id)).toEqual([checkout.id]);
    expect(detail.invoices).toEqual([]);

    expectError(await control(sandbox, 'GET', `/sandbox/customers/${UNKNOWN_ID}`), 404, UNKNOWN_ID);
    expectError(await control(sandbox, 'GET', `/sandbox/merchants/${UNKNOWN_ID}/customers`), 404);
    expectError(
      await control(sandbox, 'GET', `${base}/customers?starting_after=${UNKNOWN_ID}`),
      422,
      'starting_after',
    );
    expectError(await control(sandbox, 'GET', `${base}/customers?env=staging`), 422, 'env');
    expectError(await control(sandbox, 'GET', `/sandbox/customers/not-a-uuid`), 422, 'id');
  });

  it('lists invoices by status and opens one with its line items, tax, customer and checkout', async () => {
    const { sandbox, actor, base } = await setup();
    const draft = ok<Invoice>(
      await v1(sandbox, actor, 'POST', '/v1/invoices', {
        title: 'Draft one',
        customer_name: 'Ada',
        amount: 1_000_000,
      }),
    );
    const sent = ok<Invoice>(
      await v1(sandbox, actor, 'POST', '/v1/invoices', {
        title: 'Consulting',
        customer_name: 'Grace',
        customer_email: 'grace@example.com',
        line_items: [
          { description: 'Design', quantity: 2, unit_price: 1_500_000 },
          { description: 'Review', quantity: 1, unit_price: 500_000 },
        ],
        tax_rate: 2000,
      }),
    );
    ok(await v1(sandbox, actor, 'POST', `/v1/invoices/${sent.id}/activate`, {}));

    const all = ok<Invoice[]>(await control(sandbox, 'GET', `${base}/invoices`));
    expect(all.map((i) => i.title)).toEqual(['Consulting', 'Draft one']);
    const sentOnly = ok<Invoice[]>(await control(sandbox, 'GET', `${base}/invoices?status=sent`));
    expect(sentOnly.map((i) => i.id)).toEqual([sent.id]);
    const drafts = ok<Invoice[]>(await control(sandbox, 'GET', `${base}/invoices?status=draft`));
    expect(drafts.map((i) => i.id)).toEqual([draft.id]);
    const byNumber = ok<Invoice[]>(
      await control(sandbox, 'GET', `${base}/invoices?q=${encodeURIComponent(sent.invoice_number)}`),
    );
    expect(byNumber.map((i) => i.id)).toEqual([sent.id]);

    const detail = ok<InvoiceDetail>(await control(sandbox, 'GET', `/sandbox/invoices/${sent.id}`));
    expect(detail.invoice.line_items.map((l) => l.total)).toEqual([3_000_000, 500_000]);
    expect(detail.invoice.subtotal).toBe(3_500_000);
    expect(detail.invoice.tax_amount).toBe(700_000);
    expect(detail.invoice.amount).toBe(4_200_000);
    expect(detail.customer?.name).toBe('Grace');
    expect(detail.checkout?.id).toBe(detail.invoice.checkout_id);
    expect(detail.checkout?.amount).toBe(4_200_000);
    const draftDetail = ok<InvoiceDetail>(await control(sandbox, 'GET', `/sandbox/invoices/${draft.id}`));
    expect(draftDetail.checkout).toBeNull();
    // the customer's detail lists the invoice made for them
    const grace = ok<CustomerDetail>(await control(sandbox, 'GET', `/sandbox/customers/${sent.customer_id}`));
    expect(grace.invoices.map((i) => i.id)).toEqual([sent.id]);

    expectError(await control(sandbox, 'GET', `/sandbox/invoices/${UNKNOWN_ID}`), 404, UNKNOWN_ID);
    expectError(await control(sandbox, 'GET', `${base}/invoices?status=overdue`), 422, 'status');
    expectError(await control(sandbox, 'GET', `/sandbox/merchants/${UNKNOWN_ID}/invoices`), 404);
  });
});

describe('checkout and event lists: filters, search, paging', () => {
  it('filters checkouts by status, searches title, reference or id, and pages', async () => {
    const { sandbox, actor, base } = await setup();
    const a = await createCheckout(sandbox, actor, { title: 'Coffee', reference: 'order-17' });
    const b = await createCheckout(sandbox, actor, { title: 'Tea' });
    const c = await createCheckout(sandbox, actor, { title: 'Cake' });
    ok(await pay(sandbox, b.id));
    const list = (query: string) =>
      control(sandbox, 'GET', `${base}/checkouts${query}`).then((r) =>
        ok<CheckoutBase[]>(r).map((x) => x.id),
      );
    expect(await list('')).toEqual([c.id, b.id, a.id]);
    expect(await list('?status=paid')).toEqual([b.id]);
    expect(await list('?status=active')).toEqual([c.id, a.id]);
    expect(await list('?q=ORDER-1')).toEqual([a.id]);
    expect(await list('?q=cak')).toEqual([c.id]);
    expect(await list(`?q=${b.id}`)).toEqual([b.id]);
    expect(await list(`?status=active&limit=1&starting_after=${c.id}`)).toEqual([a.id]);
    expectError(await control(sandbox, 'GET', `${base}/checkouts?status=gone`), 422, 'status');
    expectError(await control(sandbox, 'GET', `${base}/checkouts?q=`), 422, 'q');
  });

  it('filters events by type, finds one by its id or its resource id, and pages', async () => {
    const { sandbox, actor, base } = await setup();
    const a = await createCheckout(sandbox, actor, { title: 'A' });
    const b = await createCheckout(sandbox, actor, { title: 'B' });
    ok(await pay(sandbox, a.id));
    const list = (query: string) =>
      control(sandbox, 'GET', `${base}/events${query}`).then((r) => ok<SandboxEvent[]>(r));
    const all = await list('');
    expect(all.map((e) => e.type)).toEqual(['checkout.paid', 'checkout.created', 'checkout.created']);
    expect((await list('?type=checkout.created')).map((e) => e.resource_id)).toEqual([b.id, a.id]);
    expect((await list(`?q=${all[0]!.id}`)).map((e) => e.id)).toEqual([all[0]!.id]);
    expect((await list(`?q=${a.id}`)).map((e) => e.type)).toEqual(['checkout.paid', 'checkout.created']);
    const page2 = await list(`?limit=2&starting_after=${all[1]!.id}`);
    expect(page2.map((e) => e.id)).toEqual([all[2]!.id]);
    expect(all[0]!.data).toMatchObject({ id: a.id });
    expectError(await control(sandbox, 'GET', `${base}/events?type=checkout.exploded`), 422, 'type');
    expectError(
      await control(sandbox, 'GET', `${base}/events?starting_after=${UNKNOWN_ID}`),
      422,
      'starting_after',
    );
    expectError(await control(sandbox, 'GET', `/sandbox/merchants/${UNKNOWN_ID}/events`), 404);
  });
});

describe('webhook endpoints: edit, disable, test events, paged deliveries', () => {
  async function endpointTo(sandbox: Sandbox, base: string, url: string, events?: string[]) {
    return ok<WebhookEndpoint>(
      await control(sandbox, 'POST', `${base}/webhook-endpoints`, { url, ...(events ? { events } : {}) }),
    );
  }

  it('sends a signed test event through the dispatcher: a delivery with its attempt', async () => {
    const { sandbox, base, actor } = await setup();
    const receiver = await startReceiver();
    const endpoint = await endpointTo(sandbox, base, `${receiver.url}/hook`, [
      'card.created',
      'checkout.paid',
    ]);
    const delivery = ok<Delivery>(
      await control(sandbox, 'POST', `/sandbox/webhook-endpoints/${endpoint.id}/test`, {}),
    );
    // the endpoint's first subscribed type with a sample
    expect(delivery.event).toBe('checkout.paid');
    expect(delivery.status).toBe('delivered');
    expect(delivery.attempts).toHaveLength(1);
    expect(delivery.attempts[0]!.response_status).toBe(200);
    expect(receiver.received).toHaveLength(1);
    const got = receiver.received[0]!;
    expect(got.body).toMatchObject({ id: delivery.id, event: 'checkout.paid' });
    expect(got.body.data.merchant_id).toBe(actor.merchantId);
    expect(got.headers['x-svc-delivery-id']).toBe(delivery.id);
    expect(verify(endpoint.secret, got.raw, got.headers['x-svc-signature'] as string)).toBe(true);
    const listed = ok<Delivery[]>(
      await control(
        sandbox,
        'GET',
        `/sandbox/deliveries?merchant_id=${actor.merchantId}&event=checkout.paid`,
      ),
    );
    expect(listed.map((d) => d.id)).toEqual([delivery.id]);

    const chosen = ok<Delivery>(
      await control(sandbox, 'POST', `/sandbox/webhook-endpoints/${endpoint.id}/test`, {
        event: 'deposit.received',
      }),
    );
    expect(chosen.event).toBe('deposit.received');
    // no event recorded: the event log stays empty
    expect(ok<SandboxEvent[]>(await control(sandbox, 'GET', `${base}/events`))).toEqual([]);

    expectError(await control(sandbox, 'POST', `/sandbox/webhook-endpoints/${UNKNOWN_ID}/test`, {}), 404);
    expectError(
      await control(sandbox, 'POST', `/sandbox/webhook-endpoints/${endpoint.id}/test`, { event: 'nope' }),
      422,
      'event',
    );
  });

  it('edits url and events, and a disabled endpoint gets no new deliveries until enabled', async () => {
    const { sandbox, base, actor } = await setup();
    const first = await startReceiver();
    const second = await startReceiver();
    const endpoint = await endpointTo(sandbox, base, `${first.url}/a`);
    expect(endpoint.disabled).toBe(false);
    const moved = ok<WebhookEndpoint>(
      await control(sandbox, 'PATCH', `/sandbox/webhook-endpoints/${endpoint.id}`, {
        url: `${second.url}/b`,
        events: ['checkout.created'],
      }),
    );
    expect(moved).toMatchObject({
      url: `${second.url}/b`,
      events: ['checkout.created'],
      secret: endpoint.secret,
    });
    const a = await createCheckout(sandbox, actor, { title: 'after edit' });
    await second.waitFor((r) => r.length === 1);
    expect(second.received[0]!.body.data.id).toBe(a.id);
    expect(first.received).toHaveLength(0);

    const disabled = ok<WebhookEndpoint>(
      await control(sandbox, 'PATCH', `/sandbox/webhook-endpoints/${endpoint.id}`, { disabled: true }),
    );
    expect(disabled.disabled).toBe(true);
    const b = await createCheckout(sandbox, actor, { title: 'while disabled' });
    const forB = ok<Delivery[]>(
      await control(sandbox, 'GET', `/sandbox/deliveries?merchant_id=${actor.merchantId}`),
    );
    expect(forB.map((d) => JSON.parse(d.attempts[0]?.request_body ?? '{}').data?.id)).not.toContain(b.id);
    expect(forB).toHaveLength(1);
    expectError(
      await control(sandbox, 'POST', `/sandbox/webhook-endpoints/${endpoint.id}/test`, {}),
      400,
      'disabled',
    );

    ok(await control(sandbox, 'PATCH', `/sandbox/webhook-endpoints/${endpoint.id}`, { disabled: false }));
    const c = await createCheckout(sandbox, actor, { title: 'enabled again' });
    await second.waitFor((r) => r.length === 2);
    expect(second.received.map((r) => r.body.data.id)).toEqual([a.id, c.id]);

    const patch = (body: object, id = endpoint.id) =>
      control(sandbox, 'PATCH', `/sandbox/webhook-endpoints/${id}`, body as Record<string, unknown>);
    expectError(await patch({}), 422);
    expectError(await patch({ url: 'ftp://x.example' }), 422, 'url');
    expectError(await patch({ events: ['checkout.exploded'] }), 422, 'events[0]');
    expectError(await patch({ disabled: 'yes' }), 422, 'disabled');
    expectError(await patch({ disabled: true }, UNKNOWN_ID), 404, UNKNOWN_ID);
  });

  it('pages deliveries with starting_after', async () => {
    const { sandbox, base, actor } = await setup();
    const receiver = await startReceiver();
    const endpoint = await endpointTo(sandbox, base, `${receiver.url}/p`);
    for (let i = 0; i < 3; i++)
      ok(await control(sandbox, 'POST', `/sandbox/webhook-endpoints/${endpoint.id}/test`, {}));
    const q = `/sandbox/deliveries?merchant_id=${actor.merchantId}`;
    const all = ok<Delivery[]>(await control(sandbox, 'GET', q));
    expect(all).toHaveLength(3);
    const next = ok<Delivery[]>(await control(sandbox, 'GET', `${q}&limit=1&starting_after=${all[0]!.id}`));
    expect(next.map((d) => d.id)).toEqual([all[1]!.id]);
    expectError(await control(sandbox, 'GET', `${q}&starting_after=${UNKNOWN_ID}`), 422, 'starting_after');
  });
});

describe('the control API’s guard on the new routes', () => {
  it('refuses a foreign Origin or Host on every new route (no key, local clients only)', async () => {
    const { sandbox, base } = await setup();
    const endpoint = ok<WebhookEndpoint>(
      await control(sandbox, 'POST', `${base}/webhook-endpoints`, { url: 'http://127.0.0.1:9/x' }),
    );
    const writes: [string, string, object][] = [
      ['PATCH', `/sandbox/webhook-endpoints/${endpoint.id}`, { disabled: true }],
      ['POST', `/sandbox/webhook-endpoints/${endpoint.id}/test`, {}],
      ['POST', `/sandbox/cards/${UNKNOWN_ID}/secrets`, { session: 'x' }],
      ['POST', `/sandbox/cards/${UNKNOWN_ID}/pin`, { session: 'x' }],
    ];
    for (const [method, url, payload] of writes) {
      const res = await sandbox.apps.test.inject({
        method: method as 'PATCH' | 'POST',
        url,
        payload,
        headers: { origin: 'http://evil.example' },
      });
      expectError(res, 403);
    }
    for (const url of [`${base}/customers`, `${base}/invoices`, `/sandbox/customers/${UNKNOWN_ID}`]) {
      expectError(await sandbox.apps.test.inject({ url, headers: { host: 'evil.example' } }), 403);
    }
    // nothing changed
    expect(
      ok<WebhookEndpoint>(await control(sandbox, 'GET', `/sandbox/webhook-endpoints/${endpoint.id}`))
        .disabled,
    ).toBe(false);
  });
});

describe('card secrets as the merchant owner (the dashboard reveal)', () => {
  it('answers the same PAN, CVC and PIN as /v1, encrypted under the session key', async () => {
    const { sandbox, actor } = await setup();
    const VIRTUAL = '6f1c2a8e-3b4d-4c5e-9f60-7a8b9c0d1e21';
    const holder = ok<{ id: string }>(await v1(sandbox, actor, 'POST', '/v1/cardholders', { name: 'Jane' }));
    ok(await control(sandbox, 'POST', `/sandbox/cardholders/${holder.id}/kyc`, { result: 'approved' }));
    ok(
      await v1(sandbox, actor, 'POST', `/v1/cardholders/${holder.id}/cards/apply`, {
        catalogue: VIRTUAL,
        account_purpose: 'expenses',
        occupation: 'engineer',
        annual_salary: '50000_100000',
        expected_monthly_volume: '1000_5000',
      }),
    );
    const card = ok<{ id: string; last4: string }>(
      await v1(sandbox, actor, 'POST', `/v1/cardholders/${holder.id}/cards`, {
        catalogue: VIRTUAL,
        type: 'virtual',
      }),
    );
    const pem = ok<{ public_key_pem: string }>(
      await control(sandbox, 'GET', '/sandbox/keys?env=test'),
    ).public_key_pem;

    const viaV1 = newSession(pem);
    const v1Secrets = ok<{
      encryptedPan: { iv: string; data: string };
      encryptedCvc: { iv: string; data: string };
    }>(
      await v1(sandbox, actor, 'POST', `/v1/cardholders/${holder.id}/cards/${card.id}/secrets`, {
        session: viaV1.session,
      }),
    );
    const control1 = newSession(pem);
    const secrets = ok<typeof v1Secrets>(
      await control(sandbox, 'POST', `/sandbox/cards/${card.id}/secrets`, { session: control1.session }),
    );
    const pan = decryptPayload(control1.key, secrets.encryptedPan);
    expect(pan).toBe(decryptPayload(viaV1.key, v1Secrets.encryptedPan));
    expect(pan.endsWith(card.last4)).toBe(true);
    expect(decryptPayload(control1.key, secrets.encryptedCvc)).toBe(
      decryptPayload(viaV1.key, v1Secrets.encryptedCvc),
    );
    const pin = ok<{ encryptedPin: { iv: string; data: string } }>(
      await control(sandbox, 'POST', `/sandbox/cards/${card.id}/pin`, { session: control1.session }),
    );
    expect(readPinBlock(decryptPayload(control1.key, pin.encryptedPin))).toMatch(/^[0-9]{4,12}$/);

    expectError(
      await control(sandbox, 'POST', `/sandbox/cards/${UNKNOWN_ID}/secrets`, { session: control1.session }),
      404,
    );
    expectError(await control(sandbox, 'POST', `/sandbox/cards/${card.id}/secrets`, {}), 422, 'session');
    expectError(
      await control(sandbox, 'POST', `/sandbox/cards/${card.id}/pin`, { session: 'bm90IGEga2V5' }),
      400,
    );
  });
});
