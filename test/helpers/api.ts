import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { Sandbox } from '../../server/sandbox.js';
import { type Actor, createMerchant, inFuture } from './sandbox.js';

export type Env = 'test' | 'production';
export type Json = Record<string, unknown>;

/** A checkout as the API returns it (loosely typed: tests assert the shape themselves). */
export interface CheckoutJson {
  id: string;
  merchant_id: string;
  title: string;
  description: string | null;
  amount: number | null;
  currency: string;
  method: string;
  status: string;
  hosted_url: string;
  reference: string | null;
  customer_id: string | null;
  paid_amount: number | null;
  paid_at: string | null;
  payer_address: string | null;
  refunded_amount: number;
  refund_status: string | null;
  reseller_id: string | null;
  reseller_fee: number;
  platform_fee: number;
  platform_gas_fee: number;
  expires_at: string;
  created_at: string;
  updated_at: string;
  crypto_chains: {
    chain: string;
    address: string;
    tokens: { name: string; contract_address: string; min: number; max: number; gas_fee: number }[];
  }[];
  fiat: { session_url: string; success_url: string | null; cancel_url: string | null } | null;
}

export interface EventJson {
  id: string;
  env: string;
  merchant_id: string;
  type: string;
  resource_id: string | null;
  data: Json;
  created_at: string;
}

export const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

/** Injects into one environment's listener. */
export function call(
  sandbox: Sandbox,
  options: InjectOptions,
  env: Env = 'test',
): Promise<LightMyRequestResponse> {
  return sandbox.apps[env].inject(options) as Promise<LightMyRequestResponse>;
}

/** Asserts an error response: the status, and a body that is exactly `{error: string}`. */
export function expectError(
  res: LightMyRequestResponse,
  status: number,
  ...mentions: (string | RegExp)[]
): string {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = res.json() as Json;
  expect(Object.keys(body)).toEqual(['error']);
  expect(typeof body.error).toBe('string');
  const message = body.error as string;
  expect(message.length).toBeGreaterThan(0);
  for (const mention of mentions) {
    if (typeof mention === 'string') expect(message).toContain(mention);
    else expect(message).toMatch(mention);
  }
  return message;
}

export function ok<T = Json>(res: LightMyRequestResponse, status = 200): T {
  expect(res.statusCode, res.body).toBe(status);
  return res.json() as T;
}

export async function createCheckout(
  sandbox: Sandbox,
  actor: Actor,
  body: Json = {},
  env: Env = 'test',
): Promise<CheckoutJson> {
  const res = await call(
    sandbox,
    {
      method: 'POST',
      url: '/v1/checkouts',
      headers: actor.auth,
      payload: { title: 'Order', amount: 25_000_000, expires_at: inFuture(sandbox), ...body },
    },
    env,
  );
  return ok<CheckoutJson>(res);
}

export async function getCheckout(sandbox: Sandbox, actor: Actor, id: string, env: Env = 'test') {
  return ok<CheckoutJson>(
    await call(sandbox, { method: 'GET', url: `/v1/checkouts/${id}`, headers: actor.auth }, env),
  );
}

/** POST /sandbox/checkouts/{id}/payments; returns the raw response. */
export function pay(sandbox: Sandbox, id: string, body?: Json): Promise<LightMyRequestResponse> {
  return call(sandbox, {
    method: 'POST',
    url: `/sandbox/checkouts/${id}/payments`,
    ...(body === undefined ? {} : { payload: body }),
  });
}

export async function control(
  sandbox: Sandbox,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: Json,
): Promise<LightMyRequestResponse> {
  return call(sandbox, { method, url, ...(payload === undefined ? {} : { payload }) });
}

export async function patchSettings(sandbox: Sandbox, patch: Json): Promise<Json> {
  return ok(await control(sandbox, 'PATCH', '/sandbox/settings', patch));
}

export async function advance(sandbox: Sandbox, seconds: number): Promise<Json> {
  return ok(await control(sandbox, 'POST', '/sandbox/clock/advance', { seconds }));
}

export async function events(sandbox: Sandbox, merchantId: string, env: Env = 'test'): Promise<EventJson[]> {
  return ok<EventJson[]>(await control(sandbox, 'GET', `/sandbox/merchants/${merchantId}/events?env=${env}`));
}

/** Events of one type for one resource, oldest first. */
export async function eventsFor(sandbox: Sandbox, merchantId: string, resourceId: string, type?: string) {
  const all = await events(sandbox, merchantId);
  return all.filter((e) => e.resource_id === resourceId && (type === undefined || e.type === type)).reverse();
}

/** Creates an extra API key for a merchant through the control API. */
export async function createKey(
  sandbox: Sandbox,
  merchantId: string,
  role: 'owner' | 'admin' | 'developer' = 'developer',
): Promise<{ id: string; key: string; auth: { authorization: string } }> {
  const key = ok<{ id: string; key: string }>(
    await control(sandbox, 'POST', `/sandbox/merchants/${merchantId}/api-keys`, {
      name: `${role} key`,
      role,
    }),
  );
  return { ...key, auth: { authorization: `Bearer ${key.key}` } };
}

export { createMerchant, inFuture };
export type { Actor };
