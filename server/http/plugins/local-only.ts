import type { onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Local-only safety for every route. DNS rebinding: the Host must be a loopback name, exactly
 * (after the port is stripped), so `127.0.0.1.evil.com` is refused. CSRF: a state-changing control
 * call must not come from a foreign Origin or a cross-site fetch.
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

/** Same-origin means the Origin's host:port is exactly this request's Host, over http. */
function isSameOrigin(origin: string, host: string): boolean {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' && url.host === host.toLowerCase() && isLoopbackHost(url.host);
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
}

/**
 * Host allow-list on every route; on the control API also the peer address (loopback only unless
 * opted out), the Origin (same-origin only, on every method) and Sec-Fetch-Site (never cross-site).
 */
export function localOnly({ allowRemoteControl = false }: LocalOnlyOptions = {}): onRequestHookHandler {
  // Every request of a client names the same Host: the last loopback one is remembered.
  let loopbackHost: string | undefined;
  return (request, reply, done) => {
    reply.header('x-content-type-options', 'nosniff');
    const host = request.headers.host;
    if (host === undefined) {
      reply.code(400).send({ error: 'Missing Host header: HTTP/1.1 requests must name the host' });
      return;
    }
    if (host !== loopbackHost && !isLoopbackHost(host)) {
      reply
        .code(403)
        .send({ error: 'Forbidden host: svc-sandbox answers only to localhost, 127.0.0.1 or [::1]' });
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
    if (origin !== undefined && !isSameOrigin(origin, host!)) {
      reply.code(403).send({ error: `Forbidden origin: ${origin} may not use the control API` });
      return;
    }
    if (request.headers['sec-fetch-site'] === 'cross-site') {
      reply.code(403).send({ error: 'Forbidden: cross-site requests may not use the control API' });
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
