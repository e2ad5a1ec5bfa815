import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBody } from '../../contract/common.js';
import { ScenarioJsonSchema, ScenarioRun, ScenarioRunBody } from '../../contract/scenarios.js';
import type { ScenarioService } from '../../scenarios/service.js';
import { workspaceOf } from '../plugins/workspace-scope.js';

/**
 * Scenarios (docs/scenarios.md) run against this sandbox: GET /sandbox/scenario.schema.json and
 * POST /sandbox/scenarios/run. Progress goes out on GET /sandbox/events as `event: scenario`.
 */
export interface ScenarioControlRoutesDeps {
  scenarios: Pick<ScenarioService, 'runText' | 'schema'>;
}

const tags = ['sandbox: scenarios'];

export const scenarioControlRoutes: FastifyPluginAsyncTypebox<ScenarioControlRoutesDeps> = async (
  app,
  { scenarios },
) => {
  app.get(
    '/scenario.schema.json',
    {
      schema: {
        operationId: 'sandboxGetScenarioSchema',
        summary: 'Get the JSON Schema of scenario files',
        tags,
        response: { 200: ScenarioJsonSchema },
      },
    },
    async () => scenarios.schema(),
  );

  app.post(
    '/scenarios/run',
    {
      // The steps are requests to this sandbox, each committing on its own: this request holds
      // no transaction open while they run.
      config: { groupCommit: false },
      schema: {
        operationId: 'sandboxRunScenarios',
        summary: 'Run the scenarios',
        tags,
        body: ScenarioRunBody,
        response: { 200: ScenarioRun, 400: ErrorBody, 409: ErrorBody, 422: ErrorBody },
      },
    },
    async (request) => {
      const { scenario, env } = request.body;
      return scenarios.runText(scenario, {
        ...(env === undefined ? {} : { env }),
        workspace: workspaceOf(request).id,
      });
    },
  );
};
