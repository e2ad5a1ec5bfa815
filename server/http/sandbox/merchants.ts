import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorBody, IdParams } from '../../contract/common.js';
import {
  ApiKey,
  CreateApiKeyBody,
  CreatedMerchant,
  CreateMerchantBody,
  Merchant,
  PatchMerchantBody,
} from '../../contract/merchants.js';
import type { MerchantService } from '../../domain/merchants/service.js';
import type { Use } from '../types.js';

const tags = ['sandbox: merchants'];
const errors = { 403: ErrorBody, 404: ErrorBody, 422: ErrorBody };

export interface MerchantControlRoutesDeps {
  merchants: Pick<
    MerchantService,
    'create' | 'createKey' | 'get' | 'list' | 'listKeys' | 'patch' | 'revokeKey'
  >;
}

export const merchantControlRoutes: FastifyPluginAsyncTypebox<{
  use: Use<MerchantControlRoutesDeps>;
}> = async (app, { use }) => {
  app.post(
    '/merchants',
    {
      schema: {
        operationId: 'sandboxCreateMerchant',
        summary: 'Create a merchant',
        tags,
        body: CreateMerchantBody,
        response: { 200: CreatedMerchant, ...errors },
      },
    },
    async (request) => use(request).merchants.create(request.body),
  );

  app.get(
    '/merchants',
    {
      schema: {
        operationId: 'sandboxListMerchants',
        summary: 'List merchants',
        tags,
        response: { 200: Type.Array(Merchant) },
      },
    },
    async (request) => use(request).merchants.list(),
  );

  app.get(
    '/merchants/:id',
    {
      schema: {
        operationId: 'sandboxGetMerchant',
        summary: 'Get a merchant',
        tags,
        params: IdParams,
        response: { 200: Merchant, ...errors },
      },
    },
    async (request) => use(request).merchants.get(request.params.id),
  );

  app.patch(
    '/merchants/:id',
    {
      schema: {
        operationId: 'sandboxUpdateMerchant',
        summary: 'Update a merchant',
        tags,
        params: IdParams,
        body: PatchMerchantBody,
        response: { 200: Merchant, ...errors },
      },
    },
    async (request) => use(request).merchants.patch(request.params.id, request.body),
  );

  app.post(
    '/merchants/:id/api-keys',
    {
      schema: {
        operationId: 'sandboxCreateMerchantApiKey',
        summary: 'Create an API key of a merchant',
        tags,
        params: IdParams,
        body: CreateApiKeyBody,
        response: { 200: ApiKey, ...errors },
      },
    },
    async (request) => use(request).merchants.createKey(request.params.id, request.body),
  );

  app.get(
    '/merchants/:id/api-keys',
    {
      schema: {
        operationId: 'sandboxListMerchantApiKeys',
        summary: 'List API keys of a merchant',
        tags,
        params: IdParams,
        response: { 200: Type.Array(ApiKey), ...errors },
      },
    },
    async (request) => use(request).merchants.listKeys(request.params.id),
  );

  app.delete(
    '/api-keys/:id',
    {
      schema: {
        operationId: 'sandboxDeleteApiKey',
        summary: 'Delete an API key',
        tags,
        params: IdParams,
        response: { 200: ApiKey, ...errors },
      },
    },
    async (request) => use(request).merchants.revokeKey(request.params.id),
  );
};
