import { describe, expect, it } from 'vitest';
import { SandboxClient } from '../../server/cli/client.js';
import { story } from '../../server/cli/mcp/explain.js';
import { listed } from '../../server/cli/mcp/server.js';
import { bodyOf, callOf, queryOf, ToolRefusal } from '../../server/cli/mcp/tool.js';
import { TOOLS } from '../../server/cli/mcp/tools.js';
import type { SandboxEvent } from '../../server/contract/sandbox-state.js';
import { CheckoutListQuery } from '../../server/contract/views.js';
import type { Delivery } from '../../server/contract/webhooks.js';
import { testSandbox } from '../helpers/sandbox.js';

// The pure parts of `svc-sandbox mcp`: how a tool's arguments become a control call, how a tool is
// listed, explain's ordering, and that each tool's calls are the operations it declares (against
// the OpenAPI document a sandbox built in process serves). The protocol itself is tested over
// stdio (cli-mcp.test.ts).

const tool = (name: string) => TOOLS.find((t) => t.name === name)!;

describe('mcp tools', () => {
  it('split the arguments into path, query and body by the contract schemas', () => {
    // The method and path are the operation table's; the path parameters are encoded.
    expect(
      callOf({ operationId: 'sandboxPayCheckout', pathArg: 'checkout_id' }, { checkout_id: 'a/b' }),
    ).toEqual({
      method: 'POST',
      path: '/sandbox/checkouts/a%2Fb/payments',
      body: {},
    });
    expect(() => callOf({ operationId: 'sandboxGetCheckout', pathArg: 'checkout_id' }, {})).toThrow(
      new ToolRefusal('checkout_id: is required'),
    );
    const pay = tool('checkout_pay_late');
    expect(Object.keys(pay.input.properties).sort()).toEqual([
      'amount',
      'chain',
      'checkout_id',
      'method',
      'payer_address',
      'token',
      'txid',
    ]);
    expect(bodyOf(pay.input, { checkout_id: 'x', amount: 5, workspace: 'w' }, { late: true })).toEqual({
      checkout_id: 'x',
      amount: 5,
      late: true,
    });
    const list = tool('checkouts_list');
    expect(list.input.required).toEqual(['merchant_id']);
    const args = { merchant_id: 'm', status: 'paid', limit: 5, workspace: 'w' };
    expect(queryOf(CheckoutListQuery, args)).toEqual({ status: 'paid', limit: 5 });
    const listCall = callOf(
      { operationId: 'sandboxListMerchantCheckouts', pathArg: 'merchant_id', query: CheckoutListQuery },
      args,
    );
    expect(listCall.method).toBe('GET');
    expect(listCall.body).toBeUndefined();
    expect(new URL(listCall.path, 'http://x').pathname).toBe('/sandbox/merchants/m/checkouts');
    expect(Object.fromEntries(new URL(listCall.path, 'http://x').searchParams)).toEqual({
      status: 'paid',
      limit: '5',
    });
  });

  it('each say what they do in words an agent can act on, under a unique name', () => {
    expect(TOOLS.filter((t) => t.description.length < 50).map((t) => t.name)).toEqual([]);
    expect(new Set(TOOLS.map((t) => t.name)).size).toBe(TOOLS.length);
    expect(TOOLS.filter((t) => !/^[a-z][a-z_]*$/.test(t.name)).map((t) => t.name)).toEqual([]);
  });

  it('are listed with the contract schema, plus `workspace` unless fixed or sandbox-wide', () => {
    const partial = listed(tool('checkout_pay_partial'), false);
    expect(partial.inputSchema.required).toEqual(expect.arrayContaining(['checkout_id', 'amount']));
    expect(Object.keys(partial.inputSchema.properties ?? {})).toContain('workspace');
    expect(
      Object.keys(listed(tool('checkout_pay_partial'), true).inputSchema.properties ?? {}),
    ).not.toContain('workspace');
    expect(Object.keys(listed(tool('workspaces_list'), false).inputSchema.properties ?? {})).not.toContain(
      'workspace',
    );
    expect(JSON.stringify(partial.inputSchema)).not.toContain('$id');
    expect(partial._meta).toEqual({ 'svc-sandbox/operations': ['sandboxPayCheckout'] });
  });

  it('explain tells events and delivery attempts in time order, an event before the attempts of the same instant', () => {
    const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
    const event = (id: string, type: string, s: number, status: string): SandboxEvent => ({
      id,
      env: 'test',
      merchant_id: 'm',
      type,
      resource_id: 'co_1',
      data: { id: 'co_1', status },
      created_at: at(s),
    });
    const attempt = (number: number, s: number, response_status: number | null, error: string | null) => ({
      number,
      at: at(s),
      request_headers: {},
      request_body: '',
      response_status,
      response_body: null,
      duration_ms: 3,
      error,
      chaos: [],
    });
    const delivery: Delivery = {
      id: 'd1',
      event_id: 'e2',
      event: 'checkout.partial',
      merchant_id: 'm',
      env: 'test',
      endpoint_id: 'ep',
      url: 'http://127.0.0.1/hook',
      status: 'pending',
      attempt_count: 2,
      next_attempt_at: at(50),
      created_at: at(20),
      updated_at: at(30),
      attempts: [attempt(2, 30, 500, null), attempt(1, 20, null, 'connection refused')],
    };
    const { words } = story(
      'co_1',
      [event('e1', 'checkout.created', 10, 'active'), event('e2', 'checkout.partial', 20, 'partial')],
      [delivery],
    );
    expect(words.split('\n')).toEqual([
      'co_1: 2 events, now partial.',
      `1. ${at(10)}  checkout.created (status active) — event e1`,
      `2. ${at(20)}  checkout.partial (status partial) — event e2`,
      `3. ${at(20)}  webhook checkout.partial attempt 1 to http://127.0.0.1/hook: connection refused`,
      `4. ${at(30)}  webhook checkout.partial attempt 2 to http://127.0.0.1/hook: answered 500`,
      `5. ${at(50)}  webhook checkout.partial next attempt due (delivery d1)`,
    ]);
  });
});

