import { Type } from 'typebox';
import { EnvQuery, ErrorBody, IdParams, Timestamp } from '../../schemas/common.js';
import type { App, RouteDeps } from '../types.js';

const EventItem = Type.Object({
  id: Type.String(),
  env: Type.String(),
  merchant_id: Type.String(),
  type: Type.String(),
  resource_id: Type.Union([Type.String(), Type.Null()]),
  data: Type.Record(Type.String(), Type.Unknown()),
  created_at: Timestamp,
});

/** The recorded event log, newest first (delivery to webhooks builds on it). */
export function eventControlRoutes(app: App, { ctx }: RouteDeps): void {
  app.get(
    '/merchants/:id/events',
    {
      schema: {
        tags: ['sandbox: events'],
        params: IdParams,
        querystring: Type.Object({
          ...EnvQuery.properties,
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
        }),
        response: { 200: Type.Array(EventItem), 404: ErrorBody, 422: ErrorBody },
      },
    },
    async (request) => {
      ctx.merchants.get(request.params.id);
      return ctx.repos.events
        .listByMerchant(request.params.id, request.query.env ?? 'test', request.query.limit ?? 100)
        .map((row) => ({ ...row, data: JSON.parse(row.data) as Record<string, unknown> }));
    },
  );
}
