import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorBody, IdParams } from '../../contract/common.js';
import { SandboxEvent } from '../../contract/sandbox-state.js';
import { EventListQuery } from '../../contract/views.js';
import type { DashboardViews } from '../../domain/views/service.js';
import type { Use } from '../types.js';

/** The recorded event log, newest first: filter by type, search by id, keyset paging. */
export interface EventControlRoutesDeps {
  dashboard: Pick<DashboardViews, 'events'>;
}

export const eventControlRoutes: FastifyPluginAsyncTypebox<{ use: Use<EventControlRoutesDeps> }> = async (
  app,
  { use },
) => {
  app.get(
    '/merchants/:id/events',
    {
      schema: {
        operationId: 'sandboxListMerchantEvents',
        summary: 'List events of a merchant',
        tags: ['sandbox: events'],
        params: IdParams,
        querystring: EventListQuery,
        response: { 200: Type.Array(SandboxEvent), 404: ErrorBody, 422: ErrorBody },
      },
    },
    async (request) => {
      const { env = 'test', limit = 100, starting_after: startingAfter, type, q } = request.query;
      return use(request).dashboard.events(request.params.id, env, { limit, startingAfter, type, search: q });
    },
  );
};
