import { createHash } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import type { Env } from '../../server/contract/common.js';
import type { Db } from '../../server/db/connection.js';
import type { Sandbox } from '../../server/sandbox.js';

/**
 * A rich workspace built through the HTTP API, and a field-by-field comparison of every GET answer
 * of two sandboxes (the export/import round trip, the demo). Shared by the transfer tests.
 */

type Json = Record<string, unknown>;
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RichWorkspace {
  shop: { id: string; key: string };
  reseller: { id: string; key: string };
  other: { id: string; key: string };
}

async function send(
  sandbox: Sandbox,
  method: Method,
  url: string,
  body?: unknown,
  options: { key?: string; env?: Env } = {},
): Promise<LightMyRequestResponse> {
  return (await sandbox.apps[options.env ?? 'test'].inject({
    method,
    url,
    headers: options.key ? { authorization: `Bearer ${options.key}` } : {},
    ...(body === undefined ? {} : { payload: body as Json }),
  })) as LightMyRequestResponse;
}

/** A call the workspace depends on: it must succeed; returns its JSON. */
async function must<T = Json>(
  sandbox: Sandbox,
  method: Method,
  url: string,
  body?: unknown,
  options: { key?: string; env?: Env } = {},
): Promise<T> {
  const res = await send(sandbox, method, url, body, options);
  if (res.statusCode < 200 || res.statusCode > 299)
    throw new Error(`${method} ${url}: ${res.statusCode} ${res.body.slice(0, 400)}`);
  return (res.body ? res.json() : undefined) as T;
}

const idOf = (value: unknown): string => (value as { id: string }).id;

/**
 * Merchants (a shop, a reseller connected to it, another merchant in production too), checkouts in
 * every state (pending, partial, paid, completed, refunded, expired, cancelled, on behalf of the
 * shop), an invoice paid, a customer, a deposit and payouts, webhook endpoints on the built-in inbox
 * with deliveries that succeed and deliveries that fail until exhausted, a cardholder with a card and
 * settled, declined and reversed transactions, non-default settings, and the clock advanced 8 days.
 * The sandbox must be listening (webhooks go over real HTTP to its inbox).
 */
