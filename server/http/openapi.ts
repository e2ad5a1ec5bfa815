import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import type { FastifySchema, RouteOptions } from 'fastify';
import type { TSchema } from 'typebox';
import { type Env, ErrorBody, NoBody } from '../contract/common.js';
import { EVENT_DATA, type EventType } from '../contract/events.js';
import { namedSchemas } from '../contract/index.js';
import { ALPHA2_CODES, ALPHA3_CODES } from '../domain/countries.js';
import { addLinks, nameComponents, tightenStrings } from './openapi-components.js';
import { describeRules } from './openapi-rules.js';

/**
 * What the OpenAPI document says beyond the route schemas (which name each operation: its
 * `operationId` and `summary`): security, the servers, the tags, and the webhooks the sandbox
 * sends.
 */

type Json = Record<string, unknown>;

const camel = (parts: string[]): string =>
  parts
    .map((p, i) => (i === 0 ? p.toLowerCase() : p.charAt(0).toUpperCase() + p.slice(1).toLowerCase()))
    .join('');

/** `/v1/checkouts/:id` (Fastify) or `/v1/checkouts/{id}` (OpenAPI) → `/v1/checkouts/{id}`. */
export function openapiPath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

interface RouteSchema extends Json {
  hide?: boolean;
  summary?: string;
  operationId?: string;
  security?: unknown;
  body?: unknown;
  params?: unknown;
  querystring?: unknown;
  headers?: unknown;
  response?: Record<string, unknown>;
}

/**
 * What any route can answer before (or around) its handler, as `{error}`: the edge's statuses,
 * declared on every operation so a client generator knows them. Every route: 400 (no Host), 403
 * (a Host, Origin or peer the local-only rules refuse) and 431 (headers over Node's 16 KiB); 405
 * (another method on the same path) is added to the document in `transformObject`, with `Allow`. A route with parameters, a query or
 * headers: 422; with path parameters also 404 (a value that routes nowhere, `..`) and 414 (one
 * longer than the router takes). One that takes a body: 400 (malformed JSON), 413 (over the body limit), 415 (not
 * JSON), 422, and — it writes — 503/507 (the database could not be written: I/O error, disk full).
 */
const EVERY_ROUTE = { 400: ErrorBody, 403: ErrorBody, 431: ErrorBody } as const;
const WITH_INPUT = { 422: ErrorBody } as const;
const WITH_PATH_PARAMS = { 404: ErrorBody, 414: ErrorBody } as const;
const WITH_BODY = {
  400: ErrorBody,
  413: ErrorBody,
  415: ErrorBody,
  422: ErrorBody,
  503: ErrorBody,
  507: ErrorBody,
} as const;

/**
 * Declared on every operation: its path asked with a method it does not serve there. (OpenAPI has no
 * place for "any other method", so each operation of the path carries it.)
 */
const METHOD_NOT_ALLOWED = {
  description: 'This path does not serve the method used: `Allow` lists those it does.',
  headers: {
    Allow: {
      description: 'The methods this path serves, e.g. `GET, HEAD, POST`.',
      schema: { type: 'string' },
    },
  },
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
};

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Whether a JSON schema accepts `{}` (no body: the sandbox reads a missing body as `{}`). */
function acceptsEmptyObject(schema: unknown, resolve: (ref: string) => unknown = () => undefined): boolean {
  if (typeof schema !== 'object' || schema === null) return false;
  const s = schema as Json;
  if (typeof s.$ref === 'string') return acceptsEmptyObject(resolve(s.$ref), resolve);
  if (Array.isArray(s.anyOf)) return s.anyOf.some((member) => acceptsEmptyObject(member, resolve));
  if (Array.isArray(s.oneOf)) return s.oneOf.some((member) => acceptsEmptyObject(member, resolve));
  const type = s.type;
  const isObject = type === 'object' || (Array.isArray(type) && type.includes('object'));
  return (
    isObject &&
    (!Array.isArray(s.required) || s.required.length === 0) &&
    (typeof s.minProperties !== 'number' || s.minProperties === 0)
  );
}

