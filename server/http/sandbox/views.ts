import { Type } from 'typebox';
import { Cardholder } from '../../schemas/cards.js';
import { CheckoutBase } from '../../schemas/checkouts.js';
import { EnvQuery, ErrorBody, IdParams, ListQuery } from '../../schemas/common.js';
import { StaticAddress } from '../v1/static-addresses.js';
import type { App, RouteDeps } from '../types.js';

const tags = ['sandbox: merchant views'];
const Query = Type.Object({ ...EnvQuery.properties, ...ListQuery.properties });
const errors = { 404: ErrorBody, 422: ErrorBody };

/**
 * A merchant's resources as the dashboard (or a script) sees them without an API key: the same
 * objects /v1 returns, for any merchant and environment.
 */
export function merchantViewRoutes(app: App, { ctx }: RouteDeps): void {
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
      ctx.merchants.get(request.params.id);
      const { env = 'test', limit = 100, starting_after: startingAfter } = request.query;
      return ctx.checkouts.listFor(request.params.id, env, { limit, startingAfter });
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
    async (request) => {
      ctx.merchants.get(request.params.id);
      return ctx.repos.addresses
        .list(request.params.id, request.query.env ?? 'test')
        .map(({ env: _env, ...row }) => ({ ...row, checkout_id: null }));
    },
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
      ctx.merchants.get(request.params.id);
      const { env = 'test', limit = 100, starting_after: startingAfter } = request.query;
      return ctx.cards.listHoldersFor(request.params.id, env, { limit, startingAfter });
    },
  );
}
