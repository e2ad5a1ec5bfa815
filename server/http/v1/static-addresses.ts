import { Type } from 'typebox';
import { ChainConfig } from '../../schemas/settings.js';
import { errorResponses, Null, Timestamp, Uuid } from '../../schemas/common.js';
import { type App, principalOf, type RouteDeps } from '../types.js';

export const StaticAddress = Type.Object({
  id: Type.Integer(),
  checkout_id: Null,
  merchant_id: Uuid,
  chain: Type.String(),
  address: Type.String(),
  created_at: Timestamp,
});

/**
 * GET /v1/withdraw/chains (shape not shown in the spec; ours): the chain/token catalogue with each
 * token's gas_fee, min and max in 6dp, the figures refunds and payouts use.
 */
const WithdrawChains = Type.Array(ChainConfig);

export function addressRoutes(app: App, { ctx }: RouteDeps): void {
  app.get(
    '/static-addresses',
    {
      schema: { tags: ['static addresses'], response: { 200: Type.Array(StaticAddress), ...errorResponses } },
    },
    async (request) => {
      const { merchantId, env } = principalOf(request);
      return ctx.repos.addresses
        .list(merchantId, env)
        .map(({ env: _env, ...row }) => ({ ...row, checkout_id: null }));
    },
  );

  app.get(
    '/withdraw/chains',
    { schema: { tags: ['withdraw'], response: { 200: WithdrawChains, ...errorResponses } } },
    async (request) => {
      principalOf(request);
      return ctx.settings.get().chains;
    },
  );
}
