import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  type CallToolResult,
  type Tool as McpTool,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import AjvModule from 'ajv';
import addFormats from 'ajv-formats';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { SandboxClient } from '../../server/cli/client.js';
import { lint, portable, project } from '../../server/cli/mcp/schema.js';
import { agentTerms, callTool, listed, mcpServer, type Session } from '../../server/cli/mcp/server.js';
import { TOOLS } from '../../server/cli/mcp/tools.js';
import {
  DEFAULT_TOOLSETS,
  parseToolsets,
  TOOLSET_NAMES,
  TOOLSETS,
  toolsetOf,
  toolsIn,
} from '../../server/cli/mcp/toolsets.js';
import { operation } from '../../server/contract/call.js';
import { Nullable } from '../../server/contract/common.js';
import { testSandbox } from '../helpers/sandbox.js';

// What an MCP client is given: the toolsets (the default one's size), every tool's annotations,
// described arguments and declared output schema, schemas every client accepts (the strict check:
// the inspector's --strict needs Node 22.19, so the same rules are checked here), and results that
// validate against the schema declared for them.

/** The default session's budget: what an agent's context pays before its first call. */
const DEFAULT_MAX_TOOLS = 25;
const DEFAULT_MAX_BYTES = 32 * 1024;

const offline = new SandboxClient('http://127.0.0.1:9', undefined);

/** A server of this session and an SDK client connected to it in memory; close() ends both. */
async function connect(client: SandboxClient, session: Partial<Session> = {}) {
  const server = mcpServer(client, {
    workspaceFixed: false,
    readOnly: false,
    toolsets: new Set(DEFAULT_TOOLSETS),
    ...session,
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const sdk = new Client({ name: 'mcp-schemas-test', version: '1.0.0' });
  await server.connect(serverSide);
  await sdk.connect(clientSide);
  return { sdk, close: () => Promise.all([sdk.close(), server.close()]) };
}

const ajv = new AjvModule.default({ strict: false, allErrors: true });
addFormats.default(ajv);

describe('mcp toolsets', () => {
  it('hold every tool exactly once', () => {
    const listedIn = TOOLSET_NAMES.flatMap((set) => TOOLSETS[set].tools as readonly string[]);
    expect([...listedIn].sort()).toEqual(TOOLS.map((t) => t.name).sort());
    expect(new Set(listedIn).size).toBe(listedIn.length);
    expect(parseToolsets('all')).toEqual(TOOLSET_NAMES);
    expect(parseToolsets('cards, core')).toEqual(['cards', 'core']);
    expect(() => parseToolsets('core,nope')).toThrow(/no toolset nope: the toolsets are core, /);
  });

  it(`list a default set of at most ${DEFAULT_MAX_TOOLS} tools and ${DEFAULT_MAX_BYTES} bytes of tools/list, output schemas included`, async () => {
    const { sdk, close } = await connect(offline);
    try {
      const result = await sdk.listTools();
      const bytes = Buffer.byteLength(JSON.stringify(result));
      const names = result.tools.map((t) => t.name);
      // Measured when written: 17 tools, 31.0 KB (30,987 bytes). A tool more, or a schema grown, shows here.
      expect(names.length).toBe(17);
      expect(names.length).toBeLessThanOrEqual(DEFAULT_MAX_TOOLS);
      expect(bytes).toBeLessThanOrEqual(DEFAULT_MAX_BYTES);
      expect(names).toEqual([...toolsIn(['core'], false).map((t) => t.name), 'toolsets_enable']);
      for (const name of ['workspace_create', 'merchant_create', 'inbox_endpoint_create', 'checkout_create'])
        expect(names).toContain(name);
      for (const name of [
        'checkout_pay_partial',
        'clock_advance',
        'inbox_read',
        'explain',
        'workspace_delete',
      ])
        expect(names).toContain(name);
      // The instructions name every toolset and how to enable one.
      const instructions = sdk.getInstructions() ?? '';
      for (const set of TOOLSET_NAMES) expect(instructions).toContain(`${set} (`);
      expect(instructions).toContain('toolsets_enable');
      expect(instructions).toContain('--toolsets');
    } finally {
      await close();
    }
  });

  it('--read-only lists only tools that change nothing; a write is refused by name', async () => {
    const { sdk, close } = await connect(offline, { readOnly: true, toolsets: new Set(TOOLSET_NAMES) });
    try {
      const { tools } = await sdk.listTools();
      expect(tools.length).toBe(TOOLS.filter((t) => t.readOnly).length);
      for (const tool of tools) expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
      // Read-only is the operation table's `reads`, except a POST that only reads.
      for (const tool of TOOLS.filter((t) => t.readOnly)) {
        const posts = tool.operations.filter((id) => !operation(id).reads);
        expect(posts, tool.name).toEqual(tool.name === 'requests_verify' ? ['sandboxVerifyRequests'] : []);
      }
      const refused = (await sdk.callTool({ name: 'checkout_create', arguments: {} })) as CallToolResult;
      expect(refused.isError).toBe(true);
      expect(refused.content[0]).toMatchObject({ text: expect.stringContaining('read-only (--read-only)') });
    } finally {
      await close();
    }
  });

  it('toolsets_enable adds a toolset at run time and tells the client the list changed', async () => {
    const { sdk, close } = await connect(offline);
    try {
      let changed = 0;
      sdk.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        changed++;
      });
      const before = (await sdk.listTools()).tools.map((t) => t.name);
      expect(before).not.toContain('card_issue');
      const notYet = (await sdk.callTool({ name: 'card_issue', arguments: {} })) as CallToolResult;
      expect(notYet.isError).toBe(true);
      expect(notYet.content[0]).toMatchObject({
        text: expect.stringContaining('toolsets_enable {toolsets: ["cards"]}'),
      });
      const enabled = (await sdk.callTool({
        name: 'toolsets_enable',
        arguments: { toolsets: ['cards'] },
      })) as CallToolResult;
      expect(enabled.isError).toBeFalsy();
      expect(enabled.structuredContent).toMatchObject({ enabled: ['core', 'cards'] });
      expect((enabled.structuredContent as { added: string[] }).added).toContain('card_issue');
      await expect.poll(() => changed).toBe(1);
      const after = (await sdk.listTools()).tools.map((t) => t.name);
      expect(after).toContain('card_issue');
      expect(after.length).toBe(before.length + TOOLSETS.cards.tools.length);
    } finally {
      await close();
    }
  });
});

