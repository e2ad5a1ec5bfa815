import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Env } from '../../contract/common.js';
import type { Redaction, RequestLogService } from '../../domain/requests/service.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * What the request log must not keep of this route: `'body'` (both bodies and the query, e.g.
     * the card secret and PIN routes) or the request body's fields to hide (`['password']`).
     */
    redact?: Redaction;
  }
}

export interface RequestLogOptions {
  requests: Pick<RequestLogService, 'record'>;
  /** the listener's environment (the principal's, when authentication failed there is none) */
  env: Env;
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * Records every request of its scope (`/v1`) in the request log once its response has left: time,
 * merchant and masked key, method, route and URL, status, duration, bodies. The Authorization
 * header itself is never stored. Recording can never fail or delay the request: it runs in
 * `onResponse` and the write happens later, outside the request's transaction.
 */
export const requestLog = fp<RequestLogOptions>(
  async (app, { requests, env }) => {
    const sent = new WeakMap<FastifyRequest, string>();
    app.addHook('onSend', (request, _reply, payload, done) => {
      if (typeof payload === 'string') sent.set(request, payload);
      else if (Buffer.isBuffer(payload)) sent.set(request, payload.toString('utf8'));
      done(null, payload);
    });
    app.addHook('onResponse', (request, reply, done) => {
      try {
        const principal = request.principal;
        const header = request.headers.authorization;
        const token = typeof header === 'string' ? (BEARER.exec(header)?.[1] ?? null) : null;
        requests.record({
          env: principal?.env ?? env,
          merchantId: principal?.merchantId ?? null,
          apiKeyId: principal?.apiKeyId ?? null,
          token,
          method: request.method,
          route: request.routeOptions.url ?? null,
          url: request.url,
          status: reply.statusCode,
          durationMs: reply.elapsedTime,
          requestBody: request.body,
          responseBody: sent.get(request) ?? null,
          redact: request.routeOptions.config.redact,
        });
      } catch (error) {
        request.log.error({ err: error }, 'request log: entry not recorded');
      }
      done();
    });
  },
  { name: 'request-log', dependencies: ['api-key'] },
);
