import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBody } from '../../contract/common.js';
import {
  LibraryList,
  LibraryNameParams,
  LibraryRun,
  LibraryRunBody,
  LibraryScenarioDetail,
} from '../../contract/scenario-library.js';
import { NotFoundError } from '../../errors.js';
import { LIBRARY, libraryEntry, libraryText } from '../../scenarios/library.js';
import { parseScenario } from '../../scenarios/parse.js';
import type { ScenarioService } from '../../scenarios/service.js';
import { workspaceOf } from '../plugins/workspace-scope.js';

export interface ScenarioLibraryRoutesDeps {
  /** runs against this sandbox and reports each step on the event stream (`event: scenario`) */
  runner: Pick<ScenarioService, 'run'>;
}

const tags = ['sandbox: scenarios'];

/**
 * The built-in scenario library (server/scenarios/library/): list, read, run against this sandbox.
 * A run makes real HTTP calls to this sandbox's own addresses, as `svc-sandbox trigger` does, and
 * its progress goes out on GET /sandbox/events like any scenario run's.
 */
export const scenarioLibraryRoutes: FastifyPluginAsyncTypebox<ScenarioLibraryRoutesDeps> = async (
  app,
  { runner },
) => {
  const entryOf = (name: string) => {
    const entry = libraryEntry(name);
    if (!entry) throw new NotFoundError('Library scenario', name);
    return entry;
  };

  app.get(
    '/scenarios/library',
    {
      schema: {
        operationId: 'sandboxListLibraryScenarios',
        summary: 'List the built-in scenarios',
        tags,
        response: { 200: LibraryList },
      },
    },
    async () => ({
      items: LIBRARY.map(({ name, description, events }) => ({ name, description, events })),
    }),
  );

  app.get(
    '/scenarios/library/:name',
    {
      schema: {
        operationId: 'sandboxGetLibraryScenario',
        summary: 'Get a built-in scenario and its file',
        tags,
        params: LibraryNameParams,
        response: { 200: LibraryScenarioDetail, 404: ErrorBody },
      },
    },
    async (request) => {
      const { name, description, events } = entryOf(request.params.name);
      return { name, description, events, scenario: libraryText(name) };
    },
  );

  app.post(
    '/scenarios/library/:name/run',
    {
      // The run calls this sandbox over HTTP: no transaction may stay open around it.
      config: { groupCommit: false },
      schema: {
        operationId: 'sandboxRunLibraryScenario',
        summary: 'Run a built-in scenario against this sandbox',
        tags,
        params: LibraryNameParams,
        body: LibraryRunBody,
        response: { 200: LibraryRun, 404: ErrorBody, 422: ErrorBody },
      },
    },
    async (request) => {
      const entry = entryOf(request.params.name);
      const parsed = parseScenario(libraryText(entry.name));
      if (!parsed.ok)
        throw new Error(`library scenario ${entry.name} is invalid: ${parsed.errors[0]?.message}`);
      return runner.run(parsed.scenario, {
        ...(request.body.env === undefined ? {} : { env: request.body.env }),
        workspace: workspaceOf(request).id,
        ...(request.body.reuse_merchants ? { reuseMerchants: true } : {}),
      });
    },
  );
};
