import { Type } from 'typebox';
import { ErrorBody, IdParams } from '../../schemas/common.js';
import {
  ApiKey,
  CreateApiKeyBody,
  CreateMerchantBody,
  Merchant,
  PatchMerchantBody,
} from '../../schemas/merchants.js';
import type { App, RouteDeps } from '../types.js';

const tags = ['sandbox: merchants'];
const errors = { 403: ErrorBody, 404: ErrorBody, 422: ErrorBody };

export function merchantControlRoutes(app: App, { ctx }: RouteDeps): void {
  app.post(
    '/merchants',
    {
      schema: {
        tags,
        body: CreateMerchantBody,
        response: { 200: Type.Object({ merchant: Merchant, api_key: ApiKey }), ...errors },
      },
    },
    async (request) => ctx.merchants.create(request.body),
  );

  app.get('/merchants', { schema: { tags, response: { 200: Type.Array(Merchant) } } }, async () =>
    ctx.merchants.list(),
  );

  app.get(
    '/merchants/:id',
    { schema: { tags, params: IdParams, response: { 200: Merchant, ...errors } } },
    async (request) => ctx.merchants.get(request.params.id),
  );

  app.patch(
    '/merchants/:id',
    { schema: { tags, params: IdParams, body: PatchMerchantBody, response: { 200: Merchant, ...errors } } },
    async (request) => ctx.merchants.patch(request.params.id, request.body),
  );

  app.post(
    '/merchants/:id/api-keys',
    { schema: { tags, params: IdParams, body: CreateApiKeyBody, response: { 200: ApiKey, ...errors } } },
    async (request) => ctx.merchants.createKey(request.params.id, request.body),
  );

  app.get(
    '/merchants/:id/api-keys',
    { schema: { tags, params: IdParams, response: { 200: Type.Array(ApiKey), ...errors } } },
    async (request) => ctx.merchants.listKeys(request.params.id),
  );

  app.delete(
    '/api-keys/:id',
    { schema: { tags, params: IdParams, response: { 200: ApiKey, ...errors } } },
    async (request) => ctx.merchants.revokeKey(request.params.id),
  );
}
