import { Type } from 'typebox';
import { Checkout, CheckoutBase, CreateCheckoutBody } from '../../schemas/checkouts.js';
import { errorResponses, IdParams, ListQuery } from '../../schemas/common.js';
import { RefundBody, RefundResult } from '../../schemas/refunds.js';
import { type App, principalOf, type RouteDeps } from '../types.js';

const tags = ['checkouts'];

export function checkoutRoutes(app: App, { ctx }: RouteDeps): void {
  app.post(
    '/checkouts',
    { schema: { tags, body: CreateCheckoutBody, response: { 200: Checkout, ...errorResponses } } },
    async (request) => ctx.checkouts.create(principalOf(request), request.body),
  );

  app.get(
    '/checkouts',
    {
      schema: {
        tags,
        querystring: ListQuery,
        response: { 200: Type.Array(CheckoutBase), ...errorResponses },
      },
    },
    async (request) =>
      ctx.checkouts.list(principalOf(request), {
        limit: request.query.limit ?? 100,
        startingAfter: request.query.starting_after,
      }),
  );

  app.get(
    '/checkouts/:id',
    { schema: { tags, params: IdParams, response: { 200: Checkout, ...errorResponses } } },
    async (request) => ctx.checkouts.get(principalOf(request), request.params.id),
  );

  app.post(
    '/checkouts/:id/refund',
    {
      schema: {
        tags,
        params: IdParams,
        body: RefundBody,
        response: { 200: RefundResult, ...errorResponses },
      },
    },
    async (request) => ctx.refunds.refund(principalOf(request), request.params.id, request.body),
  );

  app.delete(
    '/checkouts/:id',
    { schema: { tags, params: IdParams, response: { 204: Type.Null(), ...errorResponses } } },
    async (request, reply) => {
      ctx.checkouts.cancel(principalOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}
