import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorBody, IdParams } from '../../contract/common.js';
import {
  RequestLogEntry,
  RequestLogQuery,
  VerifyRequestsBody,
  VerifyRequestsResult,
} from '../../contract/requests.js';
import type { RequestLogService } from '../../domain/requests/service.js';
import type { Use } from '../types.js';

/** The request log: every /v1 request, newest first (live: `event: request` on GET /sandbox/events). */
export interface RequestLogControlRoutesDeps {
  requests: Pick<RequestLogService, 'get' | 'list' | 'verify'>;
}

export const requestLogControlRoutes: FastifyPluginAsyncTypebox<{
  use: Use<RequestLogControlRoutesDeps>;
}> = async (app, { use }) => {
  const tags = ['sandbox: events'];
  app.get(
    '/request-log',
    {
      schema: {
        tags,
        operationId: 'sandboxListRequestLog',
        summary: 'List the request log (every /v1 request, newest first)',
        querystring: RequestLogQuery,
        response: { 200: Type.Array(RequestLogEntry), 422: ErrorBody },
      },
    },
    async (request) => use(request).requests.list(request.query),
  );
  app.get(
    '/request-log/:id',
    {
      schema: {
        tags,
        operationId: 'sandboxGetRequestLogEntry',
        summary: 'Get a request log entry',
        params: IdParams,
        response: { 200: RequestLogEntry, 404: ErrorBody, 422: ErrorBody },
      },
    },
    async (request) => use(request).requests.get(request.params.id),
  );
  app.post(
    '/request-log/verify',
    {
      schema: {
        tags,
        operationId: 'sandboxVerifyRequests',
        summary: 'Verify the requests sent (with near misses)',
        body: VerifyRequestsBody,
        response: { 200: VerifyRequestsResult, 422: ErrorBody },
      },
    },
    async (request) => use(request).requests.verify(request.body),
  );
};
