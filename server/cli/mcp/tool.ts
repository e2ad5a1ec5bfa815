import { type TObject, type TProperties, Type } from 'typebox';
import {
  MissingParameter,
  type OperationId,
  operations,
  type ResolvedCall,
  resolveCall,
} from '../../contract/call.js';
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
   * The operations (operationIds of the operation table, server/contract/operations.ts) this tool
   * calls, so the tool list can be checked against the contract.
   */
  operations: readonly OperationId[];
  /** The arguments, built from the contract's TypeBox schemas (without `workspace`). */
  input: TObject;
  /** sandbox-wide (workspaces themselves): takes no `workspace` argument */
  global?: boolean;
  run(args: Args, client: SandboxClient): Promise<Answer>;
}

/** A refusal of our own, before any call: the tool answers it as an error, like a sandbox's. */
export class ToolRefusal extends Error {}

export interface OperationToolSpec<R> {
  name: string;
  description: string;
  /** the one operation it calls: its method and path are the operation table's */
  operationId: OperationId;
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

/** The arguments the query schema names (those given), for the query string. */
export function queryOf(query: TObject | undefined, args: Args): Args | undefined {
  if (!query) return undefined;
  const out: Args = {};
  for (const name of Object.keys(query.properties))
    if (args[name] !== undefined && args[name] !== null) out[name] = args[name];
  return out;
}

/** The arguments the body schema names, plus the fixed ones. */
export function bodyOf(body: TObject | undefined, args: Args, fixed: Args = {}): Args | undefined {
  if (!body) return Object.keys(fixed).length > 0 ? { ...fixed } : undefined;
  const out: Args = {};
  for (const name of Object.keys(body.properties)) if (args[name] !== undefined) out[name] = args[name];
  return { ...out, ...fixed };
}

/**
 * The call a tool's arguments make of its operation: the method and path from the operation
 * table, path parameters filled from the arguments of those names, the query and body from the
 * arguments their schemas name (a write always sends a body). A missing path parameter is refused
 * before anything is sent.
 */
export function callOf(
  spec: Pick<OperationToolSpec<unknown>, 'operationId' | 'query' | 'body' | 'fixed'>,
  args: Args,
): ResolvedCall {
  const { method } = operations[spec.operationId];
  const body =
    method === 'GET' || method === 'DELETE' ? undefined : (bodyOf(spec.body, args, spec.fixed) ?? {});
  try {
    // The arguments are the MCP client's, unchecked here: the sandbox validates them.
    return resolveCall(spec.operationId, { params: args, query: queryOf(spec.query, args), body } as never);
  } catch (error) {
    if (error instanceof MissingParameter) throw new ToolRefusal(error.message);
    throw error;
  }
}

/** A tool that is one call of the operation table: path parameters, query and body from the arguments. */
export function operationTool<R>(spec: OperationToolSpec<R>): Tool {
  return {
    name: spec.name,
    description: spec.description,
    operations: [spec.operationId],
    input: merge(spec.params, spec.query, spec.body),
    ...(spec.global ? { global: true } : {}),
    async run(args, client) {
      const { method, path, body } = callOf(spec, args);
      const result = await client.request<R>(method, path, body);
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
