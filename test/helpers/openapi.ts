import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import formatsPlugin from 'ajv-formats';

/**
 * Reads the OpenAPI document the server serves and checks real responses against it with an
 * independent validator (Ajv, JSON Schema 2020-12), never with the server's own schemas or
 * serializer. Only the document is trusted: a route that answers something it does not document
 * is a failure here even when Fastify's serializer was happy to shape it.
 */

export type JsonObject = Record<string, unknown>;

export interface MediaTypeObject {
  schema?: unknown;
}

export interface ResponseObject {
  description?: string;
  content?: Record<string, MediaTypeObject>;
}

export interface ParameterObject {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: JsonObject;
}

export interface OperationObject {
  tags?: string[];
  parameters?: ParameterObject[];
  requestBody?: { required?: boolean; content?: Record<string, MediaTypeObject> };
  responses?: Record<string, ResponseObject>;
}

export interface OpenApiDocument {
  openapi: string;
  info?: JsonObject;
  paths: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, unknown> } & JsonObject;
}

export type HttpMethod = 'GET' | 'PUT' | 'POST' | 'DELETE' | 'PATCH' | 'HEAD' | 'OPTIONS' | 'TRACE';

const METHODS: readonly HttpMethod[] = ['GET', 'PUT', 'POST', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS', 'TRACE'];

/** One operation of the document, keyed `METHOD /path/{param}` exactly as the document spells it. */
export interface Operation {
  key: string;
  method: HttpMethod;
  path: string;
  operation: OperationObject;
}

export const operationKey = (method: string, path: string): string => `${method.toUpperCase()} ${path}`;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every operation in `paths`, in document order. */
export function listOperations(doc: OpenApiDocument): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const operation = item[method.toLowerCase()];
      if (isObject(operation)) out.push({ key: operationKey(method, path), method, path, operation });
    }
  }
  return out;
}

/** The names of an operation's path parameters, in the order they appear in the path. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
}

/** Fills `{name}` placeholders; every placeholder must have a value. */
export function fillPath(path: string, params: Record<string, string>): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${path}: no value for path parameter {${name}}`);
    return encodeURIComponent(value);
  });
}

const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'example', 'examples']);

/**
 * OpenAPI 3.0 schemas are a dialect of JSON Schema draft 5 (the "Wright draft 00") with their own
 * `nullable` keyword; JSON Schema 2020-12 has no `nullable`. This rewrites the 3.0 meaning faithfully
 * ("nullable: true adds null to the allowed values", OAS 3.0.3, including to an `enum`) as 2020-12,
 * and drops `$id`s, which 3.0 does not have and which would otherwise re-base the document's
 * `#/components/...` references. OpenAPI 3.1 documents already use 2020-12 and are left alone.
 */
export function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (!isObject(node)) return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$id') continue;
    out[key] = DATA_KEYWORDS.has(key) ? value : toJsonSchema(value);
  }
  if (!('nullable' in out)) return out;
  const nullable = out.nullable === true;
  delete out.nullable;
  if (!nullable) return out;
  if (typeof out.type === 'string') {
    out.type = [out.type, 'null'];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    return out;
  }
  if (Array.isArray(out.type)) {
    if (!out.type.includes('null')) out.type = [...out.type, 'null'];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    return out;
  }
  return { anyOf: [out, { type: 'null' }] };
}

/** A JSON pointer (RFC 6901) as a URI fragment. */
export function pointer(...segments: string[]): string {
  return `#/${segments.map((s) => encodeURIComponent(s.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/')}`;
}

function formatErrors(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? [])
    .slice(0, 12)
    .map((e) => `${e.instancePath || '(root)'} ${e.message ?? e.keyword} ${JSON.stringify(e.params)}`);
}

export function isJsonMediaType(mediaType: string): boolean {
  const base = mediaType.split(';')[0]!.trim().toLowerCase();
  return base === 'application/json' || base.endsWith('+json');
}

export interface CheckResult {
  /** what is wrong with this response, empty when it conforms */
  problems: string[];
  /** true when the body was validated against a documented schema */
  validated: boolean;
}

/** An observed response, as it came off the wire. */
export interface ObservedResponse {
  status: number;
  contentType: string | undefined;
  body: string;
}

const DOC_ID = 'https://svc-sandbox.invalid/openapi.json';

