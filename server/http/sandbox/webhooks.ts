import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { EnvQuery, ErrorBody, IdParams } from '../../contract/common.js';
import {
  ConfigureInboxBody,
  CreateEndpointBody,
  Delivery,
  DeliveryQuery,
  Inbox,
  InboxName,
  InboxQuery,
  InboxReceipt,
  InboxSummary,
  TestEventBody,
  UpdateEndpointBody,
  WebhookEndpoint,
} from '../../contract/webhooks.js';
import type { MerchantService } from '../../domain/merchants/service.js';
import type { InboxService } from '../../webhooks/inbox.js';
import type { WebhookService } from '../../webhooks/service.js';
import type { Use } from '../types.js';

const tags = ['sandbox: webhooks'];
const errors = { 400: ErrorBody, 404: ErrorBody, 422: ErrorBody };

export interface WebhookControlRoutesDeps {
  inbox: Pick<InboxService, 'clear' | 'configure' | 'get' | 'list' | 'receive'>;
  merchants: Pick<MerchantService, 'get'>;
  webhooks: Pick<
    WebhookService,
    | 'createEndpoint'
    | 'deleteEndpoint'
    | 'getDelivery'
    | 'getEndpoint'
    | 'listDeliveries'
    | 'listEndpoints'
    | 'retry'
    | 'sendTest'
    | 'updateEndpoint'
  >;
}

