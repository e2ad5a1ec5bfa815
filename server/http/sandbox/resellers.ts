import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { EnvQuery, ErrorBody, IdParams } from '../../contract/common.js';
import {
  CreateConnectionBody,
  ProvisionBody,
  ProvisionResult,
  ResellerConnection,
  ResellerConnections,
  ResellerIncome,
  UpdateConnectionBody,
} from '../../contract/resellers.js';
import type { MerchantService } from '../../domain/merchants/service.js';
import type { ResellerService } from '../../domain/resellers/service.js';
import type { Env, Principal } from '../../domain/types.js';
import { BusinessRuleError } from '../../errors.js';
import type { Use } from '../types.js';

const tags = ['sandbox: resellers'];
const errors = { 400: ErrorBody, 403: ErrorBody, 404: ErrorBody, 422: ErrorBody };
/** Provisioning's input problems are 400s, as on /v1 (no 422). */
const provisionErrors = { 400: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };

/**
 * Reseller connections and provisioning from the dashboard or a script, in either environment,
 * acting as the owner of the merchant concerned: the reseller for create, update, delete and
 * provision, the target merchant for revoke. The same domain rules apply as on /v1. (On-behalf
 * checkouts go through POST /sandbox/merchants/{id}/checkouts with `merchant_id` in the body.)
 */
const owner = (merchantId: string, env: Env): Principal => ({
  env,
  merchantId,
  apiKeyId: 'sandbox-control',
  role: 'owner',
});

export interface ResellerControlRoutesDeps {
  merchants: Pick<MerchantService, 'get'>;
  resellers: Pick<
    ResellerService,
    'connectionsOf' | 'create' | 'find' | 'income' | 'provision' | 'remove' | 'revoke' | 'update'
  >;
}

export const resellerControlRoutes: FastifyPluginAsyncTypebox<{
  use: Use<ResellerControlRoutesDeps>;
}> = async (app, { use }) => {
  app.get(
    '/merchants/:id/reseller-connections',
    {
      schema: {
        operationId: 'sandboxListMerchantResellerConnections',
        summary: 'List reseller connections of a merchant',
        tags,
        params: IdParams,
        querystring: EnvQuery,
        response: { 200: ResellerConnections, ...errors },
      },
    },
    async (request) => use(request).resellers.connectionsOf(request.params.id, request.query.env ?? 'test'),
  );

  app.post(
    '/merchants/:id/reseller-connections',
    {
      schema: {
        operationId: 'sandboxCreateMerchantResellerConnection',
        summary: 'Create a reseller connection of a merchant',
        tags,
        params: IdParams,
        querystring: EnvQuery,
        body: CreateConnectionBody,
        response: { 200: ResellerConnection, ...errors },
      },
    },
    async (request) => {
      use(request).merchants.get(request.params.id);
      return use(request).resellers.create(
        owner(request.params.id, request.query.env ?? 'test'),
        request.body,
      );
    },
  );

  app.put(
    '/reseller-connections/:id',
    {
      schema: {
        operationId: 'sandboxUpdateResellerConnection',
        summary: 'Update a reseller connection',
        tags,
        params: IdParams,
        body: UpdateConnectionBody,
        response: { 200: ResellerConnection, ...errors },
      },
    },
    async (request) => {
      const row = use(request).resellers.find(request.params.id);
      return use(request).resellers.update(owner(row.reseller_id, row.env), row.id, request.body);
    },
  );

  app.post(
    '/reseller-connections/:id/revoke',
    {
      schema: {
        operationId: 'sandboxRevokeResellerConnection',
        summary: 'Revoke a reseller connection',
        tags,
        params: IdParams,
        response: { 200: ResellerConnection, ...errors },
      },
    },
    async (request) => {
      const row = use(request).resellers.find(request.params.id);
      return use(request).resellers.revoke(owner(row.merchant_id, row.env), row.merchant_id, row.id);
    },
  );

  app.delete(
    '/reseller-connections/:id',
    {
      schema: {
        operationId: 'sandboxDeleteResellerConnection',
        summary: 'Delete a reseller connection',
        tags,
        params: IdParams,
        response: { 204: Type.Null(), ...errors },
      },
    },
    async (request, reply) => {
      const row = use(request).resellers.find(request.params.id);
      use(request).resellers.remove(owner(row.reseller_id, row.env), row.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/merchants/:id/provision',
    {
      attachValidation: true,
      schema: {
        operationId: 'sandboxProvisionMerchant',
        summary: 'Provision a merchant as a reseller',
        tags,
        params: IdParams,
        querystring: EnvQuery,
        body: ProvisionBody,
        response: { 200: ProvisionResult, ...provisionErrors },
      },
    },
    async (request) => {
      // Every input problem of provisioning is a 400; a malformed id or env before anything else.
      const problem = request.validationError;
      if (problem && problem.validationContext !== 'body') throw new BusinessRuleError(problem.message);
      const { id } = request.params;
      use(request).merchants.get(id);
      return use(request).resellers.provision(
        owner(id, request.query.env ?? 'test'),
        request.body,
        problem?.message,
      );
    },
  );

  app.get(
    '/merchants/:id/reseller-income',
    {
      schema: {
        operationId: 'sandboxGetMerchantResellerIncome',
        summary: 'Get the reseller income of a merchant',
        tags,
        params: IdParams,
        querystring: EnvQuery,
        response: { 200: Type.Array(ResellerIncome), ...errors },
      },
    },
    async (request) => use(request).resellers.income(request.params.id, request.query.env ?? 'test'),
  );
};
