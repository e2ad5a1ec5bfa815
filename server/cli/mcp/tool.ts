import { type TObject, type TProperties, type TSchema, Type } from 'typebox';
import {
  MissingParameter,
  type OperationId,
  operation,
  type ResolvedCall,
  resolveCall,
} from '../../contract/call.js';
import { described, Uuid } from '../../contract/common.js';
import { AddressParams } from '../../contract/funds.js';
import { LibraryNameParams } from '../../contract/scenario-library.js';
import { InboxName } from '../../contract/webhooks.js';
import { CheckpointName, WorkspaceParams } from '../../contract/workspaces.js';
import type { SandboxClient } from '../client.js';
import { project } from './schema.js';

export { described };

/** A tool call's arguments, as the MCP client sent them (the sandbox validates them). */
export type Args = Record<string, unknown>;

/** What a tool answers: one line of words, and the structured answer its output schema declares. */
export interface Answer {
  words: string;
  data: Record<string, unknown>;
}

/** MCP's tool annotations, as hints to the client (the spec's readOnlyHint and the rest). */
export interface Effects {
  /** changes nothing anywhere: listed with --read-only */
  readOnly: boolean;
  /** may delete or overwrite what is there (a write that only adds is not destructive) */
  destructive: boolean;
  /** the same call again has no further effect */
  idempotent: boolean;
  /** reaches beyond this machine's sandbox: sends to a URL the user gave */
  openWorld: boolean;
}

export interface Tool extends Effects {
  name: string;
  /** a human title, for a client's list */
  title: string;
  description: string;
  /**
   * The operations (operationIds of the operation table, server/contract/operations.ts) this tool
   * calls, so the tool list can be checked against the contract.
   */
  operations: readonly OperationId[];
  /** The arguments, built from the contract's TypeBox schemas (without `workspace`). */
  input: TObject;
  /** The structured answer (MCP structuredContent): the contract's answer schema, cut to what it keeps. */
  output: TObject;
  /** sandbox-wide (workspaces themselves): takes no `workspace` argument */
  global?: boolean;
  run(args: Args, client: SandboxClient): Promise<Answer>;
}

/** A refusal of our own, before any call: the tool answers it as an error, like a sandbox's. */
export class ToolRefusal extends Error {}

/**
 * The one naming rule for the arguments that name an existing object: `<object>_id` (or
 * `<object>_name` where a name is the key), the same in every tool, whatever the path calls it.
 */
export const ID_ARGS = {
  workspace_id: {
    listedBy: 'workspaces_list',
    schema: WorkspaceParams.properties.id,
    description: "the workspace's id (workspace_create, workspaces_list)",
  },
  merchant_id: {
    listedBy: 'merchants_list',
    schema: Uuid,
    description: "the merchant's id (merchant_create, merchants_list)",
  },
  checkout_id: {
    listedBy: 'checkouts_list {merchant_id}',
    schema: Uuid,
    description: "the checkout's id (checkout_create, checkouts_list)",
  },
  api_key_id: {
    listedBy: 'merchant_keys {merchant_id}',
    schema: Uuid,
    description: "the API key object's id, not the svcb_ key itself (merchant_keys)",
  },
  cardholder_id: {
    listedBy: 'cardholders_list {merchant_id}',
    schema: Uuid,
    description: "the cardholder's id (cardholder_create, cardholders_list)",
  },
  card_id: {
    listedBy: 'cardholder_get {cardholder_id}',
    schema: Uuid,
    description: "the card's id (card_issue, cardholder_get)",
  },
  transaction_id: {
    listedBy: 'card_transactions_list {card_id}',
    schema: Uuid,
    description: "the card transaction's id (card_authorize, card_transactions_list)",
  },
  application_id: {
    listedBy: 'cardholder_get {cardholder_id}',
    schema: Uuid,
    description: "the card application's id (card_application_create, cardholder_get)",
  },
  endpoint_id: {
    listedBy: 'webhook_endpoints_list {merchant_id}',
    schema: Uuid,
    description: "the webhook endpoint's id (webhook_endpoint_create, webhook_endpoints_list)",
  },
  reseller_id: {
    listedBy: 'merchants_list',
    schema: Uuid,
    description: 'the merchant acting as the reseller (merchant_create, merchants_list)',
  },
  connection_id: {
    listedBy: 'reseller_connections_list {merchant_id}',
    schema: Uuid,
    description: "the reseller connection's id (reseller_connection_create, reseller_connections_list)",
  },
  delivery_id: {
    listedBy: 'deliveries_list',
    schema: Uuid,
    description: "the webhook delivery's id (deliveries_list)",
  },
  request_id: {
    listedBy: 'request_log_list',
    schema: Uuid,
    description: "the request's id in the request log (request_log_list)",
  },
  checkpoint_name: {
    listedBy: 'checkpoints_list',
    schema: CheckpointName,
    description: "the checkpoint's name (checkpoints_list)",
  },
  inbox_name: {
    listedBy: 'inboxes_list',
    schema: InboxName.properties.name,
    description: 'the built-in inbox, by a name you choose (inbox_endpoint_create points webhooks at it)',
  },
  scenario_name: {
    listedBy: 'scenarios_list',
    schema: LibraryNameParams.properties.name,
    description: "the built-in scenario's name (scenarios_list)",
  },
  address: {
    listedBy: undefined,
    schema: AddressParams.properties.address,
    description: "a static deposit address the merchant's app made (POST /v1/static-addresses)",
  },
} as const satisfies Record<string, { schema: TSchema; description: string; listedBy: string | undefined }>;
export type IdArg = keyof typeof ID_ARGS;

