import type { FastifyInstance, FastifyReply } from 'fastify';
import { type Static, type TSchema, Type } from 'typebox';
import {
  ApplyBody,
  Card,
  CardApplication,
  Cardholder,
  CardParams,
  CreateCardholderBody,
  FundBody,
  IssueCardBody,
  PatchCardBody,
} from '../../contract/cards.js';
import { Checkout, CreateCheckoutBody } from '../../contract/checkouts.js';
import { errorResponses, IdParams } from '../../contract/common.js';
import { RefundBody, RefundResult } from '../../contract/refunds.js';
import type { CardService } from '../../domain/cards/service.js';
import type { CheckoutService } from '../../domain/checkouts/service.js';
import type { RefundService } from '../../domain/refunds/service.js';
import type { Principal } from '../../domain/types.js';
import { principalOf, type Use } from '../types.js';

/**
 * The merchant's writes that the control API also makes "as the merchant" (../sandbox/acting.ts,
 * for the dashboard, which acts in either environment without a key). Each is defined once here:
 * its /v1 route, body and answer, and the service call it makes for a principal. The /v1 route
 * registers it with the key's principal; the control route with the owner of the merchant or
 * object it names, the same schemas and the same call.
 */

export interface CheckoutWriteDeps {
  checkouts: Pick<CheckoutService, 'create'>;
  refunds: Pick<RefundService, 'refund'>;
}
export interface CardWriteDeps {
  cards: Pick<CardService, 'apply' | 'createHolder' | 'fund' | 'issue' | 'recall' | 'setStatus'>;
}
export type MerchantWriteDeps = CheckoutWriteDeps & CardWriteDeps;

export interface MerchantWrite<
  D = MerchantWriteDeps,
  P extends TSchema = TSchema,
  B extends TSchema = TSchema,
> {
  method: 'POST' | 'PATCH';
  /** the /v1 route, within the /v1 prefix */
  url: string;
  operationId: string;
  summary: string;
  tags: string[];
  /** the /v1 path parameters (none for a create) */
  params: P | undefined;
  body: B;
  /** the status of success, and what it answers (204: nothing) */
  status: 200 | 204;
  answer: TSchema;
  /** the service call, for `principal`, on the objects the /v1 path parameters name */
  run(deps: D, principal: Principal, params: Static<P>, body: Static<B>): unknown;
}

// Typed where written; kept in the table with its services' type only.
const checkoutWrite = <P extends TSchema, B extends TSchema>(
  definition: MerchantWrite<CheckoutWriteDeps, P, B>,
) => definition as unknown as MerchantWrite<CheckoutWriteDeps>;
const cardWrite = <P extends TSchema, B extends TSchema>(definition: MerchantWrite<CardWriteDeps, P, B>) =>
  definition as unknown as MerchantWrite<CardWriteDeps>;

const checkoutTags = ['checkouts'];
const cardTags = ['cardholders and cards'];

const fundOrRecall = (action: 'fund' | 'recall', operationId: string, summary: string) =>
  cardWrite({
    method: 'POST',
    url: `/cardholders/:id/${action}`,
    operationId,
    summary,
    tags: cardTags,
    params: IdParams,
    body: FundBody,
    status: 204,
    answer: Type.Null(),
    run: (deps, principal, { id }, body) => deps.cards[action](principal, id, body),
  });

export const merchantWrites = {
  createCheckout: checkoutWrite({
    method: 'POST',
    url: '/checkouts',
    operationId: 'createCheckout',
    summary: 'Create a checkout',
    tags: checkoutTags,
    params: undefined,
    body: CreateCheckoutBody,
    status: 200,
    answer: Checkout,
    run: (deps, principal, _params, body) => deps.checkouts.create(principal, body),
  }),
  refundCheckout: checkoutWrite({
    method: 'POST',
    url: '/checkouts/:id/refund',
    operationId: 'refundCheckout',
    summary: 'Refund a checkout',
    tags: checkoutTags,
    params: IdParams,
    body: RefundBody,
    status: 200,
    answer: RefundResult,
    run: (deps, principal, { id }, body) => deps.refunds.refund(principal, id, body),
  }),
  createCardholder: cardWrite({
    method: 'POST',
    url: '/cardholders',
    operationId: 'createCardholder',
    summary: 'Create a cardholder',
    tags: cardTags,
    params: undefined,
    body: CreateCardholderBody,
    status: 200,
    answer: Cardholder,
    run: (deps, principal, _params, body) => deps.cards.createHolder(principal, body),
  }),
  applyForCard: cardWrite({
    method: 'POST',
    url: '/cardholders/:id/cards/apply',
    operationId: 'applyForCard',
    summary: 'Apply for a card for a cardholder',
    tags: cardTags,
    params: IdParams,
    body: ApplyBody,
    status: 200,
    answer: CardApplication,
    run: (deps, principal, { id }, body) => deps.cards.apply(principal, id, body),
  }),
  // The spec does not show the issue response; we return the card.
  issueCard: cardWrite({
    method: 'POST',
    url: '/cardholders/:id/cards',
    operationId: 'issueCard',
    summary: 'Issue a card to a cardholder',
    tags: cardTags,
    params: IdParams,
    body: IssueCardBody,
    status: 200,
    answer: Card,
    run: (deps, principal, { id }, body) => deps.cards.issue(principal, id, body),
  }),
  fundCardholder: fundOrRecall('fund', 'fundCardholder', 'Fund a cardholder'),
  recallCardholder: fundOrRecall('recall', 'recallCardholder', 'Recall a cardholder'),
  // The spec does not show the PATCH response; we return the card.
  updateCardholderCard: cardWrite({
    method: 'PATCH',
    url: '/cardholders/:ch_id/cards/:card_id',
    operationId: 'updateCardholderCard',
    summary: 'Update a card of a cardholder',
    tags: cardTags,
    params: CardParams,
    body: PatchCardBody,
    status: 200,
    answer: Card,
    run: (deps, principal, { ch_id, card_id }, body) =>
      deps.cards.setStatus(principal, ch_id, card_id, body.status),
  }),
} as const;

export type MerchantWriteName = keyof typeof merchantWrites;
/** The services a write calls. */
type WriteDeps<K extends MerchantWriteName> =
  (typeof merchantWrites)[K] extends MerchantWrite<infer D> ? D : never;

/** The answer of a write: its result, or 204 with nothing. */
export function answer(reply: FastifyReply, write: { status: 200 | 204 }, result: unknown): unknown {
  return write.status === 204 ? reply.code(204).send(null) : result;
}

/** Registers the /v1 route of each write named, as the merchant whose key the request carries. */
export function registerMerchantWrites<K extends MerchantWriteName>(
  app: FastifyInstance,
  use: Use<WriteDeps<K>>,
  names: readonly K[],
): void {
  for (const name of names) {
    const definition = merchantWrites[name] as MerchantWrite<WriteDeps<K>>;
    app.route({
      method: definition.method,
      url: definition.url,
      schema: {
        operationId: definition.operationId,
        summary: definition.summary,
        tags: definition.tags,
        ...(definition.params ? { params: definition.params } : {}),
        body: definition.body,
        response: { [definition.status]: definition.answer, ...errorResponses },
      },
      handler: async (request, reply) =>
        answer(
          reply,
          definition,
          definition.run(use(request), principalOf(request), request.params as never, request.body as never),
        ),
    });
  }
}
