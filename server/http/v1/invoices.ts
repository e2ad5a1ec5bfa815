import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses, IdParams, ListQuery } from '../../contract/common.js';
import {
  ActivatedInvoice,
  ActivateInvoiceBody,
  CreateInvoiceBody,
  Invoice,
} from '../../contract/invoices.js';
import type { InvoiceService } from '../../domain/invoices/service.js';
import { principalOf, type Use } from '../types.js';

const tags = ['invoices'];

export interface InvoiceRoutesDeps {
  invoices: Pick<InvoiceService, 'activate' | 'cancel' | 'create' | 'get' | 'list'>;
}

export const invoiceRoutes: FastifyPluginAsyncTypebox<{ use: Use<InvoiceRoutesDeps> }> = async (
  app,
  { use },
) => {
  // The spec does not state the create status beyond "returns the invoice": 200, like checkouts.
  app.post(
    '/invoices',
    {
      schema: {
        operationId: 'createInvoice',
        summary: 'Create an invoice',
        tags,
        body: CreateInvoiceBody,
        response: { 200: Invoice, ...errorResponses },
      },
    },
    async (request) => use(request).invoices.create(principalOf(request), request.body),
  );

  app.get(
    '/invoices',
    {
      schema: {
        operationId: 'listInvoices',
        summary: 'List invoices',
        tags,
        querystring: ListQuery,
        response: { 200: Type.Array(Invoice), ...errorResponses },
      },
    },
    async (request) =>
      use(request).invoices.list(principalOf(request), {
        limit: request.query.limit ?? 100,
        startingAfter: request.query.starting_after,
      }),
  );

  app.get(
    '/invoices/:id',
    {
      schema: {
        operationId: 'getInvoice',
        summary: 'Get an invoice',
        tags,
        params: IdParams,
        response: { 200: Invoice, ...errorResponses },
      },
    },
    async (request) => use(request).invoices.get(principalOf(request), request.params.id),
  );

  app.post(
    '/invoices/:id/activate',
    {
      schema: {
        operationId: 'activateInvoice',
        summary: 'Activate an invoice',
        tags,
        params: IdParams,
        body: ActivateInvoiceBody,
        response: { 200: ActivatedInvoice, ...errorResponses },
      },
    },
    async (request) => use(request).invoices.activate(principalOf(request), request.params.id, request.body),
  );

  app.delete(
    '/invoices/:id',
    {
      schema: {
        operationId: 'deleteInvoice',
        summary: 'Delete an invoice',
        tags,
        params: IdParams,
        response: { 204: Type.Null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      use(request).invoices.cancel(principalOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
};