/** Every tool as listed, with and without the `workspace` argument. */
const everyListing = (): McpTool[] =>
  [false, true].flatMap((fixed) => TOOLS.map((tool) => listed(tool, fixed)));

describe('mcp tool definitions', () => {
  it('carry a title and every annotation, described arguments and a declared output schema', () => {
    const problems: string[] = [];
    for (const tool of everyListing()) {
      if (!tool.title) problems.push(`${tool.name}: no title`);
      const a = tool.annotations ?? {};
      for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const)
        if (typeof a[hint] !== 'boolean') problems.push(`${tool.name}: no ${hint}`);
      if (a.readOnlyHint && a.destructiveHint) problems.push(`${tool.name}: read-only and destructive`);
      for (const [name, schema] of Object.entries(tool.inputSchema.properties ?? {}))
        if (typeof (schema as { description?: unknown }).description !== 'string')
          problems.push(`${tool.name}.${name}: no description`);
      if (tool.outputSchema?.type !== 'object') problems.push(`${tool.name}: no output schema`);
    }
    expect(problems).toEqual([]);
    // Nothing leaves the machine but the sends to a URL the user gave.
    expect(TOOLS.filter((t) => t.openWorld).map((t) => t.name)).toEqual([
      'webhook_endpoint_test',
      'delivery_retry',
      'delivery_resend',
      'receiver_check',
    ]);
    expect(toolsetOf('checkout_pay_partial')).toBe('core');
  });

  it('name an existing object one way everywhere: <object>_id or <object>_name, never a bare id', () => {
    const bare = everyListing().flatMap((tool) =>
      Object.keys(tool.inputSchema.properties ?? {})
        .filter((name) => name === 'id' || name === 'name')
        .map((name) => `${tool.name}.${name}`),
    );
    // `name` is the name of what the tool makes (a merchant, a workspace, a checkpoint, a key), or the new one.
    expect(bare.filter((b) => b.endsWith('.id'))).toEqual([]);
    expect([...new Set(bare)].sort()).toEqual([
      'cardholder_create.name',
      'checkpoint_save.name',
      'merchant_create.name',
      'merchant_key_create.name',
      'merchant_update.name',
      'workspace_create.name',
    ]);
  });

  it('are portable: 0 findings of the strict check (type arrays, untyped or unshaped schemas, $ref, $id)', () => {
    const findings = everyListing().flatMap((tool) =>
      [...lint(tool.inputSchema, 'inputSchema'), ...lint(tool.outputSchema, 'outputSchema')].map(
        (f) => `${tool.name}: ${f.path}: ${f.issue}`,
      ),
    );
    expect(findings).toEqual([]);
  });

  it('the strict check finds what it is for, and portable() rewrites the contract into its terms', () => {
    const bad = {
      type: 'object',
      properties: {
        rate: { type: ['integer', 'null'] },
        any: {},
        loose: { type: 'object' },
        yes: true,
        list: { type: 'array' },
      },
    };
    expect(lint(bad).map((f) => f.path)).toEqual([
      '.properties.rate',
      '.properties.any',
      '.properties.loose',
      '.properties.yes',
      '.properties.list',
    ]);
    const contract = Type.Object({
      rate: Nullable(Type.Integer({ minimum: 0, description: 'bps' })),
      kind: Nullable(Type.Unsafe<string>({ type: 'string', enum: ['a', 'b'] })),
      data: Type.Record(Type.String(), Type.Unknown()),
      headers: Type.Record(Type.String(), Type.String()),
    });
    const made = portable(contract);
    expect(made.properties).toEqual({
      rate: { anyOf: [{ type: 'integer', minimum: 0 }, { type: 'null' }], description: 'bps' },
      kind: { anyOf: [{ type: 'string', enum: ['a', 'b'] }, { type: 'null' }] },
      data: { type: 'object', additionalProperties: true },
      headers: { type: 'object', additionalProperties: { type: 'string' } },
    });
    expect(lint(made)).toEqual([]);
    expect(() => portable(Type.Object({ body: Type.Unknown() }))).toThrow(
      '#/properties/body: a schema with no type',
    );
    // An answer is cut to what its schema declares.
    const Out = Type.Object({ a: Type.Integer(), inner: Nullable(Type.Object({ b: Type.String() })) });
    expect(project(portable(Out), { a: 1, extra: 2, inner: { b: 'x', c: 3 } })).toEqual({
      a: 1,
      inner: { b: 'x' },
    });
  });
});

