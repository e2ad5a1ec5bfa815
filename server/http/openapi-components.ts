/**
 * Client generators name their models after `components.schemas`: an inline copy of a shape
 * becomes one more model of the same name (openapi-python-client calls it a duplicate and drops
 * the operation). So, on the generated document: every JSON request body and answer is a `$ref`,
 * every copy of a named shape inside another is a `$ref` to it, and a body or answer the contract
 * does not name gets a name from its operation (`CreateWebhookEndpointBody`,
 * `ListCheckoutsResponse`). Names of new shapes follow from the operation ids, which are frozen, so
 * they do not move when routes are reordered.
 */

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A key that is the same for equal schemas whatever their key order. A root `title`, `$id` or
 * `examples` is ignored: @fastify/swagger moves a body's `examples` to its media type.
 */
function canonical(schema: unknown, root = true): string {
  if (Array.isArray(schema)) return `[${schema.map((s) => canonical(s, false)).join(',')}]`;
  if (!isObject(schema)) return JSON.stringify(schema);
  const keys = Object.keys(schema)
    .filter((k) => !(root && (k === 'title' || k === '$id' || k === 'examples')))
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(schema[k], false)}`).join(',')}}`;
}

/** Worth a `$ref`: a shape a generator would make a model or an enum of (not `{type: string}`). */
const isShape = (schema: Json): boolean =>
  isObject(schema.properties) ||
  Array.isArray(schema.enum) ||
  Array.isArray(schema.anyOf) ||
  Array.isArray(schema.oneOf);

/** Keywords whose value is one subschema, and those whose value is a list or a map of them. */
const ONE = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames'];
const MANY = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const MAP = ['properties', 'patternProperties', 'dependentSchemas', '$defs'];

const pascal = (id: string): string => id.charAt(0).toUpperCase() + id.slice(1);

export const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });

export class ComponentNamer {
  readonly schemas: Record<string, Json> = {};
  private readonly byShape = new Map<string, string>();
  /** `def-N` → the contract's name for the same shape. */
  private readonly defs = new Map<string, string>();

  /** `components`: the contract's named shapes. `def-N` (@fastify/swagger's names for `$id`s) are dropped. */
  constructor(components: Record<string, unknown>) {
    const defs: [string, Json][] = [];
    for (const [name, schema] of Object.entries(components)) {
      if (!isObject(schema)) continue;
      if (/^def-\d+$/.test(name)) {
        defs.push([name, schema]);
        continue;
      }
      const { $id: _id, ...rest } = schema;
      this.schemas[name] = rest;
      const key = canonical(rest);
      if (isShape(rest) && !this.byShape.has(key)) this.byShape.set(key, name);
    }
    for (const [def, schema] of defs) {
      const same = this.byShape.get(canonical(schema));
      if (same === undefined) throw new Error(`${def} (an unnamed $id schema) matches no named component`);
      this.defs.set(def, same);
    }
    // Nested copies inside the named shapes themselves, against the shapes as first read.
    for (const [name, schema] of Object.entries(this.schemas)) this.schemas[name] = this.inner(schema);
  }

  /** The schema with every named shape inside it (not itself) a `$ref`. */
  inner(schema: Json): Json {
    const out: Json = {};
    for (const [key, value] of Object.entries(schema)) {
      if (ONE.includes(key) && isObject(value)) out[key] = this.sub(value);
      else if (MANY.includes(key) && Array.isArray(value))
        out[key] = value.map((v) => (isObject(v) ? this.sub(v) : v));
      else if (MAP.includes(key) && isObject(value))
        out[key] = Object.fromEntries(
          Object.entries(value).map(([k, v]) => [k, isObject(v) ? this.sub(v) : v]),
        );
      else out[key] = value;
    }
    return out;
  }

  private sub(schema: Json): Json {
    if (typeof schema.$ref === 'string') return this.renamed(schema);
    const name = this.byShape.get(canonical(schema));
    return name !== undefined ? ref(name) : this.inner(schema);
  }

  /** A `$ref` to a `def-N` becomes one to the name of the same shape. */
  private renamed(schema: Json): Json {
    const def = String(schema.$ref).replace('#/components/schemas/', '');
    const name = this.defs.get(def);
    return name !== undefined ? ref(name) : schema;
  }

