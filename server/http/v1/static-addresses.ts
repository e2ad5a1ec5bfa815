import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses } from '../../contract/common.js';
import { StaticAddress, WithdrawChains } from '../../contract/static-addresses.js';
import type { MerchantViews } from '../../domain/merchants/views.js';
import type { SettingsService } from '../../domain/settings/service.js';
import { principalOf, type Use } from '../types.js';

export interface AddressRoutesDeps {
  settings: Pick<SettingsService, 'get'>;
  views: Pick<MerchantViews, 'staticAddresses'>;
}

export const addressRoutes: FastifyPluginAsyncTypebox<{ use: Use<AddressRoutesDeps> }> = async (
  app,
  { use },
) => {
  app.get(
    '/static-addresses',
    {
      schema: {
        operationId: 'listStaticAddresses',
        summary: 'List static addresses',
        tags: ['static addresses'],
        response: { 200: Type.Array(StaticAddress), ...errorResponses },
      },
    },
    async (request) => {
      const { merchantId, env } = principalOf(request);
      return use(request).views.staticAddresses(merchantId, env);
    },
  );

  app.get(
    '/withdraw/chains',
    {
      schema: {
        operationId: 'listWithdrawChains',
        summary: 'List withdraw chains',
        tags: ['withdraw'],
        response: { 200: WithdrawChains, ...errorResponses },
      },
    },
    async (request) => {
      principalOf(request);
      return use(request).settings.get().chains;
    },
  );
};
