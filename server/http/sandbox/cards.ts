import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  AuthorizationBody,
  Card,
  CardApplication,
  CardholderDetail,
  CardMoveBody,
  CardTransaction,
  KeysQuery,
  KycResultBody,
  KycState,
  PublicKey,
  ReviewBody,
} from '../../contract/cards.js';
import { ErrorBody, IdParams } from '../../contract/common.js';
import { CardProduct } from '../../contract/settings.js';
import type { CardSecrets } from '../../domain/cards/secrets.js';
import type { CardService } from '../../domain/cards/service.js';
import type { SettingsService } from '../../domain/settings/service.js';
import type { CardNetwork } from '../../simulate/card-network.js';
import type { IdentityProvider } from '../../simulate/identity.js';
import type { Use } from '../types.js';

const tags = ['sandbox: identity and card network'];
const errors = { 400: ErrorBody, 404: ErrorBody, 422: ErrorBody };

/** The identity provider and the card network, played by the sandbox. */
export interface CardControlRoutesDeps {
  cards: Pick<CardService, 'holderDetail'>;
  identity: Pick<IdentityProvider, 'kycResult' | 'review'>;
  network: Pick<
    CardNetwork,
    | 'activate'
    | 'authorize'
    | 'cancel'
    | 'decline'
    | 'deposit'
    | 'refund'
    | 'reverse'
    | 'settle'
    | 'transaction'
    | 'transactionsOf'
    | 'withdraw'
  >;
  secrets: Pick<CardSecrets, 'publicKey'>;
  settings: Pick<SettingsService, 'get'>;
}

export const cardControlRoutes: FastifyPluginAsyncTypebox<{ use: Use<CardControlRoutesDeps> }> = async (
  app,
  { use },
) => {
  app.get(
    '/keys',
    {
      schema: {
        operationId: 'sandboxListKeys',
        summary: 'List keys',
        tags,
        querystring: KeysQuery,
        response: { 200: PublicKey, 422: ErrorBody },
      },
    },
    async (request) => {
      const env = request.query.env ?? 'test';
      return { env, public_key_pem: use(request).secrets.publicKey(env) };
    },
  );

  app.get(
    '/card-catalogue',
    {
      schema: {
        operationId: 'sandboxGetCardCatalogue',
        summary: 'Get the card catalogue',
        tags,
        querystring: KeysQuery,
        response: { 200: Type.Array(CardProduct) },
      },
    },
    async (request) => use(request).settings.get().card_catalogue,
  );

  app.get(
    '/cardholders/:id',
    {
      schema: {
        operationId: 'sandboxGetCardholder',
        summary: 'Get a cardholder',
        tags,
        params: IdParams,
        response: { 200: CardholderDetail, ...errors },
      },
    },
    async (request) => use(request).cards.holderDetail(request.params.id),
  );

  app.post(
    '/cardholders/:id/kyc',
    {
      schema: {
        operationId: 'sandboxReviewCardholderKyc',
        summary: 'Decide a cardholder’s KYC',
        tags,
        params: IdParams,
        body: KycResultBody,
        response: { 200: KycState, ...errors },
      },
    },
    async (request) => use(request).identity.kycResult(request.params.id, request.body.result),
  );

  app.post(
    '/card-applications/:id',
    {
      schema: {
        operationId: 'sandboxReviewCardApplication',
        summary: 'Review a card application',
        tags,
        params: IdParams,
        body: ReviewBody,
        response: { 200: CardApplication, ...errors },
      },
    },
    async (request) => use(request).identity.review(request.params.id, request.body.status),
  );

  for (const [action, operationId, summary] of [
    ['activate', 'sandboxActivateCard', 'Activate a card'],
    ['cancel', 'sandboxCancelCard', 'Cancel a card'],
  ] as const) {
    app.post(
      `/cards/:id/${action}`,
      { schema: { operationId, summary, tags, params: IdParams, response: { 200: Card, ...errors } } },
      async (request) => use(request).network[action](request.params.id),
    );
  }

  app.post(
    '/cards/:id/authorizations',
    {
      schema: {
        operationId: 'sandboxCreateCardAuthorization',
        summary: 'Create an authorization of a card',
        tags,
        params: IdParams,
        body: AuthorizationBody,
        response: { 200: CardTransaction, ...errors },
      },
    },
    async (request) => use(request).network.authorize(request.params.id, request.body),
  );

  for (const [path, action, operationId, summary] of [
    ['refunds', 'refund', 'sandboxCreateCardRefund', 'Create a refund of a card'],
    ['deposits', 'deposit', 'sandboxCreateCardDeposit', 'Create a deposit of a card'],
    ['withdrawals', 'withdraw', 'sandboxCreateCardWithdrawal', 'Create a withdrawal of a card'],
  ] as const) {
    app.post(
      `/cards/:id/${path}`,
      {
        schema: {
          operationId,
          summary,
          tags,
          params: IdParams,
          body: CardMoveBody,
          response: { 200: CardTransaction, ...errors },
        },
      },
      async (request) => use(request).network[action](request.params.id, request.body),
    );
  }

  app.get(
    '/cards/:id/transactions',
    {
      schema: {
        operationId: 'sandboxListCardTransactions',
        summary: 'List transactions of a card',
        tags,
        params: IdParams,
        response: { 200: Type.Array(CardTransaction), ...errors },
      },
    },
    async (request) => {
      return use(request).network.transactionsOf(request.params.id, 1000);
    },
  );

  app.get(
    '/card-transactions/:id',
    {
      schema: {
        operationId: 'sandboxGetCardTransaction',
        summary: 'Get a card transaction',
        tags,
        params: IdParams,
        response: { 200: CardTransaction, ...errors },
      },
    },
    async (request) => use(request).network.transaction(request.params.id),
  );

  for (const [action, operationId, summary] of [
    ['settle', 'sandboxSettleCardTransaction', 'Settle a card transaction'],
    ['decline', 'sandboxDeclineCardTransaction', 'Decline a card transaction'],
    ['reverse', 'sandboxReverseCardTransaction', 'Reverse a card transaction'],
  ] as const) {
    app.post(
      `/card-transactions/:id/${action}`,
      {
        schema: {
          operationId,
          summary,
          tags,
          params: IdParams,
          response: { 200: CardTransaction, ...errors },
        },
      },
      async (request) => use(request).network[action](request.params.id),
    );
  }
};
