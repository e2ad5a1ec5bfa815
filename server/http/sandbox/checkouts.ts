import { Type } from 'typebox';
import { Checkout, CheckoutPayment, SimulatePaymentBody } from '../../schemas/checkouts.js';
import { ErrorBody, IdParams } from '../../schemas/common.js';
import { RefundRecord } from '../../schemas/refunds.js';
import type { App, RouteDeps } from '../types.js';

const tags = ['sandbox: crypto payments'];
const errors = { 400: ErrorBody, 404: ErrorBody, 422: ErrorBody };

/** The outside world for checkouts: the blockchain (or fiat provider) and the settlement engine. */
export function checkoutControlRoutes(app: App, { ctx }: RouteDeps): void {
  app.get(
    '/checkouts/:id',
    {
      schema: {
        tags,
        params: IdParams,
        response: {
          200: Type.Object({
            checkout: Checkout,
            env: Type.String(),
            received_amount: Type.Integer(),
            payments: Type.Array(CheckoutPayment),
            refunds: Type.Array(RefundRecord),
          }),
          ...errors,
        },
      },
    },
    async (request) => {
      const row = ctx.checkouts.find(request.params.id);
      return {
        checkout: ctx.checkouts.present(row),
        env: row.env,
        received_amount: row.received_amount,
        payments: ctx.checkouts.payments(row.id),
        refunds: ctx.refunds.list(row.id),
      };
    },
  );

  app.post(
    '/checkouts/:id/payments',
    {
      schema: {
        tags,
        params: IdParams,
        body: SimulatePaymentBody,
        response: { 200: Type.Object({ checkout: Checkout, payment: CheckoutPayment }), ...errors },
      },
    },
    async (request) => ctx.checkouts.pay(request.params.id, request.body),
  );

  app.post(
    '/checkouts/:id/complete',
    { schema: { tags, params: IdParams, response: { 200: Checkout, ...errors } } },
    async (request) => ctx.checkouts.complete(request.params.id),
  );

  app.post(
    '/checkouts/:id/expire',
    { schema: { tags, params: IdParams, response: { 200: Checkout, ...errors } } },
    async (request) => ctx.checkouts.expire(request.params.id),
  );

  app.post(
    '/checkouts/:id/cancel',
    { schema: { tags, params: IdParams, response: { 200: Checkout, ...errors } } },
    async (request) => {
      ctx.checkouts.cancelRow(ctx.checkouts.find(request.params.id));
      return ctx.checkouts.present(ctx.checkouts.find(request.params.id));
    },
  );
}
