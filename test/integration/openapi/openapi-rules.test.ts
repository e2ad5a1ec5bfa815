import type { InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../../../server/contract/events.js';
import type { Settings } from '../../../server/contract/settings.js';
import { SettingsDocumentCache } from '../../../server/http/openapi-rules.js';
import { isObject, listOperations, type OpenApiDocument } from '../../helpers/openapi.js';
import { createMerchant, inFuture, testSandbox } from '../../helpers/sandbox.js';

/**
 * The closed sets and cross-field rules the server enforces, as the document states them: enums
 * (a sandbox's chains and tokens from its current settings), `anyOf` and descriptions; and a
 * request built from those enums is one the server's validation accepts.
 */

type Json = Record<string, unknown>;
type Sandbox = Awaited<ReturnType<typeof testSandbox>>;

async function documentOf(sandbox: Sandbox): Promise<OpenApiDocument> {
  const res = await sandbox.apps.test.inject({ url: '/sandbox/openapi.json' });
  expect(res.statusCode).toBe(200);
  return res.json() as OpenApiDocument;
}

const schemasOf = (doc: OpenApiDocument) => (doc.components?.schemas ?? {}) as Record<string, Json>;

/** The properties of an operation's JSON body component. */
function bodyOf(doc: OpenApiDocument, operationId: string): Record<string, Json> {
  const op = listOperations(doc).find((o) => (o.operation as Json).operationId === operationId)?.operation;
  const schema = op?.requestBody?.content?.['application/json']?.schema;
  const name =
    isObject(schema) && typeof schema.$ref === 'string' ? schema.$ref.split('/').at(-1) : undefined;
  const component = name === undefined ? undefined : schemasOf(doc)[name];
  return (isObject(component) && isObject(component.properties) ? component.properties : {}) as Record<
    string,
    Json
  >;
}

const enumOf = (schema: unknown): unknown[] =>
  isObject(schema) && Array.isArray(schema.enum) ? schema.enum : [];

describe('closed sets and cross-field rules in the document', () => {
  it('states the invoice customer rule, the webhook URL, fee caps, env and session rules', async () => {
    const doc = await documentOf(await testSandbox());
    const schemas = schemasOf(doc);
    const invoice = schemas.CreateInvoiceBody as Json;
    expect(invoice.anyOf).toEqual([{ required: ['customer_id'] }, { required: ['customer_name'] }]);
    const url = bodyOf(doc, 'sandboxCreateMerchantWebhookEndpoint').url;
    expect(url).toMatchObject({ format: 'uri', pattern: '^https?://' });
    expect(String(bodyOf(doc, 'createResellerConnection').min_fee?.description)).toContain('must not exceed');
    expect(enumOf(bodyOf(doc, 'createCheckout').currency)).toEqual(['USDC', 'USDT', 'USD', 'ETH', 'BTC']);
    const ops = listOperations(doc);
    const deposit = ops.find((o) => (o.operation as Json).operationId === 'sandboxCreateDeposit')
      ?.operation as Json;
    const env = (deposit.parameters as Json[]).find((p) => p.name === 'env');
    expect(String(env?.description)).toContain('must be equal');
    const sessionReads = ops.filter(({ operation }) =>
      ((operation as Json).parameters as Json[] | undefined)?.some(
        (p) => p.name === 'session' && p.in === 'query',
      ),
    );
    expect(sessionReads.length).toBeGreaterThan(0);
    for (const { operation } of sessionReads)
      expect(String((operation as Json).description)).toContain('exactly one of');
  });

  it('every status and event-type field of answers, bodies and queries is an enum', async () => {
    const doc = await documentOf(await testSandbox());
    const schemas = schemasOf(doc);
    const resolve = (s: unknown): unknown => {
      let out = s;
      for (let i = 0; i < 5 && isObject(out) && typeof out.$ref === 'string'; i++)
        out = schemas[out.$ref.split('/').at(-1) ?? ''];
      return out;
    };
    const closed = (s: unknown): boolean => {
      const r = resolve(s);
      if (!isObject(r) || 'enum' in r || 'const' in r) return true;
      if (r.type === 'array') return closed(r.items);
      for (const key of ['anyOf', 'oneOf'] as const)
        if (Array.isArray(r[key]))
          return (r[key] as unknown[]).every(
            (m) => (resolve(m) as Json | undefined)?.type === 'null' || closed(m),
          );
      return !(r.type === 'string' || (Array.isArray(r.type) && r.type.includes('string')));
    };
    // An HTTP status (the request log's filter, a verification's expected status) is a number or a
    // class such as `4xx`, not a closed set of names.
    const HTTP_STATUS = new Set(['GET /sandbox/request-log ?status', 'SandboxVerifyRequestsBody.status']);
    const FIELD = /(^|_)(status|event|events|type|state)$/;
    const open: string[] = [];
    const walk = (node: unknown, where: string): void => {
      if (Array.isArray(node)) for (const child of node) walk(child, where);
      if (!isObject(node)) return;
      if (isObject(node.properties))
        for (const [name, value] of Object.entries(node.properties))
          if (FIELD.test(name) && !closed(value) && !HTTP_STATUS.has(`${where}.${name}`))
            open.push(`${where}.${name}`);
      for (const child of Object.values(node)) walk(child, where);
    };
    for (const [name, schema] of Object.entries(schemas)) walk(schema, name);
    for (const { key, operation } of listOperations(doc))
      for (const p of ((operation as Json).parameters ?? []) as Json[])
        if (FIELD.test(String(p.name)) && !closed(p.schema) && !HTTP_STATUS.has(`${key} ?${String(p.name)}`))
          open.push(`${key} ?${String(p.name)}`);
    expect(open).toEqual([]);
  });

  it('serves each sandbox its own chains and tokens, and follows a settings change', async () => {
    const sandbox = await testSandbox();
    const settings = (await sandbox.apps.test.inject({ url: '/sandbox/settings' })).json() as Settings;
    const before = await documentOf(sandbox);
    const chains = settings.chains.map((c) => c.chain);
    expect(enumOf(bodyOf(before, 'sandboxCreateDeposit').chain)).toEqual(chains);
    const tokens = enumOf(bodyOf(before, 'sandboxCreateDeposit').currency);
    expect(tokens).toContain(settings.chains[0]?.tokens[0]?.name);

    const first = settings.chains[0];
    if (first === undefined) throw new Error('no chain in the default settings');
    const added = { chain: 'testnet-x', tokens: [{ ...first.tokens[0], name: 'XTK' }] };
    const patched = await sandbox.apps.test.inject({
      method: 'PATCH',
      url: '/sandbox/settings',
      payload: { chains: [...settings.chains, added] },
    });
    expect(patched.statusCode).toBe(200);
    const after = await documentOf(sandbox);
    expect(enumOf(bodyOf(after, 'sandboxCreateDeposit').chain)).toEqual([...chains, 'testnet-x']);
    expect(enumOf(bodyOf(after, 'sandboxCreateDeposit').currency)).toContain('XTK');
    // /docs/json is the same document.
    const docs = (await sandbox.apps.test.inject({ url: '/docs/json' })).json() as OpenApiDocument;
    expect(enumOf(bodyOf(docs, 'sandboxCreateDeposit').chain)).toEqual([...chains, 'testnet-x']);
  });

  it('a request built from the enums passes validation (never a 422) where state allows', async () => {
    const sandbox = await testSandbox();
    const actor = await createMerchant(sandbox);
    const doc = await documentOf(sandbox);
    const refused: string[] = [];
    const send = async (what: string, request: InjectOptions) => {
      const res = await sandbox.apps.test.inject(request);
      if (res.statusCode === 422 || res.statusCode >= 500)
        refused.push(`${what} → ${res.statusCode} ${res.body}`);
      return res;
    };
    for (const currency of enumOf(bodyOf(doc, 'createCheckout').currency))
      await send(`checkout ${String(currency)}`, {
        method: 'POST',
        url: '/v1/checkouts',
        headers: actor.auth,
        payload: { title: 'Seats', amount: 10_000_000, currency, expires_at: inFuture(sandbox) },
      });
    for (const currency of enumOf(bodyOf(doc, 'createInvoice').currency))
      await send(`invoice ${String(currency)}`, {
        method: 'POST',
        url: '/v1/invoices',
        headers: actor.auth,
        payload: { title: 'Seats', amount: 10_000_000, currency, customer_name: 'Ada' },
      });
    const deposit = bodyOf(doc, 'sandboxCreateDeposit');
    const settings = (await sandbox.apps.test.inject({ url: '/sandbox/settings' })).json() as Settings;
    for (const chain of enumOf(deposit.chain)) {
      // A token of that chain: another chain's token is a business rule, not a shape.
      const token = settings.chains.find((c) => c.chain === chain)?.tokens[0]?.name;
      expect(enumOf(deposit.currency)).toContain(token);
      await send(`deposit ${String(chain)} ${String(token)}`, {
        method: 'POST',
        url: '/sandbox/deposits',
        payload: { merchant_id: actor.merchantId, chain, currency: token, amount: 1_000_000 },
      });
    }
    const events = bodyOf(doc, 'sandboxCreateMerchantWebhookEndpoint').events;
    const subscribable = enumOf(isObject(events) ? events.items : undefined);
    expect(subscribable).toEqual([...EVENT_TYPES, '*']);
    await send('endpoint', {
      method: 'POST',
      url: `/sandbox/merchants/${actor.merchantId}/webhook-endpoints`,
      payload: { url: 'https://example.com/hooks', events: EVENT_TYPES },
    });
    for (const event of EVENT_TYPES)
      await send(`deliveries ?event=${event}`, { url: `/sandbox/deliveries?event=${event}` });
    expect(refused).toEqual([]);
  });
});

describe('SettingsDocumentCache', () => {
  const doc = { openapi: '3.1.0', paths: {}, components: { schemas: {} } };
  const chain = (name: string) => ({
    chain: name,
    tokens: [{ name: 'USDC', contract_address: '', min: 0, max: 0, gas_fee: 0 }],
  });

  it('returns the same document until the chain catalogue changes', () => {
    const cache = new SettingsDocumentCache();
    const a = cache.get(doc, { chains: [chain('polygon')] });
    expect(cache.get(doc, { chains: [chain('polygon')] })).toBe(a);
    const b = cache.get(doc, { chains: [chain('polygon'), chain('tron')] });
    expect(b).not.toBe(a);
    // A new base document (another build of it) starts afresh.
    expect(cache.get({ ...doc }, { chains: [chain('polygon')] })).not.toBe(a);
  });
});
