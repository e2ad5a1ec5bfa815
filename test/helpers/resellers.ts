import type { LightMyRequestResponse } from 'fastify';
import type { Checkout } from '../../server/contract/checkouts.js';
import type { Env } from '../../server/contract/common.js';
import type { ResellerConnection, ResellerIncome } from '../../server/contract/resellers.js';
import type { Sandbox } from '../../server/sandbox.js';
import { type Actor, call, inFuture, type Json, ok } from './api.js';

/** Shared by the test/integration/resellers/resellers-*.test.ts files. */

export type { ResellerConnection, ResellerIncome };

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** A /v1 call as `actor` (no key when actor is null) on one address. */
export function v1(
  sandbox: Sandbox,
  actor: Actor | null,
  method: Method,
  url: string,
  payload?: unknown,
  env: Env = 'test',
): Promise<LightMyRequestResponse> {
  return call(
    sandbox,
    {
      method,
      url,
      headers: actor ? actor.auth : {},
      ...(payload === undefined ? {} : { payload: payload as Json }),
    },
    env,
  );
}

/** POST /v1/reseller/connections as `reseller`, expecting 200. */
export async function connect(
  sandbox: Sandbox,
  reseller: Actor,
  merchantId: string,
  terms: { rate?: number; min_fee?: number | null; max_fee?: number | null } = {},
  env: Env = 'test',
): Promise<ResellerConnection> {
  return ok<ResellerConnection>(
    await v1(
      sandbox,
      reseller,
      'POST',
      '/v1/reseller/connections',
      { merchant_id: merchantId, rate: 500, ...terms },
      env,
    ),
  );
}

/** POST /v1/checkouts as `actor` (a reseller when `merchant_id` is in the body); returns the raw response. */
export function postCheckout(
  sandbox: Sandbox,
  actor: Actor,
  body: Json = {},
  env: Env = 'test',
): Promise<LightMyRequestResponse> {
  return v1(
    sandbox,
    actor,
    'POST',
    '/v1/checkouts',
    { title: 'Order', amount: 100_000_000, expires_at: inFuture(sandbox), method: 'fiat', ...body },
    env,
  );
}

/** A fiat checkout (no gas) paid in full and settled through the control API; returns it as its merchant sees it. */
export async function paidAndSettled(sandbox: Sandbox, checkoutId: string): Promise<Checkout> {
  const paid = await call(sandbox, {
    method: 'POST',
    url: `/sandbox/checkouts/${checkoutId}/payments`,
    payload: { method: 'fiat' },
  });
  ok(paid);
  ok(await call(sandbox, { method: 'POST', url: `/sandbox/checkouts/${checkoutId}/complete` }));
  return ok<{ checkout: Checkout }>(
    await call(sandbox, { method: 'GET', url: `/sandbox/checkouts/${checkoutId}` }),
  ).checkout;
}

/** A merchant's available balance in one currency (0 when it has none). */
export async function available(sandbox: Sandbox, merchantId: string, env: Env = 'test', currency = 'USDC') {
  const balances = ok<{ currency: string; available: number; held: number }[]>(
    await call(sandbox, { method: 'GET', url: `/sandbox/merchants/${merchantId}/balances?env=${env}` }),
  );
  return balances.find((b) => b.currency === currency)?.available ?? 0;
}

/** GET /sandbox/merchants/{id}/reseller-income. */
export async function income(
  sandbox: Sandbox,
  resellerId: string,
  env: Env = 'test',
): Promise<ResellerIncome[]> {
  return ok<ResellerIncome[]>(
    await call(sandbox, {
      method: 'GET',
      url: `/sandbox/merchants/${resellerId}/reseller-income?env=${env}`,
    }),
  );
}

/** PATCH /sandbox/merchants/{id}. */
export async function patchMerchant(sandbox: Sandbox, merchantId: string, patch: Json): Promise<void> {
  ok(await call(sandbox, { method: 'PATCH', url: `/sandbox/merchants/${merchantId}`, payload: patch }));
}

/** POST /v1/customers as `actor`; returns the customer's id. */
export async function createCustomerOf(sandbox: Sandbox, actor: Actor, name: string): Promise<string> {
  return ok<{ id: string }>(await v1(sandbox, actor, 'POST', '/v1/customers', { name })).id;
}
