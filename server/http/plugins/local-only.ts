import type { onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Local-only safety for every route. DNS rebinding: the Host must be a loopback name, exactly
 * (after the port is stripped), so `127.0.0.1.evil.com` is refused. CSRF: a state-changing control
 * call must not come from a foreign Origin or a cross-site fetch.
 */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

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

export const localOnly: onRequestHookHandler = (request, reply, done) => {
  reply.header('x-content-type-options', 'nosniff');
  const host = request.headers.host;
  if (!isLoopbackHost(host)) {
    reply
      .code(403)
      .send({ error: 'Forbidden host: svc-sandbox answers only to localhost, 127.0.0.1 or [::1]' });
    return;
  }
  // The matched route, not the raw URL: the router decodes %-escapes, so /%73andbox/... is /sandbox/...
  const path = request.routeOptions.url ?? request.url;
  if (SAFE_METHODS.has(request.method) || !path.startsWith('/sandbox')) {
    done();
    return;
  }
  const origin = request.headers.origin;
  if (origin !== undefined && !isSameOrigin(origin, host!)) {
    reply.code(403).send({ error: `Forbidden origin: ${origin} may not change the sandbox` });
    return;
  }
  if (request.headers['sec-fetch-site'] === 'cross-site') {
    reply.code(403).send({ error: 'Forbidden: cross-site requests may not change the sandbox' });
    return;
  }
  done();
};

/** Registers `localOnly` on every route of the app (host allow-list, foreign-origin refusal). */
export const localOnlyPlugin = fp(
  async (app) => {
    app.addHook('onRequest', localOnly);
  },
  { name: 'local-only' },
);
