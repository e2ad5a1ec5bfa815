import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Coverage } from '../../contract/coverage.js';
import type { CoverageService } from '../../domain/coverage/service.js';
import type { Use } from '../types.js';

/** GET /sandbox/coverage: the spec's events and state transitions this workspace reached. */
export const coverageRoutes: FastifyPluginAsyncTypebox<{
  use: Use<{ coverage: Pick<CoverageService, 'report'> }>;
}> = async (app, { use }) => {
  app.get(
    '/coverage',
    {
      schema: {
        operationId: 'sandboxGetCoverage',
        summary: 'Events and state transitions reached',
        description:
          'Every event type of the spec and every transition of its state machines (checkout, invoice, ' +
          'card, cardholder KYC, card application, card transaction, reseller connection, payout, ' +
          'webhook delivery), each with how often this workspace reached it since it was made or last ' +
          'reset; unreached ones have count 0. `from` is `(new)` for a row’s first status.',
        tags: ['sandbox: events'],
        response: { 200: Coverage },
      },
    },
    async (request) => use(request).coverage.report(),
  );
};
