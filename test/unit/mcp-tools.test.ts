import { describe, expect, it } from 'vitest';
import { story } from '../../server/cli/mcp/explain.js';
import { bodyOf, fillPath, queryOf, ToolRefusal } from '../../server/cli/mcp/tool.js';
import { TOOLS } from '../../server/cli/mcp/tools.js';
import { listed } from '../../server/cli/mcp.js';
import type { SandboxEvent } from '../../server/contract/sandbox-state.js';
import type { Delivery } from '../../server/contract/webhooks.js';

// The pure parts of `svc-sandbox mcp`: how a tool's arguments become a control call, how a tool is
// listed, and explain's ordering. The protocol itself is tested over stdio (cli-mcp.test.ts).

const tool = (name: string) => TOOLS.find((t) => t.name === name)!;

describe('mcp tools', () => {
  it('split the arguments into path, query and body by the contract schemas', () => {
    expect(fillPath('/sandbox/checkouts/{id}/payments', { id: 'a/b' })).toBe(
      '/sandbox/checkouts/a%2Fb/payments',
    );
    expect(() => fillPath('/sandbox/checkouts/{id}', {})).toThrow(ToolRefusal);
    const pay = tool('checkout_pay_late');
    expect(Object.keys(pay.input.properties).sort()).toEqual([
      'amount',
      'chain',
      'id',
      'method',
      'payer_address',
      'token',
      'txid',
    ]);
    expect(bodyOf(pay.input, { id: 'x', amount: 5, workspace: 'w' }, { late: true })).toEqual({
      id: 'x',
      amount: 5,
      late: true,
    });
    const list = tool('checkouts_list');
    expect(list.input.required).toEqual(['id']);
    expect(queryOf(list.input, { id: 'm', status: 'paid', limit: 5, workspace: 'w' })).toBe(
      '?id=m&limit=5&status=paid',
    );
  });

  it('each say what they do in words an agent can act on, under a unique name', () => {
    expect(TOOLS.filter((t) => t.description.length < 50).map((t) => t.name)).toEqual([]);
    expect(new Set(TOOLS.map((t) => t.name)).size).toBe(TOOLS.length);
    expect(TOOLS.filter((t) => !/^[a-z][a-z_]*$/.test(t.name)).map((t) => t.name)).toEqual([]);
  });

  it('are listed with the contract schema, plus `workspace` unless fixed or sandbox-wide', () => {
    const partial = listed(tool('checkout_pay_partial'), false);
    expect(partial.inputSchema.required).toEqual(expect.arrayContaining(['id', 'amount']));
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
