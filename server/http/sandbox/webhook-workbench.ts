import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { EnvQuery, ErrorBody, IdParams } from '../../contract/common.js';
import { Delivery, EndpointHealth, ListenSecret, ResendBody } from '../../contract/webhooks.js';
import type { MerchantService } from '../../domain/merchants/service.js';
import type { WebhookWorkbench } from '../../webhooks/workbench.js';
import type { Use } from '../types.js';

const tags = ['sandbox: webhooks'];
const errors = { 400: ErrorBody, 404: ErrorBody, 422: ErrorBody };

export interface WebhookWorkbenchRoutesDeps {
  merchants: Pick<MerchantService, 'get'>;
  webhookWorkbench: Pick<
    WebhookWorkbench,
    'endpointsOf' | 'health' | 'healthOfMerchant' | 'listenSecret' | 'resend'
  >;
}

/** The webhook workbench's control routes: listen's secret, endpoint health, resend. */
export const webhookWorkbenchRoutes: FastifyPluginAsyncTypebox<{
  use: Use<WebhookWorkbenchRoutesDeps>;
}> = async (app, { use }) => {
  app.get(
    '/listen-secret',
    {
      schema: {
        operationId: 'sandboxGetListenSecret',
        summary: 'Get the signing secret of svc-sandbox listen',
        description:
          'The one secret `svc-sandbox listen` gives every endpoint it makes: made on first read and kept in the workspace, so it stays the same across runs of listen (and resets).',
        tags,
        response: { 200: ListenSecret },
      },
    },
    async (request) => ({ secret: use(request).webhookWorkbench.listenSecret() }),
  );

  app.get(
    '/merchants/:id/webhook-endpoints/health',
    {
      schema: {
        operationId: 'sandboxListWebhookEndpointHealth',
        summary: 'Health of the webhook endpoints of a merchant',
        tags,
        params: IdParams,
        querystring: EnvQuery,
        response: { 200: Type.Array(EndpointHealth), ...errors },
      },
    },
    async (request) => {
      use(request).merchants.get(request.params.id);
      return use(request).webhookWorkbench.healthOfMerchant(
        use(request).webhookWorkbench.endpointsOf(request.params.id, request.query.env ?? 'test'),
      );
    },
  );

  app.get(
    '/webhook-endpoints/:id/health',
    {
      schema: {
        operationId: 'sandboxGetWebhookEndpointHealth',
        summary: 'Health of a webhook endpoint',
        tags,
        params: IdParams,
        response: { 200: EndpointHealth, ...errors },
      },
    },
    async (request) => use(request).webhookWorkbench.health(request.params.id),
  );

  app.post(
    '/deliveries/:id/resend',
    {
      // The delivery must be committed before the dispatcher sends it: no group commit to wait for.
      config: { groupCommit: false },
      schema: {
        operationId: 'sandboxResendDelivery',
        summary: 'Resend a delivery to another endpoint',
        tags,
        params: IdParams,
        body: ResendBody,
        response: { 200: Delivery, ...errors },
      },
    },
    async (request) => use(request).webhookWorkbench.resend(request.params.id, request.body.endpoint_id),
  );
};
