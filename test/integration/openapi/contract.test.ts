import { constants, createCipheriv, publicEncrypt, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Coverage } from '../../../server/contract/coverage.js';
import { UNLISTED } from '../../../server/domain/coverage/service.js';
import type { Sandbox } from '../../../server/sandbox.js';
import {
  ContractValidator,
  clip,
  fillPath,
  isObject,
  type JsonObject,
  type OpenApiDocument,
  type Operation,
  operationKey,
  pathParams,
} from '../../helpers/openapi.js';
import { inFuture, testSandbox } from '../../helpers/sandbox.js';

/**
 * The contract test: every operation of the OpenAPI document the server serves is called for real
 * and its response checked against the document with Ajv (JSON Schema 2020-12) — not with Fastify's
 * serializer, which shapes output but never rejects it. A new route in the document without a step
 * here fails the coverage check.
 */

/**
 * Operations whose real responses do not match the document, each with why. The test fails if one
 * of these starts matching (remove it then), and for any mismatch not listed here.
 */
const KNOWN_MISMATCHES: { operation: string; reason: string }[] = [];

type Json = JsonObject;
type App = 'test' | 'production';
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const SSE = 'GET /sandbox/events';
const RESET = 'POST /sandbox/reset';
const IMPORT = 'POST /sandbox/import';
const APPLY = {
  account_purpose: 'business expenses',
  occupation: 'engineer',
  annual_salary: '50000_100000',
  expected_monthly_volume: '1000_5000',
};

// ---- small JSON readers: fixtures come back as unknown JSON ----

function obj(value: unknown, what: string): Json {
  if (!isObject(value)) throw new Error(`${what}: expected an object, got ${clip(JSON.stringify(value))}`);
  return value;
}
function list(value: unknown, what: string): unknown[] {
  if (!Array.isArray(value))
    throw new Error(`${what}: expected an array, got ${clip(JSON.stringify(value))}`);
  return value;
}
function str(value: unknown, what: string): string {
  if (typeof value !== 'string') throw new Error(`${what}: expected a string, got ${JSON.stringify(value)}`);
  return value;
}
const idOf = (value: unknown, what: string): string => str(obj(value, what).id, `${what}.id`);

// ---- the card-secrets client (spec: RSA-OAEP-SHA1 wrapped AES-256-GCM key) ----

