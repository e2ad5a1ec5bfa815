/**
 * What a recording made in a busy workspace needs: the sandbox's own addresses written so a replay
 * reaches its own sandbox and workspace, and the creation of an earlier object it adopts.
 */
import type { Checkout } from '../contract/checkouts.js';
import type { Env } from '../contract/common.js';
import { ownUrl } from '../workspaces/own-url.js';
import { relativeTime } from './translate.js';

/** A base URL without the `/w/<id>` prefix a workspace's addresses carry: the listener's own. */
const listenerOrigin = (base: string) => base.replace(/\/w\/[^/]+$/, '');

/** A called URL without its `workspace=` parameter: the replay runs in a workspace of its own. */
export function withoutWorkspace(url: string): string {
  const [path = '', query] = url.split('?', 2);
  if (query === undefined || !query.includes('workspace=')) return url;
  const kept = query.split('&').filter((pair) => !pair.startsWith('workspace='));
  return kept.length === 0 ? path : `${path}?${kept.join('&')}`;
}

/** A JSON value with every string passed through `fn`. */
export function mapStrings(value: unknown, fn: (s: string) => string): unknown {
  if (typeof value === 'string') return fn(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, fn));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, fn)]));
  return value;
}

/**
 * Any address of this sandbox (loopback under any name, a `/w/<id>` prefix, `?workspace=`) as the
 * recording workspace's own base URL and the rest, which the recorder's splice then writes as
 * `${sandbox.urls.*}`: a file never names a workspace id, and replays in its own workspace.
 */
export function asOwnUrl(value: string, baseUrl: (env: Env) => string): string {
  if (!value.includes('://')) return value;
  const origins = {
    test: listenerOrigin(baseUrl('test')),
    production: listenerOrigin(baseUrl('production')),
  };
  const own = ownUrl(value, origins);
  return own ? `${baseUrl(own.env)}${own.rest === '/' ? '' : own.rest}` : value;
}

/**
 * The body of a `POST /v1/checkouts` making one like an earlier checkout a recording adopts: its
 * title, description, amount, currency, method, chains and reference, expiring as far ahead as it
 * does now (at least an hour, to be usable).
 */
export function adoptedCheckoutBody(checkout: Checkout, now: number): Record<string, unknown> {
  const body: Record<string, unknown> = { title: checkout.title };
  if (checkout.description !== null) body.description = checkout.description;
  if (checkout.amount !== null) body.amount = checkout.amount;
  body.currency = checkout.currency;
  if (checkout.method !== 'crypto') body.method = checkout.method;
  if (checkout.crypto_chains.length > 0) body.chains = checkout.crypto_chains.map((c) => c.chain);
  if (checkout.reference !== null) body.reference = checkout.reference;
  const left = Math.max(Date.parse(checkout.expires_at) - now, 3600_000);
  body.expires_at = `\${${relativeTime(new Date(now + left).toISOString(), now)}}`;
  return body;
}