describe('mcp calls', () => {
  it('refuse an argument the tool does not take, by name, with the ones it does take', async () => {
    const tool = TOOLS.find((t) => t.name === 'checkout_get')!;
    const result = await callTool(tool, { id: 'x', checkout_idd: 'y' }, offline, false);
    expect(result.isError).toBe(true);
    expect(result.content[0]).toMatchObject({
      text: 'checkout_get takes no argument id, checkout_idd (id: did you mean checkout_id?); it takes: checkout_id, workspace',
    });
    const fixed = await callTool(tool, { checkout_id: 'x', workspace: 'w' }, offline, true);
    expect(fixed.content[0]).toMatchObject({ text: expect.stringContaining('fixed by --workspace') });
  });

  it("put the sandbox's hints in the agent's terms: the tool to call and its arguments", () => {
    const pay = TOOLS.find((t) => t.name === 'checkout_pay')!;
    expect(
      agentTerms(
        'POST /sandbox/checkouts/c1/payments failed: 400 Checkout is not active (status: expired); send late: true to play a transfer that arrives after it closed',
        pay,
        { checkout_id: 'c1' },
      ),
    ).toBe(
      'POST /sandbox/checkouts/c1/payments failed: 400 Checkout is not active (status: expired); call checkout_pay_late {checkout_id: "c1"} to play a transfer that arrives after it closed',
    );
    expect(agentTerms('no workspace "x" at http://h (svc-sandbox workspaces list shows them)', pay, {})).toBe(
      'no workspace "x" at http://h (workspaces_list shows them)',
    );
    expect(
      agentTerms('GET /sandbox/checkouts/c1 failed: 404 Checkout not found', pay, { checkout_id: 'c1' }),
    ).toBe(
      'GET /sandbox/checkouts/c1 failed: 404 Checkout not found (checkouts_list {merchant_id} lists them)',
    );
    expect(
      agentTerms(
        'POST /sandbox/checkouts/c1/payments failed: 422 params/id must match format "uuid"',
        pay,
        {},
      ),
    ).toContain('checkout_id must match');
  });

  it('answer structured content that validates against each tool’s output schema, across the toolsets', {
    timeout: 60_000,
  }, async () => {
    const sandbox = await testSandbox();
    const url = (await sandbox.listen()).test;
    const { sdk, close } = await connect(new SandboxClient(url, undefined), {
      toolsets: new Set(TOOLSET_NAMES),
    });
    try {
      const { tools } = await sdk.listTools();
      const validators = new Map(tools.map((t) => [t.name, ajv.compile(t.outputSchema!)]));
      const called = new Set<string>();
      const ok = async <T = Record<string, unknown>>(name: string, args: Record<string, unknown> = {}) => {
        const result = (await sdk.callTool({ name, arguments: args })) as CallToolResult;
        const words = result.content[0]?.type === 'text' ? result.content[0].text : '';
        expect(result.isError, `${name}: ${words}`).toBeFalsy();
        const validate = validators.get(name)!;
        expect(validate(result.structuredContent), `${name}: ${ajv.errorsText(validate.errors)}`).toBe(true);
        // The words are a summary, not the JSON.
        expect(words.length, name).toBeGreaterThan(0);
        expect(words.startsWith('{'), name).toBe(false);
        called.add(name);
        return result.structuredContent as T;
      };
      const ws = await ok<{ id: string; name: string }>('workspace_create', {
        name: 'schemas',
        ephemeral: true,
      });
      const workspace = ws.name;
      await ok('workspaces_list');
      const { merchant } = await ok<{ merchant: { id: string } }>('merchant_create', {
        workspace,
        name: 'Acme',
      });
      const m = { workspace, merchant_id: merchant.id };
      await ok('merchant_get', m);
      await ok('merchants_list', { workspace });
      await ok('merchant_update', { ...m, platform_rate: 150 });
      await ok('merchant_update', { ...m, platform_rate: null });
      const key = await ok<{ id: string }>('merchant_key_create', { ...m, name: 'dev', role: 'developer' });
      await ok('api_key_revoke', { workspace, api_key_id: key.id });
      await ok('merchant_keys', m);
      const endpoint = await ok<{ id: string }>('inbox_endpoint_create', { ...m, inbox_name: 'hooks' });
      const checkout = await ok<{ id: string }>('checkout_create', {
        ...m,
        title: 'Order 1',
        amount: 25_000_000,
        currency: 'USDC',
      });
      const c = { workspace, checkout_id: checkout.id };
      await ok('checkout_pay_partial', { ...c, amount: 10_000_000 });
      await ok('clock_now', { workspace });
      await ok('clock_advance', { workspace, seconds: 7200 });
      await ok('inbox_read', { workspace, inbox_name: 'hooks', wait_for_event: 'checkout.partial' });
      await ok('checkout_pay_late', { ...c, amount: 1_000_000 });
      const story = await ok<{ steps: { kind: string; what: string }[] }>('explain', {
        workspace,
        object_id: checkout.id,
      });
      expect(story.steps.filter((s) => s.kind === 'transfer').map((s) => s.what)).toEqual([
        expect.stringContaining('10000000 of 25000000 credited, 15000000 still due'),
        expect.stringContaining('recorded as late, not credited'),
      ]);
      await ok('checkout_get', c);
      await ok('checkouts_list', { ...m, status: 'partial' });
      await ok('events_list', { ...m, type: 'checkout.partial' });
      const deliveries = await ok<{ items: { id: string }[] }>('deliveries_list', m);
      await ok('delivery_get', { workspace, delivery_id: deliveries.items[0]!.id });
      await ok('inboxes_list', { workspace });
      await ok('inbox_configure', { workspace, inbox_name: 'hooks', response_status: 200 });
      await ok('inbox_clear', { workspace, inbox_name: 'hooks' });
      const paid = await ok<{ id: string }>('checkout_create', { ...m, title: 'Order 2', amount: 5_000_000 });
      await ok('checkout_pay', { workspace, checkout_id: paid.id });
      await ok('checkout_complete', { workspace, checkout_id: paid.id });
      await ok('checkout_refund', { workspace, checkout_id: paid.id, amount: 2_000_000 });
      const open = await ok<{ id: string }>('checkout_create', { ...m, title: 'Order 3' });
      await ok('checkout_cancel', { workspace, checkout_id: open.id });
      const expiring = await ok<{ id: string }>('checkout_create', { ...m, title: 'Order 4', amount: 1 });
      await ok('checkout_expire', { workspace, checkout_id: expiring.id });
      const requests = await ok<{ items: { id: string }[] }>('request_log_list', { workspace });
      await ok('request_log_get', { workspace, request_id: requests.items[0]!.id });
      await ok('requests_verify', {
        workspace,
        method: 'POST',
        path: '/v1/checkouts',
        body: { title: 'Order 1' },
      });
      await ok('balances', m);
      await ok('merchant_credit', { ...m, currency: 'USDC', amount: 50_000_000 });
      await ok('payout_create', { ...m, amount: 1_000_000, currency: 'USDC' });
      await ok('payouts_list', m);
      const settings = await ok<{ chains: { chain: string }[] }>('settings_get', { workspace });
      await ok('deposit_create', {
        ...m,
        chain: settings.chains[0]!.chain,
        currency: 'USDC',
        amount: 2_000_000,
      });
      await ok('deposits_list', m);
      await ok('webhook_endpoints_list', m);
      await ok('webhook_chaos', { workspace, endpoint_id: endpoint.id, chaos: { seed: 's1', drop: 0 } });
      await ok('webhook_chaos', { workspace, endpoint_id: endpoint.id, chaos: null });
      await ok('webhook_endpoint_update', { workspace, endpoint_id: endpoint.id, disabled: false });
      await ok('checkpoint_save', { workspace, name: 'cp 1' });
      await ok('checkpoints_list', { workspace });
      await ok('checkpoint_restore', { workspace, checkpoint_name: 'cp 1' });
      await ok('checkpoint_delete', { workspace, checkpoint_name: 'cp 1' });
      await ok('faults_set', {
        workspace,
        rules: [{ match: { path: '/v1/checkouts' }, count: 1, effect: { status: 503 } }],
      });
      await ok('faults_get', { workspace });
      await ok('faults_clear', { workspace });
      await ok('coverage_get', { workspace });
      await ok('scenarios_list', { workspace });
      const catalogue = await ok<{ items: { id: string; type: string }[] }>('card_catalogue', { workspace });
      const holder = await ok<{ id: string }>('cardholder_create', { ...m, name: 'Ada' });
      await ok('kyc_review', { workspace, cardholder_id: holder.id, result: 'approved' });
      await ok('cardholder_fund', {
        workspace,
        cardholder_id: holder.id,
        amount: 10_000_000,
        currency: 'USDC',
      });
      const product = catalogue.items.find((p) => p.type === 'virtual')!;
      const application = await ok<{ id: string; status: string }>('card_application_create', {
        workspace,
        cardholder_id: holder.id,
        catalogue: product.id,
        account_purpose: 'travel',
        occupation: 'engineer',
        annual_salary: '50000_100000',
        expected_monthly_volume: '1000_5000',
      });
      expect(application.status).toBe('approved');
      const card = await ok<{ id: string }>('card_issue', {
        workspace,
        cardholder_id: holder.id,
        catalogue: product.id,
        type: 'virtual',
      });
      const auth = await ok<{ id: string }>('card_authorize', {
        workspace,
        card_id: card.id,
        amount: 1_000_000,
      });
      await ok('card_settle', { workspace, transaction_id: auth.id });
      await ok('card_transaction_get', { workspace, transaction_id: auth.id });
      await ok('card_transactions_list', { workspace, card_id: card.id });
      await ok('card_update', { workspace, card_id: card.id, status: 'locked' });
      await ok('cardholder_get', { workspace, cardholder_id: holder.id });
      await ok('cardholders_list', m);
      const target = await ok<{ merchant: { id: string } }>('merchant_create', { workspace, name: 'Target' });
      const connection = await ok<{ id: string }>('reseller_connection_create', {
        workspace,
        reseller_id: merchant.id,
        merchant_id: target.merchant.id,
        rate: 200,
      });
      await ok('reseller_connections_list', m);
      await ok('reseller_connection_update', {
        workspace,
        connection_id: connection.id,
        rate: 300,
        max_fee: null,
      });
      await ok('reseller_income', { workspace, reseller_id: merchant.id });
      await ok('merchant_provision', {
        workspace,
        reseller_id: merchant.id,
        env: 'production',
        email: 'owner@example.com',
        password: 'secret-123',
        merchant_name: 'Provisioned',
        legal_name: 'Provisioned Ltd',
        country: 'GB',
        rate: 100,
      });
      await ok('reseller_connection_revoke', { workspace, connection_id: connection.id });
      await ok('reseller_connection_delete', { workspace, connection_id: connection.id });
      await ok('workspace_reset', { workspace });
      await ok('workspace_delete', { workspace_id: ws.id });
      // Every toolset was walked.
      for (const set of TOOLSET_NAMES)
        expect(
          (TOOLSETS[set].tools as readonly string[]).filter((n) => called.has(n)).length,
          set,
        ).toBeGreaterThan(2);
    } finally {
      await close();
    }
  });
});