export async function buildRichWorkspace(sandbox: Sandbox): Promise<RichWorkspace> {
  const base = sandbox.urls().test;
  await must(sandbox, 'PATCH', '/sandbox/settings', {
    platform_rate: 150,
    rate_limit_per_minute: 0,
    concurrency_limit: 0,
  });
  const merchant = async (name: string, extra: Json = {}) => {
    const created = await must<{ merchant: { id: string }; api_key: { key: string } }>(
      sandbox,
      'POST',
      '/sandbox/merchants',
      { name, kyb_status: 'approved', ...extra },
    );
    return { id: created.merchant.id, key: created.api_key.key };
  };
  const shop = await merchant('Northwind Coffee', { legal_name: 'Northwind Coffee GmbH', country: 'DE' });
  const reseller = await merchant('Platformly');
  const other = await merchant('Other Co');
  await must(sandbox, 'POST', `/sandbox/merchants/${shop.id}/api-keys`, { name: 'ci', role: 'developer' });

  // Webhooks: one endpoint that answers 200, one that answers 500 (every attempt fails).
  await must(sandbox, 'PUT', '/sandbox/inboxes/shop-ok', { response_status: 200 });
  await must(sandbox, 'PUT', '/sandbox/inboxes/shop-down', { response_status: 500 });
  await must(sandbox, 'POST', `/sandbox/merchants/${shop.id}/webhook-endpoints`, {
    url: `${base}/sandbox/inbox/shop-ok`,
  });
  await must(sandbox, 'POST', `/sandbox/merchants/${shop.id}/webhook-endpoints`, {
    url: `${base}/sandbox/inbox/shop-down`,
    events: ['checkout.paid', 'checkout.completed'],
  });
  await must(sandbox, 'PUT', '/sandbox/inboxes/other-ok', { response_status: 200 });
  await must(sandbox, 'POST', `/sandbox/merchants/${other.id}/webhook-endpoints`, {
    url: `${base}/sandbox/inbox/other-ok`,
  });

  await must(
    sandbox,
    'POST',
    '/v1/reseller/connections',
    { merchant_id: shop.id, rate: 500 },
    { key: reseller.key },
  );

  const v1 = { key: shop.key };
  const expires = new Date(sandbox.ctx.clock.now() + 3600_000).toISOString();
  const customer = idOf(
    await must(sandbox, 'POST', '/v1/customers', { name: 'Ada Lovelace', email: 'ada@example.com' }, v1),
  );
  const checkout = async (body: Json = {}, key = shop.key) =>
    idOf(
      await must(
        sandbox,
        'POST',
        '/v1/checkouts',
        { title: 'Order', amount: 25_000_000, expires_at: expires, ...body },
        { key },
      ),
    );
  const pay = (id: string, body: Json = {}) =>
    must(sandbox, 'POST', `/sandbox/checkouts/${id}/payments`, body);
  const complete = (id: string) => must(sandbox, 'POST', `/sandbox/checkouts/${id}/complete`);

  await checkout({
    title: 'Pending order',
    reference: 'pending-1',
    customer_id: customer,
    expires_at: new Date(sandbox.ctx.clock.now() + 30 * 86_400_000).toISOString(),
  });
  const partial = await checkout({ title: 'Partly paid' });
  await pay(partial, { amount: 10_000_000 });
  const paid = await checkout({ title: 'Paid, settling' });
  await pay(paid);
  const completed = await checkout({ title: 'Completed' });
  await pay(completed);
  await complete(completed);
  const refunded = await checkout({ title: 'Refunded in part' });
  await pay(refunded);
  await complete(refunded);
  await must(
    sandbox,
    'POST',
    `/v1/checkouts/${refunded}/refund`,
    { amount: 5_000_000, reason: 'damaged' },
    v1,
  );
  await checkout({ title: 'Will expire' });
  const cancelled = await checkout({ title: 'Cancelled' });
  await must(sandbox, 'POST', `/sandbox/checkouts/${cancelled}/cancel`);
  const onBehalf = await checkout({ title: 'Sold by Platformly', merchant_id: shop.id }, reseller.key);
  await pay(onBehalf);
  await complete(onBehalf);
  // Production has its own objects.
  await must(sandbox, 'POST', `/sandbox/merchants/${other.id}/checkouts?env=production`, {
    title: 'Live order',
    amount: 1_000_000,
    expires_at: expires,
  });

  const invoice = idOf(
    await must(
      sandbox,
      'POST',
      '/v1/invoices',
      {
        title: 'January beans',
        customer_id: customer,
        currency: 'USDT',
        line_items: [{ description: 'Beans, kg', quantity: 4, unit_price: 12_500_000 }],
        tax_rate: 700,
      },
      v1,
    ),
  );
  const activated = await must<{ checkout: { id: string } }>(
    sandbox,
    'POST',
    `/v1/invoices/${invoice}/activate`,
    {},
    v1,
  );
  await pay(activated.checkout.id);

  await must(sandbox, 'POST', '/sandbox/deposits', {
    merchant_id: shop.id,
    chain: 'tron',
    currency: 'USDT',
    amount: 7_000_000,
  });
  await must(sandbox, 'POST', `/sandbox/merchants/${shop.id}/credit`, {
    currency: 'USDC',
    amount: 300_000_000,
  });
  await must(sandbox, 'POST', '/sandbox/payouts', {
    merchant_id: shop.id,
    amount: 2_000_000,
    currency: 'USDC',
    destination: 'IBAN DE89 3704',
    outcome: 'completed',
  });
  await must(sandbox, 'POST', '/sandbox/payouts', {
    merchant_id: shop.id,
    amount: 1_000_000,
    currency: 'USDC',
    outcome: 'failed',
  });

  // Cards: a verified cardholder, a funded wallet, a virtual card and its history.
  const catalogue = await must<{ id: string; type: string }[]>(sandbox, 'GET', '/sandbox/card-catalogue');
  const virtual = catalogue.find((p) => p.type === 'virtual')!.id;
  const holder = idOf(
    await must(sandbox, 'POST', '/v1/cardholders', { name: 'Jane Barista', email: 'jane@example.com' }, v1),
  );
  await must(sandbox, 'POST', `/sandbox/cardholders/${holder}/kyc`, { result: 'approved' });
  await must(
    sandbox,
    'POST',
    `/v1/cardholders/${holder}/cards/apply`,
    {
      catalogue: virtual,
      account_purpose: 'business expenses',
      occupation: 'barista',
      annual_salary: '50000_100000',
      expected_monthly_volume: '1000_5000',
    },
    v1,
  );
  await must(
    sandbox,
    'POST',
    `/v1/cardholders/${holder}/fund`,
    { amount: 100_000_000, currency: 'USDC' },
    v1,
  );
  const card = idOf(
    await must(
      sandbox,
      'POST',
      `/v1/cardholders/${holder}/cards`,
      { catalogue: virtual, type: 'virtual' },
      v1,
    ),
  );
  const authorize = async (amount: number, merchantName: string) =>
    idOf(
      await must(sandbox, 'POST', `/sandbox/cards/${card}/authorizations`, {
        amount,
        merchant_name: merchantName,
        channel: 'online',
      }),
    );
  await must(sandbox, 'POST', `/sandbox/card-transactions/${await authorize(4_500_000, 'Grocer')}/settle`);
  await must(sandbox, 'POST', `/sandbox/card-transactions/${await authorize(2_000_000, 'Cinema')}/decline`);
  await must(sandbox, 'POST', `/sandbox/card-transactions/${await authorize(3_000_000, 'Hotel')}/reverse`);
  await authorize(1_200_000, 'Bakery');
  await must(sandbox, 'POST', `/sandbox/cards/${card}/refunds`, { amount: 500_000, merchant_name: 'Grocer' });

  // The card-secrets RSA keys are made on first need: made now, they are part of the workspace.
  for (const env of ['test', 'production']) await must(sandbox, 'GET', `/sandbox/keys?env=${env}`);

  // Eight days: settlements, the expiry, the fee hold, and every retry of the failing endpoint.
  await must(sandbox, 'POST', '/sandbox/clock/advance', { seconds: 8 * 86_400 });
  // Recovery: the endpoint answers again, one failed delivery is retried by hand and delivered.
  await must(sandbox, 'PUT', '/sandbox/inboxes/shop-down', { response_status: 200 });
  const failed = await must<{ id: string }[]>(
    sandbox,
    'GET',
    `/sandbox/deliveries?merchant_id=${shop.id}&status=failed`,
  );
  if (failed.length === 0) throw new Error('expected failed deliveries after 8 days');
  await must(sandbox, 'POST', `/sandbox/deliveries/${failed[0]!.id}/retry`);
  // Let the request log write its queue (it writes on the turn after each response).
  await new Promise((resolve) => setTimeout(resolve, 20));
  return { shop, reseller, other };
}

