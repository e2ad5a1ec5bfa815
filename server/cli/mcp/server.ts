import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  type Tool as McpTool,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { type Static, Type } from 'typebox';
import { StringEnum } from '../../contract/common.js';
import { VERSION } from '../../version.js';
import type { SandboxClient } from '../client.js';
import { CliFailure } from '../common.js';
import { RESOURCES } from './resources.js';
import { portable } from './schema.js';
import { type Args, ID_ARGS, type IdArg, type Tool, ToolRefusal } from './tool.js';
import { TOOLSET_NAMES, TOOLSETS, type ToolsetName, toolNamed, toolsetOf, toolsIn } from './toolsets.js';

// The MCP server itself: which tools are listed (the toolsets enabled, read-only or not), each as
// MCP lists it (annotations, portable input and output schemas), and how a call becomes a result
// (structured content beside a line of words, a refusal in the agent's terms).

const WORKSPACE_ARG = {
  type: 'string',
  description: 'the workspace to act in, by id or name (default: the default workspace)',
};

/** What a session serves: fixed at start, except the toolsets, which toolsets_enable can add to. */
export interface Session {
  workspaceFixed: boolean;
  readOnly: boolean;
  toolsets: Set<ToolsetName>;
}

/** A tool as MCP lists it: annotations, the portable schemas, plus `workspace` when the call may pick one. */
export function listed(tool: Tool, workspaceFixed: boolean): McpTool {
  const input = portable(tool.input) as { properties?: Record<string, unknown>; required?: string[] };
  const properties = {
    ...input.properties,
    ...(workspaceFixed || tool.global ? {} : { workspace: WORKSPACE_ARG }),
  };
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: { ...input, type: 'object', properties, additionalProperties: false },
    outputSchema: { ...portable(tool.output), type: 'object' },
    annotations: {
      readOnlyHint: tool.readOnly,
      destructiveHint: tool.destructive,
      idempotentHint: tool.idempotent,
      openWorldHint: tool.openWorld,
    },
    _meta: { 'svc-sandbox/operations': [...tool.operations] },
  };
}

const text = (value: string): CallToolResult['content'][number] => ({ type: 'text', text: value });
const refusal = (message: string): CallToolResult => ({ isError: true, content: [text(message)] });

/** The arguments a listed tool takes (its input schema's properties). */
const accepted = (tool: Tool, workspaceFixed: boolean): string[] =>
  Object.keys(listed(tool, workspaceFixed).inputSchema.properties ?? {});

/** An argument the tool does not take, refused by name with the ones it does take. */
function unknownArguments(tool: Tool, args: Args, workspaceFixed: boolean): string | undefined {
  const known = accepted(tool, workspaceFixed);
  const unknown = Object.keys(args).filter((name) => !known.includes(name));
  if (unknown.length === 0) return undefined;
  const near = unknown
    .map((name) => {
      const like = known.find((k) => k.endsWith(`_${name}`) || name.endsWith(`_${k}`) || k === `${name}s`);
      return like ? ` (${name}: did you mean ${like}?)` : '';
    })
    .join('');
  const fixed =
    workspaceFixed && unknown.includes('workspace') ? ' (the workspace is fixed by --workspace)' : '';
  return `${tool.name} takes no argument ${unknown.join(', ')}${near}${fixed}; it takes: ${known.join(', ') || 'none'}`;
}

/**
 * A refusal in the agent's terms: the sandbox's message as it is, with the hints it gives for
 * other clients (a body field, a CLI command, a REST path) turned into the tool to call and its
 * arguments, and a path parameter named as the tool's argument.
 */
