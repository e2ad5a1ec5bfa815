import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBody } from '../../contract/common.js';
import { ReceiverCheckBody, ReceiverCheckResult } from '../../contract/receiver-checks.js';
import type { ReceiverCheck } from '../../webhooks/receiver-check.js';
import type { Use } from '../types.js';

/** POST /sandbox/receiver-checks: grade the developer's webhook receiver. */
export const receiverCheckRoutes: FastifyPluginAsyncTypebox<{
  use: Use<{ receiverCheck: Pick<ReceiverCheck, 'run'> }>;
}> = async (app, { use }) => {
  app.post(
    '/receiver-checks',
    {
      // It writes nothing, and its sends take seconds: no transaction may wait on them.
      config: { groupCommit: false },
      schema: {
        operationId: 'sandboxCheckReceiver',
        summary: 'Grade a webhook receiver',
        description:
          'Sends the receiver at `url` a set of deliveries signed with `secret` and grades each answer: ' +
          'a signed delivery of each event type (2xx), a wrong and a missing signature (non-2xx), a body ' +
          'whose bytes differ from re-serialized JSON (2xx), the same delivery twice, events out of ' +
          'order, an unknown event type and a large payload (2xx), every answer within the delivery ' +
          'timeout. The same `seed` sends the same bodies. Sends go to `url` only; nothing is recorded ' +
          'in the workspace (no event, no delivery).',
        tags: ['sandbox: webhooks'],
        body: ReceiverCheckBody,
        response: { 200: ReceiverCheckResult, 400: ErrorBody, 422: ErrorBody },
      },
    },
    async (request) => use(request).receiverCheck.run(request.body),
  );
};