  /**
   * A `$ref` for a body or an answer: to the named shape it is, or to a new component named
   * `fallback` (or, if that is taken by another shape, `fallback` + a number).
   */
  named(schema: Json, fallback: string): Json {
    if (typeof schema.$ref === 'string') return this.renamed(schema);
    const key = canonical(schema);
    const known = this.byShape.get(key);
    if (known !== undefined) return ref(known);
    let name = fallback;
    for (let n = 2; this.schemas[name] !== undefined; n++) name = `${fallback}${n}`;
    const { title: _title, $id: _id, ...rest } = schema;
    this.schemas[name] = this.inner(rest);
    this.byShape.set(key, name);
    return ref(name);
  }
}

const STATUS_NAMES: Record<string, string> = {
  '200': 'Response',
  '201': 'Created',
  '202': 'Accepted',
  default: 'Default',
};

/**
 * Rewrites the document in place: bodies and answers by `$ref`, named shapes by `$ref` wherever
 * they appear (webhooks too), components named (Error is one: every error answer refers to it).
 */
export function nameComponents(doc: Json): void {
  const components = (isObject(doc.components) ? doc.components : {}) as Json;
  const namer = new ComponentNamer(isObject(components.schemas) ? components.schemas : {});
  for (const item of Object.values(isObject(doc.paths) ? doc.paths : {})) {
    if (!isObject(item)) continue;
    for (const op of Object.values(item)) {
      if (!isObject(op)) continue;
      const id = pascal(typeof op.operationId === 'string' ? op.operationId : 'Operation');
      const body = op.requestBody;
      if (isObject(body) && isObject(body.content)) {
        const json = body.content['application/json'];
        if (isObject(json) && isObject(json.schema)) json.schema = namer.named(json.schema, `${id}Body`);
      }
      for (const [status, response] of Object.entries(isObject(op.responses) ? op.responses : {})) {
        if (!isObject(response) || !isObject(response.content)) continue;
        const json = response.content['application/json'];
        if (!isObject(json) || !isObject(json.schema)) continue;
        const suffix = STATUS_NAMES[status] ?? `Response${status}`;
        const success = status.startsWith('2') || status === 'default';
        json.schema = namer.named(json.schema, success ? `${id}${suffix}` : `${id}Error${status}`);
      }
      if (Array.isArray(op.parameters))
        for (const p of op.parameters)
          if (isObject(p) && isObject(p.schema)) p.schema = namer.inner(p.schema);
    }
  }
  for (const item of Object.values(isObject(doc.webhooks) ? doc.webhooks : {})) {
    const post = isObject(item) ? item.post : undefined;
    const body = isObject(post) ? post.requestBody : undefined;
    const json = isObject(body) && isObject(body.content) ? body.content['application/json'] : undefined;
    if (isObject(json) && isObject(json.schema)) json.schema = namer.inner(json.schema);
  }
  doc.components = { ...components, schemas: namer.schemas };
}

const PARAM = /\{([^}]+)\}/g;
const paramsOf = (path: string): string[] => [...path.matchAll(PARAM)].map((m) => m[1] ?? '');

/** Where the new resource's id is in an answer: `/id`, or `/<name>/id` (`{merchant, api_key}`). */
function idPointer(schema: unknown, schemas: Record<string, Json>, depth = 0): string | null {
  if (!isObject(schema) || depth > 2) return null;
  if (typeof schema.$ref === 'string')
    return idPointer(schemas[schema.$ref.replace('#/components/schemas/', '')], schemas, depth);
  const properties = isObject(schema.properties) ? schema.properties : {};
  if ('id' in properties) return '/id';
  for (const [name, sub] of Object.entries(properties)) {
    const inner = idPointer(sub, schemas, depth + 1);
    if (inner === '/id') return `/${name}/id`;
  }
  return null;
}

/** The items of an array answer (by `$ref` to an array component, or inline). */
function itemsOf(schema: unknown, schemas: Record<string, Json>): unknown {
  const resolved =
    isObject(schema) && typeof schema.$ref === 'string'
      ? schemas[schema.$ref.replace('#/components/schemas/', '')]
      : schema;
  return isObject(resolved) && resolved.type === 'array' ? resolved.items : undefined;
}

