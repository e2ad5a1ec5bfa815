import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses, IdParams, ListQuery } from '../../contract/common.js';
import { CreateCustomerBody, Customer, UpdateCustomerBody } from '../../contract/customers.js';
import type { CustomerService } from '../../domain/customers/service.js';
import { principalOf, type Use } from '../types.js';

const tags = ['customers'];

export interface CustomerRoutesDeps {
  customers: Pick<CustomerService, 'create' | 'delete' | 'get' | 'list' | 'update'>;
}

export const customerRoutes: FastifyPluginAsyncTypebox<{ use: Use<CustomerRoutesDeps> }> = async (
  app,
  { use },
) => {
  app.post(
    '/customers',
    {
      schema: {
        operationId: 'createCustomer',
        summary: 'Create a customer',
        tags,
        body: CreateCustomerBody,
        response: { 200: Customer, ...errorResponses },
      },
    },
    async (request) => use(request).customers.create(principalOf(request), request.body),
  );

  app.get(
    '/customers',
    {
      schema: {
        operationId: 'listCustomers',
        summary: 'List customers',
        tags,
        querystring: ListQuery,
        response: { 200: Type.Array(Customer), ...errorResponses },
      },
    },
    async (request) =>
      use(request).customers.list(principalOf(request), {
        limit: request.query.limit ?? 100,
        startingAfter: request.query.starting_after,
      }),
  );

  app.get(
    '/customers/:id',
    {
      schema: {
        operationId: 'getCustomer',
        summary: 'Get a customer',
        tags,
        params: IdParams,
        response: { 200: Customer, ...errorResponses },
      },
    },
    async (request) => use(request).customers.get(principalOf(request), request.params.id),
  );

  // The spec does not show PUT's response body; we return the updated customer.
  app.put(
    '/customers/:id',
    {
      schema: {
        operationId: 'updateCustomer',
        summary: 'Update a customer',
        tags,
        params: IdParams,
        body: UpdateCustomerBody,
        response: { 200: Customer, ...errorResponses },
      },
    },
    async (request) => use(request).customers.update(principalOf(request), request.params.id, request.body),
  );

  app.delete(
    '/customers/:id',
    {
      schema: {
        operationId: 'deleteCustomer',
        summary: 'Delete a customer',
        tags,
        params: IdParams,
        response: { 204: Type.Null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      use(request).customers.delete(principalOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
};
