/**
 * Calling the API by operation: `call('sandboxAdvanceClock', { body: { seconds: 60 } })`, typed by
 * the operation table (./operations.ts) from end to end. Every client (the dashboard, the CLI, the
 * MCP server, `svc-sandbox/testing`, scenario steps) brings only its transport: how a method, a path
 * and a body reach the sandbox. No TypeBox at run time: the renderer bundles this.
 */
import { type OperationTypes, operations } from './operations.js';

export { operations };
export type OperationId = keyof typeof operations;
type Route<K extends OperationId> = (typeof operations)[K];
/** The method of an operation (`POST`). */
type MethodOf<K extends OperationId> = Route<K> extends `${infer M} ${string}` ? M : never;
export type Method = MethodOf<OperationId>;

/** An operation's method, its path (`{name}` for each parameter), and whether it only reads. */
export interface Operation {
  method: Method;
  path: string;
  reads: boolean;
}

/** What the table holds of an operation: its method and path, split from one `METHOD /path` string. */
export function operation(id: OperationId): Operation {
  const route: string = operations[id];
  const space = route.indexOf(' ');
  const method = route.slice(0, space) as Method;
  return { method, path: route.slice(space + 1), reads: method === 'GET' };
}

type Parts<K extends OperationId> = OperationTypes[K];

/** An input part: absent where the operation has none, optional where everything in it is. */
type Part<Name extends string, T> = [T] extends [undefined]
  ? { [P in Name]?: undefined }
  : Record<string, never> extends T
    ? { [P in Name]?: T }
    : { [P in Name]: T };

/** What a call passes: its path parameters, query and body, each where the operation has one. */
export type OperationInput<K extends OperationId> = Part<'params', Parts<K>['params']> &
  Part<'query', Parts<K>['query'] extends undefined ? undefined : Partial<Parts<K>['query']>> &
  Part<'body', Parts<K>['body']>;

/** What the operation answers on success (undefined for 204). */
export type OperationAnswer<K extends OperationId> = Parts<K>['answer'];

/** The input argument: optional when nothing in it is required. */
export type InputArgs<K extends OperationId> =
  Record<string, never> extends OperationInput<K> ? [input?: OperationInput<K>] : [input: OperationInput<K>];

export interface ResolvedCall {
  method: Method;
  /** the path with its parameters filled in (each encoded) and the query string */
  path: string;
  body: unknown;
}

/** `?a=1&b=x` of the values given (none: ''); a list repeats its name. */
export function queryString(query: Record<string, unknown> | undefined): string {
  if (!query) return '';
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) search.append(name, String(item));
  }
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}

/** The method, path and body of one operation with `input`; throws when a path parameter is missing. */
export function resolveCall<K extends OperationId>(id: K, ...[input]: InputArgs<K>): ResolvedCall {
  const { method, path } = operation(id);
  const given = input as {
    params?: Record<string, unknown>;
    query?: Record<string, unknown>;
    body?: unknown;
  };
  const params = given?.params ?? {};
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === null || value === '') throw new MissingParameter(id, name);
    return encodeURIComponent(String(value));
  });
  return { method, path: filled + queryString(given?.query), body: given?.body };
}

/** A path parameter a call left out: the client's mistake, named before anything is sent. */
export class MissingParameter extends Error {
  constructor(
    readonly operationId: string,
    readonly parameter: string,
  ) {
    super(`${parameter}: is required`);
    this.name = 'MissingParameter';
  }
}

/**
 * Routes that serve documents rather than operations (hidden: no operationId, not in the OpenAPI
 * document itself), where a client finds them from the origin of a listener.
 */
export const documents = {
  /** the OpenAPI document (`server/app.ts`) */
  openapi: '/sandbox/openapi.json',
  /** the API reference page */
  reference: '/docs',
} as const;

/** How a client's requests reach the sandbox: a method, a path (from the origin), a body. */
export type Transport = (method: Method, path: string, body: unknown) => Promise<unknown>;

/** A typed `call(operationId, input)` over a client's transport. */
export type Call = <K extends OperationId>(id: K, ...input: InputArgs<K>) => Promise<OperationAnswer<K>>;

export function caller(transport: Transport): Call {
  return (id, ...input) => {
    const { method, path, body } = resolveCall(id, ...input);
    return transport(method, path, body) as Promise<OperationAnswer<typeof id>>;
  };
}