// ---- every GET answer of a sandbox ----

interface Probe {
  label: string;
  env: Env;
  url: string;
  key?: string;
}

interface Ids {
  merchants: { id: string; key: string | undefined }[];
  rows: Record<string, { id: string; merchant_id: string; env: string }[]>;
  cards: { id: string; cardholder_id: string; merchant_id: string; env: string }[];
  inboxes: string[];
  requests: string[];
}

function idsOf(db: Db, requestIds: string[]): Ids {
  const rows = (table: string) =>
    db
      .prepare<[], { id: string; merchant_id: string; env: string }>(
        `SELECT id, merchant_id, env FROM ${table}`,
      )
      .all();
  const merchants = db
    .prepare<[], { id: string }>('SELECT id FROM merchants ORDER BY id')
    .all()
    .map(({ id }) => ({
      id,
      key: db
        .prepare<[string], { key: string }>(
          "SELECT key FROM api_keys WHERE merchant_id = ? AND role = 'owner' AND revoked_at IS NULL",
        )
        .get(id)?.key,
    }));
  return {
    merchants,
    rows: Object.fromEntries(
      ['customers', 'checkouts', 'invoices', 'cardholders', 'webhook_endpoints', 'webhook_deliveries'].map(
        (t) => [t, rows(t)],
      ),
    ),
    cards: db
      .prepare<[], Ids['cards'][number]>('SELECT id, cardholder_id, merchant_id, env FROM cards')
      .all(),
    inboxes: db
      .prepare<[], { name: string }>('SELECT name FROM inboxes')
      .all()
      .map((r) => r.name),
    requests: requestIds,
  };
}

