import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Checkout, CheckoutBase } from '../../contract/checkouts.js';
import { errorResponses, IdParams, ListQuery } from '../../contract/common.js';
import type { CheckoutService } from '../../domain/checkouts/service.js';
import type { RefundService } from '../../domain/refunds/service.js';
import { sendPresented } from '../presented-json.js';
import { principalOf, type Use } from '../types.js';
import { registerMerchantWrites } from './merchant-writes.js';

const tags = ['checkouts'];

export interface CheckoutRoutesDeps {
  checkouts: Pick<CheckoutService, 'cancel' | 'create' | 'get' | 'list'>;
  refunds: Pick<RefundService, 'refund'>;
}

export const checkoutRoutes: FastifyPluginAsyncTypebox<{ use: Use<CheckoutRoutesDeps> }> = async (
  app,
  { use },
) => {
  registerMerchantWrites(app, use, ['createCheckout']);

  app.get(
    '/checkouts',
    {
      schema: {
        operationId: 'listCheckouts',
        summary: 'List checkouts',
        tags,
        querystring: ListQuery,
        response: { 200: Type.Array(CheckoutBase), ...errorResponses },
      },
    },
    async (request) =>
      use(request).checkouts.list(principalOf(request), {
        limit: request.query.limit ?? 100,
        startingAfter: request.query.starting_after,
      }),
  );

  app.get(
    '/checkouts/:id',
    {
      schema: {
        operationId: 'getCheckout',
        summary: 'Get a checkout',
        tags,
        params: IdParams,
        response: { 200: Checkout, ...errorResponses },
      },
    },
    // The call a payment integration polls: an unchanged checkout is the same object, written once.
    (request, reply) => {
      sendPresented(reply, use(request).checkouts.get(principalOf(request), request.params.id));
    },
  );

  registerMerchantWrites(app, use, ['refundCheckout']);

  app.delete(
    '/checkouts/:id',
    {
      schema: {
        operationId: 'deleteCheckout',
        summary: 'Delete a checkout',
        tags,
        params: IdParams,
        response: { 204: Type.Null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      use(request).checkouts.cancel(principalOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
};
