import { createHash, timingSafeEqual } from 'node:crypto';
import type { onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Local-only safety for every route. DNS rebinding: the Host must be a loopback name (or a name the
 * sandbox was told it is reached by), exactly (after the port is stripped), so `127.0.0.1.evil.com`
 * is refused. CSRF: a state-changing control call must not come from a foreign Origin or a
 * cross-site fetch.
 */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

export function hostName(host: string): string {
  // name, then optionally :port and nothing else; anything else is returned whole (so never loopback).
  const match = /^(\[[^\]]*\]|[^:[\]]*)(?::\d*)?$/.exec(host);
  return (match ? match[1]! : host).toLowerCase();
}

export function isLoopbackHost(host: string | undefined): boolean {
  return host !== undefined && LOOPBACK_HOSTS.has(hostName(host));
}

/**
 * Same-origin means the Origin's host:port is exactly this request's Host, an allowed name, over
 * http; or exactly one of the public URLs (an https one: the sandbox behind a TLS-terminating proxy).
 */
function isSameOrigin(
  origin: string,
  host: string,
  allowed: (host: string) => boolean,
  publicOrigins: ReadonlySet<string>,
): boolean {
  try {
    const url = new URL(origin);
    if (url.host !== host.toLowerCase()) return false;
    return publicOrigins.has(url.origin) || (url.protocol === 'http:' && allowed(url.host));
  } catch {
    return false;
  }
}

/** A TCP peer on this machine: 127.0.0.0/8, ::1, or either mapped into IPv6. */
export function isLoopbackPeer(address: string | undefined): boolean {
  if (address === undefined) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4.startsWith('127.') || address === '::1';
}

export interface LocalOnlyOptions {
  /**
   * Serve the control API to peers on other machines too (`--allow-remote-control`): anyone who
   * can reach the port can then drive the sandbox without a key. Off by default.
   */
  allowRemoteControl?: boolean | undefined;
  /**
   * Host names besides the loopback ones that requests may name (`--public-url`'s host, the names
   * of `--allow-host`): how the sandbox is reached from a container network or a proxy.
   */
  allowedHosts?: readonly string[] | undefined;
  /** The public URLs' origins (`--public-url`): pages served from them are same-origin, https too. */
  publicOrigins?: readonly string[] | undefined;
  /**
   * A shared secret every control call must present (`--control-token`), in the
   * `X-SVC-Control-Token` header or, for the dashboard, the `svc_control_token` cookie.
   * GET /sandbox/health answers without it (health checks, probes), and so does the built-in
   * inbox's receiving end (a webhook receiver: the sandbox's own deliveries carry no token).
   */
  controlToken?: string | undefined;
}

export const CONTROL_TOKEN_HEADER = 'x-svc-control-token';
/** The route of the built-in inbox's receiving end (`POST /sandbox/inbox/{name}`). */
const INBOX_RECEIVE = '/sandbox/inbox/:name';
export const CONTROL_TOKEN_COOKIE = 'svc_control_token';

/** The value of one cookie of a Cookie header (RFC 6265 syntax; the value %-decoded as the dashboard encodes it). */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq === -1 || pair.slice(0, eq).trim() !== name) continue;
    try {
      return decodeURIComponent(pair.slice(eq + 1).trim());
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** Compares in constant time (over digests, so the lengths may differ). */
function tokenMatches(given: string | undefined, expected: Buffer): boolean {
  if (given === undefined) return false;
  return timingSafeEqual(createHash('sha256').update(given).digest(), expected);
}

/**
 * Host allow-list on every route; on the control API also the peer address (loopback only unless
 * opted out), the Origin (same-origin only, on every method) and Sec-Fetch-Site (never cross-site).
 */
export function localOnly({
  allowRemoteControl = false,
  allowedHosts = [],
  publicOrigins = [],
  controlToken,
}: LocalOnlyOptions = {}): onRequestHookHandler {
  const extraHosts = new Set(
    [...allowedHosts, ...publicOrigins.map((origin) => new URL(origin).host)].map((name) => hostName(name)),
  );
  const origins = new Set(publicOrigins.map((origin) => new URL(origin).origin));
  const hostAllowed = (host: string) => isLoopbackHost(host) || extraHosts.has(hostName(host));
  const names = ['localhost', '127.0.0.1', '[::1]', ...extraHosts].join(', ');
  const tokenDigest =
    controlToken === undefined ? undefined : createHash('sha256').update(controlToken).digest();
  // Every request of a client names the same Host: the last allowed one is remembered.
  let loopbackHost: string | undefined;
  return (request, reply, done) => {
    reply.header('x-content-type-options', 'nosniff');
    const host = request.headers.host;
    if (host === undefined) {
      reply.code(400).send({ error: 'Missing Host header: HTTP/1.1 requests must name the host' });
      return;
    }
    if (host !== loopbackHost && !hostAllowed(host)) {
      reply.code(403).send({
        error: `Forbidden host: svc-sandbox answers only to ${names} (--allow-host or --public-url add names)`,
      });
      return;
    }
    loopbackHost = host;
    // The matched route, not the raw URL: the router decodes %-escapes, so /%73andbox/... is
    // /sandbox/... A raw URL that starts `/v1/` can only match a /v1 route (or none), so the API's
    // own requests skip the lookup.
    const path = request.url.startsWith('/v1/') ? request.url : (request.routeOptions.url ?? request.url);
    if (!path.startsWith('/sandbox')) {
      done();
      return;
    }
    if (!allowRemoteControl && !isLoopbackPeer(request.socket.remoteAddress)) {
      reply.code(403).send({
        error:
          'Forbidden: the control API answers clients on this machine only (start with --allow-remote-control to change that)',
      });
      return;
    }
    // Reads too: a foreign page must not read merchants and keys either (no CORS, and no answer).
    const origin = request.headers.origin;
    if (origin !== undefined && !isSameOrigin(origin, host, hostAllowed, origins)) {
      reply.code(403).send({ error: `Forbidden origin: ${origin} may not use the control API` });
      return;
    }
    if (request.headers['sec-fetch-site'] === 'cross-site') {
      reply.code(403).send({ error: 'Forbidden: cross-site requests may not use the control API' });
      return;
    }
    if (
      tokenDigest !== undefined &&
      !(request.method === 'GET' && path === '/sandbox/health') &&
      // The built-in inbox is a webhook receiver: it takes what is sent to it (the sandbox's own
      // deliveries carry no token); reading what it kept still takes the token.
      !(request.method === 'POST' && path === INBOX_RECEIVE) &&
      !tokenMatches(
        (request.headers[CONTROL_TOKEN_HEADER] as string | undefined) ??
          cookieValue(request.headers.cookie, CONTROL_TOKEN_COOKIE),
        tokenDigest,
      )
    ) {
      reply.code(401).send({
        error:
          'Unauthorized: this sandbox requires its control token (the X-SVC-Control-Token header) on the control API',
      });
      return;
    }
    done();
  };
}

/** Registers `localOnly` on every route of the app (host allow-list, control-API exposure rules). */
export const localOnlyPlugin = fp<LocalOnlyOptions>(
  async (app, options) => {
    app.addHook('onRequest', localOnly(options));
  },
  { name: 'local-only' },
);
