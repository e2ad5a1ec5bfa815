import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import type { Sandbox } from '../../server/sandbox.js';
import { isObject, type JsonObject, type OpenApiDocument, type Operation } from '../helpers/openapi.js';

/**
 * Shared pieces of the reliability suite: the built CLI as a child process, a seeded
 * PRNG, the fixture world every route can be pointed at, and valid-value arbitraries derived from
 * the OpenAPI document's request schemas.
 */

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const CLI = join(ROOT, 'dist/server/cli.js');
export const UNKNOWN_UUID = '00000000-0000-4000-8000-000000000000';
export const VIRTUAL_CATALOGUE = '6f1c2a8e-3b4d-4c5e-9f60-7a8b9c0d1e21';
export const PHYSICAL_CATALOGUE = '8d2e3f4a-5b6c-4d7e-8f90-a1b2c3d4e5f6';
export const APPLY = {
  account_purpose: 'business expenses',
  occupation: 'engineer',
  annual_salary: '50000_100000',
  expected_monthly_volume: '1000_5000',
};

/** mulberry32: a small seeded PRNG, uniform in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ---- the CLI as a real process ----

/** `npm test` builds first; a bare `vitest run` may find no build. */
export function ensureCli(): void {
  if (!existsSync(CLI))
    execFileSync('npx', ['tsc', '-p', 'tsconfig.server.json'], { cwd: ROOT, stdio: 'inherit' });
}

const READY = /^svc-sandbox ready test=(\S+) production=(\S+) dashboard=(\S+)$/;

export interface Served {
  child: ChildProcess;
  urls: { test: string; production: string };
  stderr: () => string;
}