/** A documented route as its definition declares it (the operation table is made from these). */
export interface DeclaredOperation {
  operationId: string;
  method: string;
  /** the OpenAPI path: `/sandbox/checkouts/{id}` */
  path: string;
  summary: string | undefined;
  /** the route's own schemas, before the edge's statuses are added */
  params: unknown;
  query: unknown;
  body: unknown;
  response: Record<string, unknown>;
}

/**
 * The `onRoute` hook: sets every documented route's security — the bearer key on `/v1`, none on
 * `/sandbox`. Each route names itself (`operationId` + `summary` in its schema, where a reader of
 * the route finds them); two routes with the same operationId fail the build. Register it before
 * the routes. `onOperation` is told each named route as declared (the operation table).
 */
export function documentRoutes(
  onOperation?: (operation: DeclaredOperation) => void,
): (route: RouteOptions) => void {
  const seen = new Map<string, string>();
  return (route) => {
    const schema = route.schema as RouteSchema | undefined;
    if (!schema || schema.hide === true || typeof route.method !== 'string' || route.method === 'HEAD')
      return;
    const key = `${route.method} ${openapiPath(route.url)}`;
    const { operationId } = schema;
    if (operationId !== undefined) {
      const other = seen.get(operationId);
      if (other !== undefined && other !== key) {
        throw new Error(`operationId ${operationId} is used by both ${other} and ${key}`);
      }
      seen.set(operationId, key);
      onOperation?.({
        operationId,
        method: route.method,
        path: openapiPath(route.url),
        summary: schema.summary,
        params: schema.params,
        query: schema.querystring,
        body: schema.body,
        response: { ...(schema.response ?? {}) },
      });
    }
    const security = route.url.startsWith('/v1')
      ? [{ bearer: [] }]
      : route.url.startsWith('/sandbox')
        ? []
        : undefined;
    // A copy: a schema object may be shared by several routes.
    const documented: RouteSchema = { ...schema };
    if (security !== undefined && schema.security === undefined) documented.security = security;
    const takesBody = BODY_METHODS.has(route.method);
    // A POST, PUT or PATCH that reads no body still declares one, optional: clients send `{}`.
    if (documented.body === undefined && takesBody && route.method !== 'DELETE') documented.body = NoBody;
    const response = documented.response ?? {};
    // A route that declares `default` has said what every other status carries.
    if (!('default' in response)) {
      const input =
        documented.params !== undefined ||
        documented.querystring !== undefined ||
        documented.headers !== undefined;
      const edge: Record<string, unknown> = {
        ...EVERY_ROUTE,
        ...(input ? WITH_INPUT : {}),
        ...(route.url.includes(':') ? WITH_PATH_PARAMS : {}),
        ...(takesBody ? WITH_BODY : {}),
      };
      // A route that handles its own validation failures (`attachValidation`) answers them itself.
      if (route.attachValidation === true) delete edge[422];
      documented.response = { ...edge, ...response };
    }
    route.schema = documented as FastifySchema;
  };
}

const TAGS: { name: string; description: string }[] = [
  { name: 'checkouts', description: 'Crypto and fiat checkouts: create, read, list, delete, refund.' },
  { name: 'customers', description: 'The merchant’s customers.' },
  { name: 'invoices', description: 'Invoices and their payment checkouts.' },
  { name: 'static addresses', description: 'Static deposit addresses per chain.' },
  { name: 'withdraw', description: 'Chains available for withdrawals.' },
  { name: 'cardholders and cards', description: 'Card issuing: cardholders, KYC, cards, funding, secrets.' },
  { name: 'reseller', description: 'Reseller connections, provisioning and fees.' },
  { name: 'sandbox: workspace', description: 'Health and reset of the sandbox workspace.' },
  { name: 'sandbox: clock', description: 'The sandbox clock: read, advance, freeze, resume.' },
  { name: 'sandbox: settings', description: 'Workspace settings (limits, fees, chains, delays).' },
  { name: 'sandbox: merchants', description: 'Merchants and their API keys.' },
  { name: 'sandbox: crypto payments', description: 'Simulated payments and checkout state moves.' },
  { name: 'sandbox: events', description: 'The event log and the live event stream.' },
  { name: 'sandbox: webhooks', description: 'Webhook endpoints, deliveries and the built-in inboxes.' },
  {
    name: 'sandbox: deposits, payouts, balances',
    description: 'Simulated deposits and payouts, balances and the ledger.',
  },
  {
    name: 'sandbox: identity and card network',
    description: 'The simulated KYC provider and card network: reviews, authorizations, settlements.',
  },
  { name: 'sandbox: merchant views', description: 'What a merchant has, read across environments.' },
  { name: 'sandbox: acting as a merchant', description: 'Merchant operations made from the dashboard.' },
  { name: 'sandbox: resellers', description: 'Reseller connections and income, from the control side.' },
  { name: 'sandbox: scenarios', description: 'Scenario files (docs/scenarios.md): their schema, and runs.' },
  { name: 'webhooks', description: 'What the sandbox POSTs to a merchant’s webhook endpoints.' },
];

