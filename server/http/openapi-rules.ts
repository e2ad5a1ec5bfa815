import { CHECKOUT_STATUSES } from '../contract/checkouts.js';
import { EVENT_TYPES } from '../contract/events.js';
import type { Settings } from '../contract/settings.js';
import { SUPPORTED_CURRENCIES } from '../domain/checkouts/chains.js';

/**
 * What the server enforces that the route schemas do not say: closed sets as `enum` and rules
 * across fields, as JSON Schema where it can express them and in the description where it cannot.
 * `describeRules` runs once on the generated document; `withSettings` gives a sandbox its own copy,
 * with the chains and tokens of its current settings.
 */

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const PREFIX = '#/components/schemas/';

/** The webhook URL check's rule (an http or https URL), which a generator can read. */
export const HTTP_URL_PATTERN = '^https?://';

function operations(doc: Json): Map<string, { op: Json; path: string }> {
  const out = new Map<string, { op: Json; path: string }>();
  for (const [path, item] of Object.entries(isObject(doc.paths) ? doc.paths : {}))
    if (isObject(item))
      for (const op of Object.values(item))
        if (isObject(op) && typeof op.operationId === 'string') out.set(op.operationId, { op, path });
  return out;
}

/** The component name of an operation's JSON body (bodies are all `$ref`s by now). */
function bodyComponent(op: Json): string | undefined {
  const body = op.requestBody;
  const json = isObject(body) && isObject(body.content) ? body.content['application/json'] : undefined;
  const schema = isObject(json) ? json.schema : undefined;
  return isObject(schema) && typeof schema.$ref === 'string' ? schema.$ref.slice(PREFIX.length) : undefined;
}

const appendDescription = (node: Json, text: string): void => {
  const before = typeof node.description === 'string' ? `${node.description} ` : '';
  if (!before.includes(text)) node.description = `${before}${text}`;
};

/** Operations whose body `currency` is a checkout's currency (checked against a fixed list). */
const CHECKOUT_CURRENCY_OPERATIONS = ['createCheckout', 'createInvoice', 'sandboxCreateMerchantCheckout'];
/** Operations whose body names a configured `chain` and one of its tokens as `currency`/`token`. */
const CHAIN_OPERATIONS = [
  'sandboxCreateDeposit',
  'sandboxCreateDepositBurst',
  'sandboxCreateStaticAddressDeposit',
  'sandboxPayCheckout',
];
const WEBHOOK_URL_OPERATIONS = ['sandboxCreateMerchantWebhookEndpoint', 'sandboxUpdateWebhookEndpoint'];

/** The rules every sandbox shares. Rewrites `doc` in place. */
export function describeRules(doc: Json): void {
  const schemas = (
    isObject(doc.components) && isObject(doc.components.schemas) ? doc.components.schemas : {}
  ) as Record<string, Json>;
  const ops = operations(doc);
  const bodyProperties = (operationId: string): Json | undefined => {
    const entry = ops.get(operationId);
    const name = entry === undefined ? undefined : bodyComponent(entry.op);
    const schema = name === undefined ? undefined : schemas[name];
    return isObject(schema) && isObject(schema.properties) ? schema.properties : undefined;
  };

  for (const id of CHECKOUT_CURRENCY_OPERATIONS) {
    const currency = bodyProperties(id)?.currency;
    // Upper case: the server upper-cases first, so these are a subset of what it takes.
    if (isObject(currency) && currency.enum === undefined) {
      delete currency.pattern;
      currency.enum = [...SUPPORTED_CURRENCIES];
    }
  }

  // An invoice names its customer by id, or by name (a new customer or the one with that email).
  const invoice = ops.get('createInvoice');
  const invoiceBody = invoice === undefined ? undefined : bodyComponent(invoice.op);
  const invoiceSchema = invoiceBody === undefined ? undefined : schemas[invoiceBody];
  if (isObject(invoiceSchema) && invoiceSchema.anyOf === undefined) {
    invoiceSchema.anyOf = [{ required: ['customer_id'] }, { required: ['customer_name'] }];
    appendDescription(invoiceSchema, '`customer_name` is required when `customer_id` is absent.');
  }

  for (const id of WEBHOOK_URL_OPERATIONS) {
    const url = bodyProperties(id)?.url;
    if (isObject(url)) {
      url.format = 'uri';
      url.pattern = HTTP_URL_PATTERN;
    }
  }

  for (const id of ['createResellerConnection', 'updateResellerConnection']) {
    const properties = bodyProperties(id);
    for (const field of ['min_fee', 'max_fee'])
      if (isObject(properties?.[field]))
        appendDescription(
          properties[field] as Json,
          'When both are set, `min_fee` must not exceed `max_fee` (422).',
        );
  }

  eventTypes(schemas);
  const refund = schemas.RefundResult;
  const refundStatus = isObject(refund) && isObject(refund.properties) ? refund.properties.status : undefined;
  if (isObject(refundStatus) && refundStatus.enum === undefined) refundStatus.enum = [...CHECKOUT_STATUSES];

  for (const { op } of ops.values()) {
    const parameters = Array.isArray(op.parameters) ? (op.parameters as Json[]) : [];
    const query = parameters.filter((p) => isObject(p) && p.in === 'query');
    const name = bodyComponent(op);
    const body = name === undefined ? undefined : schemas[name];
    const bodyFields = isObject(body) && isObject(body.properties) ? body.properties : {};
    // The same field in the query and the body (`env`): both may be sent, but they must agree.
    for (const p of query) {
      const field = String(p.name);
      if (field === 'session' || !(field in bodyFields)) continue;
      appendDescription(
        p,
        `Also accepted as \`${field}\` in the body; when both are sent they must be equal (422).`,
      );
    }
    // A filter by event type (an unknown one would only match nothing).
    for (const p of query)
      if (p.name === 'event' && isObject(p.schema) && isPlainString(p.schema))
        p.schema = { ...p.schema, enum: [...EVENT_TYPES] };
    // The card-secret reads: `session` from the query, the header or the body.
    const session = query.find((p) => p.name === 'session');
    if (session !== undefined) {
      const rule =
        'The wrapped session key comes from exactly one of the `session` query parameter, the ' +
        '`X-SVC-Session` header or `session` in the body; when several are sent they must all be equal ' +
        '(422 otherwise), and none is a 422.';
      appendDescription(op, rule);
    }
  }
}