export class ContractValidator {
  readonly operations: Operation[];
  private readonly ajv: Ajv2020;
  private readonly byKey: Map<string, Operation>;
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(readonly doc: OpenApiDocument) {
    this.operations = listOperations(doc);
    this.byKey = new Map(this.operations.map((op) => [op.key, op]));
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
    formatsPlugin.default(this.ajv);
    const is30 = doc.openapi.startsWith('3.0');
    const converted = is30 ? toJsonSchema({ paths: doc.paths, components: doc.components ?? {} }) : doc;
    // The whole document is one schema resource, so `#/components/schemas/X` resolves from anywhere.
    this.ajv.addSchema({ ...(converted as JsonObject), $id: DOC_ID }, DOC_ID, undefined, false);
  }

  operation(key: string): Operation | undefined {
    return this.byKey.get(key);
  }

  /** The documented response for a status: the exact code, then its range (`2XX`), then `default`. */
  responseFor(op: Operation, status: number): { code: string; response: ResponseObject } | undefined {
    const responses = op.operation.responses ?? {};
    for (const code of [String(status), `${String(status).charAt(0)}XX`, 'default']) {
      const response = responses[code];
      if (response !== undefined) return { code, response };
    }
    return undefined;
  }

  componentNames(): string[] {
    return Object.keys(this.doc.components?.schemas ?? {});
  }

  /** Validates `value` against the schema at a JSON pointer into the document. */
  validateAt(fragment: string, value: unknown): string[] {
    let validate = this.compiled.get(fragment);
    if (validate === undefined) {
      try {
        validate = this.ajv.getSchema(`${DOC_ID}${fragment}`);
      } catch (error) {
        return [`schema at ${fragment} does not compile: ${(error as Error).message}`];
      }
      if (validate === undefined) return [`no schema at ${fragment}`];
      this.compiled.set(fragment, validate);
    }
    return validate(value) ? [] : formatErrors(validate.errors);
  }

  /** Follows local `$ref`s (`#/components/schemas/X`) to the schema they name. */
  resolve(node: unknown, depth = 0): unknown {
    if (!isObject(node) || typeof node.$ref !== 'string' || !node.$ref.startsWith('#/') || depth > 32)
      return node;
    let target: unknown = this.doc;
    for (const raw of node.$ref.slice(2).split('/')) {
      const segment = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
      target = isObject(target) ? target[segment] : undefined;
    }
    return this.resolve(target, depth + 1);
  }

  validateComponent(name: string, value: unknown): string[] {
    return this.validateAt(pointer('components', 'schemas', name), value);
  }

  /** Checks one real response of `key` against the document. */
  check(key: string, observed: ObservedResponse): CheckResult {
    const op = this.byKey.get(key);
    if (op === undefined) return { problems: [`${key} is not in the document`], validated: false };
    const documented = this.responseFor(op, observed.status);
    if (documented === undefined) {
      const codes = Object.keys(op.operation.responses ?? {}).join(', ');
      return {
        problems: [
          `status ${observed.status} is not documented (documented: ${codes}); body ${clip(observed.body)}`,
        ],
        validated: false,
      };
    }
    const content = documented.response.content ?? {};
    const mediaTypes = Object.keys(content);
    if (mediaTypes.length === 0) {
      return observed.body.length === 0
        ? { problems: [], validated: false }
        : {
            problems: [
              `${documented.code} documents no body, got ${observed.contentType ?? 'no content-type'}: ${clip(observed.body)}`,
            ],
            validated: false,
          };
    }
    const received = (observed.contentType ?? '').split(';')[0]!.trim().toLowerCase();
    const mediaType = mediaTypes.find((m) => m.toLowerCase() === received);
    if (mediaType === undefined) {
      return {
        problems: [`content-type ${observed.contentType ?? '(none)'} is not one of ${mediaTypes.join(', ')}`],
        validated: false,
      };
    }
    const schema = content[mediaType]?.schema;
    if (schema === undefined || !isJsonMediaType(mediaType)) return { problems: [], validated: false };
    let value: unknown;
    try {
      value = JSON.parse(observed.body);
    } catch {
      return { problems: [`body is not JSON: ${clip(observed.body)}`], validated: false };
    }
    const fragment = pointer(
      'paths',
      op.path,
      op.method.toLowerCase(),
      'responses',
      documented.code,
      'content',
      mediaType,
      'schema',
    );
    const errors = this.validateAt(fragment, value);
    return {
      problems:
        errors.length === 0
          ? []
          : [`body does not match the ${documented.code} schema: ${errors.join('; ')}`],
      validated: true,
    };
  }
}

export function clip(text: string, max = 300): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
