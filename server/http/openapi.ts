import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import type { FastifySchema, RouteOptions } from 'fastify';
import type { TSchema } from 'typebox';
import { EVENT_DATA, type EventType } from '../contract/events.js';
import { namedSchemas } from '../contract/index.js';

/**
 * What the OpenAPI document says beyond the route schemas: a stable operationId and a summary for
 * every operation, its security, the servers, the tags, and the webhooks the sandbox sends. Route
 * modules stay schema + handler; everything here is derived from method + path (and the contract).
 */

type Json = Record<string, unknown>;

/** Operations whose generated name or summary reads badly; everything else follows the rules below. */
const OVERRIDES: Record<string, { operationId: string; summary: string }> = {
  'POST /v1/cardholders/{id}/kyc': {
    operationId: 'startCardholderKyc',
    summary: 'Start KYC for a cardholder',
  },
  'POST /v1/cardholders/{id}/cards/apply': {
    operationId: 'applyForCard',
    summary: 'Apply for a card for a cardholder',
  },
  'POST /v1/cardholders/{id}/cards': { operationId: 'issueCard', summary: 'Issue a card to a cardholder' },
  'POST /v1/cardholders/{ch_id}/cards/{card_id}/secrets': {
    operationId: 'revealCardSecrets',
    summary: 'Read a card’s PAN and CVC (encrypted)',
  },
  'GET /v1/cardholders/{ch_id}/cards/{card_id}/pin': {
    operationId: 'getCardPin',
    summary: 'Read a card’s PIN (encrypted)',
  },
  'PUT /v1/cardholders/{ch_id}/cards/{card_id}/pin': {
    operationId: 'setCardPin',
    summary: 'Set a card’s PIN (encrypted)',
  },
  'GET /v1/merchants/{id}/reseller-connections/incoming': {
    operationId: 'listIncomingResellerConnections',
    summary: 'List reseller connections made to a merchant',
  },
  'POST /v1/reseller/provision': { operationId: 'provisionMerchant', summary: 'Provision a merchant' },
  'POST /sandbox/checkouts/{id}/payments': {
    operationId: 'sandboxPayCheckout',
    summary: 'Simulate a payment to a checkout',
  },
  'GET /sandbox/events': {
    operationId: 'sandboxStreamEvents',
    summary: 'Stream events (server-sent events)',
  },
  'POST /sandbox/inbox/{name}': {
    operationId: 'sandboxReceiveInboxWebhook',
    summary: 'Receive a webhook into an inbox',
  },
  'POST /sandbox/card-applications/{id}': {
    operationId: 'sandboxReviewCardApplication',
    summary: 'Review a card application',
  },
  'POST /sandbox/cardholders/{id}/kyc': {
    operationId: 'sandboxReviewCardholderKyc',
    summary: 'Decide a cardholder’s KYC',
  },
  'DELETE /sandbox/inboxes/{name}/messages': {
    operationId: 'sandboxClearInboxMessages',
    summary: 'Clear the messages of an inbox',
  },
  'POST /sandbox/reset': { operationId: 'sandboxReset', summary: 'Reset the workspace' },
  'GET /sandbox/scenarios/library': {
    operationId: 'sandboxListLibraryScenarios',
    summary: 'List the built-in scenarios',
  },
  'GET /sandbox/scenarios/library/{name}': {
    operationId: 'sandboxGetLibraryScenario',
    summary: 'Get a built-in scenario and its file',
  },
  'POST /sandbox/scenarios/library/{name}/run': {
    operationId: 'sandboxRunLibraryScenario',
    summary: 'Run a built-in scenario against this sandbox',
  },
  'GET /sandbox/export': {
    operationId: 'sandboxExportWorkspace',
    summary: 'Export the workspace (or one merchant) as a bundle file',
  },
  'POST /sandbox/import': {
    operationId: 'sandboxImportWorkspace',
    summary: 'Import a bundle file, replacing the workspace',
  },
  'POST /sandbox/merchants/{id}/provision': {
    operationId: 'sandboxProvisionMerchant',
    summary: 'Provision a merchant as a reseller',
  },
  'GET /sandbox/scenario.schema.json': {
    operationId: 'sandboxGetScenarioSchema',
    summary: 'Get the JSON Schema of scenario files',
  },
};

