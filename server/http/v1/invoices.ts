import { Type } from 'typebox';
import { errorResponses, IdParams, ListQuery } from '../../schemas/common.js';
import { ActivatedInvoice, ActivateInvoiceBody, CreateInvoiceBody, Invoice } from '../../schemas/invoices.js';
import { type App, principalOf, type RouteDeps } from '../types.js';

const tags = ['invoices'];

export function invoiceRoutes(app: App, { ctx }: RouteDeps): void {
  // The spec does not state the create status beyond "returns the invoice": 200, like checkouts.
  app.post(
    '/invoices',
    { schema: { tags, body: CreateInvoiceBody, response: { 200: Invoice, ...errorResponses } } },
    async (request) => ctx.invoices.create(principalOf(request), request.body),
  );

  app.get(
    '/invoices',
    { schema: { tags, querystring: ListQuery, response: { 200: Type.Array(Invoice), ...errorResponses } } },
    async (request) =>
      ctx.invoices.list(principalOf(request), {
        limit: request.query.limit ?? 100,
        startingAfter: request.query.starting_after,
      }),
  );

  app.get(
    '/invoices/:id',
    { schema: { tags, params: IdParams, response: { 200: Invoice, ...errorResponses } } },
    async (request) => ctx.invoices.get(principalOf(request), request.params.id),
  );

  app.post(
    '/invoices/:id/activate',
    {
      schema: {
        tags,
        params: IdParams,
        body: ActivateInvoiceBody,
        response: { 200: ActivatedInvoice, ...errorResponses },
      },
    },
    async (request) => ctx.invoices.activate(principalOf(request), request.params.id, request.body),
  );

  app.delete(
    '/invoices/:id',
    { schema: { tags, params: IdParams, response: { 204: Type.Null(), ...errorResponses } } },
    async (request, reply) => {
      ctx.invoices.cancel(principalOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}