const plain = (schema: unknown): Json => JSON.parse(JSON.stringify(schema)) as Json;

/** `#/components/schemas/X` when the contract names this exact schema, else the schema inline. */
function schemaOrRef(schema: TSchema): Json {
  const name = Object.entries(namedSchemas).find(([, s]) => s === schema)?.[0];
  return name ? { $ref: `#/components/schemas/${name}` } : plain(schema);
}

const WEBHOOK_HEADERS = [
  { name: 'X-SVC-Event', description: 'The event type (same as `event` in the body).' },
  {
    name: 'X-SVC-Delivery-Id',
    description: 'The delivery id (same as `id` in the body); retries of one delivery keep it.',
  },
  {
    name: 'X-SVC-Signature',
    description: '`sha256=` + lowercase hex HMAC-SHA256(endpoint secret, raw body bytes).',
  },
];

/** One OpenAPI 3.1 webhook per event type of `EVENT_DATA`: a POST of the `{id, event, data}` envelope. */
export function webhooks(): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const [event, data] of Object.entries(EVENT_DATA) as [EventType, TSchema][]) {
    out[event] = {
      post: {
        operationId: camel([...event.split(/[._]/), 'webhook']),
        summary: `The ${event} event`,
        tags: ['webhooks'],
        security: [],
        parameters: WEBHOOK_HEADERS.map((h) => ({
          name: h.name,
          in: 'header',
          required: true,
          description: h.description,
          schema: h.name === 'X-SVC-Event' ? { type: 'string', const: event } : { type: 'string' },
        })),
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['id', 'event', 'data'],
                properties: {
                  id: { type: 'string', format: 'uuid', description: 'The delivery id.' },
                  event: { type: 'string', const: event },
                  data: schemaOrRef(data),
                },
              },
            },
          },
        },
        responses: {
          '2XX': { description: 'Received: any 2xx ends the delivery.' },
          default: { description: 'Anything else (or no answer in time) is retried on the sandbox clock.' },
        },
      },
    };
  }
  return out;
}

const STREAM_RESPONSE = {
  200: {
    description:
      'Server-sent events: `event: event` (a SandboxEvent as JSON in `data`), `event: delivery` (a ' +
      'webhook delivery attempt), `event: request` (a request log entry) and `event: scenario` (a ' +
      'ScenarioProgress: a finished step of a scenario run), with `: ping` comments every 15 s.',
    content: { 'text/event-stream': { schema: { type: 'string' } } },
  },
};

export interface OpenApiServer {
  url: string;
  description: string;
}

const SERVER_DESCRIPTIONS: Record<Env, string> = {
  test: 'Test environment',
  production: 'Production environment (simulated)',
};

/**
 * The document's `servers`: where this sandbox is reached, test first (a client generator's
 * default), then production. `addresses` are the listeners' actual addresses (after `listen`, so
 * a port picked by the OS is right) or the public URLs the sandbox is reached at. `via` is the
 * request that asks for the document: a client that reached the `via.env` listener at another
 * name (`localhost` for `127.0.0.1`) gets that origin back, and — when its port is the bound one,
 * so no port mapping is in the way — the other listener at the same name.
 */