/** Nouns that end in `s` but are not plurals (a GET of one is a read, not a list). */
const UNCOUNTABLE = new Set(['settings', 'limits']);

const isParam = (segment: string): boolean => segment.startsWith(':') || segment.startsWith('{');
const words = (segment: string): string[] => segment.split(/[-_]/).filter(Boolean);
const cap = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1);
const camel = (parts: string[]): string =>
  parts.map((p, i) => (i === 0 ? p.toLowerCase() : cap(p.toLowerCase()))).join('');
const isPlural = (word: string): boolean =>
  word.endsWith('s') && !word.endsWith('ss') && !UNCOUNTABLE.has(word);

function singular(word: string): string {
  if (!isPlural(word)) return word;
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (/(ss|x|ch|sh)es$/.test(word)) return word.slice(0, -2);
  return word.slice(0, -1);
}

/** `/v1/checkouts/:id` (Fastify) or `/v1/checkouts/{id}` (OpenAPI) → `/v1/checkouts/{id}`. */
export function openapiPath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

const VERBS: Record<string, string> = { GET: 'get', PUT: 'update', PATCH: 'update', DELETE: 'delete' };

/** The words of `segments` with the last one singular (`['api', 'keys']` → `['api', 'key']`). */
const singularRun = (segments: string[]): string[] => {
  const all = segments.flatMap(words);
  return [...all.slice(0, -1), singular(all.at(-1) ?? '')];
};

const article = (noun: string): string => (/^[aeiou]/i.test(noun) ? 'an' : 'a');
const phrase = (parts: string[]): string => parts.join(' ').replace(/\bapi\b/g, 'API');

/**
 * The operationId and summary of one operation, from its method and path alone (so the same route
 * always gets the same name). Rules, after `/v1` or `/sandbox` (which prefixes the name `sandbox`):
 * - path ending in a parameter → an item: GET get, PUT/PATCH update, DELETE delete + the resource
 *   (singular), preceded by its parent resource when nested: `getCheckout`, `getCardholderCard`;
 * - path ending in a plural noun → a collection: GET list, POST create (singular): `listCheckouts`,
 *   `createCheckout`, `listMerchantApiKeys`;
 * - a POST ending in a non-plural word → an action on the resource before it: `refundCheckout`,
 *   `cancelCheckout`, `advanceClock`;
 * - any other GET/PUT/PATCH/DELETE → get/update/delete + the words: `getMerchantLedger`.
 * `OVERRIDES` names the few where these rules read badly.
 */
