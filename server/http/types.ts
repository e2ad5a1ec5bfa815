import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyRequest,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { Principal } from '../domain/types.js';
import { UnauthorizedError } from '../errors.js';

export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

/** The calling merchant of a /v1 request (set by the api-key plugin). */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new UnauthorizedError();
  return request.principal;
}

/**
 * How a route plugin reaches its services: from the workspace its request carries, narrowed to
 * what the plugin calls (`use(request).checkouts.create(…)`). app.ts passes
 * `(request) => request.workspace.ctx`.
 */
export type Use<Deps> = (request: FastifyRequest) => Deps;
