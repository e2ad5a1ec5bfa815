import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { clientFor } from './client.js';
import { COMMON_HELP, CONTROL_TOKEN_ENV, noExtra, parse, UsageError } from './common.js';
import { mcpServer, type Session } from './mcp/server.js';
import { DEFAULT_TOOLSETS, parseToolsets, TOOLSET_NAMES, TOOLSETS, toolsIn } from './mcp/toolsets.js';

export { callTool, listed } from './mcp/server.js';

export const MCP_USAGE = `Usage: svc-sandbox mcp [--url <url>] [--workspace <id|name>] [--control-token <secret>]
                        [--toolsets <a,b|all>] [--read-only]

  Speaks the Model Context Protocol on stdin/stdout, so a coding agent (Claude Code, Claude
  Desktop, Cursor, VS Code...) can drive a running sandbox. Its tools come in toolsets; the
  default, core, is the common task: workspaces, merchants, checkouts and payments, the clock,
  the built-in webhook inbox and explain (an object's story). An agent can add toolsets while it
  runs (the toolsets_enable tool).
  Without --workspace each tool takes a \`workspace\` argument (id or name; default: the default
  workspace). Exits 1 at once if no sandbox answers. Logs go to stderr only.

Options:
  --toolsets <names>
                    the toolsets to serve, comma-separated, or all (default: core):
${TOOLSET_NAMES.map((name) => `                      ${name.padEnd(12)}${TOOLSETS[name].short}`).join('\n')}
  --read-only       serve only the tools that change nothing (reads, request verification, explain)
  --control-token <secret>
                    the sandbox's control token (serve --control-token), instead of
                    $${CONTROL_TOKEN_ENV}
${COMMON_HELP}
Example (an MCP client's configuration):
  {"mcpServers": {"svc-sandbox": {"command": "npx", "args": ["svc-sandbox", "mcp"]}}}
`;

export async function mcp(argv: string[]): Promise<number | 'help'> {
  const { values, positionals } = parse(argv, {
    'control-token': { type: 'string' },
    toolsets: { type: 'string' },
    'read-only': { type: 'boolean' },
  });
  if (values.help) return 'help';
  noExtra(positionals, 1);
  let toolsets = [...DEFAULT_TOOLSETS];
  if (typeof values.toolsets === 'string') {
    try {
      toolsets = parseToolsets(values.toolsets);
    } catch (error) {
      throw new UsageError(`--toolsets: ${(error as Error).message}`);
    }
  }
  const token = values['control-token'];
  if (typeof token === 'string' && token !== '') process.env[CONTROL_TOKEN_ENV] = token;
  const client = clientFor(values);
  // Before the handshake: an agent's MCP client shows a server that exits with a message on
  // stderr far better than one that starts and then fails every call.
  // Listing the workspaces also proves the control token, which the health check does not need.
  await client.workspaces();
  if (client.workspace !== undefined) await client.findWorkspace(client.workspace);
  const session: Session = {
    workspaceFixed: client.workspace !== undefined,
    readOnly: values['read-only'] === true,
    toolsets: new Set(toolsets),
  };
  const server = mcpServer(client, session);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
    // The transport does not watch for the end of stdin: the client going away ends the server.
    process.stdin.once('end', () => void server.close());
  });
  await server.connect(transport);
  process.stderr.write(
    `svc-sandbox mcp: serving ${toolsIn(toolsets, session.readOnly).length + (toolsets.length < TOOLSET_NAMES.length ? 1 : 0)} tools (${toolsets.join(', ')}${session.readOnly ? ', read-only' : ''}) for ${client.baseUrl}${client.workspace ? ` (workspace ${client.workspace})` : ''}\n`,
  );
  await closed;
  return 0;
}