const ENVS: Env[] = ['test', 'production'];

/**
 * Every GET of the control API and of /v1 (with each merchant's owner key, in both environments)
 * for every object in `db`: lists, items, views, balances, ledgers, deliveries, inboxes, the request
 * log, the clock and the settings. Not the event stream, health (live URLs), the export or the
 * document. Request-log reads come first: the /v1 reads after them are logged themselves.
 */
export function probesFor(
  sandbox: Pick<Sandbox, 'db' | 'ctx'>,
  options: { merchants?: string[]; skip?: RegExp } = {},
): Probe[] {
  // The request log is kept beside the database (server/request-log/), not in it.
  const requestIds = sandbox.ctx.repos.requestLog.list({ limit: 50 }).map((r) => r.id);
  const ids = idsOf(sandbox.db, requestIds);
  const merchants = ids.merchants.filter((m) => !options.merchants || options.merchants.includes(m.id));
  const keyOf = new Map(merchants.map((m) => [m.id, m.key]));
  const mine = <T extends { merchant_id: string }>(list: T[]) => list.filter((r) => keyOf.has(r.merchant_id));
  const probes: Probe[] = [];
  const add = (url: string, env: Env = 'test', key?: string) =>
    probes.push({ label: `${env} GET ${url}${key ? ' (key)' : ''}`, env, url, ...(key ? { key } : {}) });

  for (const m of merchants)
    for (const env of ENVS) add(`/sandbox/request-log?merchant_id=${m.id}&env=${env}&limit=1000`);
  if (!options.merchants) {
    add('/sandbox/request-log?limit=1000');
    for (const id of ids.requests) add(`/sandbox/request-log/${id}`);
  }

  if (!options.merchants) {
    add('/sandbox/merchants');
    add('/sandbox/inboxes');
    for (const name of ids.inboxes) add(`/sandbox/inboxes/${name}?limit=1000`);
    for (const env of ENVS) add(`/sandbox/deliveries?env=${env}&limit=1000`);
  }
  add('/sandbox/clock');
  add('/sandbox/settings');
  for (const env of ENVS) {
    add(`/sandbox/keys?env=${env}`);
    add(`/sandbox/card-catalogue?env=${env}`);
  }
  for (const m of merchants) {
    add(`/sandbox/merchants/${m.id}`);
    add(`/sandbox/merchants/${m.id}/api-keys`);
    add(`/sandbox/deliveries?merchant_id=${m.id}&limit=1000`);
    for (const env of ENVS) {
      for (const view of [
        'events?limit=1000',
        'webhook-endpoints',
        'deposits?limit=1000',
        'payouts?limit=1000',
        'balances',
        'ledger?limit=1000',
        'checkouts?limit=1000',
        'static-addresses',
        'cardholders?limit=1000',
        'reseller-connections',
        'reseller-income',
      ]) {
        const [path, query] = view.split('?');
        add(`/sandbox/merchants/${m.id}/${path}?env=${env}${query ? `&${query}` : ''}`);
      }
    }
  }
  for (const row of mine(ids.rows.checkouts!)) add(`/sandbox/checkouts/${row.id}`);
  for (const row of mine(ids.rows.cardholders!)) add(`/sandbox/cardholders/${row.id}`);
  for (const row of mine(ids.rows.webhook_endpoints!)) add(`/sandbox/webhook-endpoints/${row.id}`);
  for (const row of mine(ids.rows.webhook_deliveries!)) add(`/sandbox/deliveries/${row.id}`);
  for (const card of mine(ids.cards)) add(`/sandbox/cards/${card.id}/transactions`);

  // The merchant API, as each merchant, in both environments.
  for (const m of merchants) {
    if (!m.key) continue;
    for (const env of ENVS) {
      for (const list of [
        '/v1/checkouts?limit=100',
        '/v1/invoices?limit=100',
        '/v1/cardholders?limit=100',
        '/v1/static-addresses',
        '/v1/withdraw/chains',
        '/v1/reseller/connections?limit=100',
        `/v1/merchants/${m.id}/reseller-connections/incoming?limit=100`,
      ])
        add(list, env, m.key);
    }
  }
  const v1Item = (prefix: string, rows: { id: string; merchant_id: string; env: string }[]) => {
    for (const row of mine(rows)) {
      const key = keyOf.get(row.merchant_id);
      if (key) add(`${prefix}/${row.id}`, row.env as Env, key);
    }
  };
  v1Item('/v1/customers', ids.rows.customers!);
  v1Item('/v1/checkouts', ids.rows.checkouts!);
  v1Item('/v1/invoices', ids.rows.invoices!);
  v1Item('/v1/cardholders', ids.rows.cardholders!);
  for (const row of mine(ids.rows.cardholders!)) {
    const key = keyOf.get(row.merchant_id);
    if (key) add(`/v1/cardholders/${row.id}/cards`, row.env as Env, key);
  }
  for (const card of mine(ids.cards)) {
    const key = keyOf.get(card.merchant_id);
    if (!key) continue;
    add(`/v1/cardholders/${card.cardholder_id}/cards/${card.id}`, card.env as Env, key);
    add(
      `/v1/cardholders/${card.cardholder_id}/cards/${card.id}/transactions?limit=100`,
      card.env as Env,
      key,
    );
  }
  return options.skip ? probes.filter((p) => !options.skip!.test(p.url)) : probes;
}