/** `{type: string}` with at most lengths and a description: a free string a closed set can replace. */
const isPlainString = (schema: Json): boolean =>
  schema.type === 'string' &&
  Object.keys(schema).every((k) => ['type', 'minLength', 'maxLength', 'description'].includes(k));

/**
 * Event types by name: a `type` or `event` that is a free string is one of the event types (the
 * recorder writes no other), and `events` lists of free strings are subscriptions (event types or
 * `*`, which the webhook service checks).
 */
function eventTypes(schemas: Record<string, Json>): void {
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const child of node) visit(child);
      return;
    }
    if (!isObject(node)) return;
    if (isObject(node.properties)) {
      const properties = node.properties;
      for (const field of ['type', 'event']) {
        const value = properties[field];
        if (isObject(value) && isPlainString(value)) properties[field] = { ...value, enum: [...EVENT_TYPES] };
      }
      const events = properties.events;
      if (
        isObject(events) &&
        events.type === 'array' &&
        isObject(events.items) &&
        isPlainString(events.items)
      )
        properties.events = { ...events, items: { ...events.items, enum: [...EVENT_TYPES, '*'] } };
    }
    for (const child of Object.values(node)) visit(child);
  };
  visit(schemas);
}

/** The chains and token names a sandbox's settings configure: what its deposit routes take. */
function catalogue(settings: Pick<Settings, 'chains'>): { chains: string[]; tokens: string[] } {
  const chains = settings.chains.map((c) => c.chain);
  const tokens = [...new Set(settings.chains.flatMap((c) => c.tokens.map((t) => t.name)))];
  return { chains, tokens };
}

/**
 * The document with this sandbox's chains and tokens as enums on the operations that check them.
 * Only the body components it changes are copied; the rest is shared with `doc`.
 */
export function withSettings(doc: Json, settings: Pick<Settings, 'chains'>): Json {
  const { chains, tokens } = catalogue(settings);
  const components = isObject(doc.components) ? doc.components : {};
  const schemas = { ...((isObject(components.schemas) ? components.schemas : {}) as Record<string, Json>) };
  const ops = operations(doc);
  for (const id of CHAIN_OPERATIONS) {
    const entry = ops.get(id);
    const name = entry === undefined ? undefined : bodyComponent(entry.op);
    const schema = name === undefined ? undefined : schemas[name];
    if (name === undefined || !isObject(schema) || !isObject(schema.properties)) continue;
    const properties: Json = { ...schema.properties };
    const set = (field: string, values: string[]) => {
      const current = properties[field];
      if (isObject(current) && values.length > 0) properties[field] = { ...current, enum: values };
    };
    set('chain', chains);
    set('currency', tokens);
    set('token', tokens);
    schemas[name] = { ...schema, properties };
  }
  return { ...doc, components: { ...components, schemas } };
}

/**
 * `withSettings`, remembered per chain catalogue: the settings change rarely and the document is
 * read often, so a sandbox whose chains have not moved gets the same object back.
 */
export class SettingsDocumentCache {
  private readonly byKey = new Map<string, Json>();
  private base: object | undefined;

  get(doc: object, settings: Pick<Settings, 'chains'>): Json {
    if (this.base !== doc) {
      this.byKey.clear();
      this.base = doc;
    }
    const key = JSON.stringify(settings.chains.map((c) => [c.chain, c.tokens.map((t) => t.name)]));
    let served = this.byKey.get(key);
    if (served === undefined) {
      served = withSettings(doc as Json, settings);
      // A handful of workspaces with different catalogues: keep the newest few.
      if (this.byKey.size >= 8) this.byKey.delete(this.byKey.keys().next().value ?? '');
      this.byKey.set(key, served);
    }
    return served;
  }
}
