import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { EnvQuery, ErrorBody, IdParams } from '../../contract/common.js';
import { ListenSession, ListenSessionBody, ListenSessionClosed } from '../../contract/webhooks.js';
import type { MerchantService } from '../../domain/merchants/service.js';
import type { WebhookService } from '../../webhooks/service.js';
import type { WebhookWorkbench } from '../../webhooks/workbench.js';
import type { Use } from '../types.js';

const tags = ['sandbox: webhooks'];

export interface ListenSessionDeps {
  merchants: Pick<MerchantService, 'get' | 'list'>;
  webhooks: Pick<WebhookService, 'openListenSession' | 'closeListenSession'>;
  webhookWorkbench: Pick<WebhookWorkbench, 'listenSecret'>;
}

/** `svc-sandbox listen`'s session: every merchant's deliveries to listen, new merchants included. */
export const listenSessionRoutes: FastifyPluginAsyncTypebox<{ use: Use<ListenSessionDeps> }> = async (
  app,
  { use },
) => {
  app.post(
    '/listen-sessions',
    {
      schema: {
        operationId: 'sandboxCreateListenSession',
        summary: 'Start forwarding every merchant’s webhooks to svc-sandbox listen',
        description:
          'Gives every merchant of the environment (or the one named) an endpoint at `<url>/<merchant id>`, signed with the listen secret and marked as forwarding to `forward_to`; a merchant without one gets it as its first event is recorded, so that event is delivered too. The session lasts until it is deleted or the sandbox stops.',
        tags,
        querystring: EnvQuery,
        body: ListenSessionBody,
        response: { 200: ListenSession, 404: ErrorBody, 422: ErrorBody },
      },
    },
    async (request) => {
      const { merchants, webhooks, webhookWorkbench } = use(request);
      const body = request.body;
      const ids =
        body.merchant_id === undefined
          ? merchants.list().map((m) => m.id)
          : [merchants.get(body.merchant_id).id];
      return webhooks.openListenSession(
        request.query.env ?? 'test',
        body,
        ids,
        webhookWorkbench.listenSecret(),
      );
    },
  );

  app.delete(
    '/listen-sessions/:id',
    {
      schema: {
        operationId: 'sandboxDeleteListenSession',
        summary: 'Stop a listen session and remove its endpoints',
        tags,
        params: IdParams,
        response: { 200: ListenSessionClosed, 404: ErrorBody, 422: ErrorBody },
      },
    },
    async (request) => use(request).webhooks.closeListenSession(request.params.id),
  );
};
