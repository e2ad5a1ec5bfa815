import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { Checkout } from '../../server/contract/checkouts.js';
import type { Env } from '../../server/contract/common.js';
import type { ApiKey, Role } from '../../server/contract/merchants.js';
import type { ClockState, SandboxEvent } from '../../server/contract/sandbox-state.js';
import type { Settings } from '../../server/contract/settings.js';
import type { Sandbox } from '../../server/sandbox.js';
import { type Actor, createMerchant, inFuture } from './sandbox.js';

export type Json = Record<string, unknown>;

/** The server's shapes come from its contract (type-only: tests assert the shapes themselves). */
export type { Checkout, Env, SandboxEvent };

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
): Promise<Checkout> {
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
  return ok<Checkout>(res);
}

export async function getCheckout(sandbox: Sandbox, actor: Actor, id: string, env: Env = 'test') {
  return ok<Checkout>(
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

export async function patchSettings(sandbox: Sandbox, patch: Json): Promise<Settings> {
  return ok<Settings>(await control(sandbox, 'PATCH', '/sandbox/settings', patch));
}

export async function advance(sandbox: Sandbox, seconds: number): Promise<ClockState> {
  return ok<ClockState>(await control(sandbox, 'POST', '/sandbox/clock/advance', { seconds }));
}

export async function events(
  sandbox: Sandbox,
  merchantId: string,
  env: Env = 'test',
): Promise<SandboxEvent[]> {
  return ok<SandboxEvent[]>(
    await control(sandbox, 'GET', `/sandbox/merchants/${merchantId}/events?env=${env}`),
  );
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
  role: Role = 'developer',
): Promise<ApiKey & { auth: { authorization: string } }> {
  const key = ok<ApiKey>(
    await control(sandbox, 'POST', `/sandbox/merchants/${merchantId}/api-keys`, {
      name: `${role} key`,
      role,
    }),
  );
  return { ...key, auth: { authorization: `Bearer ${key.key}` } };
}

export type { Actor };
export { createMerchant, inFuture };