const LINKED_METHODS = ['get', 'put', 'patch', 'delete'] as const;

/**
 * OpenAPI links, so a stateful tester (or a reader) knows how ids flow: from each create (a POST
 * on a collection `P`) to the operations of `P/{param}`, and from a list (a GET on `P`) to the same
 * operations with the first item's id. The collection's own path parameters pass through.
 */
export function addLinks(doc: Json): void {
  const paths = (isObject(doc.paths) ? doc.paths : {}) as Record<string, Json>;
  const schemas = ((isObject(doc.components) && isObject(doc.components.schemas)
    ? doc.components.schemas
    : {}) ?? {}) as Record<string, Json>;
  for (const [path, item] of Object.entries(paths)) {
    const own = paramsOf(path);
    const targets = Object.entries(paths).filter(
      ([other]) => other.startsWith(`${path}/{`) && /^\{[^}/]+\}$/.test(other.slice(path.length + 1)),
    );
    if (targets.length === 0) continue;
    for (const [method, pointerOf] of [
      ['post', (s: unknown) => idPointer(s, schemas)],
      [
        'get',
        (s: unknown) => {
          const inner = idPointer(itemsOf(s, schemas), schemas);
          return inner === null ? null : `/0${inner}`;
        },
      ],
    ] as const) {
      const op = item[method];
      if (!isObject(op) || !isObject(op.responses)) continue;
      const status = ['200', '201'].find((s) => isObject((op.responses as Json)[s]));
      const response = status === undefined ? undefined : ((op.responses as Json)[status] as Json);
      const schema = isObject(response?.content)
        ? (response.content['application/json'] as Json | undefined)?.schema
        : undefined;
      const pointer = pointerOf(schema);
      if (response === undefined || pointer === null) continue;
      const links: Json = {};
      for (const [targetPath, targetItem] of targets) {
        const targetParams = paramsOf(targetPath);
        const last = targetParams.at(-1) ?? 'id';
        for (const targetMethod of LINKED_METHODS) {
          const target = targetItem[targetMethod];
          if (!isObject(target) || typeof target.operationId !== 'string') continue;
          const parameters: Json = { [last]: `$response.body#${pointer}` };
          own.forEach((name, i) => {
            const to = targetParams[i];
            if (to !== undefined && to !== last) parameters[to] = `$request.path.${name}`;
          });
          links[pascal(target.operationId)] = {
            operationId: target.operationId,
            parameters,
            description: `The ${method === 'post' ? 'created resource' : 'first item of the list'}: ${target.operationId}.`,
          };
        }
      }
      if (Object.keys(links).length > 0) response.links = links;
    }
  }
}

/** ajv-formats' `email` (full mode), which the server validates `format: email` with. */
const EMAIL_PATTERN =
  "^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\\.)+[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$";

/**
 * Says in the document what the server enforces beyond the route schemas: an email is what the
 * validator's `email` format takes (a pattern: `format: email` alone admits `0@com` in many tools);
 * a country code is one of the ISO 3166-1 codes the domain checks (an enum, not `^[A-Z]{3}$`).
 */
export function tightenStrings(
  doc: Json,
  countries: { alpha2: readonly string[]; alpha3: readonly string[] },
): void {
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const child of node) visit(child);
      return;
    }
    if (!isObject(node)) return;
    const string = node.type === 'string' || (Array.isArray(node.type) && node.type.includes('string'));
    // (a nullable string keeps null among its values)
    const orNull = Array.isArray(node.type) && node.type.includes('null') ? [null] : [];
    if (string && node.format === 'email' && node.pattern === undefined) node.pattern = EMAIL_PATTERN;
    const description = typeof node.description === 'string' ? node.description : '';
    if (string && node.enum === undefined) {
      if (node.pattern === '^[A-Z]{3}$' && description.includes('alpha-3'))
        node.enum = [...countries.alpha3, ...orNull];
      else if (node.pattern === '^[A-Z]{2}$') node.enum = [...countries.alpha2, ...orNull];
    }
    for (const child of Object.values(node)) visit(child);
  };
  visit(doc.paths);
  visit(doc.components);
}
