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
import type { Use } from '../types.js';

const tags = ['sandbox: crypto payments'];
const errors = { 400: ErrorBody, 404: ErrorBody, 422: ErrorBody };

/** The outside world for checkouts: the blockchain (or fiat provider) and the settlement engine. */
export interface CheckoutControlRoutesDeps {
  chain: Pick<ChainSimulator, 'cancel' | 'complete' | 'expire' | 'pay'>;
  checkouts: Pick<CheckoutService, 'inspect'>;
}

export const checkoutControlRoutes: FastifyPluginAsyncTypebox<{
  use: Use<CheckoutControlRoutesDeps>;
}> = async (app, { use }) => {
  app.get(
    '/checkouts/:id',
    {
      schema: {
        operationId: 'sandboxGetCheckout',
        summary: 'Get a checkout',
        tags,
        params: IdParams,
        response: { 200: CheckoutInspection, ...errors },
      },
    },
    async (request) => use(request).checkouts.inspect(request.params.id),
  );

  app.post(
    '/checkouts/:id/payments',
    {
      schema: {
        operationId: 'sandboxPayCheckout',
        summary: 'Simulate a payment to a checkout',
        tags,
        params: IdParams,
        body: SimulatePaymentBody,
        response: { 200: PaymentResult, ...errors },
      },
    },
    async (request) => use(request).chain.pay(request.params.id, request.body),
  );

  app.post(
    '/checkouts/:id/complete',
    {
      schema: {
        operationId: 'sandboxCompleteCheckout',
        summary: 'Complete a checkout',
        tags,
        params: IdParams,
        response: { 200: Checkout, ...errors },
      },
    },
    async (request) => use(request).chain.complete(request.params.id),
  );

  app.post(
    '/checkouts/:id/expire',
    {
      schema: {
        operationId: 'sandboxExpireCheckout',
        summary: 'Expire a checkout',
        tags,
        params: IdParams,
        response: { 200: Checkout, ...errors },
      },
    },
    async (request) => use(request).chain.expire(request.params.id),
  );

  app.post(
    '/checkouts/:id/cancel',
    {
      schema: {
        operationId: 'sandboxCancelCheckout',
        summary: 'Cancel a checkout',
        tags,
        params: IdParams,
        response: { 200: Checkout, ...errors },
      },
    },
    async (request) => use(request).chain.cancel(request.params.id),
  );
};