export function agentTerms(message: string, tool: Tool, args: Args): string {
  const id = (name: string) => (typeof args[name] === 'string' ? `"${args[name] as string}"` : `"<${name}>"`);
  let out = message
    .replace(
      /send late: true to play a transfer that arrives after it closed/,
      `call checkout_pay_late {checkout_id: ${id('checkout_id')}} to play a transfer that arrives after it closed`,
    )
    .replace(
      /send unsupported_chain: true to play a transfer on it/,
      `call checkout_pay_wrong_chain {checkout_id: ${id('checkout_id')}, chain} to play a transfer on it`,
    )
    .replace(/svc-sandbox workspaces list shows them/g, 'workspaces_list shows them')
    .replace(
      /GET \/sandbox\/merchants\/\{id\}\/api-keys lists a merchant's keys/,
      "merchant_keys {merchant_id} lists a merchant's keys",
    );
  const pathArg = tool.input.properties && Object.keys(tool.input.properties).find((k) => k in ID_ARGS);
  if (pathArg) out = out.replace(/\bparams\/(id|name|address)\b/g, pathArg);
  out = out.replace(/\b(body|querystring)\/(\w+)/g, '$2');
  // A 404 of the object the tool names: where its ids come from.
  if (/ failed: 404 /.test(out) && pathArg && pathArg in ID_ARGS) {
    const list = ID_ARGS[pathArg as IdArg].listedBy;
    if (list && !out.includes(list.split(' ')[0]!)) out += ` (${list} lists them)`;
  }
  return out;
}

/** One tool call: the answer as structured content and words, or a refusal as a tool error; never a thrown error. */
export async function callTool(
  tool: Tool,
  args: Args,
  client: SandboxClient,
  workspaceFixed: boolean,
): Promise<CallToolResult> {
  const unknown = unknownArguments(tool, args, workspaceFixed);
  if (unknown) return refusal(unknown);
  const scoped = tool.global
    ? client.in(undefined)
    : !workspaceFixed && typeof args.workspace === 'string' && args.workspace !== ''
      ? client.in(args.workspace)
      : client;
  try {
    const answer = await tool.run(args, scoped);
    return { content: [text(answer.words)], structuredContent: answer.data };
  } catch (error) {
    const known = error instanceof CliFailure || error instanceof ToolRefusal;
    return refusal(
      known
        ? agentTerms(error.message, tool, args)
        : `unexpected error: ${(error as Error)?.message ?? String(error)}`,
    );
  }
}

const ToolsetsInput = Type.Object({
  toolsets: Type.Array(StringEnum([...TOOLSET_NAMES, 'all']), {
    minItems: 1,
    description: `the toolsets to add: ${TOOLSET_NAMES.join(', ')}, or all`,
  }),
});
const ToolsetsAnswer = Type.Object({
  enabled: Type.Array(Type.String(), { description: 'every toolset enabled now' }),
  added: Type.Array(Type.String(), { description: 'the tools this call added to the list' }),
});

/** toolsets_enable: more tools at run time; the client is told the list changed. */
export function toolsetsTool(session: Session, changed: () => Promise<void>): Tool {
  return {
    name: 'toolsets_enable',
    title: 'Enable more tools',
    description: `Add toolsets to the tools served (the tool list changes): ${TOOLSET_NAMES.map((name) => `${name} (${TOOLSETS[name].short})`).join(', ')}.`,
    operations: [],
    input: ToolsetsInput,
    output: ToolsetsAnswer,
    global: true,
    readOnly: true,
    destructive: false,
    idempotent: true,
    openWorld: false,
    async run(args) {
      const asked = (Array.isArray(args.toolsets) ? args.toolsets : []) as string[];
      const unknown = asked.filter((name) => name !== 'all' && !(name in TOOLSETS));
      if (asked.length === 0 || unknown.length > 0)
        throw new ToolRefusal(
          `toolsets: ${unknown.length ? `no toolset ${unknown.join(', ')}` : 'name at least one'}; the toolsets are ${TOOLSET_NAMES.join(', ')} (or all)`,
        );
      const before = new Set(toolsIn([...session.toolsets], session.readOnly).map((t) => t.name));
      for (const name of asked.includes('all') ? TOOLSET_NAMES : (asked as ToolsetName[]))
        session.toolsets.add(name);
      const added = toolsIn([...session.toolsets], session.readOnly)
        .map((t) => t.name)
        .filter((name) => !before.has(name));
      if (added.length > 0) await changed();
      const enabled = [...session.toolsets];
      return {
        words: added.length
          ? `Enabled ${enabled.join(', ')}: ${added.length} more tools (${added.join(', ')}).`
          : `Nothing to add: ${enabled.join(', ')} already enabled.`,
        data: { enabled, added },
      };
    },
  };
}

