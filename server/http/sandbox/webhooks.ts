import { Type } from 'typebox';
import { EnvQuery, ErrorBody, IdParams } from '../../schemas/common.js';
import {
  ConfigureInboxBody,
  CreateEndpointBody,
  Delivery,
  DeliveryQuery,
  Inbox,
  InboxName,
  WebhookEndpoint,
} from '../../schemas/webhooks.js';
import type { App, RouteDeps } from '../types.js';

const tags = ['sandbox: webhooks'];
const errors = { 400: ErrorBody, 404: ErrorBody, 422: ErrorBody };

export function webhookControlRoutes(app: App, { ctx }: RouteDeps): void {
  app.post(
    '/merchants/:id/webhook-endpoints',
    {
      schema: {
        tags,
        params: IdParams,
        querystring: EnvQuery,
        body: CreateEndpointBody,
        response: { 200: WebhookEndpoint, ...errors },
      },
    },
    async (request) => {
      ctx.merchants.get(request.params.id);
      return ctx.webhooks.createEndpoint(request.params.id, request.query.env ?? 'test', request.body);
    },
  );

  app.get(
    '/merchants/:id/webhook-endpoints',
    {
      schema: {
        tags,
        params: IdParams,
        querystring: EnvQuery,
        response: { 200: Type.Array(WebhookEndpoint), ...errors },
      },
    },
    async (request) => {
      ctx.merchants.get(request.params.id);
      return ctx.webhooks.listEndpoints(request.params.id, request.query.env ?? 'test');
    },
  );

  app.get(
    '/webhook-endpoints/:id',
    { schema: { tags, params: IdParams, response: { 200: WebhookEndpoint, ...errors } } },
    async (request) => ctx.webhooks.getEndpoint(request.params.id),
  );

  app.delete(
    '/webhook-endpoints/:id',
    { schema: { tags, params: IdParams, response: { 204: Type.Null(), ...errors } } },
    async (request, reply) => {
      ctx.transaction(() => ctx.webhooks.deleteEndpoint(request.params.id));
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/deliveries',
    { schema: { tags, querystring: DeliveryQuery, response: { 200: Type.Array(Delivery), ...errors } } },
    async (request) => ctx.webhooks.listDeliveries({ ...request.query, limit: request.query.limit ?? 100 }),
  );

  app.get(
    '/deliveries/:id',
    { schema: { tags, params: IdParams, response: { 200: Delivery, ...errors } } },
    async (request) => ctx.webhooks.getDelivery(request.params.id),
  );

  app.post(
    '/deliveries/:id/retry',
    { schema: { tags, params: IdParams, response: { 200: Delivery, ...errors } } },
    async (request) => ctx.webhooks.retry(request.params.id),
  );

  // The built-in receiver. Its own JSON parser keeps the raw text: signatures are over raw bytes.
  app.register(async (receiver) => {
    receiver.removeAllContentTypeParsers();
    receiver.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    (receiver as unknown as App).post(
      '/inbox/:name',
      { schema: { tags, params: InboxName } },
      async (request, reply) => {
        const headers: Record<string, string> = {};
        for (const [key, value] of Object.entries(request.headers)) {
          if (typeof value === 'string') headers[key] = value;
        }
        const body = typeof request.body === 'string' ? request.body : '';
        const status = ctx.inbox.receive(request.params.name, headers, body);
        return reply.code(status).send({ received: true });
      },
    );
  });

  app.get(
    '/inboxes',
    {
      schema: {
        tags,
        response: { 200: Type.Array(Type.Object({ name: Type.String(), response_status: Type.Integer() })) },
      },
    },
    async () => ctx.inbox.list(),
  );

  app.get(
    '/inboxes/:name',
    {
      schema: {
        tags,
        params: InboxName,
        querystring: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })) }),
        response: { 200: Inbox, 422: ErrorBody },
      },
    },
    async (request) => ctx.inbox.get(request.params.name, request.query.limit),
  );

  app.put(
    '/inboxes/:name',
    {
      schema: { tags, params: InboxName, body: ConfigureInboxBody, response: { 200: Inbox, 422: ErrorBody } },
    },
    async (request) => ctx.inbox.configure(request.params.name, request.body.response_status),
  );

  app.delete(
    '/inboxes/:name/messages',
    { schema: { tags, params: InboxName, response: { 204: Type.Null(), 422: ErrorBody } } },
    async (request, reply) => {
      ctx.inbox.clear(request.params.name);
      return reply.code(204).send(null);
    },
  );
}
