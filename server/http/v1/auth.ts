import type { FastifyReply, FastifyRequest } from 'fastify';
import { UnauthorizedError } from '../../errors.js';
import type { KeyLimiter } from '../limits.js';
import type { RouteDeps } from '../types.js';

const BEARER = /^Bearer\s+(\S+)\s*$/;

/**
 * /v1 authentication and per-key limits. A request holds a concurrency slot from the moment its
 * headers arrive until its response finishes or its connection closes, whichever comes first,
 * so a client that aborts cannot leak a slot.
 */
export function authenticate({ ctx, env }: RouteDeps, limiter: KeyLimiter) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const header = request.headers.authorization;
    if (header === undefined)
      throw new UnauthorizedError('Missing API key: send Authorization: Bearer svcb_...');
    const match = BEARER.exec(header);
    if (!match) throw new UnauthorizedError('Malformed Authorization header: expected Bearer svcb_...');
    const key = ctx.merchants.authenticate(match[1]!);
    const settings = ctx.settings.get();
    limiter.take(key.id, settings.rate_limit_per_minute);
    const release = limiter.enter(key.id, settings.concurrency_limit);
    reply.raw.once('close', release);
    reply.raw.once('finish', release);
    request.raw.once('close', () => {
      if (request.raw.destroyed && !reply.raw.writableFinished) release();
    });
    request.principal = { env, merchantId: key.merchant_id, apiKeyId: key.id, role: key.role };
  };
}
