import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import {
  ApplyBody,
  Card,
  CardApplication,
  Cardholder,
  CreateCardholderBody,
  FundBody,
  IssueCardBody,
  PatchCardBody,
} from '../../contract/cards.js';
import { Checkout, CreateCheckoutBody } from '../../contract/checkouts.js';
import { EnvQuery, ErrorBody, IdParams } from '../../contract/common.js';
import { RefundBody, RefundResult } from '../../contract/refunds.js';
import type { CardService } from '../../domain/cards/service.js';
import type { CheckoutLifecycle } from '../../domain/checkouts/lifecycle.js';
import type { CheckoutService } from '../../domain/checkouts/service.js';
import type { MerchantService } from '../../domain/merchants/service.js';
import type { RefundService } from '../../domain/refunds/service.js';
import type { Env, Principal } from '../../domain/types.js';
import type { Use } from '../types.js';

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

export interface ActingControlRoutesDeps {
  cards: Pick<
    CardService,
    'apply' | 'cardById' | 'createHolder' | 'fund' | 'holderById' | 'issue' | 'recall' | 'setStatus'
  >;
  checkouts: Pick<CheckoutService, 'create'>;
  lifecycle: Pick<CheckoutLifecycle, 'find'>;
  merchants: Pick<MerchantService, 'get'>;
  refunds: Pick<RefundService, 'refund'>;
}

export const actingControlRoutes: FastifyPluginAsyncTypebox<{ use: Use<ActingControlRoutesDeps> }> = async (
  app,
  { use },
) => {
  app.post(
    '/merchants/:id/checkouts',
    {
      schema: {
        operationId: 'sandboxCreateMerchantCheckout',
        summary: 'Create a checkout of a merchant',
        tags,
        params: IdParams,
        querystring: EnvQuery,
        body: CreateCheckoutBody,
        response: { 200: Checkout, ...errors },
      },
    },
    async (request) => {
      use(request).merchants.get(request.params.id);
      return use(request).checkouts.create(
        owner(request.params.id, request.query.env ?? 'test'),
        request.body,
      );
    },
  );

  app.post(
    '/checkouts/:id/refund',
    {
      schema: {
        operationId: 'sandboxRefundCheckout',
        summary: 'Refund a checkout',
        tags,
        params: IdParams,
        body: RefundBody,
        response: { 200: RefundResult, ...errors },
      },
    },
    async (request) => {
      const row = use(request).lifecycle.find(request.params.id);
      return use(request).refunds.refund(owner(row.merchant_id, row.env), row.id, request.body);
    },
  );

  app.post(
    '/merchants/:id/cardholders',
    {
      schema: {
        operationId: 'sandboxCreateMerchantCardholder',
        summary: 'Create a cardholder of a merchant',
        tags,
        params: IdParams,
        querystring: EnvQuery,
        body: CreateCardholderBody,
        response: { 200: Cardholder, ...errors },
      },
    },
    async (request) => {
      use(request).merchants.get(request.params.id);
      return use(request).cards.createHolder(
        owner(request.params.id, request.query.env ?? 'test'),
        request.body,
      );
    },
  );

  const holderOwner = (request: FastifyRequest, id: string) => {
    const holder = use(request).cards.holderById(id);
    return owner(holder.merchant_id, holder.env);
  };

  app.post(
    '/cardholders/:id/applications',
    {
      schema: {
        operationId: 'sandboxCreateCardholderApplication',
        summary: 'Create an application of a cardholder',
        tags,
        params: IdParams,
        body: ApplyBody,
        response: { 200: CardApplication, ...errors },
      },
    },
    async (request) =>
      use(request).cards.apply(holderOwner(request, request.params.id), request.params.id, request.body),
  );

  app.post(
    '/cardholders/:id/cards',
    {
      schema: {
        operationId: 'sandboxCreateCardholderCard',
        summary: 'Create a card of a cardholder',
        tags,
        params: IdParams,
        body: IssueCardBody,
        response: { 200: Card, ...errors },
      },
    },
    async (request) =>
      use(request).cards.issue(holderOwner(request, request.params.id), request.params.id, request.body),
  );

  for (const [action, operationId, summary] of [
    ['fund', 'sandboxFundCardholder', 'Fund a cardholder'],
    ['recall', 'sandboxRecallCardholder', 'Recall a cardholder'],
  ] as const) {
    app.post(
      `/cardholders/:id/${action}`,
      {
        schema: {
          operationId,
          summary,
          tags,
          params: IdParams,
          body: FundBody,
          response: { 204: Type.Null(), ...errors },
        },
      },
      async (request, reply) => {
        use(request).cards[action](holderOwner(request, request.params.id), request.params.id, request.body);
        return reply.code(204).send(null);
      },
    );
  }

  app.patch(
    '/cards/:id',
    {
      schema: {
        operationId: 'sandboxUpdateCard',
        summary: 'Update a card',
        tags,
        params: IdParams,
        body: PatchCardBody,
        response: { 200: Card, ...errors },
      },
    },
    async (request) => {
      const card = use(request).cards.cardById(request.params.id);
      return use(request).cards.setStatus(
        holderOwner(request, card.cardholder_id),
        card.cardholder_id,
        card.id,
        request.body.status,
      );
    },
  );
};
