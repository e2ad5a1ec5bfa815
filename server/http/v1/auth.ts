import type { onRequestHookHandler } from 'fastify';
import { UnauthorizedError } from '../../errors.js';
import type { KeyLimiter } from '../limits.js';
import type { RouteDeps } from '../types.js';

const BEARER = /^Bearer\s+(\S+)\s*$/;

/**
 * /v1 authentication and per-key limits. A request holds a concurrency slot from the moment its
 * headers arrive until its response finishes or its connection closes, whichever comes first,
 * so a client that aborts cannot leak a slot.
 */
export function authenticate({ ctx, env }: RouteDeps, limiter: KeyLimiter): onRequestHookHandler {
  // Callback style: this runs on every /v1 request, and a promise per request is measurable.
  return (request, reply, done) => {
    try {
      const header = request.headers.authorization;
      if (header === undefined)
        throw new UnauthorizedError('Missing API key: send Authorization: Bearer svcb_...');
      const match = BEARER.exec(header);
      if (!match) throw new UnauthorizedError('Malformed Authorization header: expected Bearer svcb_...');
      const key = ctx.merchants.authenticate(match[1]!);
      const settings = ctx.settings.get();
      limiter.take(key.id, settings.rate_limit_per_minute);
      if (settings.concurrency_limit !== 0) {
        // 'close' fires once the response is finished or the connection is gone, whichever is first.
        reply.raw.once('close', limiter.enter(key.id, settings.concurrency_limit));
      }
      request.principal = { env, merchantId: key.merchant_id, apiKeyId: key.id, role: key.role };
      done();
    } catch (error) {
      done(error as Error);
    }
  };
}