/** The schema of an id argument, described. */
export const idArg = (name: IdArg, description: string = ID_ARGS[name].description): TSchema =>
  described(ID_ARGS[name].schema, description);

/** `{checkout_id: <described schema>}`: an object of id arguments. */
export const ids = (...names: IdArg[]): TObject =>
  Type.Object(Object.fromEntries(names.map((name) => [name, idArg(name)])));

export interface OperationToolSpec<R> extends Partial<Effects> {
  name: string;
  title: string;
  description: string;
  /** the one operation it calls: its method and path are the operation table's */
  operationId: OperationId;
  /** the argument that fills the path's one parameter (`checkout_id` for `/sandbox/checkouts/{id}`) */
  pathArg?: IdArg;
  query?: TObject;
  body?: TObject;
  /** body fields this tool always sends (pay_late's `late: true`) */
  fixed?: Args;
  /** descriptions of arguments whose contract schema is a named shape without one (an enum of the document) */
  describe?: Record<string, string>;
  global?: boolean;
  /** the structured answer's schema; an array answer is `{items: [...]}` (list()) */
  output: TObject;
  words(result: R, args: Args): string;
  /** the structured answer before it is cut to `output`; the sandbox's answer when absent */
  shape?(result: R, args: Args): unknown;
}

/** One object schema holding the properties of each part (optional ones stay optional). */
export function merge(...parts: (TObject | undefined)[]): TObject {
  const properties: TProperties = {};
  for (const part of parts) if (part) Object.assign(properties, part.properties);
  return Type.Object(properties);
}

/** The object schema with some of its properties described (optional ones stay optional). */
export function describe(schema: TObject, descriptions: Record<string, string> = {}): TObject {
  const properties: TProperties = { ...schema.properties };
  for (const [name, text] of Object.entries(descriptions)) {
    const property = properties[name];
    if (!property) throw new Error(`no argument ${name} to describe`);
    properties[name] = described(property, text);
  }
  return Type.Object(properties);
}

/** An array answer as MCP structured content (an object): `{items: [...]}`. */
export const list = (item: TSchema, description = 'newest first'): TObject =>
  Type.Object({ items: Type.Array(item, { description }) });

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

/** The one `{parameter}` of an operation's path, if any. */
export function pathParameter(operationId: OperationId): string | undefined {
  const found = [...operation(operationId).path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  if (found.length > 1) throw new Error(`${operationId} has ${found.length} path parameters`);
  return found[0];
}

/**
 * The call a tool's arguments make of its operation: the method and path from the operation
 * table, the path parameter filled from the argument that names it (`checkout_id` → `{id}`), the
 * query and body from the arguments their schemas name (a write always sends a body). A missing
 * path argument is refused before anything is sent.
 */
export function callOf(
  spec: Pick<OperationToolSpec<unknown>, 'operationId' | 'pathArg' | 'query' | 'body' | 'fixed'>,
  args: Args,
): ResolvedCall {
  const { method } = operation(spec.operationId);
  const body =
    method === 'GET' || method === 'DELETE' ? undefined : (bodyOf(spec.body, args, spec.fixed) ?? {});
  const parameter = pathParameter(spec.operationId);
  const params = parameter && spec.pathArg ? { [parameter]: args[spec.pathArg] } : {};
  try {
    // The arguments are the MCP client's, unchecked here: the sandbox validates them.
    return resolveCall(spec.operationId, { params, query: queryOf(spec.query, args), body } as never);
  } catch (error) {
    if (error instanceof MissingParameter)
      throw new ToolRefusal(`${spec.pathArg ?? error.parameter}: is required`);
    throw error;
  }
}

const IDEMPOTENT_METHODS = new Set(['PUT', 'PATCH', 'DELETE']);

/**
 * The annotations a tool's operations imply, before the tool's own word: it reads only when every
 * operation does; a PUT, PATCH or DELETE overwrites or removes (destructive) and is the same the
 * second time (idempotent); a POST adds. Nothing leaves the machine unless the tool says so.
 */
export function effectsOf(ids: readonly OperationId[], own: Partial<Effects> = {}): Effects {
  const writes = ids.filter((id) => !operation(id).reads);
  const readOnly = own.readOnly ?? writes.length === 0;
  return {
    readOnly,
    destructive: own.destructive ?? (!readOnly && writes.some((id) => operation(id).method !== 'POST')),
    idempotent:
      own.idempotent ?? (readOnly || writes.every((id) => IDEMPOTENT_METHODS.has(operation(id).method))),
    openWorld: own.openWorld ?? false,
  };
}

/** The structured answer: an array as `{items}`, cut to the output schema. */
export function structured(output: TObject, value: unknown): Record<string, unknown> {
  const whole = Array.isArray(value) ? { items: value } : value;
  return project(output, whole) as Record<string, unknown>;
}

/** A tool that is one call of the operation table: path parameter, query and body from the arguments. */
export function operationTool<R>(spec: OperationToolSpec<R>): Tool {
  const parameter = pathParameter(spec.operationId);
  if (parameter && !spec.pathArg) throw new Error(`${spec.name}: which argument fills {${parameter}}?`);
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    operations: [spec.operationId],
    input: describe(
      merge(spec.pathArg ? ids(spec.pathArg) : undefined, spec.query, spec.body),
      spec.describe,
    ),
    output: spec.output,
    ...effectsOf([spec.operationId], spec),
    ...(spec.global ? { global: true } : {}),
    async run(args, client) {
      const { method, path, body } = callOf(spec, args);
      const result = await client.request<R>(method, path, body);
      return {
        words: spec.words(result, args),
        data: structured(spec.output, spec.shape ? spec.shape(result, args) : result),
      };
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