function cardSession(publicKeyPem: string): { key: Buffer; session: string } {
  const key = randomBytes(32);
  const wrapped = publicEncrypt(
    { key: publicKeyPem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha1' },
    Buffer.from(key.toString('base64'), 'utf8'),
  );
  return { key, session: wrapped.toString('base64') };
}
function encrypt(key: Buffer, plaintext: string): { iv: string; data: string } {
  const iv = randomBytes(16);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return { iv: iv.toString('base64'), data: data.toString('base64') };
}
const pinBlock = (pin: string) => `2${pin.length.toString(16).toUpperCase()}${pin}`.padEnd(16, 'F');

// ---- the recorder: every request goes through it and every response is checked ----

interface Request {
  method: Method;
  /** the path as the document spells it, `{param}`s included */
  path: string;
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  /** the merchant key; defaults to the world's key on `/v1` paths */
  auth?: string | null;
  app?: App;
  /** a body that is bytes, not JSON (the bundle file of an import) */
  bytes?: Buffer;
  /** the workspace to act in (X-SVC-Workspace); default: the default one */
  workspace?: string;
}

interface Response {
  status: number;
  json: unknown;
  raw: string;
  bytes: Buffer;
}

interface Problem {
  operation: string;
  status: number;
  problem: string;
}

class Recorder {
  /** operation → statuses received */
  readonly seen = new Map<string, Set<number>>();
  readonly problems: Problem[] = [];
  responses = 0;
  validated = 0;
  key: string | null = null;

  constructor(
    private readonly sandbox: Sandbox,
    readonly contract: ContractValidator,
  ) {}

  async send(request: Request): Promise<Response> {
    const operation = operationKey(request.method, request.path);
    const url = fillPath(request.path, request.params ?? {});
    const query = new URLSearchParams(request.query ?? {}).toString();
    const auth =
      request.auth === undefined ? (request.path.startsWith('/v1/') ? this.key : null) : request.auth;
    const res = await this.sandbox.apps[request.app ?? 'test'].inject({
      method: request.method,
      url: query ? `${url}?${query}` : url,
      headers: {
        ...(auth ? { authorization: `Bearer ${auth}` } : {}),
        ...(request.bytes ? { 'content-type': 'application/octet-stream' } : {}),
        ...(request.workspace ? { 'x-svc-workspace': request.workspace } : {}),
      },
      ...(request.bytes
        ? { payload: request.bytes }
        : request.body === undefined
          ? {}
          : { payload: request.body as Json }),
    });
    this.record(operation, res.statusCode, res.headers['content-type']?.toString(), res.body);
    let json: unknown;
    try {
      json = res.body ? JSON.parse(res.body) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.statusCode, json, raw: res.body, bytes: res.rawPayload };
  }

  record(operation: string, status: number, contentType: string | undefined, body: string): void {
    this.responses += 1;
    const statuses = this.seen.get(operation) ?? new Set<number>();
    statuses.add(status);
    this.seen.set(operation, statuses);
    const result = this.contract.check(operation, { status, contentType, body });
    if (result.validated) this.validated += 1;
    for (const problem of result.problems) this.problems.push({ operation, status, problem });
  }

  /** Records a problem unless the response has the status a probe expects. */
  expectStatus(operation: string, res: Response, expected: number, what: string): void {
    if (res.status !== expected) {
      this.problems.push({
        operation,
        status: res.status,
        problem: `${what}: expected ${expected}, got ${res.status} ${clip(res.raw)}`,
      });
    }
  }

  /** A response that is not JSON by design (the event stream): its status and content type. */
  recordStream(operation: string, status: number, contentType: string | null, expected: string): void {
    this.responses += 1;
    const statuses = this.seen.get(operation) ?? new Set<number>();
    statuses.add(status);
    this.seen.set(operation, statuses);
    const op = this.contract.operation(operation);
    if (op && !this.contract.responseFor(op, status)) {
      this.problems.push({ operation, status, problem: `status ${status} is not documented` });
    }
    if (!contentType?.startsWith(expected)) {
      this.problems.push({ operation, status, problem: `content-type ${contentType}, expected ${expected}` });
    }
  }

  /** A call the fixture world depends on: it must succeed. */
  async ok(request: Request): Promise<unknown> {
    const res = await this.send(request);
    if (res.status < 200 || res.status > 299) {
      throw new Error(`${request.method} ${request.path}: ${res.status} ${clip(res.raw)}`);
    }
    return res.json;
  }
}

// ---- the fixture world, built through the HTTP API only ----

interface World {
  merchant: string;
  key: string;
  extraKey: string;
  customer: string;
  customerToDelete: string;
  /** checkouts, each in the state its operation needs */
  checkout: {
    main: string;
    toPay: string;
    toComplete: string;
    toExpire: string;
    toCancel: string;
    toDelete: string;
    toRefundV1: string;
    toRefundControl: string;
  };
  invoice: string;
  invoiceToActivate: string;
  invoiceToDelete: string;
  virtual: string;
  physical: string;
  holder: string;
  holderToVerify: string;
  holderToApply: string;
  pendingApplication: string;
  card: string;
  cardToLock: string;
  cardToLockControl: string;
  cardToActivate: string;
  cardToCancel: string;
  physicalCard: string;
  transaction: { toSettle: string; toDecline: string; toReverse: string };
  pem: string;
  address: string;
  endpoint: string;
  endpointToDelete: string;
  listenSession: string;
  delivery: string;
  inbox: string;
  inboxUrl: string;
  /** an entry of the request log */
  requestLogEntry: string;
  /** a workspace to get and delete, and another holding a checkpoint to restore and delete */
  workspace: string;
  checkpointWorkspace: string;
  checkpoint: string;
  /** an expiry far enough ahead for every checkout made here */
  expires: string;
  /** reseller connections: the world's merchant as reseller (outgoing) and as target (incoming) */
  reseller: {
    target: string;
    connection: string;
    connectionControl: string;
    toDelete: string;
    toDeleteControl: string;
    toRevokeControl: string;
    incoming: string;
  };
}

async function buildWorld(api: Recorder, sandbox: Sandbox, baseUrl: string): Promise<World> {
  // No throttling: this test makes a few hundred calls with one key.
  await api.ok({
    method: 'PATCH',
    path: '/sandbox/settings',
    body: { rate_limit_per_minute: 0, concurrency_limit: 0, settlement_delay_seconds: 86_400 },
  });
  const created = obj(
    await api.ok({
      method: 'POST',
      path: '/sandbox/merchants',
      body: { name: 'Contract Co', legal_name: 'Contract Co Ltd', country: 'DE', kyb_status: 'approved' },
    }),
    'merchant',
  );
  const merchant = idOf(created.merchant, 'merchant');
  const key = str(obj(created.api_key, 'api_key').key, 'api_key.key');
  api.key = key;
  const extraKey = idOf(
    await api.ok({
      method: 'POST',
      path: '/sandbox/merchants/{id}/api-keys',
      params: { id: merchant },
      body: { name: 'ci', role: 'developer' },
    }),
    'api key',
  );

  // Webhooks go to the built-in inbox over real HTTP, so deliveries and inbox messages exist.
  const inbox = 'contract';
  const inboxUrl = `${baseUrl}/sandbox/inbox/${inbox}`;
  await api.ok({
    method: 'PUT',
    path: '/sandbox/inboxes/{name}',
    params: { name: inbox },
    body: { response_status: 200 },
  });
  const endpoint = idOf(
    await api.ok({
      method: 'POST',
      path: '/sandbox/merchants/{id}/webhook-endpoints',
      params: { id: merchant },
      body: { url: inboxUrl },
    }),
    'endpoint',
  );
  const endpointToDelete = idOf(
    await api.ok({
      method: 'POST',
      path: '/sandbox/merchants/{id}/webhook-endpoints',
      params: { id: merchant },
      body: { url: `${baseUrl}/sandbox/inbox/contract-spare`, events: ['deposit.received'] },
    }),
    'endpoint',
  );
  const listenSession = idOf(
    await api.ok({
      method: 'POST',
      path: '/sandbox/listen-sessions',
      body: {
        url: `${baseUrl}/sandbox/inbox/contract-listen`,
        forward_to: baseUrl,
        events: ['payout.completed'],
      },
    }),
    'listen session',
  );

  const customerBody = {
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    phone: '+44 20 7946 0000',
    country: 'GBR',
  };
  const customer = idOf(
    await api.ok({ method: 'POST', path: '/v1/customers', body: customerBody }),
    'customer',
  );
  const customerToDelete = idOf(
    await api.ok({ method: 'POST', path: '/v1/customers', body: { name: 'Temporary' } }),
    'customer',
  );

  const expires = inFuture(sandbox, 7 * 86_400_000);
  const checkoutOf = async (body: Json = {}) =>
    idOf(
      await api.ok({
        method: 'POST',
        path: '/v1/checkouts',
        body: { title: 'Order', amount: 25_000_000, expires_at: expires, ...body },
      }),
      'checkout',
    );
  const pay = (id: string, body: Json = {}) =>
    api.ok({ method: 'POST', path: '/sandbox/checkouts/{id}/payments', params: { id }, body });
  const complete = (id: string) =>
    api.ok({ method: 'POST', path: '/sandbox/checkouts/{id}/complete', params: { id } });

  const main = await checkoutOf({
    description: 'Everything filled in',
    reference: 'order-1',
    customer_id: customer,
    success_url: 'https://shop.example/ok',
    cancel_url: 'https://shop.example/cancel',
  });
  await pay(main, { amount: 10_000_000 });
  await pay(main, { amount: 15_000_000 });
  await complete(main);
  await api.ok({
    method: 'POST',
    path: '/v1/checkouts/{id}/refund',
    params: { id: main },
    body: { amount: 5_000_000, reason: 'damaged' },
  });
  const fiat = await checkoutOf({ method: 'fiat', customer_name: 'Bob', customer_email: 'bob@example.com' });
  await pay(fiat, { method: 'fiat' });
  const partial = await checkoutOf();
  await pay(partial, { amount: 1_000_000 });
  await api.ok({ method: 'POST', path: '/sandbox/checkouts/{id}/expire', params: { id: partial } });
  const cancelled = await checkoutOf();
  await api.ok({ method: 'POST', path: '/sandbox/checkouts/{id}/cancel', params: { id: cancelled } });
  const toComplete = await checkoutOf();
  await pay(toComplete);
  const toRefundV1 = await checkoutOf();
  await pay(toRefundV1);
  await complete(toRefundV1);
  const toRefundControl = await checkoutOf();
  await pay(toRefundControl);
  await complete(toRefundControl);
  const checkout = {
    main,
    toPay: await checkoutOf(),
    toComplete,
    toExpire: await checkoutOf(),
    toCancel: await checkoutOf(),
    toDelete: await checkoutOf(),
    toRefundV1,
    toRefundControl,
  };
  // And one in production, through the merchant-acting control route.
  await api.ok({
    method: 'POST',
    path: '/sandbox/merchants/{id}/checkouts',
    params: { id: merchant },
    query: { env: 'production' },
    body: { title: 'Live order', amount: 1_000_000, expires_at: expires },
  });
  const reseller = await buildResellerWorld(api, merchant, expires);

  const invoiceBody = {
    title: 'January services',
    customer_id: customer,
    description: 'Consulting',
    currency: 'USDT',
    due_date: '2026-12-31',
    recipient_note: 'Thank you',
    line_items: [{ description: 'Seat', quantity: 2, unit_price: 12_500_000 }],
    tax_rate: 825,
  };
  const invoice = idOf(await api.ok({ method: 'POST', path: '/v1/invoices', body: invoiceBody }), 'invoice');
  const activated = obj(
    await api.ok({
      method: 'POST',
      path: '/v1/invoices/{id}/activate',
      params: { id: invoice },
      body: { success_url: 'https://shop.example/paid' },
    }),
    'activated invoice',
  );
  await pay(idOf(activated.checkout, 'invoice checkout'));
  const invoiceToActivate = idOf(
    await api.ok({ method: 'POST', path: '/v1/invoices', body: invoiceBody }),
    'invoice',
  );
  const invoiceToDelete = idOf(
    await api.ok({
      method: 'POST',
      path: '/v1/invoices',
      body: { title: 'Draft', customer_name: 'Ada', amount: 1 },
    }),
    'invoice',
  );

  // Money: a deposit, a credit, payouts both ways.
  await api.ok({
    method: 'POST',
    path: '/sandbox/deposits',
    body: { merchant_id: merchant, chain: 'tron', currency: 'USDT', amount: 5_000_000, txid: 'contract-1' },
  });
  await api.ok({
    method: 'POST',
    path: '/sandbox/merchants/{id}/credit',
    params: { id: merchant },
    body: { currency: 'USDC', amount: 500_000_000, memo: 'float' },
  });
  await api.ok({
    method: 'POST',
    path: '/sandbox/payouts',
    body: {
      merchant_id: merchant,
      amount: 1_000_000,
      currency: 'USDC',
      destination: 'IBAN DE89',
      outcome: 'completed',
    },
  });
  await api.ok({
    method: 'POST',
    path: '/sandbox/payouts',
    body: { merchant_id: merchant, amount: 1_000_000, currency: 'USDC', outcome: 'failed' },
  });
  const addresses = list(await api.ok({ method: 'GET', path: '/v1/static-addresses' }), 'static addresses');
  const tron = addresses.map((a) => obj(a, 'address')).find((a) => a.chain === 'tron');
  const address = str(tron?.address, 'tron static address');

  // Cards: products from the catalogue, a verified and funded cardholder, cards in every state needed.
  const catalogue = list(await api.ok({ method: 'GET', path: '/sandbox/card-catalogue' }), 'catalogue').map(
    (p) => obj(p, 'card product'),
  );
  const virtual = str(catalogue.find((p) => p.type === 'virtual')?.id, 'virtual product');
  const physical = str(catalogue.find((p) => p.type === 'physical')?.id, 'physical product');
  const verifiedHolder = async (name: string) => {
    const id = idOf(
      await api.ok({ method: 'POST', path: '/v1/cardholders', body: { name, email: 'jane@example.com' } }),
      'cardholder',
    );
    await api.ok({
      method: 'POST',
      path: '/sandbox/cardholders/{id}/kyc',
      params: { id },
      body: { result: 'approved' },
    });
    return id;
  };
  const holder = await verifiedHolder('Jane Doe');
  const holderToApply = await verifiedHolder('John Doe');
  const holderToVerify = idOf(
    await api.ok({ method: 'POST', path: '/v1/cardholders', body: { name: 'Kay Unverified' } }),
    'cardholder',
  );
  await api.ok({
    method: 'POST',
    path: '/v1/cardholders/{id}/cards/apply',
    params: { id: holder },
    body: { catalogue: virtual, ...APPLY },
  });
  await api.ok({
    method: 'POST',
    path: '/v1/cardholders/{id}/cards/apply',
    params: { id: holder },
    body: { catalogue: physical, ...APPLY },
  });
  await api.ok({ method: 'PATCH', path: '/sandbox/settings', body: { application_review: 'manual' } });
  const pendingApplication = idOf(
    await api.ok({
      method: 'POST',
      path: '/v1/cardholders/{id}/cards/apply',
      params: { id: await verifiedHolder('Pending Pat') },
      body: { catalogue: virtual, ...APPLY },
    }),
    'pending application',
  );
  await api.ok({ method: 'PATCH', path: '/sandbox/settings', body: { application_review: 'auto' } });
  await api.ok({
    method: 'POST',
    path: '/v1/cardholders/{id}/fund',
    params: { id: holder },
    body: { amount: 200_000_000, currency: 'USDC', remark: 'float' },
  });
  const issue = async (type: 'virtual' | 'physical') =>
    idOf(
      await api.ok({
        method: 'POST',
        path: '/v1/cardholders/{id}/cards',
        params: { id: holder },
        body: { catalogue: type === 'virtual' ? virtual : physical, type },
      }),
      'card',
    );
  const card = await issue('virtual');
  const physicalCard = await issue('physical');
  await api.ok({ method: 'POST', path: '/sandbox/cards/{id}/activate', params: { id: physicalCard } });
  const authorize = async (body: Json = {}) =>
    idOf(
      await api.ok({
        method: 'POST',
        path: '/sandbox/cards/{id}/authorizations',
        params: { id: card },
        body: {
          amount: 2_000_000,
          merchant_name: 'Coffee',
          local_amount: 190,
          local_currency: 'EUR',
          ...body,
        },
      }),
      'card transaction',
    );
  const transaction = {
    toSettle: await authorize(),
    toDecline: await authorize(),
    toReverse: await authorize(),
  };
  const settled = await authorize({ channel: 'present' });
  await api.ok({ method: 'POST', path: '/sandbox/card-transactions/{id}/settle', params: { id: settled } });
  await api.ok({
    method: 'POST',
    path: '/sandbox/cards/{id}/refunds',
    params: { id: card },
    body: { amount: 500_000 },
  });
  await api.ok({
    method: 'POST',
    path: '/sandbox/cards/{id}/deposits',
    params: { id: physicalCard },
    body: { amount: 3_000_000 },
  });
  // A declined authorization (over the card's limit) has a decline_reason.
  await authorize({ amount: 900_000_000 });

  const pem = str(
    obj(await api.ok({ method: 'GET', path: '/sandbox/keys', query: { env: 'test' } }), 'keys')
      .public_key_pem,
    'public_key_pem',
  );
  const { key: aes, session } = cardSession(pem);
  await api.ok({
    method: 'PUT',
    path: '/v1/cardholders/{ch_id}/cards/{card_id}/pin',
    params: { ch_id: holder, card_id: card },
    body: { session, encrypted_data: encrypt(aes, pinBlock('1234')) },
  });

  const delivery = await firstDelivery(api, merchant);
  // Every /v1 call above is in the request log (written on the turn after its response).
  await new Promise((resolve) => setTimeout(resolve, 10));
  const requestLog = list(
    await api.ok({
      method: 'GET',
      path: '/sandbox/request-log',
      query: { merchant_id: merchant, limit: '1' },
    }),
    'request log',
  );
  const workspace = idOf(
    await api.ok({ method: 'POST', path: '/sandbox/workspaces', body: { name: 'contract: to delete' } }),
    'workspace',
  );
  const checkpointWorkspace = idOf(
    await api.ok({
      method: 'POST',
      path: '/sandbox/workspaces',
      body: { name: 'contract: checkpoints', ephemeral: true },
    }),
    'workspace',
  );
  await api.ok({
    method: 'POST',
    path: '/sandbox/checkpoints',
    body: { name: 'contract start' },
    workspace: checkpointWorkspace,
  });
  return {
    workspace,
    checkpointWorkspace,
    checkpoint: 'contract start',
    requestLogEntry: idOf(requestLog[0], 'request log entry'),
    merchant,
    key,
    extraKey,
    customer,
    customerToDelete,
    checkout,
    invoice,
    invoiceToActivate,
    invoiceToDelete,
    virtual,
    physical,
    holder,
    holderToVerify,
    holderToApply,
    pendingApplication,
    card,
    cardToLock: await issue('virtual'),
    cardToLockControl: await issue('virtual'),
    cardToActivate: await issue('physical'),
    cardToCancel: await issue('virtual'),
    physicalCard,
    transaction,
    pem,
    address,
    endpoint,
    endpointToDelete,
    listenSession,
    delivery,
    inbox,
    inboxUrl,
    expires,
    reseller,
  };
}

/**
 * The world's merchant as a reseller: connections to other merchants, one for each operation that
 * changes one, a checkout on behalf of a target (paid and settled, so checkout.completed carries a
 * reseller_id and a reseller_fee) and an invoice and a customer on its behalf; and one incoming
 * connection from another reseller, for the merchant-side revoke.
 */
async function buildResellerWorld(
  api: Recorder,
  merchant: string,
  expires: string,
): Promise<World['reseller']> {
  const newMerchant = async (name: string) =>
    idOf(
      obj(await api.ok({ method: 'POST', path: '/sandbox/merchants', body: { name } }), 'merchant').merchant,
      'merchant',
    );
  const connectTo = async (target: string, body: Json = {}) =>
    idOf(
      await api.ok({
        method: 'POST',
        path: '/v1/reseller/connections',
        body: { merchant_id: target, rate: 500, ...body },
      }),
      'connection',
    );
  const target = await newMerchant('Target Co');
  const connection = await connectTo(target, { min_fee: 100_000, max_fee: 10_000_000 });
  const connectionControl = await connectTo(await newMerchant('Target Control'));
  const toDelete = await connectTo(await newMerchant('Target Delete'));
  const toDeleteControl = await connectTo(await newMerchant('Target Delete Control'));
  const toRevokeControl = await connectTo(await newMerchant('Target Revoke Control'));
  const other = await newMerchant('Other Reseller');
  const incoming = idOf(
    await api.ok({
      method: 'POST',
      path: '/sandbox/merchants/{id}/reseller-connections',
      params: { id: other },
      query: { env: 'test' },
      body: { merchant_id: merchant, rate: 100 },
    }),
    'incoming connection',
  );
  const onBehalf = idOf(
    await api.ok({
      method: 'POST',
      path: '/v1/checkouts',
      body: { title: 'On behalf', amount: 20_000_000, expires_at: expires, merchant_id: target },
    }),
    'on-behalf checkout',
  );
  await api.ok({
    method: 'POST',
    path: '/sandbox/checkouts/{id}/payments',
    params: { id: onBehalf },
    body: {},
  });
  await api.ok({ method: 'POST', path: '/sandbox/checkouts/{id}/complete', params: { id: onBehalf } });
  await api.ok({
    method: 'POST',
    path: '/v1/invoices',
    body: { title: 'On behalf', customer_name: 'Ada', amount: 1_000_000, merchant_id: target },
  });
  await api.ok({ method: 'POST', path: '/v1/customers', body: { name: 'On behalf', merchant_id: target } });
  return { target, connection, connectionControl, toDelete, toDeleteControl, toRevokeControl, incoming };
}

const provisionBody = (email: string) => ({
  email,
  password: 'secret-password',
  full_name: 'Sub Owner',
  merchant_name: 'Sub Co',
  legal_name: 'Sub Co SARL',
  country: 'FR',
  btype: 'company',
  website: 'https://sub.example',
  rate: 300,
  min_fee: 10_000,
  max_fee: 1_000_000,
});

/** Deliveries are sent in the background: wait (bounded) until one has been attempted. */
async function firstDelivery(api: Recorder, merchant: string): Promise<string> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const res = await api.send({
      method: 'GET',
      path: '/sandbox/deliveries',
      query: { merchant_id: merchant },
    });
    const attempted = list(res.json, 'deliveries')
      .map((d) => obj(d, 'delivery'))
      .find((d) => d.status !== 'pending');
    if (attempted) return idOf(attempted, 'delivery');
    if (Date.now() > deadline) throw new Error(`no delivery attempted within 5 s: ${clip(res.raw)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

// ---- how each operation is called: path parameters, queries and bodies ----

/** Default path-parameter values by path prefix and parameter name. */
function defaultParam(path: string, name: string, w: World): string | undefined {
  if (name === 'ch_id') return w.holder;
  if (name === 'card_id') return w.card;
  if (name === 'name') return w.inbox;
  if (name === 'address') return w.address;
  const prefixes: [string, string][] = [
    ['/v1/customers/', w.customer],
    ['/v1/checkouts/', w.checkout.main],
    ['/v1/invoices/', w.invoice],
    ['/v1/cardholders/', w.holder],
    ['/sandbox/merchants/', w.merchant],
    ['/sandbox/api-keys/', w.extraKey],
    ['/sandbox/checkouts/', w.checkout.main],
    ['/sandbox/webhook-endpoints/', w.endpoint],
    ['/sandbox/deliveries/', w.delivery],
    ['/sandbox/cardholders/', w.holder],
    ['/sandbox/card-applications/', w.pendingApplication],
    ['/sandbox/cards/', w.card],
    ['/sandbox/card-transactions/', w.transaction.toSettle],
  ];
  return name === 'id' ? prefixes.find(([prefix]) => path.startsWith(prefix))?.[1] : undefined;
}

interface Step {
  params?: (w: World) => Record<string, string>;
  query?: (w: World) => Record<string, string>;
  body?: (w: World) => unknown;
  app?: App;
  workspace?: (w: World) => string;
}

const listQuery = () => ({ limit: '50' });

/** Operations that need more than the defaults: a fixture in a given state, a body, a query. */
const STEPS: Record<string, Step> = {
  'POST /v1/customers': { body: () => ({ name: 'Grace', email: 'grace@example.com', notes: 'vip' }) },
  'GET /v1/customers': { query: listQuery },
  'PUT /v1/customers/{id}': { body: () => ({ name: 'Ada King', email: 'ada@example.com', country: 'GBR' }) },
  'DELETE /v1/customers/{id}': { params: (w) => ({ id: w.customerToDelete }) },
  'POST /v1/checkouts': {
    body: (w) => ({ title: 'Sweep', amount: 1_000_000, expires_at: w.expires, customer_id: w.customer }),
  },
  'GET /v1/checkouts': { query: listQuery },
  'DELETE /v1/checkouts/{id}': { params: (w) => ({ id: w.checkout.toDelete }) },
  'POST /v1/checkouts/{id}/refund': {
    params: (w) => ({ id: w.checkout.toRefundV1 }),
    body: () => ({ amount: 1_000_000 }),
  },
  'POST /v1/invoices': { body: () => ({ title: 'Sweep invoice', customer_name: 'Ada', amount: 2_000_000 }) },
  'GET /v1/invoices': { query: listQuery },
  'DELETE /v1/invoices/{id}': { params: (w) => ({ id: w.invoiceToDelete }) },
  'POST /v1/invoices/{id}/activate': { params: (w) => ({ id: w.invoiceToActivate }), body: () => ({}) },
  'POST /v1/cardholders': { body: () => ({ name: 'Sweep Holder' }) },
  'GET /v1/cardholders': { query: listQuery },
  'POST /v1/cardholders/{id}/kyc': { params: (w) => ({ id: w.holderToVerify }) },
  'POST /v1/cardholders/{id}/cards/apply': {
    params: (w) => ({ id: w.holderToApply }),
    body: (w) => ({ catalogue: w.virtual, ...APPLY }),
  },
  'POST /v1/cardholders/{id}/cards': { body: (w) => ({ catalogue: w.virtual, type: 'virtual' }) },
  'POST /v1/cardholders/{id}/fund': { body: () => ({ amount: 1_000_000, currency: 'USDC' }) },
  'POST /v1/cardholders/{id}/recall': {
    body: () => ({ amount: 1_000_000, currency: 'USDC', remark: 'back' }),
  },
  'PATCH /v1/cardholders/{ch_id}/cards/{card_id}': {
    params: (w) => ({ ch_id: w.holder, card_id: w.cardToLock }),
    body: () => ({ status: 'locked' }),
  },
  'PUT /v1/cardholders/{ch_id}/cards/{card_id}/limits': {
    body: () => ({ spend_tx_max: 1_000_000_000, spend_online_enabled: true }),
  },
  'POST /v1/cardholders/{ch_id}/cards/{card_id}/secrets': {
    body: (w) => ({ session: cardSession(w.pem).session }),
  },
  'GET /v1/cardholders/{ch_id}/cards/{card_id}/pin': {
    body: (w) => ({ session: cardSession(w.pem).session }),
  },
  'PUT /v1/cardholders/{ch_id}/cards/{card_id}/pin': {
    body: (w) => {
      const { key, session } = cardSession(w.pem);
      return { session, encrypted_data: encrypt(key, pinBlock('4321')) };
    },
  },
  'GET /v1/cardholders/{ch_id}/cards/{card_id}/transactions': { query: listQuery },
  'POST /sandbox/clock/advance': { body: () => ({ seconds: 1 }) },
  'PATCH /sandbox/settings': {
    body: () => ({ rate_limit_per_minute: 0, concurrency_limit: 0, platform_rate: 100 }),
  },
  'POST /sandbox/merchants': { body: () => ({ name: 'Second Co' }) },
  'PATCH /sandbox/merchants/{id}': {
    body: () => ({ name: 'Contract Co.', kyb_status: 'approved', platform_rate: 100 }),
  },
  'POST /sandbox/merchants/{id}/api-keys': { body: () => ({ name: 'sweep', role: 'admin' }) },
  'DELETE /sandbox/api-keys/{id}': { params: (w) => ({ id: w.extraKey }) },
  'POST /sandbox/checkouts/{id}/payments': {
    params: (w) => ({ id: w.checkout.toPay }),
    body: () => ({ amount: 5_000_000 }),
  },
  'POST /sandbox/checkouts/{id}/complete': { params: (w) => ({ id: w.checkout.toComplete }) },
  'POST /sandbox/checkouts/{id}/expire': { params: (w) => ({ id: w.checkout.toExpire }) },
  'POST /sandbox/checkouts/{id}/cancel': { params: (w) => ({ id: w.checkout.toCancel }) },
  'GET /sandbox/merchants/{id}/events': { query: () => ({ env: 'test', limit: '1000' }) },
  'GET /sandbox/merchants/{id}/customers': { query: () => ({ env: 'test', limit: '50', q: 'a' }) },
  'GET /sandbox/customers/{id}': { params: (w) => ({ id: w.customer }) },
  'GET /sandbox/merchants/{id}/invoices': { query: () => ({ env: 'test', limit: '50' }) },
  'GET /sandbox/invoices/{id}': { params: (w) => ({ id: w.invoice }) },
  'PATCH /sandbox/webhook-endpoints/{id}': { body: () => ({ disabled: false }) },
  'POST /sandbox/webhook-endpoints/{id}/test': { body: () => ({ event: 'checkout.created' }) },
  'POST /sandbox/deliveries/{id}/resend': { body: (w) => ({ endpoint_id: w.endpoint }) },
  'POST /sandbox/cards/{id}/secrets': { body: (w) => ({ session: cardSession(w.pem).session }) },
  'POST /sandbox/cards/{id}/pin': { body: (w) => ({ session: cardSession(w.pem).session }) },
  'POST /sandbox/merchants/{id}/webhook-endpoints': {
    body: (w) => ({ url: `${w.inboxUrl}-sweep`, events: ['payout.completed'] }),
  },
  'DELETE /sandbox/webhook-endpoints/{id}': { params: (w) => ({ id: w.endpointToDelete }) },
  'POST /sandbox/listen-sessions': {
    body: (w) => ({ url: `${w.inboxUrl}-listen`, forward_to: w.inboxUrl, events: ['payout.completed'] }),
  },
  'DELETE /sandbox/listen-sessions/{id}': { params: (w) => ({ id: w.listenSession }) },
  'GET /sandbox/deliveries': {
    query: (w) => ({ merchant_id: w.merchant, env: 'test', endpoint_id: w.endpoint }),
  },
  'POST /sandbox/inbox/{name}': { body: () => ({ id: UNKNOWN_ID, event: 'checkout.created', data: {} }) },
  'PUT /sandbox/inboxes/{name}': { body: () => ({ response_status: 200 }) },
  'POST /sandbox/receiver-checks': {
    body: (w) => ({
      url: `${w.inboxUrl}-checks`,
      secret: 'whsec_0123456789abcdef',
      events: ['checkout.paid'],
    }),
  },
  'POST /sandbox/deposits': {
    body: (w) => ({ merchant_id: w.merchant, chain: 'ethereum', currency: 'USDC', amount: 2_000_000 }),
  },
  'POST /sandbox/deposits/bursts': {
    body: (w) => ({ merchant_id: w.merchant, chain: 'tron', currency: 'USDT', amount: 1_000_000, count: 3 }),
  },
  'POST /sandbox/static-addresses/{address}/deposits': {
    body: () => ({ currency: 'USDT', amount: 3_000_000 }),
  },
  'POST /sandbox/payouts': { body: (w) => ({ merchant_id: w.merchant, amount: 500_000, currency: 'USDC' }) },
  'GET /sandbox/merchants/{id}/deposits': { query: listQuery },
  'GET /sandbox/merchants/{id}/payouts': { query: listQuery },
  'GET /sandbox/merchants/{id}/ledger': { query: listQuery },
  'POST /sandbox/merchants/{id}/credit': { body: () => ({ currency: 'USDT', amount: 1_000_000 }) },
  'GET /sandbox/keys': { query: () => ({ env: 'production' }) },
  'POST /sandbox/cardholders/{id}/kyc': {
    params: (w) => ({ id: w.holderToVerify }),
    body: () => ({ result: 'approved' }),
  },
  'POST /sandbox/card-applications/{id}': { body: () => ({ status: 'approved' }) },
  'POST /sandbox/cards/{id}/activate': { params: (w) => ({ id: w.cardToActivate }) },
  'POST /sandbox/cards/{id}/cancel': { params: (w) => ({ id: w.cardToCancel }) },
  'POST /sandbox/cards/{id}/authorizations': { body: () => ({ amount: 1_000_000, channel: 'online' }) },
  'POST /sandbox/cards/{id}/refunds': { body: () => ({ amount: 1_000_000, merchant_name: 'Shop' }) },
  'POST /sandbox/cards/{id}/deposits': {
    params: (w) => ({ id: w.physicalCard }),
    body: () => ({ amount: 1_000_000 }),
  },
  'POST /sandbox/cards/{id}/withdrawals': {
    params: (w) => ({ id: w.physicalCard }),
    body: () => ({ amount: 1_000_000 }),
  },
  'POST /sandbox/card-transactions/{id}/settle': { params: (w) => ({ id: w.transaction.toSettle }) },
  'POST /sandbox/card-transactions/{id}/decline': { params: (w) => ({ id: w.transaction.toDecline }) },
  'POST /sandbox/card-transactions/{id}/reverse': { params: (w) => ({ id: w.transaction.toReverse }) },
  'GET /sandbox/merchants/{id}/checkouts': { query: () => ({ env: 'test', limit: '50' }) },
  'POST /sandbox/merchants/{id}/checkouts': {
    query: () => ({ env: 'test' }),
    body: (w) => ({ title: 'Acting', amount: 1_000_000, expires_at: w.expires }),
  },
  'GET /sandbox/merchants/{id}/cardholders': { query: () => ({ env: 'test', limit: '50' }) },
  'POST /sandbox/merchants/{id}/cardholders': {
    query: () => ({ env: 'test' }),
    body: () => ({ name: 'Acting Holder' }),
  },
  'POST /sandbox/checkouts/{id}/refund': {
    params: (w) => ({ id: w.checkout.toRefundControl }),
    body: () => ({ amount: 1_000_000, gas_fee_payer: 'merchant' }),
  },
  'POST /sandbox/cardholders/{id}/applications': {
    params: (w) => ({ id: w.holderToApply }),
    body: (w) => ({ catalogue: w.physical, ...APPLY }),
  },
  'POST /sandbox/cardholders/{id}/cards': { body: (w) => ({ catalogue: w.virtual, type: 'virtual' }) },
  'POST /sandbox/cardholders/{id}/fund': { body: () => ({ amount: 1_000_000, currency: 'USDC' }) },
  'POST /sandbox/cardholders/{id}/recall': { body: () => ({ amount: 1_000_000, currency: 'USDC' }) },
  'PATCH /sandbox/cards/{id}': {
    params: (w) => ({ id: w.cardToLockControl }),
    body: () => ({ status: 'locked' }),
  },
  'POST /sandbox/reset': {},
  'GET /sandbox/export': { query: (w) => ({ merchant_id: w.merchant }) },
  'GET /sandbox/scenarios/library/{name}': { params: () => ({ name: 'checkout.paid' }) },
  'POST /sandbox/scenarios/library/{name}/run': {
    params: () => ({ name: 'checkout.created' }),
    body: () => ({ env: 'test' }),
  },
  // Called in step 5 with the bundle a whole-workspace export just made (it replaces the workspace).
  'POST /sandbox/import': {},
  'POST /v1/reseller/connections': { body: (w) => ({ merchant_id: w.reseller.target, rate: 450 }) },
  'PUT /v1/reseller/connections/{connection_id}': {
    params: (w) => ({ connection_id: w.reseller.connection }),
    body: () => ({ rate: 600, min_fee: null }),
  },
  'GET /v1/reseller/connections': { query: listQuery },
  'DELETE /v1/reseller/connections/{connection_id}': {
    params: (w) => ({ connection_id: w.reseller.toDelete }),
  },
  'GET /v1/merchants/{id}/reseller-connections/incoming': {
    params: (w) => ({ id: w.merchant }),
    query: listQuery,
  },
  'DELETE /v1/merchants/{id}/reseller-connections/{connection_id}': {
    params: (w) => ({ id: w.merchant, connection_id: w.reseller.incoming }),
  },
  'POST /v1/reseller/provision': { app: 'production', body: () => provisionBody('sweep@sub.example') },
  'GET /sandbox/merchants/{id}/reseller-connections': { query: () => ({ env: 'test' }) },
  'POST /sandbox/merchants/{id}/reseller-connections': {
    query: () => ({ env: 'test' }),
    body: (w) => ({ merchant_id: w.reseller.target, rate: 500, min_fee: 100_000 }),
  },
  'PUT /sandbox/reseller-connections/{id}': {
    params: (w) => ({ id: w.reseller.connectionControl }),
    body: () => ({ rate: 250, max_fee: 2_000_000 }),
  },
  'POST /sandbox/reseller-connections/{id}/revoke': { params: (w) => ({ id: w.reseller.toRevokeControl }) },
  'DELETE /sandbox/reseller-connections/{id}': { params: (w) => ({ id: w.reseller.toDeleteControl }) },
  'POST /sandbox/merchants/{id}/provision': {
    query: () => ({ env: 'production' }),
    body: () => provisionBody('control@sub.example'),
  },
  'GET /sandbox/merchants/{id}/reseller-income': { query: () => ({ env: 'test' }) },
  'GET /sandbox/request-log': {
    query: (w) => ({ merchant_id: w.merchant, env: 'test', status: '2xx', limit: '50' }),
  },
  'GET /sandbox/request-log/{id}': { params: (w) => ({ id: w.requestLogEntry }) },
  'POST /sandbox/request-log/verify': {
    body: () => ({ method: 'POST', path: '/v1/checkouts', body: { title: 'x' }, count: { gte: 0 } }),
  },
  'PUT /sandbox/faults': {
    body: () => ({
      seed: 'sweep',
      rules: [{ match: { path: '/v1/nowhere' }, count: 1, effect: { status: 503 } }],
    }),
  },
  // Recording: start, state, an expectation from a merchant's current state, stop (in that order).
  'POST /sandbox/recording/start': { body: () => ({ name: 'contract sweep' }) },
  'POST /sandbox/recording/expect': {
    body: (w) => ({ kind: 'resource', path: `/sandbox/merchants/${w.merchant}` }),
  },
  'POST /sandbox/workspaces': { body: () => ({ name: 'contract sweep', seed: 'sweep', ephemeral: true }) },
  'GET /sandbox/workspaces/{id}': { params: (w) => ({ id: w.workspace }) },
  'DELETE /sandbox/workspaces/{id}': { params: (w) => ({ id: w.workspace }) },
  'POST /sandbox/checkpoints': { body: () => ({ name: 'sweep' }), workspace: (w) => w.checkpointWorkspace },
  'GET /sandbox/checkpoints': { workspace: (w) => w.checkpointWorkspace },
  'POST /sandbox/checkpoints/{name}/restore': {
    params: (w) => ({ name: w.checkpoint }),
    workspace: (w) => w.checkpointWorkspace,
  },
  'DELETE /sandbox/checkpoints/{name}': {
    params: (w) => ({ name: w.checkpoint }),
    workspace: (w) => w.checkpointWorkspace,
  },
  'POST /sandbox/scenarios/run': {
    body: () => ({
      scenario:
        'name: contract\nsteps:\n  - merchant: scenario-co\n  - call: GET /v1/checkouts\n    expect: { status: 200 }\n',
    }),
  },
  'POST /sandbox/parity': {
    body: () => ({
      scenario:
        'name: contract parity\nsteps:\n  - merchant: parity-co\n  - call: GET /v1/checkouts\n    recorded: { status: 200, body: [] }\n',
      ignore: ['*.created_at'],
    }),
  },
};

/** Business-rule errors worth one call each: the same transition twice is refused with a 400. */
const REPEATS = [
  'POST /sandbox/checkouts/{id}/complete',
  'POST /sandbox/checkouts/{id}/expire',
  'POST /sandbox/checkouts/{id}/cancel',
  'DELETE /v1/checkouts/{id}',
  'POST /sandbox/cards/{id}/activate',
  'POST /sandbox/card-transactions/{id}/settle',
  'POST /sandbox/card-applications/{id}',
  'POST /sandbox/reseller-connections/{id}/revoke',
];

/** Whether every path parameter of `op` has a fixture. */
function resolvable(op: Operation, w: World): boolean {
  const fixed = STEPS[op.key]?.params?.(w) ?? {};
  return pathParams(op.path).every((name) => (fixed[name] ?? defaultParam(op.path, name, w)) !== undefined);
}

function requestFor(op: Operation, w: World, overrides: Partial<Request> = {}): Request {
  const step = STEPS[op.key] ?? {};
  const fixed = step.params?.(w) ?? {};
  const params: Record<string, string> = {};
  for (const name of pathParams(op.path)) {
    const value = fixed[name] ?? defaultParam(op.path, name, w);
    if (value === undefined) throw new Error(`${op.key}: no fixture for path parameter {${name}}`);
    params[name] = value;
  }
  const body = step.body?.(w);
  return {
    method: op.method as Method,
    path: op.path,
    params,
    ...(step.query ? { query: step.query(w) } : {}),
    ...(body === undefined ? {} : { body }),
    ...(step.app ? { app: step.app } : {}),
    ...(step.workspace ? { workspace: step.workspace(w) } : {}),
    ...overrides,
  };
}

/** Event type → the component that documents its `data`, where the document names one. */
const EVENT_COMPONENTS: Record<string, string> = {
  'checkout.created': 'CheckoutCreatedData',
  'checkout.paid': 'CheckoutPaidData',
  'checkout.completed': 'CheckoutCompletedData',
  'checkout.partial': 'Checkout',
  'checkout.refunded': 'CheckoutRefundedData',
  'checkout.expired': 'Checkout',
  'checkout.cancelled': 'Checkout',
  'invoice.paid': 'Invoice',
  'invoice.sent': 'Invoice',
  'payout.completed': 'Payout',
  'payout.failed': 'Payout',
  'card.created': 'CardCreatedData',
  'card.transaction': 'CardTransactionData',
  'deposit.received': 'DepositReceivedData',
};

/** Reads the SSE stream until an `event: event` message arrives (bounded), after `act`. */
async function firstStreamEvent(
  url: string,
  act: () => Promise<void>,
): Promise<{ status: number; contentType: string | null; event: unknown }> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 5000);
  try {
    const response = await fetch(url, { signal: controller.signal });
    const contentType = response.headers.get('content-type');
    const reader = response.body?.getReader();
    if (!reader) return { status: response.status, contentType, event: undefined };
    const decoder = new TextDecoder();
    let buffer = '';
    let acted = false;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return { status: response.status, contentType, event: undefined };
      buffer += decoder.decode(value, { stream: true });
      if (!acted) {
        acted = true;
        await act();
      }
      for (const block of buffer.split('\n\n').slice(0, -1)) {
        const data = /^data: (.+)$/m.exec(block)?.[1];
        if (/^event: event$/m.test(block) && data)
          return { status: response.status, contentType, event: JSON.parse(data) };
      }
    }
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}

/** Documented errors, where cheap: unknown ids (404), no key on /v1 (401), an empty body where fields
 * are required (422). Returns the number of probes. */
async function probeErrors(api: Recorder, operations: Operation[], w: World): Promise<number> {
  let probes = 0;
  for (const op of operations) {
    if (op.key === SSE || op.key === RESET || op.key === IMPORT || !resolvable(op, w)) continue;
    const responses = op.operation.responses ?? {};
    const uuids = (op.operation.parameters ?? []).filter(
      (p) => p.in === 'path' && p.schema?.format === 'uuid',
    );
    if ('404' in responses && uuids.length > 0) {
      const request = requestFor(op, w);
      const params = { ...request.params, ...Object.fromEntries(uuids.map((p) => [p.name, UNKNOWN_ID])) };
      api.expectStatus(op.key, await api.send({ ...request, params }), 404, 'unknown id');
      probes += 1;
    }
    if ('401' in responses && op.path.startsWith('/v1/')) {
      api.expectStatus(op.key, await api.send(requestFor(op, w, { auth: null })), 401, 'no API key');
      probes += 1;
    }
    const body = api.contract.resolve(op.operation.requestBody?.content?.['application/json']?.schema);
    const required = isObject(body) && Array.isArray(body.required) ? body.required : [];
    if ('422' in responses && required.length > 0) {
      api.expectStatus(op.key, await api.send(requestFor(op, w, { body: {} })), 422, 'empty body');
      probes += 1;
    }
  }
  return probes;
}

/** Webhook and event payloads against the components the document names for them. */
class PayloadChecks {
  readonly problems: string[] = [];
  readonly types = new Set<string>();
  count = 0;
  private readonly components: Set<string>;

  constructor(private readonly contract: ContractValidator) {
    this.components = new Set(contract.componentNames());
  }

  get documented(): boolean {
    return this.components.size > 0;
  }

  check(where: string, component: string | undefined, data: unknown, type?: string): void {
    if (component === undefined || !this.components.has(component)) return;
    this.count += 1;
    if (type !== undefined) this.types.add(type);
    const errors = this.contract.validateComponent(component, data);
    if (errors.length > 0) this.problems.push(`${where} (${component}): ${errors.join('; ')}`);
  }

  event(where: string, type: unknown, data: unknown): void {
    if (typeof type === 'string') this.check(`${where} ${type}`, EVENT_COMPONENTS[type], data, type);
  }

  /** Event types whose payload the document names but that were never produced and checked. */
  unchecked(): string[] {
    return Object.entries(EVENT_COMPONENTS)
      .filter(([type, component]) => this.components.has(component) && !this.types.has(type))
      .map(([type]) => type);
  }
}

describe('contract: real responses against the served OpenAPI document', () => {
  it('every documented operation answers what its document says', { timeout: 60_000 }, async () => {
    const sandbox = await testSandbox();
    const urls = await sandbox.listen();
    const served = await sandbox.apps.test.inject({ method: 'GET', url: '/sandbox/openapi.json' });
    expect(served.statusCode).toBe(200);
    const doc = JSON.parse(served.body) as OpenApiDocument;
    expect(doc.openapi).toMatch(/^3\./);
    const contract = new ContractValidator(doc);
    const operations = contract.operations;
    expect(operations.length).toBeGreaterThan(0);

    // The validator is not vacuous: it rejects a wrong body for a documented schema.
    if (contract.operation('GET /sandbox/health')) {
      const wrong = contract.check('GET /sandbox/health', {
        status: 200,
        contentType: 'application/json',
        body: '{"status":1}',
      });
      expect(wrong.validated && wrong.problems.length > 0, 'ajv rejects a malformed body').toBe(true);
    }

    const api = new Recorder(sandbox, contract);
    const world = await buildWorld(api, sandbox, urls.test);

    // 1. The sweep: every operation but deletions, the stream and the reset, once, with its fixtures.
    const sweep = operations.filter(
      (op) => op.method !== 'DELETE' && op.key !== SSE && op.key !== RESET && op.key !== IMPORT,
    );
    const missingSteps: string[] = [];
    for (const op of sweep) {
      if (!(op.key in STEPS) && (op.operation.requestBody?.required || !resolvable(op, world))) {
        missingSteps.push(op.key);
        continue;
      }
      await api.send(requestFor(op, world));
    }
    // The production listener serves the same /v1: its lists are checked there too.
    for (const op of sweep) {
      if (op.method === 'GET' && op.path.startsWith('/v1/') && pathParams(op.path).length === 0) {
        await api.send(requestFor(op, world, { app: 'production' }));
      }
    }

    // 2. Documented errors.
    let errorProbes = await probeErrors(api, operations, world);

    // 3. Event payloads: the event log, what the inbox received, one message of the live stream.
    const payloads = new PayloadChecks(contract);
    const events = await api.ok({
      method: 'GET',
      path: '/sandbox/merchants/{id}/events',
      params: { id: world.merchant },
      query: { limit: '1000' },
    });
    for (const raw of list(events, 'events')) {
      const event = obj(raw, 'event');
      payloads.event('event', event.type, event.data);
    }
    const inbox = await api.ok({
      method: 'GET',
      path: '/sandbox/inboxes/{name}',
      params: { name: world.inbox },
    });
    for (const raw of list(obj(inbox, 'inbox').messages, 'inbox messages')) {
      const envelope = obj(JSON.parse(str(obj(raw, 'message').body, 'message body')), 'webhook body');
      if (envelope.id === UNKNOWN_ID) continue; // the one this test posted itself
      expect(Object.keys(envelope).sort(), 'webhook envelope').toEqual(['data', 'event', 'id']);
      payloads.event('webhook', envelope.event, envelope.data);
    }

    // 4. The event stream is not JSON: its status and content type are what the document can say.
    const stream = await firstStreamEvent(`${urls.test}/sandbox/events?env=test`, async () => {
      await api.ok({
        method: 'POST',
        path: '/sandbox/deposits',
        body: { merchant_id: world.merchant, chain: 'tron', currency: 'USDT', amount: 1_000_000 },
      });
    });
    if (contract.operation(SSE)) {
      api.recordStream(SSE, stream.status, stream.contentType, 'text/event-stream');
      expect(stream.event, 'an event on the stream within 5 s').toBeDefined();
      payloads.check('stream event', 'SandboxEvent', stream.event);
    }

    // 5. Deletions, after everything that needed their fixtures; a transition repeated (400);
    //    then the reset, last of all, and a list that shows it.
    for (const op of operations.filter((o) => o.method === 'DELETE')) await api.send(requestFor(op, world));
    for (const key of REPEATS) {
      const op = contract.operation(key);
      if (!op) continue;
      api.expectStatus(key, await api.send(requestFor(op, world)), 400, 'repeated transition');
      errorProbes += 1;
    }
    // Every status move the sweep made is one its state table lists (storage counts what the
    // domain wrote; a move no table lists is reported as such), and many were made.
    const coverage = (await api.ok({ method: 'GET', path: '/sandbox/coverage' })) as Coverage;
    expect(coverage.transitions.filter((t) => t.via === UNLISTED)).toEqual([]);
    expect(coverage.transitions.filter((t) => t.count > 0).length).toBeGreaterThan(20);

    // The workspace exported whole and imported back (it replaces itself: the same answers after,
    // the coverage counts too), and a file that is no bundle refused with a 400.
    if (contract.operation(IMPORT)) {
      const before = await api.ok({ method: 'GET', path: '/sandbox/merchants' });
      const coverageBefore = await api.ok({ method: 'GET', path: '/sandbox/coverage' });
      const bundle = await api.send({ method: 'GET', path: '/sandbox/export' });
      api.expectStatus('GET /sandbox/export', bundle, 200, 'whole-workspace export');
      const imported = await api.send({ method: 'POST', path: '/sandbox/import', bytes: bundle.bytes });
      api.expectStatus(IMPORT, imported, 200, 'import of the export');
      expect(await api.ok({ method: 'GET', path: '/sandbox/merchants' })).toEqual(before);
      expect(await api.ok({ method: 'GET', path: '/sandbox/coverage' })).toEqual(coverageBefore);
      const refused = await api.send({
        method: 'POST',
        path: '/sandbox/import',
        bytes: Buffer.from('not a bundle'),
      });
      api.expectStatus(IMPORT, refused, 400, 'a file that is no bundle');
      errorProbes += 1;
    }
    const reset = contract.operation(RESET);
    if (reset) {
      await api.send(requestFor(reset, world));
      expect(await api.ok({ method: 'GET', path: '/sandbox/merchants' })).toEqual([]);
      const afterReset = (await api.ok({ method: 'GET', path: '/sandbox/coverage' })) as Coverage;
      expect(afterReset.transitions.filter((t) => t.count > 0)).toEqual([]);
    }

    // Coverage: every operation in the document answered with a documented success at least once.
    const statuses = (key: string) => [...(api.seen.get(key) ?? [])];
    const uncovered = operations
      .filter((op) => !statuses(op.key).some((s) => s >= 200 && s < 300))
      .map((op) => `${op.key} (got ${statuses(op.key).join(', ') || 'no call'})`);
    const known = new Set(KNOWN_MISMATCHES.map((k) => k.operation));
    const unexpected = api.problems
      .filter((p) => !known.has(p.operation))
      .map((p) => `${p.operation} → ${p.status}: ${p.problem}`);
    const fixed = KNOWN_MISMATCHES.filter((k) => !api.problems.some((p) => p.operation === k.operation));

    console.log(
      `contract: ${operations.length} operations, ${api.responses} responses, ${api.validated} validated ` +
        `against their schema (${errorProbes} error probes), ${payloads.count} event payloads validated` +
        (payloads.documented ? '' : ' (the document names no components: payloads unchecked)') +
        `, ${KNOWN_MISMATCHES.length} known mismatch(es)`,
    );
    expect(missingSteps, 'operations with no way to call them: add a STEPS entry').toEqual([]);
    expect(uncovered, 'operations never answered with a documented success').toEqual([]);
    expect(unexpected, 'responses that do not match the document').toEqual([]);
    expect(
      fixed.map((k) => k.operation),
      'KNOWN_MISMATCHES entries that now match: remove them',
    ).toEqual([]);
    expect(payloads.problems, 'event payloads that do not match their components').toEqual([]);
    expect(payloads.unchecked(), 'event types with a documented payload never produced').toEqual([]);
  });
});
