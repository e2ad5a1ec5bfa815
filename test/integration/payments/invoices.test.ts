import { beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../server/sandbox.js';
import {
  type Actor,
  type Checkout,
  call,
  control,
  createMerchant,
  type Env,
  eventsFor,
  events as eventsOf,
  expectError,
  getCheckout,
  type Json,
  ok,
  patchSettings,
  pay,
  UNKNOWN_ID,
} from '../../helpers/api.js';
import { ManualTime, testSandbox } from '../../helpers/sandbox.js';
import { useSharedSandbox } from '../../helpers/suite.js';

interface LineItemJson {
  description: string;
  quantity: number;
  unit_price: number;
  total: number;
}
interface InvoiceJson {
  id: string;
  merchant_id: string;
  customer_id: string;
  invoice_number: string;
  title: string;
  description: string | null;
  status: string;
  amount: number;
  currency: string;
  due_date: string | null;
  line_items: LineItemJson[];
  subtotal: number;
  tax_rate: number;
  tax_amount: number;
  recipient_note: string | null;
  checkout_id: string | null;
  paid_at: string | null;
  paid_amount: number | null;
  created_at: string;
  updated_at: string;
}
interface ActivatedJson {
  invoice: InvoiceJson;
  checkout: Checkout;
}

const INVOICE_KEYS = [
  'amount',
  'checkout_id',
  'created_at',
  'currency',
  'customer_id',
  'description',
  'due_date',
  'id',
  'invoice_number',
  'line_items',
  'merchant_id',
  'paid_amount',
  'paid_at',
  'recipient_note',
  'status',
  'subtotal',
  'tax_amount',
  'tax_rate',
  'title',
  'updated_at',
];
const MAX = Number.MAX_SAFE_INTEGER;
/** ManualTime's start; nothing in the shared sandbox moves the clock. */
const NOW = '2026-01-15T12:00:00.000Z';
/** now + 30 days − 1 s: the expiry when due_date is absent, past, or more than 30 days ahead. */
const THIRTY_DAYS = '2026-02-14T11:59:59.000Z';

describe('invoices', () => {
  const time = new ManualTime();
  const shared = useSharedSandbox(() => ({ realNow: time.now }));
  let sandbox: Sandbox;
  let actor: Actor;
  let other: Actor;

  const post = (payload: Json, headers: Record<string, string> = actor.auth, env: Env = 'test') =>
    call(sandbox, { method: 'POST', url: '/v1/invoices', headers, payload }, env);
  const create = async (payload: Json = {}, who: Actor = actor, env: Env = 'test') =>
    ok<InvoiceJson>(
      await post({ title: 'Invoice', customer_name: 'Ada', amount: 5_000_000, ...payload }, who.auth, env),
    );
  const get = (id: string, who: Actor = actor, env: Env = 'test') =>
    call(sandbox, { method: 'GET', url: `/v1/invoices/${id}`, headers: who.auth }, env);
  const activate = (id: string, payload?: Json, who: Actor = actor, env: Env = 'test') =>
    call(
      sandbox,
      {
        method: 'POST',
        url: `/v1/invoices/${id}/activate`,
        headers: who.auth,
        ...(payload === undefined ? {} : { payload }),
      },
      env,
    );
  const remove = (id: string, who: Actor = actor, env: Env = 'test') =>
    call(sandbox, { method: 'DELETE', url: `/v1/invoices/${id}`, headers: who.auth }, env);
  const list = async (query = '', who: Actor = actor, env: Env = 'test') =>
    ok<InvoiceJson[]>(
      await call(sandbox, { method: 'GET', url: `/v1/invoices${query}`, headers: who.auth }, env),
    );

  beforeEach(async () => {
    sandbox = shared();
    actor = await createMerchant(sandbox, 'Acme');
    other = await createMerchant(sandbox, 'Other');
  });

  describe('create', () => {
    it('from line items: totals, subtotal, half-up tax and amount; an inline customer', async () => {
      const invoice = await create({
        title: 'January services',
        description: 'Consulting',
        customer_name: 'Ada Lovelace',
        customer_email: 'ada@example.com',
        customer_country: 'GBR',
        amount: undefined,
        currency: 'usdt',
        due_date: '2026-01-31',
        recipient_note: 'Thank you',
        line_items: [
          { description: 'Seat', quantity: 2, unit_price: 12_500_000 },
          { description: 'Add-on', quantity: 3, unit_price: 1_333_333 },
        ],
        tax_rate: 825,
      });
      expect(Object.keys(invoice).sort()).toEqual(INVOICE_KEYS);
      // 25_000_000 + 3_999_999 = 28_999_999; × 8.25% = 2_392_499.9175 → 2_392_500
      expect(invoice).toMatchObject({
        merchant_id: actor.merchantId,
        invoice_number: 'INV-000001',
        title: 'January services',
        description: 'Consulting',
        status: 'draft',
        currency: 'USDT',
        due_date: '2026-01-31',
        line_items: [
          { description: 'Seat', quantity: 2, unit_price: 12_500_000, total: 25_000_000 },
          { description: 'Add-on', quantity: 3, unit_price: 1_333_333, total: 3_999_999 },
        ],
        subtotal: 28_999_999,
        tax_rate: 825,
        tax_amount: 2_392_500,
        amount: 31_392_499,
        recipient_note: 'Thank you',
        checkout_id: null,
        paid_at: null,
        paid_amount: null,
        created_at: NOW,
        updated_at: NOW,
      });
      const customer = ok<Json>(
        await call(sandbox, {
          method: 'GET',
          url: `/v1/customers/${invoice.customer_id}`,
          headers: actor.auth,
        }),
      );
      expect(customer).toMatchObject({ name: 'Ada Lovelace', email: 'ada@example.com', country: 'GBR' });
      expect(ok<InvoiceJson>(await get(invoice.id))).toEqual(invoice);
      // No invoice event on creation: the spec has none.
      expect(
        (await eventsOf(sandbox, actor.merchantId)).filter((e) => e.type.startsWith('invoice.')),
      ).toEqual([]);
    });

    it('from amount only: subtotal = amount, no tax, no line items, USDC by default', async () => {
      const invoice = await create({ amount: 5_000_000 });
      expect(invoice).toMatchObject({
        amount: 5_000_000,
        subtotal: 5_000_000,
        tax_rate: 0,
        tax_amount: 0,
        line_items: [],
        currency: 'USDC',
        description: null,
        due_date: null,
        recipient_note: null,
      });
    });

    it('from subtotal and tax_rate, rounding half up', async () => {
      // 1_000_005 × 12.5% = 125_000.625 → 125_001
      const invoice = await create({ amount: undefined, subtotal: 1_000_005, tax_rate: 1250 });
      expect(invoice).toMatchObject({
        subtotal: 1_000_005,
        tax_rate: 1250,
        tax_amount: 125_001,
        amount: 1_125_006,
      });
      expect(invoice.line_items).toEqual([]);
      // exactly half a unit rounds up: 2 × 25% = 0.5 → 1
      expect(await create({ amount: undefined, subtotal: 2, tax_rate: 2500 })).toMatchObject({
        tax_amount: 1,
        amount: 3,
      });
      // subtotal without tax_rate: no tax
      expect(await create({ amount: undefined, subtotal: 7 })).toMatchObject({
        tax_rate: 0,
        tax_amount: 0,
        amount: 7,
      });
    });

    it('odd but consistent inputs', async () => {
      // every money field given and agreeing: 4 × 0.25 = 1; + 10% = 1.1
      expect(
        await create({
          line_items: [{ description: 'A', quantity: 4, unit_price: 250_000 }],
          subtotal: 1_000_000,
          tax_rate: 1000,
          amount: 1_100_000,
        }),
      ).toMatchObject({ subtotal: 1_000_000, tax_amount: 100_000, amount: 1_100_000 });
      // a free line next to a paid one
      expect(
        await create({
          amount: undefined,
          line_items: [
            { description: 'Free', quantity: 5, unit_price: 0 },
            { description: 'Paid', quantity: 1, unit_price: 9 },
          ],
        }),
      ).toMatchObject({ subtotal: 9, amount: 9, line_items: [{ total: 0 }, { total: 9 }] });
      // an empty line_items list is no line items
      expect(await create({ line_items: [], amount: 10 })).toMatchObject({
        subtotal: 10,
        amount: 10,
        line_items: [],
      });
      // tax_rate 0 with amount only is not a contradiction
      expect(await create({ amount: 3, tax_rate: 0 })).toMatchObject({ amount: 3, tax_rate: 0 });
      // a line total of exactly MAX_SAFE_INTEGER is fine
      expect(
        await create({
          amount: undefined,
          line_items: [{ description: 'Max', quantity: 1, unit_price: MAX }],
        }),
      ).toMatchObject({ amount: MAX });
      // 100 line items is the limit
      const hundred = Array.from({ length: 100 }, (_, i) => ({
        description: `L${i}`,
        quantity: 1,
        unit_price: 1,
      }));
      expect(await create({ amount: undefined, line_items: hundred })).toMatchObject({ amount: 100 });
    });

    it('attaches customers by id or by email; creates one otherwise', async () => {
      const existing = ok<{ id: string }>(
        await call(sandbox, {
          method: 'POST',
          url: '/v1/customers',
          headers: actor.auth,
          payload: { name: 'Known', email: 'known@example.com' },
        }),
      );
      expect((await create({ customer_id: existing.id, customer_name: undefined })).customer_id).toBe(
        existing.id,
      );
      // customer_id wins over inline fields
      expect((await create({ customer_id: existing.id, customer_name: 'Ignored' })).customer_id).toBe(
        existing.id,
      );
      // a known email attaches (the existing record is not changed)
      expect(
        (await create({ customer_name: 'Other name', customer_email: 'known@example.com' })).customer_id,
      ).toBe(existing.id);
      const customers = () =>
        call(sandbox, { method: 'GET', url: '/v1/customers', headers: actor.auth }).then((r) =>
          ok<Json[]>(r),
        );
      expect(await customers()).toHaveLength(1);
      const fresh = await create({ customer_name: 'New', customer_email: 'new@example.com' });
      expect(fresh.customer_id).not.toBe(existing.id);
      expect(await customers()).toHaveLength(2);
    });

    it('customer_id: unknown or other environment → 404, another merchant’s → 403', async () => {
      expectError(await post({ title: 'T', amount: 1, customer_id: UNKNOWN_ID }), 404, UNKNOWN_ID);
      const theirs = ok<{ id: string }>(
        await call(sandbox, {
          method: 'POST',
          url: '/v1/customers',
          headers: other.auth,
          payload: { name: 'Theirs' },
        }),
      );
      expectError(await post({ title: 'T', amount: 1, customer_id: theirs.id }), 403);
      const prod = ok<{ id: string }>(
        await call(
          sandbox,
          { method: 'POST', url: '/v1/customers', headers: actor.auth, payload: { name: 'Prod' } },
          'production',
        ),
      );
      expectError(await post({ title: 'T', amount: 1, customer_id: prod.id }), 404);
      expect(await list()).toEqual([]);
    });

    it('merchant_id: own id is fine, another merchant’s needs a reseller connection (403)', async () => {
      expect((await create({ merchant_id: actor.merchantId })).merchant_id).toBe(actor.merchantId);
      expectError(
        await post({ title: 'T', customer_name: 'A', amount: 1, merchant_id: other.merchantId }),
        403,
        'merchant_id',
      );
    });

    const base = { title: 'T', customer_name: 'A' };
    const item = (quantity: unknown, unit_price: unknown, description: unknown = 'x') => ({
      description,
      quantity,
      unit_price,
    });
    const invalid: [string, Json, string][] = [
      ['title missing', { customer_name: 'A', amount: 1 }, 'title'],
      ['title empty', { ...base, title: '', amount: 1 }, 'title'],
      ['no customer_id and no customer_name', { title: 'T', amount: 1 }, 'customer_name'],
      [
        'customer_email without customer_name',
        { title: 'T', amount: 1, customer_email: 'a@example.com' },
        'customer_name',
      ],
      ['customer_id not a uuid', { title: 'T', amount: 1, customer_id: 'abc' }, 'customer_id'],
      ['customer_email malformed', { ...base, amount: 1, customer_email: 'nope' }, 'customer_email'],
      ['customer_country lowercase', { ...base, amount: 1, customer_country: 'usa' }, 'customer_country'],
      ['customer_country unknown', { ...base, amount: 1, customer_country: 'XYZ' }, 'customer_country'],
      ['currency unsupported', { ...base, amount: 1, currency: 'EUR' }, 'currency'],
      ['currency malformed', { ...base, amount: 1, currency: 'U$' }, 'currency'],
      ['amount zero', { ...base, amount: 0 }, 'amount'],
      ['amount float', { ...base, amount: 1.5 }, 'amount'],
      ['amount string', { ...base, amount: '5' }, 'amount'],
      ['subtotal negative', { ...base, subtotal: -1 }, 'subtotal'],
      ['tax_rate above 10000', { ...base, subtotal: 10, tax_rate: 10_001 }, 'tax_rate'],
      ['tax_rate negative', { ...base, subtotal: 10, tax_rate: -1 }, 'tax_rate'],
      ['due_date not a calendar day', { ...base, amount: 1, due_date: '2026-02-30' }, 'due_date'],
      ['due_date 29 Feb of a common year', { ...base, amount: 1, due_date: '2027-02-29' }, 'due_date'],
      ['due_date with slashes', { ...base, amount: 1, due_date: '2026/03/01' }, 'due_date'],
      ['due_date a date-time', { ...base, amount: 1, due_date: '2026-03-01T00:00:00Z' }, 'due_date'],
      ['line item quantity 0', { ...base, line_items: [item(0, 5)] }, 'line_items[0].quantity'],
      [
        'line item quantity fractional',
        { ...base, line_items: [item(1, 5), item(1.5, 5)] },
        'line_items[1].quantity',
      ],
      ['line item unit_price negative', { ...base, line_items: [item(1, -1)] }, 'line_items[0].unit_price'],
      [
        'line item description missing',
        { ...base, line_items: [{ quantity: 1, unit_price: 1 }] },
        'line_items[0].description',
      ],
      [
        'line item quantity missing',
        { ...base, line_items: [{ description: 'x', unit_price: 1 }] },
        'line_items[0].quantity',
      ],
      [
        'more than 100 line items',
        { ...base, line_items: Array.from({ length: 101 }, () => item(1, 1)) },
        'line_items',
      ],
      ['description too long', { ...base, amount: 1, description: 'x'.repeat(2001) }, 'description'],
      // contradictions and impossible totals (PRODUCT.md: a 422, not a guess)
      ['none of line_items, subtotal, amount', { ...base }, 'amount'],
      ['only tax_rate', { ...base, tax_rate: 500 }, 'amount'],
      ['line_items and subtotal disagree', { ...base, line_items: [item(2, 5)], subtotal: 11 }, 'subtotal'],
      ['amount disagrees with line_items', { ...base, line_items: [item(2, 5)], amount: 11 }, 'amount'],
      ['amount disagrees with subtotal', { ...base, subtotal: 100, amount: 99 }, 'amount'],
      [
        'amount ignores the rounded tax',
        { ...base, subtotal: 1_000_005, tax_rate: 1250, amount: 1_125_005 },
        'amount',
      ],
      ['tax_rate with only amount', { ...base, amount: 1_000_000, tax_rate: 1000 }, 'tax_rate'],
      ['line items total 0', { ...base, line_items: [item(3, 0)] }, 'amount'],
      ['subtotal 0', { ...base, subtotal: 0 }, 'amount'],
      ['empty line_items alone', { ...base, line_items: [] }, 'amount'],
      [
        'line total above MAX_SAFE_INTEGER',
        { ...base, line_items: [item(2, 4_503_599_627_370_496)] },
        'line_items[0]',
      ],
      [
        'line totals sum above MAX_SAFE_INTEGER',
        { ...base, line_items: [item(1, MAX), item(1, 1)] },
        'line_items',
      ],
      ['total with tax above MAX_SAFE_INTEGER', { ...base, subtotal: MAX, tax_rate: 1 }, 'amount'],
    ];
    it.each(invalid)('422 %s, naming %s', async (_name, payload, field) => {
      const message = expectError(await post(payload), 422, `${field}:`);
      expect(message.startsWith(`${field}:`), message).toBe(true);
    });

    it('422 for none of the money fields names all three', async () => {
      expectError(await post({ ...base }), 422, 'amount:', 'line_items', 'subtotal');
    });

    it('a rejected create leaves no invoice, customer or used number behind', async () => {
      expectError(
        await post({ ...base, customer_email: 'z@example.com', line_items: [item(2, 5)], subtotal: 11 }),
        422,
      );
      expect(await list()).toEqual([]);
      expect(
        ok<Json[]>(await call(sandbox, { method: 'GET', url: '/v1/customers', headers: actor.auth })),
      ).toEqual([]);
      expect((await create()).invoice_number).toBe('INV-000001');
    });
  });

  describe('numbering', () => {
    it('INV-000001, INV-000002… per merchant and per environment', async () => {
      expect((await create()).invoice_number).toBe('INV-000001');
      expect((await create()).invoice_number).toBe('INV-000002');
      expect((await create({}, other)).invoice_number).toBe('INV-000001');
      expect((await create({}, actor, 'production')).invoice_number).toBe('INV-000001');
      const third = await create();
      expect(third.invoice_number).toBe('INV-000003');
      // a cancelled invoice keeps its number; the next one does not reuse it
      expect((await remove(third.id)).statusCode).toBe(204);
      expect((await create()).invoice_number).toBe('INV-000004');
      expect((await create({}, actor, 'production')).invoice_number).toBe('INV-000002');
      expect((await create({}, other)).invoice_number).toBe('INV-000002');
    });
  });

  describe('read', () => {
    it('lists newest first with limit and starting_after, only this merchant and environment', async () => {
      const made: InvoiceJson[] = [];
      for (let i = 0; i < 5; i++) made.push(await create({ title: `I${i}` }));
      await create({}, other);
      await create({}, actor, 'production');
      const ids = made.map((i) => i.id).reverse();
      expect((await list()).map((i) => i.id)).toEqual(ids);
      const page1 = await list('?limit=2');
      expect(page1.map((i) => i.id)).toEqual(ids.slice(0, 2));
      const page2 = await list(`?limit=2&starting_after=${page1[1]!.id}`);
      expect(page2.map((i) => i.id)).toEqual(ids.slice(2, 4));
      const page3 = await list(`?limit=2&starting_after=${page2[1]!.id}`);
      expect(page3.map((i) => i.id)).toEqual(ids.slice(4));
      expect(await list(`?starting_after=${page3[0]!.id}`)).toEqual([]);
      expect(Object.keys(page1[0]!).sort()).toEqual(INVOICE_KEYS);
      expect(page1[0]).toEqual(made[4]);
    });

    it.each([
      ['limit=0', 'limit'],
      ['limit=1001', 'limit'],
      ['limit=abc', 'limit'],
      ['starting_after=not-a-uuid', 'starting_after'],
      [`starting_after=${UNKNOWN_ID}`, 'starting_after'],
    ])('list ?%s → 422 naming %s', async (query, field) => {
      expectError(
        await call(sandbox, { method: 'GET', url: `/v1/invoices?${query}`, headers: actor.auth }),
        422,
        field,
      );
    });

    it('GET: unknown → 404, other environment → 404, another merchant → 403, bad id → 422', async () => {
      const invoice = await create();
      expectError(await get(UNKNOWN_ID), 404, UNKNOWN_ID);
      expectError(await get(invoice.id, actor, 'production'), 404);
      expectError(await get(invoice.id, other), 403);
      expectError(await get('not-a-uuid'), 422, 'id');
    });

    it('401 without a key on every route, 401 with a bad key', async () => {
      const invoice = await create();
      const routes: { method: 'GET' | 'POST' | 'DELETE'; url: string; payload?: Json }[] = [
        { method: 'POST', url: '/v1/invoices', payload: { title: 'T', customer_name: 'A', amount: 1 } },
        { method: 'GET', url: '/v1/invoices' },
        { method: 'GET', url: `/v1/invoices/${invoice.id}` },
        { method: 'POST', url: `/v1/invoices/${invoice.id}/activate` },
        { method: 'DELETE', url: `/v1/invoices/${invoice.id}` },
      ];
      for (const route of routes) {
        expectError(await call(sandbox, route), 401);
        expectError(await call(sandbox, { ...route, headers: { authorization: 'Bearer svcb_nope' } }), 401);
      }
      expect(ok<InvoiceJson>(await get(invoice.id)).status).toBe('draft');
    });
  });

  describe('activate', () => {
    it('creates the hosted checkout for the invoice amount, sends the invoice and emits invoice.sent', async () => {
      const invoice = await create({
        title: 'Consulting',
        description: 'January',
        amount: undefined,
        subtotal: 1_000_005,
        tax_rate: 1250,
        currency: 'USDT',
        due_date: '2026-01-20',
      });
      const { invoice: sent, checkout } = ok<ActivatedJson>(
        await activate(invoice.id, {
          success_url: 'https://shop.example/ok',
          cancel_url: 'https://shop.example/no',
        }),
      );
      expect(Object.keys(sent).sort()).toEqual(INVOICE_KEYS);
      expect(sent).toEqual({ ...invoice, status: 'sent', checkout_id: checkout.id, updated_at: NOW });
      expect(checkout).toMatchObject({
        merchant_id: actor.merchantId,
        title: 'Consulting',
        description: 'January',
        amount: 1_125_006,
        currency: 'USDT',
        method: 'crypto',
        status: 'active',
        customer_id: invoice.customer_id,
        // end of the due date: 5.5 days ahead, within 30
        expires_at: '2026-01-20T23:59:59.999Z',
        fiat: null,
      });
      expect(new URL(checkout.hosted_url).pathname).toBe(`/pay/${checkout.id}`);
      expect(checkout.crypto_chains.length).toBeGreaterThan(0);
      expect(await getCheckout(sandbox, actor, checkout.id)).toEqual(checkout);
      expect(ok<InvoiceJson>(await get(invoice.id))).toEqual(sent);

      const sentEvents = await eventsFor(sandbox, actor.merchantId, invoice.id, 'invoice.sent');
      expect(sentEvents).toHaveLength(1);
      expect(sentEvents[0]!.data).toEqual(sent);
      expect(await eventsFor(sandbox, actor.merchantId, checkout.id, 'checkout.created')).toHaveLength(1);
    });

    it.each([
      ['absent', undefined, THIRTY_DAYS],
      ['in the past', '2026-01-14', THIRTY_DAYS],
      ['today (its end is still ahead)', '2026-01-15', '2026-01-15T23:59:59.999Z'],
      ['29 days ahead', '2026-02-13', '2026-02-13T23:59:59.999Z'],
      ['ending 30.5 days ahead', '2026-02-14', THIRTY_DAYS],
      ['months ahead', '2026-06-30', THIRTY_DAYS],
    ])('checkout expiry when due_date is %s', async (_name, dueDate, expiresAt) => {
      const invoice = await create(dueDate === undefined ? {} : { due_date: dueDate });
      const { checkout } = ok<ActivatedJson>(await activate(invoice.id));
      expect(checkout.expires_at).toBe(expiresAt);
    });

    it('only a draft: activating twice, or a cancelled invoice → 400 naming the status', async () => {
      const invoice = await create();
      ok(await activate(invoice.id));
      expectError(await activate(invoice.id), 400, 'Cannot activate an invoice with status sent');
      const cancelled = await create();
      expect((await remove(cancelled.id)).statusCode).toBe(204);
      expectError(await activate(cancelled.id), 400, 'Cannot activate an invoice with status cancelled');
      expect(await eventsFor(sandbox, actor.merchantId, invoice.id, 'invoice.sent')).toHaveLength(1);
      expect(await eventsFor(sandbox, actor.merchantId, cancelled.id, 'invoice.sent')).toHaveLength(0);
    });

    it('unknown → 404, other environment → 404, another merchant → 403, bad urls → 422', async () => {
      const invoice = await create();
      expectError(await activate(UNKNOWN_ID), 404);
      expectError(await activate(invoice.id, undefined, actor, 'production'), 404);
      expectError(await activate(invoice.id, undefined, other), 403);
      expectError(await activate(invoice.id, { success_url: 'not a url' }), 422, 'success_url');
      expectError(await activate(invoice.id, { cancel_url: 42 }), 422, 'cancel_url');
      expect(ok<InvoiceJson>(await get(invoice.id)).status).toBe('draft');
    });

    it('works in production too, with that environment’s checkout', async () => {
      const invoice = await create({}, actor, 'production');
      const { checkout } = ok<ActivatedJson>(await activate(invoice.id, undefined, actor, 'production'));
      expect(checkout.amount).toBe(5_000_000);
      expectError(
        await call(sandbox, { method: 'GET', url: `/v1/checkouts/${checkout.id}`, headers: actor.auth }),
        404,
      );
      expect(await getCheckout(sandbox, actor, checkout.id, 'production')).toEqual(checkout);
    });

    it('still activates after its customer was deleted (the checkout then has no customer)', async () => {
      const invoice = await create();
      const gone = await call(sandbox, {
        method: 'DELETE',
        url: `/v1/customers/${invoice.customer_id}`,
        headers: actor.auth,
      });
      expect(gone.statusCode).toBe(204);
      const { invoice: sent, checkout } = ok<ActivatedJson>(await activate(invoice.id));
      expect(sent.customer_id).toBe(invoice.customer_id);
      expect(checkout.customer_id).toBeNull();
    });
  });

  describe('payment', () => {
    it('paying the checkout marks the invoice paid, with paid_at and paid_amount, and emits invoice.paid', async () => {
      // Its own sandbox and time source: this test moves the clock.
      const own = new ManualTime();
      sandbox = await testSandbox({ realNow: own.now });
      actor = await createMerchant(sandbox);
      const invoice = await create({ amount: 25_000_000 });
      const { checkout } = ok<ActivatedJson>(await activate(invoice.id));
      // a partial transfer leaves the invoice sent
      const part = ok<{ checkout: Checkout }>(await pay(sandbox, checkout.id, { amount: 10_000_000 }));
      expect(part.checkout.status).toBe('active');
      expect(ok<InvoiceJson>(await get(invoice.id)).status).toBe('sent');
      own.tick(1000);
      const paid = ok<{ checkout: Checkout }>(await pay(sandbox, checkout.id));
      expect(paid.checkout).toMatchObject({ status: 'paid', paid_amount: 25_000_000 });
      const paidAt = paid.checkout.paid_at!;
      expect(paidAt).toBe('2026-01-15T12:00:01.000Z');

      const after = ok<InvoiceJson>(await get(invoice.id));
      expect(after).toMatchObject({
        status: 'paid',
        checkout_id: checkout.id,
        paid_at: paidAt,
        paid_amount: 25_000_000,
        amount: 25_000_000,
        updated_at: paidAt,
      });
      const paidEvents = await eventsFor(sandbox, actor.merchantId, invoice.id, 'invoice.paid');
      expect(paidEvents).toHaveLength(1);
      expect(paidEvents[0]!.data).toEqual(after);
      // order: checkout.paid, then invoice.paid, in the same transaction
      const types = (await eventsOf(sandbox, actor.merchantId)).map((e) => e.type).reverse();
      expect(types).toEqual(['checkout.created', 'invoice.sent', 'checkout.paid', 'invoice.paid']);
    });

    it('an overpayment is recorded as paid_amount', async () => {
      const invoice = await create({ amount: 5_000_000 });
      const { checkout } = ok<ActivatedJson>(await activate(invoice.id));
      ok(await pay(sandbox, checkout.id, { amount: 6_000_000 }));
      expect(ok<InvoiceJson>(await get(invoice.id))).toMatchObject({
        status: 'paid',
        paid_amount: 6_000_000,
      });
    });
  });

  describe('cancel', () => {
    it('a draft → 204, cancelled', async () => {
      const invoice = await create();
      const res = await remove(invoice.id);
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      expect(ok<InvoiceJson>(await get(invoice.id))).toMatchObject({
        status: 'cancelled',
        checkout_id: null,
      });
      expectError(await remove(invoice.id), 400, 'Cannot cancel an invoice with status cancelled');
    });

    it('a sent invoice → 204, and its active checkout is cancelled too', async () => {
      const invoice = await create();
      const { checkout } = ok<ActivatedJson>(await activate(invoice.id));
      expect((await remove(invoice.id)).statusCode).toBe(204);
      expect(ok<InvoiceJson>(await get(invoice.id))).toMatchObject({
        status: 'cancelled',
        checkout_id: checkout.id,
      });
      expect((await getCheckout(sandbox, actor, checkout.id)).status).toBe('cancelled');
      expect(await eventsFor(sandbox, actor.merchantId, checkout.id, 'checkout.cancelled')).toHaveLength(1);
      expectError(await pay(sandbox, checkout.id), 400);
    });

    it('a sent invoice whose checkout already expired → 204, the checkout stays expired', async () => {
      const invoice = await create();
      const { checkout } = ok<ActivatedJson>(await activate(invoice.id));
      ok(await control(sandbox, 'POST', `/sandbox/checkouts/${checkout.id}/expire`));
      expect(ok<InvoiceJson>(await get(invoice.id)).status).toBe('sent');
      expect((await remove(invoice.id)).statusCode).toBe(204);
      expect((await getCheckout(sandbox, actor, checkout.id)).status).toBe('expired');
      expect(ok<InvoiceJson>(await get(invoice.id)).status).toBe('cancelled');
    });

    it('a paid invoice → 400 naming the status; nothing changes', async () => {
      const invoice = await create();
      const { checkout } = ok<ActivatedJson>(await activate(invoice.id));
      ok(await pay(sandbox, checkout.id));
      expectError(await remove(invoice.id), 400, 'Cannot cancel an invoice with status paid');
      expect(ok<InvoiceJson>(await get(invoice.id)).status).toBe('paid');
      expect((await getCheckout(sandbox, actor, checkout.id)).status).toBe('paid');
    });

    it('unknown → 404, other environment → 404, another merchant → 403', async () => {
      const invoice = await create();
      expectError(await remove(UNKNOWN_ID), 404);
      expectError(await remove(invoice.id, actor, 'production'), 404);
      expectError(await remove(invoice.id, other), 403);
      expect(ok<InvoiceJson>(await get(invoice.id)).status).toBe('draft');
    });
  });

  it('an activation whose checkout cannot be created leaves the draft untouched', async () => {
    sandbox = await testSandbox({ realNow: time.now });
    actor = await createMerchant(sandbox);
    await patchSettings(sandbox, {
      chains: [
        {
          chain: 'polygon',
          tokens: [{ name: 'USDC', contract_address: '0xusdc', min: 100_000_000, max: 0, gas_fee: 0 }],
        },
      ],
    });
    const invoice = await create({ amount: 5_000_000 });
    expectError(await activate(invoice.id), 400, 'No eligible chains');
    expect(ok<InvoiceJson>(await get(invoice.id))).toEqual(invoice);
    expect(
      ok<Json[]>(await call(sandbox, { method: 'GET', url: '/v1/checkouts', headers: actor.auth })),
    ).toEqual([]);
    expect(await eventsOf(sandbox, actor.merchantId)).toEqual([]);
  });
});
