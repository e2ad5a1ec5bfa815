import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type TSchema, Type } from 'typebox';
import { Cardholder } from '../../contract/cards.js';
import { CheckoutBase } from '../../contract/checkouts.js';
import { EnvListQuery, EnvQuery, ErrorBody, IdParams } from '../../contract/common.js';
import { Customer } from '../../contract/customers.js';
import { Invoice } from '../../contract/invoices.js';
import { StaticAddress } from '../../contract/static-addresses.js';
import {
  CheckoutListQuery,
  CustomerDetail,
  CustomerListQuery,
  InvoiceDetail,
  InvoiceListQuery,
} from '../../contract/views.js';
import type { CardService } from '../../domain/cards/service.js';
import type { MerchantService } from '../../domain/merchants/service.js';
import type { MerchantViews } from '../../domain/merchants/views.js';
import type { DashboardViews } from '../../domain/views/service.js';
import type { Use } from '../types.js';

const tags = ['sandbox: merchant views'];
const errors = { 404: ErrorBody, 422: ErrorBody };
/** The responses of a merchant's list: an array of `item`, or 404 / 422 {error}. */
const listOf = <I extends TSchema>(item: I) => ({ 200: Type.Array(item), ...errors });

/**
 * A merchant's resources as the dashboard (or a script) sees them without an API key: the same
 * objects /v1 returns, for any merchant and environment.
 */
export interface MerchantViewRoutesDeps {
  cards: Pick<CardService, 'listHoldersFor'>;
  dashboard: Pick<DashboardViews, 'checkouts' | 'customer' | 'customers' | 'invoice' | 'invoices'>;
  merchants: Pick<MerchantService, 'get'>;
  views: Pick<MerchantViews, 'staticAddressesOf'>;
}

export const merchantViewRoutes: FastifyPluginAsyncTypebox<{ use: Use<MerchantViewRoutesDeps> }> = async (
  app,
  { use },
) => {
  app.get(
    '/merchants/:id/checkouts',
    {
      schema: {
        operationId: 'sandboxListMerchantCheckouts',
        summary: 'List checkouts of a merchant',
        tags,
        params: IdParams,
        querystring: CheckoutListQuery,
        response: listOf(CheckoutBase),
      },
    },
    async (request) => {
      const { env = 'test', limit = 100, starting_after: startingAfter, status, q } = request.query;
      return use(request).dashboard.checkouts(request.params.id, env, {
        limit,
        startingAfter,
        status,
        search: q,
      });
    },
  );

  app.get(
    '/merchants/:id/customers',
    {
      schema: {
        operationId: 'sandboxListMerchantCustomers',
        summary: 'List customers of a merchant',
        tags,
        params: IdParams,
        querystring: CustomerListQuery,
        response: listOf(Customer),
      },
    },
    async (request) => {
      const { env = 'test', limit = 100, starting_after: startingAfter, q } = request.query;
      return use(request).dashboard.customers(request.params.id, env, { limit, startingAfter, search: q });
    },
  );

  app.get(
    '/customers/:id',
    {
      schema: {
        operationId: 'sandboxGetCustomer',
        summary: 'Get a customer',
        tags,
        params: IdParams,
        response: { 200: CustomerDetail, 404: ErrorBody },
      },
    },
    async (request) => use(request).dashboard.customer(request.params.id),
  );

  app.get(
    '/merchants/:id/invoices',
    {
      schema: {
        operationId: 'sandboxListMerchantInvoices',
        summary: 'List invoices of a merchant',
        tags,
        params: IdParams,
        querystring: InvoiceListQuery,
        response: listOf(Invoice),
      },
    },
    async (request) => {
      const { env = 'test', limit = 100, starting_after: startingAfter, status, q } = request.query;
      return use(request).dashboard.invoices(request.params.id, env, {
        limit,
        startingAfter,
        status,
        search: q,
      });
    },
  );

  app.get(
    '/invoices/:id',
    {
      schema: {
        operationId: 'sandboxGetInvoice',
        summary: 'Get an invoice',
        tags,
        params: IdParams,
        response: { 200: InvoiceDetail, 404: ErrorBody },
      },
    },
    async (request) => use(request).dashboard.invoice(request.params.id),
  );

  app.get(
    '/merchants/:id/static-addresses',
    {
      schema: {
        operationId: 'sandboxListMerchantStaticAddresses',
        summary: 'List static addresses of a merchant',
        tags,
        params: IdParams,
        querystring: EnvQuery,
        response: listOf(StaticAddress),
      },
    },
    async (request) => use(request).views.staticAddressesOf(request.params.id, request.query.env ?? 'test'),
  );

  app.get(
    '/merchants/:id/cardholders',
    {
      schema: {
        operationId: 'sandboxListMerchantCardholders',
        summary: 'List cardholders of a merchant',
        tags,
        params: IdParams,
        querystring: EnvListQuery,
        response: listOf(Cardholder),
      },
    },
    async (request) => {
      use(request).merchants.get(request.params.id);
      const { env = 'test', limit = 100, starting_after: startingAfter } = request.query;
      return use(request).cards.listHoldersFor(request.params.id, env, { limit, startingAfter });
    },
  );
};
