import { createServer } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import AjvModule from 'ajv';
import addFormats from 'ajv-formats';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NOT_TOOLS } from '../../../server/cli/mcp/coverage.js';
import { CLI, cliEnv, ensureBuilt, ROOT, runCli } from '../../helpers/cli.js';
import { testSandbox } from '../../helpers/sandbox.js';

// `svc-sandbox mcp` as an agent's MCP client meets it: the built CLI spawned over stdio, spoken to
// with the SDK's own Client, against a real sandbox listening in this process.

beforeAll(() => ensureBuilt([CLI], ['npm', 'run', 'build:server', '--silent']), 180_000);

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => {})));
});

async function sandboxUrl(): Promise<string> {
  const sandbox = await testSandbox();
  return (await sandbox.listen()).test;
}

async function connect(url: string, ...flags: string[]): Promise<Client> {
  const env = Object.fromEntries(
    Object.entries(cliEnv()).filter((e): e is [string, string] => e[1] !== undefined),
  );
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', '--url', url, ...flags],
    cwd: ROOT,
    env,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'svc-sandbox-test', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

interface Called {
  isError: boolean;
  /** the structured content (undefined on an error) */
  data: unknown;
  /** the words beside it (explain's story runs over several lines), or the refusal */
  text: string;
}

const ajv = new AjvModule.default({ strict: false, allErrors: true });
addFormats.default(ajv);
/** Each tool's output schema as the client listed it, to check every answer against. */
const outputs = new Map<string, Tool['outputSchema']>();

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Called> {
  // The SDK client checks structuredContent against the listed outputSchema itself; ajv again here.
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const first = result.content[0];
  const text = first?.type === 'text' ? first.text : '';
  const isError = result.isError === true;
  const schema = outputs.get(name);
  if (!isError && schema) {
    const validate = ajv.compile(schema);
    expect(validate(result.structuredContent), `${name}: ${ajv.errorsText(validate.errors)}`).toBe(true);
  }
  return { isError, text, data: isError ? undefined : result.structuredContent };
}

async function listTools(client: Client): Promise<Tool[]> {
  const { tools } = await client.listTools();
  for (const tool of tools) outputs.set(tool.name, tool.outputSchema);
  return tools;
}

async function ok<T>(client: Client, name: string, args: Record<string, unknown> = {}): Promise<T> {
  const called = await call(client, name, args);
  expect(called.isError, `${name}: ${called.text}`).toBe(false);
  return called.data as T;
}

describe('svc-sandbox mcp', () => {
  it('walks an agent through a partial payment with the default toolset only, reading structured content: workspace, merchant, inbox, checkout, pay part, advance, the signed checkout.partial, delete', {
    timeout: 60_000,
  }, async () => {
    const url = await sandboxUrl();
    const client = await connect(url);
    expect(client.getServerVersion()?.name).toBe('svc-sandbox');
    expect(client.getServerCapabilities()?.tools?.listChanged).toBe(true);
    const tools = await listTools(client);
    const names = tools.map((t) => t.name);
    expect(names.length).toBeLessThanOrEqual(25);
    for (const name of [
      'workspace_create',
      'merchant_create',
      'inbox_endpoint_create',
      'checkout_create',
      'checkout_pay_partial',
      'clock_advance',
      'inbox_read',
      'explain',
      'workspace_delete',
      'toolsets_enable',
    ])
      expect(names).toContain(name);
    expect(names).not.toContain('card_issue');
    // The schemas are the contract's: checkout_pay_partial requires an integer amount.
    const partial = tools.find((t) => t.name === 'checkout_pay_partial')!;
    expect(partial.inputSchema.required).toEqual(expect.arrayContaining(['checkout_id', 'amount']));
    expect(partial.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: false,
    });
    expect((partial.inputSchema.properties as Record<string, { type?: string }>).amount?.type).toBe(
      'integer',
    );

    const ws = await ok<{ id: string; name: string }>(client, 'workspace_create', {
      name: 'agent run',
      ephemeral: true,
    });
    const workspace = 'agent run';
    const made = await ok<{ merchant: { id: string }; api_key: { key: string } }>(client, 'merchant_create', {
      workspace,
      name: 'Acme',
    });
    const merchant = made.merchant.id;
    expect(made.api_key.key).toMatch(/^svcb_/);
    const endpoint = await ok<{ url: string }>(client, 'inbox_endpoint_create', {
      workspace,
      merchant_id: merchant,
      inbox_name: 'hooks',
    });
    expect(endpoint.url).toBe(`${url}/w/${ws.id}/sandbox/inbox/hooks`);

    const checkout = await ok<{ id: string; status: string; amount: number }>(client, 'checkout_create', {
      workspace,
      merchant_id: merchant,
      title: 'Order 1',
      amount: 25_000_000,
      currency: 'USDC',
    });
    expect(checkout).toMatchObject({ status: 'active', amount: 25_000_000 });
    const paid = await call(client, 'checkout_pay_partial', {
      workspace,
      checkout_id: checkout.id,
      amount: 10_000_000,
    });
    expect(paid.isError, paid.text).toBe(false);
    expect(paid.text).toMatch(/^Transfer of 10000000 \(minor units\) received and credited\./);
    expect(paid.data).toMatchObject({
      payment: { amount: 10_000_000, outcome: 'received' },
      checkout: { id: checkout.id },
    });

    const advanced = await call(client, 'clock_advance', { workspace, seconds: 2 * 3600 });
    expect(advanced.isError, advanced.text).toBe(false);
    expect(advanced.text).toContain('checkout.partial');
    expect(advanced.data).toMatchObject({
      fired: { events: expect.arrayContaining([expect.objectContaining({ type: 'checkout.partial' })]) },
    });

    const inbox = await ok<{
      messages: {
        event: string;
        signature_valid: boolean | null;
        body: { event: string; data: { id: string; status: string } };
      }[];
    }>(client, 'inbox_read', {
      workspace,
      inbox_name: 'hooks',
      wait_for_event: 'checkout.partial',
      timeout_seconds: 20,
    });
    const webhook = inbox.messages.find((m) => m.event === 'checkout.partial');
    expect(webhook?.body).toMatchObject({
      event: 'checkout.partial',
      data: { id: checkout.id, status: 'partial' },
    });
    expect(webhook?.signature_valid).toBe(true);

    // The workspace argument chose: the default workspace saw none of it.
    expect(await ok<{ items: unknown[] }>(client, 'merchants_list')).toEqual({ items: [] });

    const story = await call(client, 'explain', { workspace, object_id: checkout.id });
    expect(story.isError, story.text).toBe(false);
    // The on-chain transfer and what it did to the checkout, before the events it led to.
    const steps = (story.data as { steps: { kind: string; what: string }[] }).steps;
    expect(steps[0]).toMatchObject({ kind: 'event', what: expect.stringContaining('checkout.created') });
    expect(steps.find((s) => s.kind === 'transfer')?.what).toContain(
      'received: 10000000 of 25000000 credited, 15000000 still due',
    );
    const lines = story.text.split('\n');
    const created = lines.findIndex((l) => l.includes('checkout.created'));
    const partialLine = lines.findIndex((l) => l.includes('checkout.partial') && l.includes('event'));
    const attempt = lines.findIndex(
      (l) => l.includes('webhook checkout.partial attempt 1') && l.includes('answered 200'),
    );
    expect(created).toBeGreaterThan(0);
    expect(partialLine).toBeGreaterThan(created);
    expect(attempt).toBeGreaterThan(partialLine);
    expect(lines.findIndex((l) => l.includes('transfer of 10000000'))).toBeGreaterThan(created);

    expect(await ok(client, 'workspace_delete', { workspace_id: ws.id })).toEqual({ deleted: ws.id });
    expect(
      (await ok<{ items: { id: string }[] }>(client, 'workspaces_list')).items.map((w) => w.id),
    ).not.toContain(ws.id);
  });

  it("answers a refused call as a tool error carrying the sandbox's own message, and keeps serving", {
    timeout: 60_000,
  }, async () => {
    const url = await sandboxUrl();
    const client = await connect(url, '--toolsets', 'core,checkouts');
    await listTools(client);
    const { merchant } = await ok<{ merchant: { id: string } }>(client, 'merchant_create', { name: 'Acme' });
    const checkout = await ok<{ id: string }>(client, 'checkout_create', {
      merchant_id: merchant.id,
      title: 'Order',
      amount: 5_000_000,
      currency: 'USDC',
    });
    await ok(client, 'checkout_pay', { checkout_id: checkout.id });

    const refused = await call(client, 'checkout_cancel', { checkout_id: checkout.id });
    expect(refused.isError).toBe(true);
    // The same call made directly: the sandbox refuses it with this message.
    const direct = await fetch(`${url}/sandbox/checkouts/${checkout.id}/cancel`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    const { error } = (await direct.json()) as { error: string };
    expect(direct.status).toBe(400);
    expect(refused.text).toContain(error);
    // A hint for another client (a body field) comes back as the tool to call, with its arguments.
    const again = await call(client, 'checkout_pay', { checkout_id: checkout.id });
    expect(again.isError).toBe(true);
    expect(again.text).toContain(`call checkout_pay_late {checkout_id: "${checkout.id}"}`);
    expect(again.text).not.toContain('late: true');

    const invalid = await call(client, 'clock_advance', { seconds: -5 });
    expect(invalid.isError).toBe(true);
    expect(invalid.text).toMatch(/422 .*seconds/);
    const unknown = await call(client, 'merchants_list', { workspace: 'no such workspace' });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toMatch(/404/);
    expect(unknown.text).toContain('workspaces_list shows them');
    const missing = await call(client, 'checkout_get', {});
    expect(missing).toMatchObject({ isError: true, text: 'checkout_id: is required' });
    // A guessed argument is refused by name, never ignored.
    const guessed = await call(client, 'checkout_get', { id: checkout.id });
    expect(guessed.isError).toBe(true);
    expect(guessed.text).toBe(
      'checkout_get takes no argument id (id: did you mean checkout_id?); it takes: checkout_id, workspace',
    );
    expect((await call(client, 'no_such_tool')).isError).toBe(true);
    const elsewhere = await call(client, 'card_issue', {});
    expect(elsewhere.text).toContain('toolsets_enable {toolsets: ["cards"]}');

    // Still serving.
    expect(await ok<{ status: string }>(client, 'checkout_get', { checkout_id: checkout.id })).toMatchObject({
      checkout: { status: 'paid' },
    });
  });

  it('covers every control operation of the contract with a tool, or excludes it with a reason', {
    timeout: 60_000,
  }, async () => {
    const url = await sandboxUrl();
    const client = await connect(url, '--toolsets', 'all');
    const document = (await (await fetch(`${url}/sandbox/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { operationId?: string }>>;
    };
    const all = new Set<string>();
    const control: string[] = [];
    for (const [path, operations] of Object.entries(document.paths))
      for (const operation of Object.values(operations)) {
        if (!operation.operationId) continue;
        all.add(operation.operationId);
        if (path.startsWith('/sandbox/')) control.push(operation.operationId);
      }
    const { tools } = await client.listTools();
    const called = new Set<string>();
    for (const tool of tools) {
      expect(tool.description?.length, tool.name).toBeGreaterThan(30);
      expect(tool.inputSchema.type).toBe('object');
      const operations = tool._meta?.['svc-sandbox/operations'] as string[] | undefined;
      expect(operations?.length, `${tool.name} names the operations it calls`).toBeGreaterThan(0);
      for (const op of operations ?? []) {
        expect(all.has(op), `${tool.name} calls ${op}, which the OpenAPI document does not have`).toBe(true);
        called.add(op);
      }
    }
    expect(
      control.filter((op) => !called.has(op) && !(op in NOT_TOOLS)),
      'control operations with no tool and no reason',
    ).toEqual([]);
    expect(
      Object.keys(NOT_TOOLS).filter((op) => !control.includes(op)),
      'exclusions of operations that no longer exist',
    ).toEqual([]);
    expect(
      Object.keys(NOT_TOOLS).filter((op) => called.has(op)),
      'excluded yet called by a tool',
    ).toEqual([]);
    expect(new Set(tools.map((t) => t.name)).size).toBe(tools.length);

    const { resources } = await client.listResources();
    expect(resources.map((r) => r.name)).toEqual(expect.arrayContaining(['spec', 'readme', 'decisions']));
    const spec = await client.readResource({ uri: 'svc-sandbox://spec/openapi.json' });
    const specText = spec.contents[0] && 'text' in spec.contents[0] ? spec.contents[0].text : '';
    expect(JSON.parse(specText as string)).toMatchObject({ openapi: expect.stringMatching(/^3\./) });
    const readme = await client.readResource({ uri: 'svc-sandbox://docs/README.md' });
    expect(readme.contents[0] && 'text' in readme.contents[0] ? readme.contents[0].text : '').toContain(
      'Driving the sandbox from a coding agent',
    );
  });

  it('--workspace fixes the workspace: no workspace argument, every call lands there', {
    timeout: 60_000,
  }, async () => {
    const url = await sandboxUrl();
    await fetch(`${url}/sandbox/workspaces`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'fixed', ephemeral: true }),
    });
    const unknown = await runCli(['mcp', '--url', url, '--workspace', 'nope'], { timeoutMs: 20_000 });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no workspace "nope"');
    const client = await connect(url, '--workspace', 'fixed');
    const { tools } = await client.listTools();
    expect(tools.filter((t) => 'workspace' in (t.inputSchema.properties ?? {})).map((t) => t.name)).toEqual(
      [],
    );
    await ok(client, 'merchant_create', { name: 'In fixed' });
    const inFixed = (await (
      await fetch(`${url}/sandbox/merchants`, { headers: { 'x-svc-workspace': 'fixed' } })
    ).json()) as unknown[];
    const inDefault = (await (await fetch(`${url}/sandbox/merchants`)).json()) as unknown[];
    expect([inFixed.length, inDefault.length]).toEqual([1, 0]);
  });

  it('--control-token opens a sandbox that requires one; without it, exit 1 before the handshake', {
    timeout: 60_000,
  }, async () => {
    const sandbox = await testSandbox({ controlToken: 'mcp-test-token' });
    const url = (await sandbox.listen()).test;
    const refused = await runCli(['mcp', '--url', url], { timeoutMs: 20_000 });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/GET \/sandbox\/workspaces failed: 40[13]/);
    const client = await connect(url, '--control-token', 'mcp-test-token');
    expect(await ok(client, 'merchants_list')).toEqual({ items: [] });
  });

  it('is on --help, details itself on mcp --help, and refuses a bad flag with exit 2', {
    timeout: 30_000,
  }, async () => {
    const top = await runCli(['--help'], { timeoutMs: 20_000 });
    expect(top.stdout).toMatch(/^ {2}mcp\b/m);
    const help = await runCli(['mcp', '--help'], { timeoutMs: 20_000 });
    expect([help.code, help.stderr]).toEqual([0, '']);
    expect(help.stdout).toContain('Usage: svc-sandbox mcp');
    expect(help.stdout).toContain('--toolsets');
    expect(help.stdout).toContain('--read-only');
    const bad = await runCli(['mcp', '--nope'], { timeoutMs: 20_000 });
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    const unknownSet = await runCli(['mcp', '--toolsets', 'core,nope'], { timeoutMs: 20_000 });
    expect(unknownSet.code).toBe(2);
    expect(unknownSet.stderr).toContain('no toolset nope: the toolsets are core, checkouts,');
  });

  it('with no sandbox answering: a message on stderr and exit 1, before any handshake', {
    timeout: 30_000,
  }, async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const result = await runCli(['mcp', '--url', `http://127.0.0.1:${port}`], { timeoutMs: 20_000 });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`no sandbox answering at http://127.0.0.1:${port}`);
  });
});