/** The server's instructions: what it is, the common loop, the toolsets and how to enable them. */
export function instructions(session: Session): string {
  const enabled = [...session.toolsets];
  const others = TOOLSET_NAMES.filter((name) => !session.toolsets.has(name));
  return [
    "svc-sandbox: an offline sandbox of a merchant-payments and card-issuing API. Amounts are integers in the currency's minor units (USDC has 6 decimals: 25 USDC = 25000000); times are the workspace's sandbox clock (clock_now). Every result has structured content (the tool's outputSchema) beside a line of words.",
    'A typical loop: workspace_create {ephemeral: true} → merchant_create → inbox_endpoint_create {merchant_id, inbox_name} → checkout_create → checkout_pay / checkout_pay_partial {checkout_id} → clock_advance {seconds} → inbox_read {inbox_name, wait_for_event} → explain {object_id} → workspace_delete.',
    `Toolsets: ${TOOLSET_NAMES.map((name) => `${name} (${TOOLSETS[name].description})`).join('; ')}. Enabled now: ${enabled.join(', ')}.${
      others.length
        ? ` Enable more with the toolsets_enable tool, e.g. {toolsets: ["${others[0]}"]} (the tool list changes), or start the server with --toolsets ${[...enabled, others[0]].join(',')} (or --toolsets all).`
        : ''
    }`,
    ...(session.readOnly ? ['Read-only (--read-only): only tools that change nothing are served.'] : []),
    'Resources: the API spec (OpenAPI), the README and the decisions the sandbox made where the spec is silent.',
  ].join('\n');
}

export function mcpServer(client: SandboxClient, session: Session): Server {
  const server = new Server(
    { name: 'svc-sandbox', version: VERSION },
    {
      capabilities: { tools: { listChanged: true }, resources: {} },
      instructions: instructions(session),
    },
  );
  const meta = toolsetsTool(session, () => server.sendToolListChanged());
  const served = (): Tool[] => {
    const tools = toolsIn([...session.toolsets], session.readOnly);
    return session.toolsets.size < TOOLSET_NAMES.length ? [...tools, meta] : tools;
  };
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: served().map((tool) => listed(tool, session.workspaceFixed)),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const name = request.params.name;
    const tool = name === meta.name ? meta : served().find((t) => t.name === name);
    if (!tool) {
      const other = toolNamed(name);
      const set = toolsetOf(name);
      if (other && session.readOnly && !other.readOnly)
        return refusal(`${name} changes the sandbox, and this server is read-only (--read-only)`);
      if (other && set)
        return refusal(
          `${name} is in the toolset ${set}, which is not enabled: call toolsets_enable {toolsets: ["${set}"]} first (or start with --toolsets ${[...session.toolsets, set].join(',')})`,
        );
      return refusal(`no tool named ${name} (tools/list names them; toolsets_enable adds more)`);
    }
    return callTool(tool, request.params.arguments ?? {}, client, session.workspaceFixed);
  });
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: RESOURCES.map(({ uri, name, title, description, mimeType }) => ({
      uri,
      name,
      title,
      description,
      mimeType,
    })),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const resource = RESOURCES.find((r) => r.uri === request.params.uri);
    if (!resource)
      throw new McpError(
        ErrorCode.InvalidParams,
        `no resource ${request.params.uri} (resources/list names them)`,
      );
    try {
      return {
        contents: [{ uri: resource.uri, mimeType: resource.mimeType, text: await resource.read(client) }],
      };
    } catch (error) {
      throw new McpError(ErrorCode.InternalError, `${resource.uri}: ${(error as Error).message}`);
    }
  });
  return server;
}

export type ToolsetsAnswer = Static<typeof ToolsetsAnswer>;
