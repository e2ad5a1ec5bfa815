import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorBody, errorResponses, IdParams, ListQuery } from '../../contract/common.js';
import {
  ConnectionParams,
  CreateConnectionBody,
  MerchantConnectionParams,
  ProvisionBody,
  ProvisionResult,
  ResellerConnection,
  UpdateConnectionBody,
} from '../../contract/resellers.js';
import type { ResellerService } from '../../domain/resellers/service.js';
import { principalOf, type Use } from '../types.js';

const tags = ['reseller'];

/**
 * Provisioning answers 400 for every input problem (spec: Provision errors), never 422: the
 * route keeps its schema violation (`attachValidation`) and hands it to the service, which reports
 * it after the address and KYB checks.
 */
const provisionErrors = {
  400: ErrorBody,
  401: ErrorBody,
  403: ErrorBody,
  409: ErrorBody,
  429: ErrorBody,
};

export interface ResellerRoutesDeps {
  resellers: Pick<
    ResellerService,
    'create' | 'listIncoming' | 'listOutgoing' | 'provision' | 'remove' | 'revoke' | 'update'
  >;
}

export const resellerRoutes: FastifyPluginAsyncTypebox<{ use: Use<ResellerRoutesDeps> }> = async (
  app,
  { use },
) => {
  // The spec does not show the create response: we return the connection, 200, like PUT.
  app.post(
    '/reseller/connections',
    {
      schema: {
        operationId: 'createResellerConnection',
        summary: 'Create a reseller connection',
        tags,
        body: CreateConnectionBody,
        response: { 200: ResellerConnection, ...errorResponses },
      },
    },
    async (request) => use(request).resellers.create(principalOf(request), request.body),
  );

  app.put(
    '/reseller/connections/:connection_id',
    {
      schema: {
        operationId: 'updateResellerConnection',
        summary: 'Update a reseller connection',
        tags,
        params: ConnectionParams,
        body: UpdateConnectionBody,
        response: { 200: ResellerConnection, ...errorResponses },
      },
    },
    async (request) =>
      use(request).resellers.update(principalOf(request), request.params.connection_id, request.body),
  );

  app.get(
    '/reseller/connections',
    {
      schema: {
        operationId: 'listResellerConnections',
        summary: 'List reseller connections',
        tags,
        querystring: ListQuery,
        response: { 200: Type.Array(ResellerConnection), ...errorResponses },
      },
    },
    async (request) =>
      use(request).resellers.listOutgoing(principalOf(request), {
        limit: request.query.limit ?? 100,
        startingAfter: request.query.starting_after,
      }),
  );

  app.delete(
    '/reseller/connections/:connection_id',
    {
      schema: {
        operationId: 'deleteResellerConnection',
        summary: 'Delete a reseller connection',
        tags,
        params: ConnectionParams,
        response: { 204: Type.Null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      use(request).resellers.remove(principalOf(request), request.params.connection_id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/merchants/:id/reseller-connections/incoming',
    {
      schema: {
        operationId: 'listIncomingResellerConnections',
        summary: 'List reseller connections made to a merchant',
        tags,
        params: IdParams,
        querystring: ListQuery,
        response: { 200: Type.Array(ResellerConnection), ...errorResponses },
      },
    },
    async (request) =>
      use(request).resellers.listIncoming(principalOf(request), request.params.id, {
        limit: request.query.limit ?? 100,
        startingAfter: request.query.starting_after,
      }),
  );

  // The spec says only "sets status to revoked": we answer 200 with the revoked connection.
  app.delete(
    '/merchants/:id/reseller-connections/:connection_id',
    {
      schema: {
        operationId: 'deleteMerchantResellerConnection',
        summary: 'Delete a reseller connection of a merchant',
        tags,
        params: MerchantConnectionParams,
        response: { 200: ResellerConnection, ...errorResponses },
      },
    },
    async (request) =>
      use(request).resellers.revoke(principalOf(request), request.params.id, request.params.connection_id),
  );

  app.post(
    '/reseller/provision',
    {
      config: { redact: ['password'] },
      attachValidation: true,
      schema: {
        operationId: 'provisionMerchant',
        summary: 'Provision a merchant',
        tags,
        body: ProvisionBody,
        response: { 200: ProvisionResult, ...provisionErrors },
      },
    },
    async (request) =>
      use(request).resellers.provision(principalOf(request), request.body, request.validationError?.message),
  );
};
