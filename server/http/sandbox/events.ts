import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorBody, IdParams } from '../../contract/common.js';
import { EventLogQuery, SandboxEvent } from '../../contract/workspace.js';
import type { MerchantViews } from '../../domain/merchants/views.js';

/** The recorded event log, newest first (delivery to webhooks builds on it). */
export interface EventControlRoutesDeps {
  views: Pick<MerchantViews, 'events'>;
}

export const eventControlRoutes: FastifyPluginAsyncTypebox<EventControlRoutesDeps> = async (
  app,
  { views },
) => {
  app.get(
    '/merchants/:id/events',
    {
      schema: {
        tags: ['sandbox: events'],
        params: IdParams,
        querystring: EventLogQuery,
        response: { 200: Type.Array(SandboxEvent), 404: ErrorBody, 422: ErrorBody },
      },
    },
    async (request) =>
      views.events(request.params.id, request.query.env ?? 'test', request.query.limit ?? 100),
  );
};
