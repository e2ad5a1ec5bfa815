import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { TSchema } from 'typebox';
import { EnvQuery, ErrorBody, IdParams } from '../../contract/common.js';
import type { CardService } from '../../domain/cards/service.js';
import type { CheckoutLifecycle } from '../../domain/checkouts/lifecycle.js';
import type { MerchantService } from '../../domain/merchants/service.js';
import type { Env, Principal } from '../../domain/types.js';
import type { Use } from '../types.js';
import {
  answer,
  type MerchantWrite,
  type MerchantWriteDeps,
  type MerchantWriteName,
  merchantWrites,
} from '../v1/merchant-writes.js';

const tags = ['sandbox: acting as a merchant'];
const errors = { 400: ErrorBody, 403: ErrorBody, 404: ErrorBody, 422: ErrorBody };

/**
 * The merchant's own /v1 writes, made from the control API in either environment: the dashboard
 * (one origin, the test address) needs them to act in production, and a script needs no key. Each
 * is the /v1 definition itself (../v1/merchant-writes.ts: schemas and service call); the caller
 * acts as the owner of the merchant the path names, or of the object it acts on.
 */
const owner = (merchantId: string, env: Env): Principal => ({
  env,
  merchantId,
  apiKeyId: 'sandbox-control',
  role: 'owner',
});

export interface ActingControlRoutesDeps extends MerchantWriteDeps {
  cards: MerchantWriteDeps['cards'] & Pick<CardService, 'cardById' | 'holderById'>;
  lifecycle: Pick<CheckoutLifecycle, 'find'>;
  merchants: Pick<MerchantService, 'get'>;
}

/** Who acts, and the /v1 path parameters, for a control request (its `:id`, and `?env`). */
type Actor = (
  deps: ActingControlRoutesDeps,
  id: string,
  env: Env | undefined,
) => { principal: Principal; params: Record<string, string> };

/** A merchant the path names: its owner, in the environment the query names. */
const merchantNamed: Actor = (deps, id, env) => {
  deps.merchants.get(id);
  return { principal: owner(id, env ?? 'test'), params: {} };
};
/** A checkout's owner, in its environment. */
const checkoutOwner: Actor = (deps, id) => {
  const row = deps.lifecycle.find(id);
  return { principal: owner(row.merchant_id, row.env), params: { id: row.id } };
};
/** A cardholder's owner, in its environment. */
const holderOwner: Actor = (deps, id) => {
  const holder = deps.cards.holderById(id);
  return { principal: owner(holder.merchant_id, holder.env), params: { id } };
};
/** A card's: its cardholder's owner; the /v1 path names both. */
const cardOwner: Actor = (deps, id) => {
  const card = deps.cards.cardById(id);
  const { principal } = holderOwner(deps, card.cardholder_id, undefined);
  return { principal, params: { ch_id: card.cardholder_id, card_id: card.id } };
};

/** Each control route: the /v1 write it makes, where it is, and who acts. */
const ACTING: {
  write: MerchantWriteName;
  url: string;
  operationId: string;
  summary: string;
  actor: Actor;
}[] = [
  {
    write: 'createCheckout',
    url: '/merchants/:id/checkouts',
    operationId: 'sandboxCreateMerchantCheckout',
    summary: 'Create a checkout of a merchant',
    actor: merchantNamed,
  },
  {
    write: 'refundCheckout',
    url: '/checkouts/:id/refund',
    operationId: 'sandboxRefundCheckout',
    summary: 'Refund a checkout',
    actor: checkoutOwner,
  },
  {
    write: 'createCardholder',
    url: '/merchants/:id/cardholders',
    operationId: 'sandboxCreateMerchantCardholder',
    summary: 'Create a cardholder of a merchant',
    actor: merchantNamed,
  },
  {
    write: 'applyForCard',
    url: '/cardholders/:id/applications',
    operationId: 'sandboxCreateCardholderApplication',
    summary: 'Create an application of a cardholder',
    actor: holderOwner,
  },
  {
    write: 'issueCard',
    url: '/cardholders/:id/cards',
    operationId: 'sandboxCreateCardholderCard',
    summary: 'Create a card of a cardholder',
    actor: holderOwner,
  },
  {
    write: 'fundCardholder',
    url: '/cardholders/:id/fund',
    operationId: 'sandboxFundCardholder',
    summary: 'Fund a cardholder',
    actor: holderOwner,
  },
  {
    write: 'recallCardholder',
    url: '/cardholders/:id/recall',
    operationId: 'sandboxRecallCardholder',
    summary: 'Recall a cardholder',
    actor: holderOwner,
  },
  {
    write: 'updateCardholderCard',
    url: '/cards/:id',
    operationId: 'sandboxUpdateCard',
    summary: 'Update a card',
    actor: cardOwner,
  },
];

export const actingControlRoutes: FastifyPluginAsyncTypebox<{ use: Use<ActingControlRoutesDeps> }> = async (
  app,
  { use },
) => {
  for (const route of ACTING) {
    const definition = merchantWrites[route.write] as MerchantWrite;
    // A merchant the path names also takes the environment to act in.
    const query: TSchema | undefined = route.actor === merchantNamed ? EnvQuery : undefined;
    app.route({
      method: definition.method,
      url: route.url,
      schema: {
        operationId: route.operationId,
        summary: route.summary,
        tags,
        params: IdParams,
        ...(query ? { querystring: query } : {}),
        body: definition.body,
        response: { [definition.status]: definition.answer, ...errors },
      },
      handler: async (request: FastifyRequest, reply) => {
        const deps = use(request);
        const { id } = request.params as { id: string };
        const { env } = (request.query ?? {}) as { env?: Env };
        const { principal, params } = route.actor(deps, id, env);
        return answer(
          reply,
          definition,
          definition.run(deps, principal, params as never, request.body as never),
        );
      },
    });
  }
};
