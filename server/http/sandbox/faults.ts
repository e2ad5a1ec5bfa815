import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorBody } from '../../contract/common.js';
import { Faults, FaultsInput } from '../../contract/faults.js';
import type { ApiFaults } from '../../simulate/api-faults.js';
import type { Use } from '../types.js';

/** The workspace's API faults: what its /v1 requests suffer on purpose (server/simulate/api-faults.ts). */
export const faultControlRoutes: FastifyPluginAsyncTypebox<{
  use: Use<{ faults: Pick<ApiFaults, 'get' | 'set' | 'clear'> }>;
}> = async (app, { use }) => {
  const tags = ['sandbox: faults'];
  app.get(
    '/faults',
    {
      schema: {
        tags,
        operationId: 'sandboxGetFaults',
        summary: 'Get the API faults',
        response: { 200: Faults },
      },
    },
    async (request) => use(request).faults.get(),
  );
  app.put(
    '/faults',
    {
      schema: {
        tags,
        operationId: 'sandboxSetFaults',
        summary: 'Set the API faults',
        body: FaultsInput,
        response: { 200: Faults, 422: ErrorBody },
      },
    },
    async (request) => use(request).faults.set(request.body),
  );
  app.delete(
    '/faults',
    {
      schema: {
        tags,
        operationId: 'sandboxClearFaults',
        summary: 'Clear the API faults',
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      use(request).faults.clear();
      return reply.code(204).send(null);
    },
  );
};