export interface Answer {
  status: number;
  body: unknown;
}

/** The answers of `sandbox` to `probes`, its own addresses written as `as` (hosted URLs name the listener). */
export async function answers(
  sandbox: Sandbox,
  probes: Probe[],
  as?: { test: string; production: string },
): Promise<Map<string, Answer>> {
  const out = new Map<string, Answer>();
  const own = sandbox.urls();
  for (const probe of probes) {
    const res = await send(sandbox, 'GET', probe.url, undefined, {
      env: probe.env,
      ...(probe.key ? { key: probe.key } : {}),
    });
    let text = res.body;
    if (as) text = text.replaceAll(own.test, as.test).replaceAll(own.production, as.production);
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {}
    out.set(probe.label, { status: res.statusCode, body });
  }
  return out;
}

/** Every table's rows, hashed: equal before and after means nothing changed. */
export function checksum(db: Db, except: string[] = []): string {
  const hash = createHash('sha256');
  const tables = db
    .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .all();
  for (const { name } of tables) {
    if (except.includes(name)) continue;
    hash.update(`table ${name}\n`);
    for (const row of db.prepare(`SELECT * FROM "${name}" ORDER BY 1`).all())
      hash.update(`${JSON.stringify(row)}\n`);
  }
  return hash.digest('hex');
}