export const webhookControlRoutes: FastifyPluginAsyncTypebox<{ use: Use<WebhookControlRoutesDeps> }> = async (
  app,
  { use },
) => {
  app.post(
    '/merchants/:id/webhook-endpoints',
    {
      schema: {
        operationId: 'sandboxCreateMerchantWebhookEndpoint',
        summary: 'Create a webhook endpoint of a merchant',
        tags,
        params: IdParams,
        querystring: EnvQuery,
        body: CreateEndpointBody,
        response: { 200: WebhookEndpoint, ...errors },
      },
    },
    async (request) => {
      use(request).merchants.get(request.params.id);
      return use(request).webhooks.createEndpoint(
        request.params.id,
        request.query.env ?? 'test',
        request.body,
      );
    },
  );

  app.get(
    '/merchants/:id/webhook-endpoints',
    {
      schema: {
        operationId: 'sandboxListMerchantWebhookEndpoints',
        summary: 'List webhook endpoints of a merchant',
        tags,
        params: IdParams,
        querystring: EnvQuery,
        response: { 200: Type.Array(WebhookEndpoint), ...errors },
      },
    },
    async (request) => {
      use(request).merchants.get(request.params.id);
      return use(request).webhooks.listEndpoints(request.params.id, request.query.env ?? 'test');
    },
  );

  app.get(
    '/webhook-endpoints/:id',
    {
      schema: {
        operationId: 'sandboxGetWebhookEndpoint',
        summary: 'Get a webhook endpoint',
        tags,
        params: IdParams,
        response: { 200: WebhookEndpoint, ...errors },
      },
    },
    async (request) => use(request).webhooks.getEndpoint(request.params.id),
  );

  app.patch(
    '/webhook-endpoints/:id',
    {
      schema: {
        operationId: 'sandboxUpdateWebhookEndpoint',
        summary: 'Update a webhook endpoint',
        tags,
        params: IdParams,
        body: UpdateEndpointBody,
        response: { 200: WebhookEndpoint, ...errors },
      },
    },
    async (request) => use(request).webhooks.updateEndpoint(request.params.id, request.body),
  );

  app.post(
    '/webhook-endpoints/:id/test',
    {
      // The delivery must be committed before the dispatcher sends it: no group commit to wait for.
      config: { groupCommit: false },
      schema: {
        operationId: 'sandboxTestWebhookEndpoint',
        summary: 'Test a webhook endpoint',
        tags,
        params: IdParams,
        body: TestEventBody,
        response: { 200: Delivery, ...errors },
      },
    },
    async (request) => use(request).webhooks.sendTest(request.params.id, request.body.event),
  );

  app.delete(
    '/webhook-endpoints/:id',
    {
      schema: {
        operationId: 'sandboxDeleteWebhookEndpoint',
        summary: 'Delete a webhook endpoint',
        tags,
        params: IdParams,
        response: { 204: Type.Null(), ...errors },
      },
    },
    async (request, reply) => {
      use(request).webhooks.deleteEndpoint(request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/deliveries',
    {
      schema: {
        operationId: 'sandboxListDeliveries',
        summary: 'List deliveries',
        tags,
        querystring: DeliveryQuery,
        response: { 200: Type.Array(Delivery), ...errors },
      },
    },
    async (request) =>
      use(request).webhooks.listDeliveries({ ...request.query, limit: request.query.limit ?? 100 }),
  );

  app.get(
    '/deliveries/:id',
    {
      schema: {
        operationId: 'sandboxGetDelivery',
        summary: 'Get a delivery',
        tags,
        params: IdParams,
        response: { 200: Delivery, ...errors },
      },
    },
    async (request) => use(request).webhooks.getDelivery(request.params.id),
  );

  app.post(
    '/deliveries/:id/retry',
    {
      config: { groupCommit: false },
      schema: {
        operationId: 'sandboxRetryDelivery',
        summary: 'Retry a delivery',
        tags,
        params: IdParams,
        response: { 200: Delivery, ...errors },
      },
    },
    async (request) => use(request).webhooks.retry(request.params.id),
  );

  // The built-in receiver. Its own JSON parser keeps the raw text: signatures are over raw bytes.
  app.register(async (receiver) => {
    receiver.removeAllContentTypeParsers();
    receiver.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    receiver.withTypeProvider<TypeBoxTypeProvider>().post(
      '/inbox/:name',
      {
        schema: {
          operationId: 'sandboxReceiveInboxWebhook',
          summary: 'Receive a webhook into an inbox',
          tags,
          params: InboxName,
          // Any media type, kept as sent: only the document reads this (no media type of a real
          // request is `*/*`, so nothing validates it).
          body: { content: { '*/*': { schema: { description: 'Any body: a webhook, kept as sent.' } } } },
          // Answers {received: true} with the status the inbox is configured to give
          // (PUT /sandbox/inboxes/{name}), or {error} for a bad name.
          response: { default: Type.Union([InboxReceipt, ErrorBody]) },
        },
      },
      async (request, reply) => {
        const headers: Record<string, string> = {};
        for (const [key, value] of Object.entries(request.headers)) {
          if (typeof value === 'string') headers[key] = value;
        }
        const body = typeof request.body === 'string' ? request.body : '';
        const status = use(request).inbox.receive(request.params.name, headers, body);
        return reply.code(status).send({ received: true });
      },
    );
  });

  app.get(
    '/inboxes',
    {
      schema: {
        operationId: 'sandboxListInboxes',
        summary: 'List inboxes',
        tags,
        response: { 200: Type.Array(InboxSummary) },
      },
    },
    async (request) => use(request).inbox.list(),
  );

  app.get(
    '/inboxes/:name',
    {
      schema: {
        operationId: 'sandboxGetInbox',
        summary: 'Get an inbox',
        tags,
        params: InboxName,
        querystring: InboxQuery,
        response: { 200: Inbox, 422: ErrorBody },
      },
    },
    async (request) => use(request).inbox.get(request.params.name, request.query.limit),
  );

  app.put(
    '/inboxes/:name',
    {
      schema: {
        operationId: 'sandboxUpdateInbox',
        summary: 'Update an inbox',
        tags,
        params: InboxName,
        body: ConfigureInboxBody,
        response: { 200: Inbox, 422: ErrorBody },
      },
    },
    async (request) => use(request).inbox.configure(request.params.name, request.body.response_status),
  );

  app.delete(
    '/inboxes/:name/messages',
    {
      schema: {
        operationId: 'sandboxClearInboxMessages',
        summary: 'Clear the messages of an inbox',
        tags,
        params: InboxName,
        response: { 204: Type.Null(), 422: ErrorBody },
      },
    },
    async (request, reply) => {
      use(request).inbox.clear(request.params.name);
      return reply.code(204).send(null);
    },
  );
};