export function openapiServers(
  addresses: Record<Env, string>,
  via?: { env: Env; origin: string },
): OpenApiServer[] {
  const urls = { ...addresses };
  if (via !== undefined) {
    try {
      const own = new URL(via.origin);
      const bound = new URL(addresses[via.env]);
      if (own.origin !== bound.origin) {
        urls[via.env] = own.origin;
        const other: Env = via.env === 'test' ? 'production' : 'test';
        const otherUrl = new URL(addresses[other]);
        if (own.port === bound.port && otherUrl.hostname === bound.hostname) {
          otherUrl.hostname = own.hostname;
          urls[other] = otherUrl.origin;
        }
      }
    } catch {
      // An origin that is no URL: the addresses as they are.
    }
  }
  return (['test', 'production'] as const).map((env) => ({
    url: urls[env],
    description: SERVER_DESCRIPTIONS[env],
  }));
}

/** The served document: the generated one with the servers of this sandbox, after `info`. */
export function servedDocument(document: object, servers: OpenApiServer[]): Json {
  const { openapi, info, ...rest } = document as Json;
  return { openapi, info, servers, ...rest };
}

/** The @fastify/swagger options: the document around the routes. */
export function swaggerOptions(version: string): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'svc-sandbox',
        version,
        description:
          'An offline, deterministic sandbox of the merchant-payments and card-issuing API. `/v1` is the ' +
          'merchant API (a bearer API key, `svcb_...`); `/sandbox` is the control API that plays the ' +
          'outside world (payments, KYC, the card network, the clock). Two listeners serve the same ' +
          'routes: the test environment and the simulated production environment. Webhooks lists what ' +
          'the sandbox POSTs to merchant endpoints.',
      },
      tags: TAGS,
      webhooks: webhooks(),
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'svcb_... API key' } },
        // The contract's named shapes, for client generators (server/contract/index.ts).
        schemas: namedSchemas as unknown as Record<string, Record<string, unknown>>,
      },
    },
    // The event stream has no JSON response schema (the handler writes the stream itself): document
    // its media type here, where it changes the document only.
    transform: ({ schema, url, route }) => {
      if (route.method === 'GET' && url === '/sandbox/events') {
        const response = { ...(schema.response as Json | undefined), ...STREAM_RESPONSE };
        return { schema: { ...schema, response } as typeof schema, url };
      }
      return { schema, url };
    },
    // Runs once (the document is cached). A copy: the schemas in it are the server's own objects.
    transformObject: (documentObject) => {
      const doc = plain((documentObject as { openapiObject: Json }).openapiObject) as Json;
      // Tags a route uses that are not listed above still get an entry (without a description).
      const tags = (doc.tags ?? []) as { name: string }[];
      const known = new Set(tags.map((t) => t.name));
      for (const item of Object.values((doc.paths ?? {}) as Record<string, Record<string, Json>>)) {
        for (const op of Object.values(item)) {
          for (const tag of (op.tags ?? []) as string[]) {
            if (!known.has(tag)) {
              known.add(tag);
              tags.push({ name: tag });
            }
          }
        }
      }
      nameComponents(doc);
      addLinks(doc);
      tightenStrings(doc, { alpha2: ALPHA2_CODES, alpha3: ALPHA3_CODES });
      describeRules(doc);
      for (const item of Object.values((doc.paths ?? {}) as Record<string, Record<string, Json>>))
        for (const op of Object.values(item))
          op.responses = {
            // (a route that declares `default` has none of the edge's statuses of its own)
            431: { description: 'Request header fields too large', content: METHOD_NOT_ALLOWED.content },
            ...(op.responses as Json),
            405: METHOD_NOT_ALLOWED,
          };
      // A body the route reads as `{}` when none is sent is optional (@fastify/swagger marks every
      // body required); a body of any media type (the inbox) is too.
      const components = ((doc.components as Json | undefined)?.schemas ?? {}) as Json;
      const resolve = (ref: string) => components[ref.replace('#/components/schemas/', '')];
      for (const item of Object.values((doc.paths ?? {}) as Record<string, Record<string, Json>>)) {
        for (const op of Object.values(item)) {
          const body = op.requestBody as { required?: boolean; content?: Record<string, Json> } | undefined;
          if (!body?.content) continue;
          const json = body.content['application/json'];
          if ((json && acceptsEmptyObject(json.schema, resolve)) || body.content['*/*'] !== undefined)
            body.required = false;
        }
      }
      return { ...doc, tags };
    },
  };
}
