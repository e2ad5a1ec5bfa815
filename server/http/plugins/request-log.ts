import { performance } from 'node:perf_hooks';
import fp from 'fastify-plugin';
import type { Env } from '../../contract/common.js';
import type { Redaction, RequestLogService } from '../../domain/requests/service.js';
import type { Use } from '../types.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * What the request log must not keep of this route: `'body'` (both bodies and the query, e.g.
     * the card secret and PIN routes) or the request body's fields to hide (`['password']`).
     */
    redact?: Redaction;
  }
  interface FastifyRequest {
    /** `performance.now()` when the request reached the scope (the request log's duration) */
    receivedAt: number;
  }
}

export interface RequestLogOptions {
  use: Use<{ requests: Pick<RequestLogService, 'record'> }>;
  /** the listener's environment (the principal's; when authentication failed there is none) */
  env: Env;
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * Records every request of its scope (`/v1`) in the request log: time, merchant and masked key,
 * method, route and URL, status, duration, bodies. The Authorization header itself is never
 * stored. One `onSend` hook, the scope's last (after the root's group commit and recording hooks),
 * so it sees the status and payload that leave, a storage failure's 507 included; the entry is
 * only queued here and written on a later turn, outside the request's transaction, so recording
 * can never fail or delay the request.
 *
 * The duration is the wall time of the HTTP exchange up to the response's first byte: from the
 * scope's first `onRequest` hook (register this plugin before authentication, so a 401 is timed
 * too; the body is read after it, so a slow upload counts) to `onSend`, in ms with decimals. Not
 * `reply.elapsedTime`: Fastify starts that clock only when a logger or an `onResponse` hook is
 * set, and the sandbox has neither on this path (it read 0 for every request).
 */
export const requestLog = fp<RequestLogOptions>(
  async (app, { use, env }) => {
    app.decorateRequest('receivedAt', 0);
    app.addHook('onRequest', (request, _reply, done) => {
      request.receivedAt = performance.now();
      done();
    });
    app.addHook('onSend', (request, reply, payload, done) => {
      try {
        const principal = request.principal;
        const header = request.headers.authorization;
        const token = typeof header === 'string' ? (BEARER.exec(header)?.[1] ?? null) : null;
        const route = request.routeOptions;
        use(request).requests.record({
          env: principal?.env ?? env,
          merchantId: principal?.merchantId ?? null,
          apiKeyId: principal?.apiKeyId ?? null,
          token,
          method: request.method,
          route: route.url ?? null,
          url: request.url,
          status: reply.statusCode,
          durationMs: performance.now() - request.receivedAt,
          requestBody: request.body,
          responseBody:
            typeof payload === 'string'
              ? payload
              : Buffer.isBuffer(payload)
                ? payload.toString('utf8')
                : null,
          redact: route.config.redact,
          fault: request.fault ?? null,
        });
      } catch (error) {
        request.log.error({ err: error }, 'request log: entry not recorded');
      }
      done(null, payload);
    });
  },
  { name: 'request-log' },
);
