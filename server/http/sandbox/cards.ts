import { Type } from 'typebox';
import { toCard } from '../../domain/cards/service.js';
import type { Env } from '../../domain/types.js';
import {
  AuthorizationBody,
  Card,
  CardApplication,
  Cardholder,
  CardMoveBody,
  CardTransaction,
  KeysQuery,
  KycResultBody,
  ReviewBody,
} from '../../schemas/cards.js';
import { EnvName, ErrorBody, IdParams } from '../../schemas/common.js';
import { CardProduct } from '../../schemas/settings.js';
import type { App, RouteDeps } from '../types.js';

const tags = ['sandbox: identity and card network'];
const errors = { 400: ErrorBody, 404: ErrorBody, 422: ErrorBody };

/** The identity provider and the card network, played by the sandbox. */
export function cardControlRoutes(app: App, { ctx }: RouteDeps): void {
  app.get(
    '/keys',
    {
      schema: {
        tags,
        querystring: KeysQuery,
        response: { 200: Type.Object({ env: EnvName, public_key_pem: Type.String() }), 422: ErrorBody },
      },
    },
    async (request) => {
      const env = request.query.env ?? 'test';
      return { env, public_key_pem: ctx.secrets.publicKey(env) };
    },
  );

  app.get(
    '/card-catalogue',
    { schema: { tags, querystring: KeysQuery, response: { 200: Type.Array(CardProduct) } } },
    async () => ctx.settings.get().card_catalogue,
  );

  app.get(
    '/cardholders/:id',
    {
      schema: {
        tags,
        params: IdParams,
        response: {
          200: Type.Object({
            cardholder: Type.Object({
              ...Cardholder.properties,
              env: Type.String(),
              kyc_status: Type.String(),
            }),
            applications: Type.Array(CardApplication),
            cards: Type.Array(Card),
          }),
          ...errors,
        },
      },
    },
    async (request) => {
      const holder = ctx.cards.holderById(request.params.id);
      const [presented] = ctx.cards.presentHolders(holder.env as Env, [holder]);
      return {
        cardholder: { ...presented!, env: holder.env, kyc_status: holder.kyc_status },
        applications: ctx.cards.applications(holder.id),
        cards: ctx.repos.cards.cardsOf(holder.id).map(toCard),
      };
    },
  );

  app.post(
    '/cardholders/:id/kyc',
    {
      schema: {
        tags,
        params: IdParams,
        body: KycResultBody,
        response: {
          200: Type.Object({ id: Type.String(), is_kyc_verified: Type.Boolean(), kyc_status: Type.String() }),
          ...errors,
        },
      },
    },
    async (request) => {
      const row = ctx.cards.kycResult(request.params.id, request.body.result);
      return { id: row.id, is_kyc_verified: row.is_kyc_verified === 1, kyc_status: row.kyc_status };
    },
  );

  app.post(
    '/card-applications/:id',
    { schema: { tags, params: IdParams, body: ReviewBody, response: { 200: CardApplication, ...errors } } },
    async (request) => ctx.cards.review(request.params.id, request.body.status),
  );

  for (const action of ['activate', 'cancel'] as const) {
    app.post(
      `/cards/:id/${action}`,
      { schema: { tags, params: IdParams, response: { 200: Card, ...errors } } },
      async (request) => ctx.cards[action](request.params.id),
    );
  }

  app.post(
    '/cards/:id/authorizations',
    {
      schema: {
        tags,
        params: IdParams,
        body: AuthorizationBody,
        response: { 200: CardTransaction, ...errors },
      },
    },
    async (request) => ctx.network.authorize(request.params.id, request.body),
  );

  for (const [path, action] of [
    ['refunds', 'refund'],
    ['deposits', 'deposit'],
    ['withdrawals', 'withdraw'],
  ] as const) {
    app.post(
      `/cards/:id/${path}`,
      {
        schema: { tags, params: IdParams, body: CardMoveBody, response: { 200: CardTransaction, ...errors } },
      },
      async (request) => ctx.network[action](request.params.id, request.body),
    );
  }

  app.get(
    '/cards/:id/transactions',
    { schema: { tags, params: IdParams, response: { 200: Type.Array(CardTransaction), ...errors } } },
    async (request) => {
      ctx.cards.cardById(request.params.id);
      return ctx.repos.cards.transactionsOf(request.params.id, 1000);
    },
  );

  for (const action of ['settle', 'decline', 'reverse'] as const) {
    app.post(
      `/card-transactions/:id/${action}`,
      { schema: { tags, params: IdParams, response: { 200: CardTransaction, ...errors } } },
      async (request) => ctx.network[action](request.params.id),
    );
  }
}