export function operationNaming(method: string, url: string): { operationId: string; summary: string } {
  const path = openapiPath(url);
  const override = OVERRIDES[`${method} ${path}`];
  if (override) return override;
  const segments = path.split('/').filter(Boolean);
  const prefix = segments[0] === 'sandbox' ? ['sandbox'] : [];
  const rest = segments.slice(1);
  const endsWithParam = rest.length > 0 && isParam(rest.at(-1)!);
  const body = endsWithParam ? rest.slice(0, -1) : rest;
  // The subject: the static run at the end; the parent: the static run before the last parameter.
  let start = body.length;
  while (start > 0 && !isParam(body[start - 1]!)) start -= 1;
  const subject = body.slice(start);
  const before = body.slice(0, Math.max(0, start - 1));
  let parentStart = before.length;
  while (parentStart > 0 && !isParam(before[parentStart - 1]!)) parentStart -= 1;
  const parent = start > 0 ? singularRun(before.slice(parentStart)) : [];
  const subjectWords = subject.flatMap(words);
  const last = subjectWords.at(-1) ?? '';

  let verb: string;
  let nounWords: string[];
  let summary: string;
  const of = parent.length > 0 ? ` of ${article(parent[0]!)} ${phrase(parent)}` : '';
  if (endsWithParam) {
    verb = VERBS[method] ?? method.toLowerCase();
    nounWords = [...parent, ...singularRun(subject)];
    const noun = phrase(singularRun(subject));
    summary = `${cap(verb)} ${article(noun)} ${noun}${of}`;
  } else if (isPlural(last) && (method === 'GET' || method === 'POST')) {
    verb = method === 'GET' ? 'list' : 'create';
    nounWords = [...parent, ...(method === 'GET' ? subjectWords : singularRun(subject))];
    const noun = phrase(method === 'GET' ? subjectWords : singularRun(subject));
    summary = method === 'GET' ? `List ${noun}${of}` : `Create ${article(noun)} ${noun}${of}`;
  } else if (method === 'POST') {
    verb = last;
    nounWords = [...parent, ...subjectWords.slice(0, -1)];
    const noun = phrase(nounWords);
    // An action on an identified resource is on "a checkout"; on a singleton, on "the clock".
    const determiner = start > 0 ? article(noun) : 'the';
    summary = noun ? `${cap(verb)} ${determiner} ${noun}` : cap(verb);
  } else {
    verb = VERBS[method] ?? method.toLowerCase();
    nounWords = [...parent, ...subjectWords];
    summary = `${cap(verb)} the ${phrase(subjectWords)}${of}`;
  }
  return { operationId: camel([...prefix, verb, ...nounWords]), summary };
}

/**
 * Both listeners register the same routes, and working a name out is most of what the `onRoute`
 * hook costs at start-up: each method + path is named once per process (the naming is pure).
 */
const namings = new Map<string, { operationId: string; summary: string }>();

function namingOf(method: string, url: string): { operationId: string; summary: string } {
  const key = `${method} ${url}`;
  let named = namings.get(key);
  if (named === undefined) {
    named = operationNaming(method, url);
    namings.set(key, named);
  }
  return named;
}

interface RouteSchema extends Json {
  hide?: boolean;
  summary?: string;
  operationId?: string;
  security?: unknown;
}

/**
 * The `onRoute` hook: names every documented route (operationId + summary unless it has its own) and
 * sets its security — the bearer key on `/v1`, none on `/sandbox`. Register it before the routes.
 * Two routes with the same operationId fail the build (ids are derived, never numbered).
 */
export function documentRoutes(): (route: RouteOptions) => void {
  const seen = new Map<string, string>();
  return (route) => {
    const schema = route.schema as RouteSchema | undefined;
    if (!schema || schema.hide === true || typeof route.method !== 'string' || route.method === 'HEAD')
      return;
    const key = `${route.method} ${openapiPath(route.url)}`;
    const named = namingOf(route.method, route.url);
    const operationId = schema.operationId ?? named.operationId;
    const other = seen.get(operationId);
    if (other !== undefined && other !== key) {
      throw new Error(`operationId ${operationId} is used by both ${other} and ${key}`);
    }
    seen.set(operationId, key);
    const security = route.url.startsWith('/v1')
      ? [{ bearer: [] }]
      : route.url.startsWith('/sandbox')
        ? []
        : undefined;
    // A copy: a schema object may be shared by several routes.
    route.schema = {
      ...schema,
      operationId,
      summary: schema.summary ?? named.summary,
      ...(security !== undefined && schema.security === undefined ? { security } : {}),
    } as FastifySchema;
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
      servers: [
        { url: 'http://127.0.0.1:4010', description: 'Test environment (default port)' },
        { url: 'http://127.0.0.1:4011', description: 'Production environment, simulated (default port)' },
      ],
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
        return { schema: { ...schema, response: STREAM_RESPONSE } as typeof schema, url };
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
      return { ...doc, tags };
    },
  };
}
