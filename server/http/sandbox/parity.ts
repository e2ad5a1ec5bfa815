import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBody } from '../../contract/common.js';
import { ParityBody, ParityReport } from '../../contract/parity.js';
import { ValidationError } from '../../errors.js';
import { checkParityInNewWorkspace, ignoreMatcher } from '../../parity/index.js';
import { parseScenario } from '../../scenarios/parse.js';
import { ScenarioInvalidError, type ScenarioService } from '../../scenarios/service.js';

/**
 * POST /sandbox/parity: a session recorded against the real service (`svc-sandbox record`)
 * replayed in a new ephemeral workspace of this sandbox (the file's seed and clock, deleted
 * afterwards), and every difference from what the service answered.
 */
export interface ParityRoutesDeps {
  scenarios: Pick<ScenarioService, 'addresses'>;
}

export const parityRoutes: FastifyPluginAsyncTypebox<ParityRoutesDeps> = async (app, { scenarios }) => {
  app.post(
    '/parity',
    {
      // The replay is requests to this sandbox, each committing on its own: this request holds
      // no transaction open while they run. The workspace it replays in is its own, whatever
      // workspace the request names.
      config: { groupCommit: false },
      schema: {
        operationId: 'sandboxCheckParity',
        summary: 'Replay a recorded session and report where the sandbox differs',
        tags: ['sandbox: scenarios'],
        body: ParityBody,
        response: { 200: ParityReport, 400: ErrorBody, 409: ErrorBody, 422: ErrorBody },
      },
    },
    async (request) => {
      const { scenario, ignore = [], env } = request.body;
      for (const [i, pattern] of ignore.entries()) {
        try {
          ignoreMatcher([pattern]);
        } catch {
          throw new ValidationError(
            `ignore[${i}]`,
            `${JSON.stringify(pattern)} is not a field path (e.g. checkout.metadata, *.created_at, webhook:card.transaction)`,
          );
        }
      }
      const parsed = parseScenario(scenario);
      if (!parsed.ok) throw new ScenarioInvalidError(parsed.errors);
      const { workspace: _, ...report } = await checkParityInNewWorkspace(
        parsed.scenario,
        scenarios.addresses(),
        {
          ignore,
          ...(env === undefined ? {} : { env }),
        },
      );
      return report;
    },
  );
};