/** `serve --port 0 --prod-port 0 --db <file>`; resolves on the ready line. */
export function serve(dbPath: string, readyTimeoutMs = 10_000): Promise<Served> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--prod-port', '0', '--db', dbPath], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    // Bounded: a crash loop must not fill the test's memory.
    if (stderr.length < 100_000) stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no ready line within ${readyTimeoutMs} ms\nstderr: ${stderr}`));
    }, readyTimeoutMs);
    const onExit = (code: number | null, signal: string | null) => {
      clearTimeout(timer);
      reject(new Error(`exited (${signal ?? code}) before ready\nstderr: ${stderr}`));
    };
    child.once('exit', onExit);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const match = READY.exec(line);
      if (!match) return;
      clearTimeout(timer);
      child.off('exit', onExit);
      resolve({ child, urls: { test: match[1]!, production: match[2]! }, stderr: () => stderr });
    });
  });
}

export function exited(child: ChildProcess, ms = 5_000): Promise<NodeJS.Signals | number | null> {
  if (child.exitCode !== null || child.signalCode !== null)
    return Promise.resolve(child.signalCode ?? child.exitCode);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`process did not exit within ${ms} ms`)), ms);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve(signal ?? code);
    });
  });
}

// ---- responses ----

/** What is wrong with an error response, or null when it is exactly `{error: non-empty string}`. */
export function errorShapeProblem(res: {
  statusCode: number;
  headers: Record<string, unknown>;
  body: string;
}): string | null {
  const type = String(res.headers['content-type'] ?? '');
  if (!/^application\/json/.test(type)) return `${res.statusCode} with content-type ${type || '(none)'}`;
  let body: unknown;
  try {
    body = JSON.parse(res.body);
  } catch {
    return `${res.statusCode} body is not JSON: ${res.body.slice(0, 120)}`;
  }
  if (!isObject(body)) return `${res.statusCode} body is not an object: ${res.body.slice(0, 120)}`;
  const keys = Object.keys(body);
  if (keys.length !== 1 || keys[0] !== 'error')
    return `${res.statusCode} body keys ${JSON.stringify(keys)}: ${res.body.slice(0, 120)}`;
  if (typeof body.error !== 'string' || body.error.length === 0)
    return `${res.statusCode} error is not a non-empty string`;
  return null;
}

// ---- the OpenAPI document ----

export async function loadDocument(sandbox: Sandbox): Promise<OpenApiDocument> {
  const res = await sandbox.apps.test.inject({ url: '/sandbox/openapi.json' });
  if (res.statusCode !== 200) throw new Error(`openapi.json: ${res.statusCode}`);
  return res.json() as OpenApiDocument;
}

export function requestSchema(op: Operation): JsonObject | undefined {
  const schema = op.operation.requestBody?.content?.['application/json']?.schema;
  return isObject(schema) ? schema : undefined;
}

// ---- the fixture world ----

export interface World {
  merchantId: string;
  key: string;
  keyId: string;
  auth: { authorization: string };
  spareKeyId: string;
  customer: string;
  checkout: string;
  paidCheckout: string;
  invoice: string;
  cardholder: string;
  application: string;
  card: string;
  cardTransaction: string;
  endpoint: string;
  delivery: string;
  staticAddress: string;
  inbox: string;
  /** the world merchant's own reseller connection (it resells a client merchant) */
  connection: string;
  /** a connection another reseller holds to the world merchant */
  incomingConnection: string;
}

type Inject = (options: {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  payload?: object;
}) => Promise<LightMyRequestResponse>;

/**
 * A merchant with one of everything, in the test environment: key (+ a spare key), customer, an
 * active and a paid checkout, an invoice, a KYC-verified funded cardholder with an approved
 * application, a virtual card with one authorization, a webhook endpoint with a delivery, a static
 * address and an inbox. Built through the API itself (inject), as a client would.
 */
export async function buildWorld(
  sandbox: Sandbox,
  name: string,
  endpointUrl: string,
  env: 'test' | 'production' = 'test',
  /** the workspace to build it in (default: the default one) */
  workspace?: string,
): Promise<World> {
  const app = sandbox.apps[env];
  const inject: Inject = (options) =>
    app.inject(
      workspace === undefined
        ? options
        : { ...options, headers: { ...options.headers, 'x-svc-workspace': workspace } },
    ) as Promise<LightMyRequestResponse>;
  const must = async (options: Parameters<Inject>[0], status = 200): Promise<JsonObject> => {
    const res = await inject(options);
    if (res.statusCode !== status)
      throw new Error(`world ${options.method} ${options.url}: ${res.statusCode} ${res.body}`);
    return res.body ? (res.json() as JsonObject) : {};
  };
  const q = env === 'test' ? '' : `?env=${env}`;
  const created = await must({ method: 'POST', url: '/sandbox/merchants', payload: { name } });
  const merchantId = (created.merchant as JsonObject).id as string;
  const apiKey = created.api_key as JsonObject;
  const key = apiKey.key as string;
  const auth = { authorization: `Bearer ${key}` };
  const v1 = (method: Parameters<Inject>[0]['method'], url: string, payload?: object, status = 200) =>
    must({ method, url, headers: auth, ...(payload ? { payload } : {}) }, status);
  const spare = await must({
    method: 'POST',
    url: `/sandbox/merchants/${merchantId}/api-keys`,
    payload: { name: 'spare', role: 'developer' },
  });
  const endpoint = await must({
    method: 'POST',
    url: `/sandbox/merchants/${merchantId}/webhook-endpoints${q}`,
    payload: { url: endpointUrl },
  });
  const clock = (workspace === undefined ? sandbox.ctx : sandbox.workspaces.require(workspace).ctx).clock;
  const expiresAt = new Date(clock.now() + 30 * 86_400_000).toISOString();
  const customer = await v1('POST', '/v1/customers', { name: 'Fixture Customer', email: 'fx@example.com' });
  const checkout = await v1('POST', '/v1/checkouts', {
    title: 'Fixture',
    amount: 25_000_000,
    expires_at: expiresAt,
  });
  const paid = await v1('POST', '/v1/checkouts', {
    title: 'Fixture paid',
    amount: 25_000_000,
    expires_at: expiresAt,
  });
  await must({ method: 'POST', url: `/sandbox/checkouts/${paid.id as string}/payments`, payload: {} });
  const invoice = await v1('POST', '/v1/invoices', {
    title: 'Fixture invoice',
    customer_id: customer.id,
    line_items: [{ description: 'Seat', quantity: 2, unit_price: 12_500_000 }],
  });
  const holder = await v1('POST', '/v1/cardholders', { name: 'Jane Doe', email: 'jane@example.com' });
  const holderId = holder.id as string;
  await must({
    method: 'POST',
    url: `/sandbox/cardholders/${holderId}/kyc`,
    payload: { result: 'approved' },
  });
  const application = await v1('POST', `/v1/cardholders/${holderId}/cards/apply`, {
    catalogue: VIRTUAL_CATALOGUE,
    ...APPLY,
  });
  await must({
    method: 'POST',
    url: `/sandbox/merchants/${merchantId}/credit${q}`,
    payload: { currency: 'USDC', amount: 500_000_000 },
  });
  await v1('POST', `/v1/cardholders/${holderId}/fund`, { amount: 200_000_000, currency: 'USDC' }, 204);
  const card = await v1('POST', `/v1/cardholders/${holderId}/cards`, {
    catalogue: VIRTUAL_CATALOGUE,
    type: 'virtual',
  });
  const cardTransaction = await must({
    method: 'POST',
    url: `/sandbox/cards/${card.id as string}/authorizations`,
    payload: { amount: 1_000_000 },
  });
  const addresses = (await inject({ method: 'GET', url: '/v1/static-addresses', headers: auth })).json() as {
    address: string;
  }[];
  const deliveries = (
    await inject({ method: 'GET', url: `/sandbox/deliveries?merchant_id=${merchantId}&env=${env}` })
  ).json() as { id: string }[];
  // Reseller connections both ways: the world merchant resells a client, another reseller resells it.
  // (Only where the build has reseller routes: a route the document lacks is not fuzzed anyway.)
  const connect = async (authorization: string, merchant: string): Promise<string> => {
    const res = await inject({
      method: 'POST',
      url: '/v1/reseller/connections',
      headers: { authorization },
      payload: { merchant_id: merchant, rate: 500 },
    });
    if (res.statusCode === 404 && res.body.includes('Route not found')) return UNKNOWN_UUID;
    if (res.statusCode !== 200) throw new Error(`world reseller connection: ${res.statusCode} ${res.body}`);
    return (res.json() as JsonObject).id as string;
  };
  const client = await must({
    method: 'POST',
    url: '/sandbox/merchants',
    payload: { name: `${name} client` },
  });
  const connection = await connect(auth.authorization, (client.merchant as JsonObject).id as string);
  const reseller = await must({
    method: 'POST',
    url: '/sandbox/merchants',
    payload: { name: `${name} reseller` },
  });
  const incoming = await connect(`Bearer ${(reseller.api_key as JsonObject).key as string}`, merchantId);
  const inbox = `fixture-${name.replace(/[^A-Za-z0-9_-]/g, '')}`.slice(0, 64);
  await must({ method: 'PUT', url: `/sandbox/inboxes/${inbox}`, payload: { response_status: 200 } });
  return {
    merchantId,
    key,
    keyId: apiKey.id as string,
    auth,
    spareKeyId: spare.id as string,
    customer: customer.id as string,
    checkout: checkout.id as string,
    paidCheckout: paid.id as string,
    invoice: invoice.id as string,
    cardholder: holderId,
    application: application.id as string,
    card: card.id as string,
    cardTransaction: cardTransaction.id as string,
    endpoint: endpoint.id as string,
    delivery: deliveries[0]?.id ?? UNKNOWN_UUID,
    staticAddress: addresses[0]?.address ?? '0x0000000000000000000000000000000000000000',
    inbox,
    connection,
    incomingConnection: incoming,
  };
}

/** The fields of the world that are ids (or names) of resources. */
export type WorldId = Exclude<keyof World, 'auth'>;

/** The resource a path segment names, before a `{param}`: which fixture ids are "valid" there. */
const BY_SEGMENT: Record<string, WorldId[]> = {
  customers: ['customer'],
  checkouts: ['checkout', 'paidCheckout'],
  invoices: ['invoice'],
  cardholders: ['cardholder'],
  merchants: ['merchantId'],
  'api-keys': ['spareKeyId'],
  'webhook-endpoints': ['endpoint'],
  deliveries: ['delivery'],
  inboxes: ['inbox'],
  inbox: ['inbox'],
  'static-addresses': ['staticAddress'],
  'card-applications': ['application'],
  cards: ['card'],
  'card-transactions': ['cardTransaction'],
  connections: ['connection'],
  'reseller-connections': ['connection'],
};

/** The world's fields a path parameter of `path` should take to name a real resource. */
export function fixtureFields(path: string, param: string): WorldId[] {
  if (param === 'ch_id') return ['cardholder'];
  if (param === 'card_id') return ['card'];
  // /v1/merchants/{id}/reseller-connections/{connection_id}: a connection held TO the merchant.
  if (param === 'connection_id')
    return path.startsWith('/v1/merchants/') ? ['incomingConnection'] : ['connection'];
  const segments = path.split('/');
  const at = segments.indexOf(`{${param}}`);
  const before = at > 0 ? segments[at - 1]! : '';
  return BY_SEGMENT[before] ?? ['merchantId', 'checkout', 'customer', 'card', 'cardholder'];
}

export function fillWith(path: string, value: (param: string) => string): string {
  return path.replace(/\{([^}]+)\}/g, (_, param: string) => encodeURIComponent(value(param)));
}

// ---- valid values from request schemas ----

const UUID_FIELDS: Record<string, WorldId> = {
  merchant_id: 'merchantId',
  customer_id: 'customer',
  endpoint_id: 'endpoint',
};

/** Known patterns of the document, with a value that matches each. */
export const PATTERN_VALUES: Record<string, string[]> = {
  '^[A-Z]{3}$': ['USA', 'GBR', 'DEU', 'EUR'],
  '^[A-Z]{2}$': ['US', 'GB', 'DE'],
  '^[A-Za-z]{3,5}$': ['USDC', 'USDT', 'usdc', 'BTC'],
  '^[0-9]{1,12}_[0-9]{1,12}$': ['50000_100000', '1000_5000', '0_1'],
  '^\\+?[0-9 ()-]{3,32}$': ['+1 555 0100', '(020) 7946-0958'],
  '^[A-Za-z0-9_-]{1,64}$': ['fixture', 'other_inbox-1'],
};

export interface ValueContext {
  world: World;
  /** http URL of a receiver on 127.0.0.1 (webhook endpoints, success/cancel urls) */
  url: string;
  /** sandbox now, ms (dates are made relative to it) */
  now: number;
}

/**
 * An arbitrary of values valid for a request schema, with names steering to values the sandbox
 * accepts semantically too (the world's ids, known chains and currencies), so requests get past
 * validation and reach the domain.
 */
export function validArb(schema: unknown, ctx: ValueContext, name = '', depth = 0): fc.Arbitrary<unknown> {
  if (!isObject(schema) || depth > 6) return fc.constant(null);
  if (Array.isArray(schema.anyOf)) return fc.oneof(...schema.anyOf.map((s) => validArb(s, ctx, name, depth)));
  if (Array.isArray(schema.oneOf)) return fc.oneof(...schema.oneOf.map((s) => validArb(s, ctx, name, depth)));
  const base = baseArb(schema, ctx, name, depth);
  return schema.nullable === true ? fc.oneof({ arbitrary: base, weight: 9 }, fc.constant(null)) : base;
}

function baseArb(schema: JsonObject, ctx: ValueContext, name: string, depth: number): fc.Arbitrary<unknown> {
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return fc.constantFrom(...schema.enum);
  if ('const' in schema) return fc.constant(schema.const);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object':
      return objectArb(schema, ctx, depth);
    case 'array': {
      const min = typeof schema.minItems === 'number' ? schema.minItems : 0;
      const max = Math.max(min, Math.min(typeof schema.maxItems === 'number' ? schema.maxItems : 3, 3));
      if (name === 'events')
        return fc.constantFrom(['checkout.created'], ['checkout.paid', 'checkout.created']);
      if (name === 'chains' && isObject(schema.items) && schema.items.type === 'string')
        return fc.constantFrom(['ethereum'], ['tron', 'bitcoin']);
      return fc.array(validArb(schema.items, ctx, name, depth + 1), { minLength: min, maxLength: max });
    }
    case 'integer':
    case 'number':
      return integerArb(schema, name);
    case 'boolean':
      return fc.boolean();
    case 'string':
      return stringArb(schema, ctx, name);
    default:
      return fc.constant(null);
  }
}

function objectArb(schema: JsonObject, ctx: ValueContext, depth: number): fc.Arbitrary<unknown> {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [key, value] of Object.entries(properties)) model[key] = validArb(value, ctx, key, depth + 1);
  if (Object.keys(model).length === 0) return fc.constant({});
  return fc.record(model, { requiredKeys: [...required].filter((k) => k in model) });
}

function integerArb(schema: JsonObject, name: string): fc.Arbitrary<number> {
  const lo = typeof schema.minimum === 'number' ? Math.max(schema.minimum, Number.MIN_SAFE_INTEGER) : -1e6;
  const hi = typeof schema.maximum === 'number' ? Math.min(schema.maximum, Number.MAX_SAFE_INTEGER) : 1e9;
  const clamp = (a: number, b: number) => fc.integer({ min: Math.max(lo, a), max: Math.min(hi, b) });
  if (name === 'seconds') return clamp(0, 600);
  if (name === 'response_status') return clamp(200, 499);
  if (name === 'limit') return clamp(1, 100);
  if (/amount|price|fee|min|max|subtotal|quantity/.test(name))
    return fc.oneof({ arbitrary: clamp(1, 100_000_000), weight: 8 }, fc.constantFrom(lo, hi));
  return fc.oneof({ arbitrary: fc.integer({ min: lo, max: hi }), weight: 4 }, fc.constantFrom(lo, hi));
}

function stringArb(schema: JsonObject, ctx: ValueContext, name: string): fc.Arbitrary<string> {
  const { world } = ctx;
  const format = schema.format;
  if (format === 'uuid') {
    if (name === 'catalogue' || name === 'id') return fc.constantFrom(VIRTUAL_CATALOGUE, PHYSICAL_CATALOGUE);
    const field = UUID_FIELDS[name];
    return field
      ? fc.oneof({ arbitrary: fc.constant(world[field]), weight: 9 }, fc.uuid({ version: 4 }))
      : fc.uuid({ version: 4 });
  }
  if (format === 'email') return fc.constantFrom('ada@example.com', 'FX@Example.com', 'x+y@example.org');
  if (format === 'uri') return fc.constantFrom(ctx.url, 'https://example.com/done', 'http://localhost/x');
  if (format === 'date-time')
    return fc
      .integer({ min: 60_000, max: 90 * 86_400_000 })
      .map((ms) => new Date(ctx.now + ms).toISOString());
  if (format === 'date')
    return fc
      .integer({ min: 0, max: 365 })
      .map((d) => new Date(ctx.now + d * 86_400_000).toISOString().slice(0, 10));
  if (typeof schema.pattern === 'string') {
    const known = PATTERN_VALUES[schema.pattern];
    if (known) return fc.constantFrom(...known);
    return fc.stringMatching(new RegExp(schema.pattern));
  }
  if (name === 'url') return fc.constant(ctx.url);
  if (name === 'chain') return fc.constantFrom('ethereum', 'tron', 'bitcoin', 'polygon', 'bsc');
  if (name === 'currency' || name === 'token' || (name === 'name' && schema.maxLength === 16))
    return fc.constantFrom('USDC', 'USDT', 'BTC', 'ETH');
  if (name === 'session') return fc.constantFrom('c2Vzc2lvbg==', 'x');
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = Math.max(min, Math.min(typeof schema.maxLength === 'number' ? schema.maxLength : 40, 40));
  return fc.string({ minLength: min, maxLength: max });
}

/** A body each operation accepts (valid and meaningful for the world), so refusals are about access. */
export function bodyFor(op: Operation, world: World, now: number): object | undefined {
  const expiresAt = new Date(now + 7 * 86_400_000).toISOString();
  const known: Record<string, object> = {
    'POST /v1/customers': { name: 'Matrix customer' },
    'PUT /v1/customers/{id}': { name: 'Renamed' },
    'POST /v1/checkouts': { title: 'Matrix', amount: 1_000_000, expires_at: expiresAt },
    'POST /v1/checkouts/{id}/refund': { amount: 1_000_000 },
    'POST /v1/invoices': {
      title: 'Matrix invoice',
      customer_id: world.customer,
      line_items: [{ description: 'Seat', quantity: 1, unit_price: 1_000_000 }],
    },
    'POST /v1/invoices/{id}/activate': {},
    'PUT /v1/reseller/connections/{connection_id}': { rate: 400 },
    'POST /v1/cardholders': { name: 'Matrix Holder' },
    'POST /v1/cardholders/{id}/cards/apply': { catalogue: VIRTUAL_CATALOGUE, ...APPLY },
    'POST /v1/cardholders/{id}/cards': { catalogue: VIRTUAL_CATALOGUE, type: 'virtual' },
    'POST /v1/cardholders/{id}/fund': { amount: 1_000_000, currency: 'USDC' },
    'POST /v1/cardholders/{id}/recall': { amount: 1_000_000, currency: 'USDC' },
    'PATCH /v1/cardholders/{ch_id}/cards/{card_id}': { status: 'locked' },
    'PUT /v1/cardholders/{ch_id}/cards/{card_id}/limits': { spend_tx_max: 1_000_000 },
    'POST /v1/cardholders/{ch_id}/cards/{card_id}/secrets': { session: 'x' },
    // The PIN read carries its session in a GET body (the spec's shape).
    'GET /v1/cardholders/{ch_id}/cards/{card_id}/pin': { session: 'x' },
    'PUT /v1/cardholders/{ch_id}/cards/{card_id}/pin': {
      session: 'x',
      encrypted_data: { iv: 'x', data: 'x' },
    },
  };
  if (op.key in known) return known[op.key];
  const schema = requestSchema(op);
  if (schema === undefined) return undefined;
  // A route added later: one valid value from its schema, the same every run.
  const [sample] = fc.sample(validArb(schema, { world, url: 'http://127.0.0.1:9/hook', now }), {
    seed: 1,
    numRuns: 1,
  });
  return (sample ?? {}) as object;
}
