import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
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
import { VERSION } from '../version.js';
import { clientFor, type SandboxClient } from './client.js';
import { CliFailure, COMMON_HELP, CONTROL_TOKEN_ENV, noExtra, parse } from './common.js';
import { RESOURCES } from './mcp/resources.js';
import { type Tool, ToolRefusal } from './mcp/tool.js';
import { TOOLS } from './mcp/tools.js';

export const MCP_USAGE = `Usage: svc-sandbox mcp [--url <url>] [--workspace <id|name>] [--control-token <secret>]

  Speaks the Model Context Protocol on stdin/stdout, so a coding agent (Claude Code, Claude
  Desktop, Cursor, VS Code...) can drive a running sandbox: workspaces, checkpoints, merchants,
  checkouts and payments, deposits and payouts, cardholders, KYC and cards, the card network, the
  clock, webhooks and the built-in inbox, the request log, and explain (an object's story).
  Without --workspace each tool takes a \`workspace\` argument (id or name; default: the default
  workspace). Exits 1 at once if no sandbox answers. Logs go to stderr only.

Options:
  --control-token <secret>
                    the sandbox's control token (serve --control-token), instead of
                    $${CONTROL_TOKEN_ENV}
${COMMON_HELP}
Example (an MCP client's configuration):
  {"mcpServers": {"svc-sandbox": {"command": "npx", "args": ["svc-sandbox", "mcp"]}}}
`;

const INSTRUCTIONS = `svc-sandbox: an offline sandbox of a merchant-payments and card-issuing API. Amounts are integers in the currency's minor units (USDC has 6 decimals: 25 USDC = 25000000); times are the workspace's sandbox clock (clock_now).
A typical loop: workspace_create (ephemeral) → merchant_create → inbox_endpoint_create (webhooks into a built-in inbox) → checkout_create → checkout_pay / checkout_pay_partial → clock_advance → inbox_read (wait_for_event) → explain <id>.
Resources: the API spec (OpenAPI), the README and the decisions the sandbox made where the spec is silent.`;

const WORKSPACE_ARG = {
  type: 'string',
  minLength: 1,
  maxLength: 64,
  description: 'the workspace to act in (id or name, see workspaces_list); default: the default workspace',
};

/** A tool as MCP lists it: the contract's JSON Schema as is, plus `workspace` when the call may pick one. */
export function listed(tool: Tool, workspaceFixed: boolean): McpTool {
  // TypeBox schemas are JSON Schema; a round trip drops TypeBox's own markers and $ids.
  const schema = JSON.parse(
    JSON.stringify(tool.input, (key, value: unknown) => (key === '$id' ? undefined : value)),
  ) as {
    properties?: Record<string, unknown>;
  };
  const properties = {
    ...schema.properties,
    ...(workspaceFixed || tool.global ? {} : { workspace: WORKSPACE_ARG }),
  };
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: { ...schema, type: 'object', properties },
    _meta: { 'svc-sandbox/operations': [...tool.operations] },
  };
}

const text = (value: string): CallToolResult['content'][number] => ({ type: 'text', text: value });

/** One tool call: the answer, or the sandbox's refusal as a tool error; never a thrown error. */
export async function callTool(
  tool: Tool,
  args: Record<string, unknown>,
  client: SandboxClient,
  workspaceFixed: boolean,
): Promise<CallToolResult> {
  const scoped = tool.global
    ? client.in(undefined)
    : !workspaceFixed && typeof args.workspace === 'string' && args.workspace !== ''
      ? client.in(args.workspace)
      : client;
  try {
    const answer = await tool.run(args, scoped);
    // The words first (explain's run over several lines), the JSON alone on the last line.
    return { content: [text(`${answer.words}\n${JSON.stringify(answer.data)}`)] };
  } catch (error) {
    const known = error instanceof CliFailure || error instanceof ToolRefusal;
    return {
      isError: true,
      content: [
        text(known ? error.message : `unexpected error: ${(error as Error)?.message ?? String(error)}`),
      ],
    };
  }
}

export function mcpServer(client: SandboxClient, workspaceFixed: boolean): Server {
  const server = new Server(
    { name: 'svc-sandbox', version: VERSION },
    { capabilities: { tools: {}, resources: {} }, instructions: INSTRUCTIONS },
  );
  const byName = new Map(TOOLS.map((tool) => [tool.name, tool]));
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: TOOLS.map((tool) => listed(tool, workspaceFixed)),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = byName.get(request.params.name);
    if (!tool)
      return {
        isError: true,
        content: [text(`no tool named ${request.params.name} (tools/list names them)`)],
      };
    return callTool(tool, request.params.arguments ?? {}, client, workspaceFixed);
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

export async function mcp(argv: string[]): Promise<number | 'help'> {
  const { values, positionals } = parse(argv, { 'control-token': { type: 'string' } });
  if (values.help) return 'help';
  noExtra(positionals, 1);
  const token = values['control-token'];
  if (typeof token === 'string' && token !== '') process.env[CONTROL_TOKEN_ENV] = token;
  const client = clientFor(values);
  // Before the handshake: an agent's MCP client shows a server that exits with a message on
  // stderr far better than one that starts and then fails every call.
  // Listing the workspaces also proves the control token, which the health check does not need.
  await client.workspaces();
  if (client.workspace !== undefined) await client.findWorkspace(client.workspace);
  const server = mcpServer(client, client.workspace !== undefined);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
    // The transport does not watch for the end of stdin: the client going away ends the server.
    process.stdin.once('end', () => void server.close());
  });
  await server.connect(transport);
  process.stderr.write(
    `svc-sandbox mcp: serving ${TOOLS.length} tools for ${client.baseUrl}${client.workspace ? ` (workspace ${client.workspace})` : ''}\n`,
  );
  await closed;
  return 0;
}
