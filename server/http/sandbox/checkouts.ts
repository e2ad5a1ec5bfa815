import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  Checkout,
  CheckoutInspection,
  PaymentResult,
  SimulatePaymentBody,
} from '../../contract/checkouts.js';
import { ErrorBody, IdParams } from '../../contract/common.js';
import type { CheckoutService } from '../../domain/checkouts/service.js';
import type { ChainSimulator } from '../../simulate/chain.js';

const tags = ['sandbox: crypto payments'];
const errors = { 400: ErrorBody, 404: ErrorBody, 422: ErrorBody };

/** The outside world for checkouts: the blockchain (or fiat provider) and the settlement engine. */
export interface CheckoutControlRoutesDeps {
  chain: Pick<ChainSimulator, 'cancel' | 'complete' | 'expire' | 'pay'>;
  checkouts: Pick<CheckoutService, 'inspect'>;
}

export const checkoutControlRoutes: FastifyPluginAsyncTypebox<CheckoutControlRoutesDeps> = async (
  app,
  { chain, checkouts },
) => {
  app.get(
    '/checkouts/:id',
    {
      schema: {
        tags,
        params: IdParams,
        response: { 200: CheckoutInspection, ...errors },
      },
    },
    async (request) => checkouts.inspect(request.params.id),
  );

  app.post(
    '/checkouts/:id/payments',
    {
      schema: {
        tags,
        params: IdParams,
        body: SimulatePaymentBody,
        response: { 200: PaymentResult, ...errors },
      },
    },
    async (request) => chain.pay(request.params.id, request.body),
  );

  app.post(
    '/checkouts/:id/complete',
    { schema: { tags, params: IdParams, response: { 200: Checkout, ...errors } } },
    async (request) => chain.complete(request.params.id),
  );

  app.post(
    '/checkouts/:id/expire',
    { schema: { tags, params: IdParams, response: { 200: Checkout, ...errors } } },
    async (request) => chain.expire(request.params.id),
  );

  app.post(
    '/checkouts/:id/cancel',
    { schema: { tags, params: IdParams, response: { 200: Checkout, ...errors } } },
    async (request) => chain.cancel(request.params.id),
  );
};