/** Every string argument a tool requires gets this value (path parameters included). */
const ARG = 'arg-1';
const WORKSPACE = 'ws-name';

/** Stops a tool after the call it made was recorded (no sandbox answers it). */
class Unanswered extends Error {}

interface Operation {
  id: string;
  method: string;
  /** the path template as the document writes it, `/sandbox/checkouts/{id}` */
  path: string;
  pattern: RegExp;
  /** characters outside parameters: the most literal template wins (`/x/events` over `/x/{id}`) */
  literal: number;
}

/** The operation of the document a call reaches: its method, and the template its path fits. */
const resolve = (operations: Operation[], method: string, path: string): Operation | undefined =>
  operations
    .filter((op) => op.method === method && op.pattern.test(path))
    .sort((a, b) => b.literal - a.literal)[0];

/**
 * A client that records every call a tool makes instead of sending it. The calls a tool needs
 * answered to make its next one (a merchant's keys, the clock, the merchants, an object's events,
 * the workspaces) get a small answer; any other call stops the tool once recorded.
 */
class RecordingClient extends SandboxClient {
  constructor(
    readonly calls: { method: string; path: string }[],
    readonly operations: Operation[],
    workspace: string | undefined,
  ) {
    super('http://127.0.0.1:9', workspace);
  }

  override in(workspace: string | undefined): SandboxClient {
    return new RecordingClient(this.calls, this.operations, workspace);
  }

  override async request<T>(method: string, path: string): Promise<T> {
    const bare = path.split('?')[0]!;
    this.calls.push({ method, path: bare });
    const answers: Record<string, unknown> = {
      sandboxListMerchantApiKeys: [{ id: 'k', role: 'owner', key: 'svcb_recorded', revoked_at: null }],
      sandboxGetClock: { now: '2026-01-15T12:00:00.000Z', frozen: false, offset_ms: 0 },
      sandboxListMerchants: [{ id: ARG, name: 'Recorded' }],
      sandboxListMerchantEvents: [
        {
          id: 'evt-1',
          env: 'test',
          merchant_id: ARG,
          type: 'checkout.created',
          resource_id: ARG,
          data: { id: ARG, status: 'active' },
          created_at: '2026-01-15T12:00:00.000Z',
        },
      ],
      sandboxListDeliveries: [],
      sandboxListWorkspaces: [{ id: 'ws-id', name: WORKSPACE }],
    };
    const operation = resolve(this.operations, method, bare);
    if (operation === undefined || !(operation.id in answers)) throw new Unanswered();
    return answers[operation.id] as T;
  }
}

describe('mcp tools against the served OpenAPI document', () => {
  it("each tool's calls are its declared operations: the method and the path template the document gives each operationId", async () => {
    const sandbox = await testSandbox();
    const served = await sandbox.apps.test.inject({ url: '/sandbox/openapi.json' });
    expect(served.statusCode).toBe(200);
    const document = served.json() as { paths: Record<string, Record<string, { operationId?: string }>> };
    const operations: Operation[] = [];
    for (const [path, methods] of Object.entries(document.paths))
      for (const [method, operation] of Object.entries(methods)) {
        if (!operation.operationId) continue;
        const source = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}/]+\}/g, '[^/]+');
        operations.push({
          id: operation.operationId,
          method: method.toUpperCase(),
          path,
          pattern: new RegExp(`^${source}$`),
          literal: path.replace(/\{[^}/]+\}/g, '').length,
        });
      }
    const byId = new Map(operations.map((op) => [op.id, op]));
    expect(byId.size).toBeGreaterThan(100);

    const problems: string[] = [];
    for (const tool of TOOLS) {
      // The required string arguments (path parameters among them); the rest left out.
      const args = Object.fromEntries(
        (tool.input.required ?? [])
          .filter((name) => (tool.input.properties[name] as { type?: unknown }).type === 'string')
          .map((name) => [name, ARG]),
      );
      const calls: { method: string; path: string }[] = [];
      // In a workspace named by name: a tool that needs its id looks it up (sandboxListWorkspaces).
      const error = await tool.run(args, new RecordingClient(calls, operations, WORKSPACE)).then(
        () => undefined,
        (e: unknown) => e,
      );
      const stopped =
        error === undefined || error instanceof Unanswered ? '' : ` (stopped by ${String(error)})`;
      // Every declared operation is called as the document has it: that method, a path its template fits.
      for (const id of tool.operations) {
        const declared = byId.get(id);
        if (!declared) {
          problems.push(`${tool.name}: declares ${id}, which the document does not have`);
          continue;
        }
        if (
          !calls.some(
            (c) => c.method === declared.method && resolve(operations, c.method, c.path) === declared,
          )
        )
          problems.push(
            `${tool.name}: declares ${id} (${declared.method} ${declared.path}) but calls ${calls.map((c) => `${c.method} ${c.path}`).join(', ') || 'nothing'}${stopped}`,
          );
      }
      // And it calls nothing else.
      for (const call of calls) {
        const reached = resolve(operations, call.method, call.path);
        if (!reached)
          problems.push(`${tool.name}: ${call.method} ${call.path} is no operation of the document`);
        else if (!(tool.operations as readonly string[]).includes(reached.id))
          problems.push(
            `${tool.name}: ${call.method} ${call.path} is ${reached.id}, which it does not declare`,
          );
      }
    }
    expect(problems).toEqual([]);
  });
});
