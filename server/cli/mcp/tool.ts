import { type TObject, type TProperties, Type } from 'typebox';
import type { SandboxClient } from '../client.js';

/** A tool call's arguments, as the MCP client sent them (the sandbox validates them). */
export type Args = Record<string, unknown>;

/** What a tool answers: one line of words, and short JSON with ids and amounts as the API has them. */
export interface Answer {
  words: string;
  data: unknown;
}

export interface Tool {
  name: string;
  description: string;
  /**
   * The control operations (operationIds of GET /sandbox/openapi.json) this tool calls, so the
   * tool list can be checked against the contract.
   */
  operations: readonly string[];
  /** The arguments, built from the contract's TypeBox schemas (without `workspace`). */
  input: TObject;
  /** sandbox-wide (workspaces themselves): takes no `workspace` argument */
  global?: boolean;
  run(args: Args, client: SandboxClient): Promise<Answer>;
}

/** A refusal of our own, before any call: the tool answers it as an error, like a sandbox's. */
export class ToolRefusal extends Error {}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface OperationToolSpec<R> {
  name: string;
  description: string;
  operationId: string;
  method: Method;
  /** the control path, `{name}` for each path parameter */
  path: string;
  params?: TObject;
  query?: TObject;
  body?: TObject;
  /** body fields this tool always sends (pay_late's `late: true`) */
  fixed?: Args;
  global?: boolean;
  words(result: R, args: Args): string;
  /** the short JSON; the sandbox's answer as is when absent */
  shape?(result: R, args: Args): unknown;
}

/** One object schema holding the properties of each part (optional ones stay optional). */
export function merge(...parts: (TObject | undefined)[]): TObject {
  const properties: TProperties = {};
  for (const part of parts) if (part) Object.assign(properties, part.properties);
  return Type.Object(properties);
}

/** `/sandbox/checkouts/{id}` with the arguments' values, each path segment encoded. */
export function fillPath(path: string, args: Args): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = args[name];
    if (typeof value !== 'string' || value === '') throw new ToolRefusal(`${name}: is required`);
    return encodeURIComponent(value);
  });
}

/** The query string of the arguments the query schema names (`?a=1&b=x`, or ''). */
export function queryOf(query: TObject | undefined, args: Args): string {
  if (!query) return '';
  const search = new URLSearchParams();
  for (const name of Object.keys(query.properties)) {
    const value = args[name];
    if (value !== undefined && value !== null) search.set(name, String(value));
  }
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}

/** The arguments the body schema names, plus the fixed ones. */
export function bodyOf(body: TObject | undefined, args: Args, fixed: Args = {}): Args | undefined {
  if (!body) return Object.keys(fixed).length > 0 ? { ...fixed } : undefined;
  const out: Args = {};
  for (const name of Object.keys(body.properties)) if (args[name] !== undefined) out[name] = args[name];
  return { ...out, ...fixed };
}

/** A tool that is one control call: path parameters, query and body taken from the arguments. */
export function operationTool<R>(spec: OperationToolSpec<R>): Tool {
  return {
    name: spec.name,
    description: spec.description,
    operations: [spec.operationId],
    input: merge(spec.params, spec.query, spec.body),
    ...(spec.global ? { global: true } : {}),
    async run(args, client) {
      const url = fillPath(spec.path, args) + queryOf(spec.query, args);
      const body =
        spec.method === 'GET' || spec.method === 'DELETE'
          ? undefined
          : (bodyOf(spec.body, args, spec.fixed) ?? {});
      const result = await client.request<R>(spec.method, url, body);
      return { words: spec.words(result, args), data: spec.shape ? spec.shape(result, args) : result };
    },
  };
}

/** "3 checkouts", "1 checkout". */
export const count = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** An amount in words: the integer the API uses, in its currency's minor units. */
export const money = (amount: number | null | undefined, currency: string): string =>
  amount === null || amount === undefined
    ? `an open amount of ${currency}`
    : `${amount} ${currency} (minor units)`;
