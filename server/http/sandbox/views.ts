import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Cardholder } from '../../contract/cards.js';
import { CheckoutBase } from '../../contract/checkouts.js';
import { EnvQuery, ErrorBody, IdParams, ListQuery } from '../../contract/common.js';
import { StaticAddress } from '../../contract/static-addresses.js';
import type { CardService } from '../../domain/cards/service.js';
import type { CheckoutService } from '../../domain/checkouts/service.js';
import type { MerchantService } from '../../domain/merchants/service.js';
import type { MerchantViews } from '../../domain/merchants/views.js';

const tags = ['sandbox: merchant views'];
const Query = Type.Object({ ...EnvQuery.properties, ...ListQuery.properties });
const errors = { 404: ErrorBody, 422: ErrorBody };

/**
 * A merchant's resources as the dashboard (or a script) sees them without an API key: the same
 * objects /v1 returns, for any merchant and environment.
 */
export interface MerchantViewRoutesDeps {
  cards: Pick<CardService, 'listHoldersFor'>;
  checkouts: Pick<CheckoutService, 'listFor'>;
  merchants: Pick<MerchantService, 'get'>;
  views: Pick<MerchantViews, 'staticAddressesOf'>;
}

export const merchantViewRoutes: FastifyPluginAsyncTypebox<MerchantViewRoutesDeps> = async (
  app,
  { cards, checkouts, merchants, views },
) => {
  app.get(
    '/merchants/:id/checkouts',
    {
      schema: {
        tags,
        params: IdParams,
        querystring: Query,
        response: { 200: Type.Array(CheckoutBase), ...errors },
      },
    },
    async (request) => {
      merchants.get(request.params.id);
      const { env = 'test', limit = 100, starting_after: startingAfter } = request.query;
      return checkouts.listFor(request.params.id, env, { limit, startingAfter });
    },
  );

  app.get(
    '/merchants/:id/static-addresses',
    {
      schema: {
        tags,
        params: IdParams,
        querystring: EnvQuery,
        response: { 200: Type.Array(StaticAddress), ...errors },
      },
    },
    async (request) => views.staticAddressesOf(request.params.id, request.query.env ?? 'test'),
  );

  app.get(
    '/merchants/:id/cardholders',
    {
      schema: {
        tags,
        params: IdParams,
        querystring: Query,
        response: { 200: Type.Array(Cardholder), ...errors },
      },
    },
    async (request) => {
      merchants.get(request.params.id);
      const { env = 'test', limit = 100, starting_after: startingAfter } = request.query;
      return cards.listHoldersFor(request.params.id, env, { limit, startingAfter });
    },
  );
};
