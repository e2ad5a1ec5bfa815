import { Type } from 'typebox';
import type { Env, Principal } from '../../domain/types.js';
import {
  ApplyBody,
  Card,
  CardApplication,
  Cardholder,
  CreateCardholderBody,
  FundBody,
  IssueCardBody,
  PatchCardBody,
} from '../../schemas/cards.js';
import { Checkout, CreateCheckoutBody } from '../../schemas/checkouts.js';
import { EnvQuery, ErrorBody, IdParams } from '../../schemas/common.js';
import { RefundBody, RefundResult } from '../../schemas/refunds.js';
import type { App, RouteDeps } from '../types.js';

const tags = ['sandbox: acting as a merchant'];
const errors = { 400: ErrorBody, 403: ErrorBody, 404: ErrorBody, 422: ErrorBody };

/**
 * The merchant's own /v1 calls, made from the control API in either environment: the dashboard
 * (one origin, the test address) needs them to act in production, and a script needs no key. The
 * same domain rules apply; the caller acts as the merchant's owner.
 */
const owner = (merchantId: string, env: Env): Principal => ({
  env,
  merchantId,
  apiKeyId: 'sandbox-control',
  role: 'owner',
});

export function actingControlRoutes(app: App, { ctx }: RouteDeps): void {
  app.post(
    '/merchants/:id/checkouts',
    {
      schema: {
        tags,
        params: IdParams,
        querystring: EnvQuery,
        body: CreateCheckoutBody,
        response: { 200: Checkout, ...errors },
      },
    },
    async (request) => {
      ctx.merchants.get(request.params.id);
      return ctx.checkouts.create(owner(request.params.id, request.query.env ?? 'test'), request.body);
    },
  );

  app.post(
    '/checkouts/:id/refund',
    { schema: { tags, params: IdParams, body: RefundBody, response: { 200: RefundResult, ...errors } } },
    async (request) => {
      const row = ctx.checkouts.find(request.params.id);
      return ctx.refunds.refund(owner(row.merchant_id, row.env as Env), row.id, request.body);
    },
  );

  app.post(
    '/merchants/:id/cardholders',
    {
      schema: {
        tags,
        params: IdParams,
        querystring: EnvQuery,
        body: CreateCardholderBody,
        response: { 200: Cardholder, ...errors },
      },
    },
    async (request) => {
      ctx.merchants.get(request.params.id);
      return ctx.cards.createHolder(owner(request.params.id, request.query.env ?? 'test'), request.body);
    },
  );

  const holderOwner = (id: string) => {
    const holder = ctx.cards.holderById(id);
    return owner(holder.merchant_id, holder.env as Env);
  };

  app.post(
    '/cardholders/:id/applications',
    { schema: { tags, params: IdParams, body: ApplyBody, response: { 200: CardApplication, ...errors } } },
    async (request) => ctx.cards.apply(holderOwner(request.params.id), request.params.id, request.body),
  );

  app.post(
    '/cardholders/:id/cards',
    { schema: { tags, params: IdParams, body: IssueCardBody, response: { 200: Card, ...errors } } },
    async (request) => ctx.cards.issue(holderOwner(request.params.id), request.params.id, request.body),
  );

  for (const action of ['fund', 'recall'] as const) {
    app.post(
      `/cardholders/:id/${action}`,
      { schema: { tags, params: IdParams, body: FundBody, response: { 204: Type.Null(), ...errors } } },
      async (request, reply) => {
        ctx.cards[action](holderOwner(request.params.id), request.params.id, request.body);
        return reply.code(204).send(null);
      },
    );
  }

  app.patch(
    '/cards/:id',
    { schema: { tags, params: IdParams, body: PatchCardBody, response: { 200: Card, ...errors } } },
    async (request) => {
      const card = ctx.cards.cardById(request.params.id);
      return ctx.cards.setStatus(
        holderOwner(card.cardholder_id),
        card.cardholder_id,
        card.id,
        request.body.status,
      );
    },
  );
}
