import { Type } from 'typebox';
import { EnvQuery, ErrorBody, IdParams } from '../../schemas/common.js';
import {
  AddressDepositBody,
  Balance,
  CreditBody,
  Deposit,
  DepositBody,
  LedgerTransaction,
  Payout,
  PayoutBody,
} from '../../schemas/webhooks.js';
import type { App, RouteDeps } from '../types.js';

const tags = ['sandbox: deposits, payouts, balances'];
const errors = { 400: ErrorBody, 404: ErrorBody, 422: ErrorBody };
const ListQuery = Type.Object({
  ...EnvQuery.properties,
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
});

export function fundsControlRoutes(app: App, { ctx }: RouteDeps): void {
  app.post(
    '/deposits',
    { schema: { tags, body: DepositBody, response: { 200: Deposit, ...errors } } },
    async (request) => ctx.funds.deposit({ ...request.body, env: request.body.env ?? 'test' }),
  );

  app.post(
    '/static-addresses/:address/deposits',
    {
      schema: {
        tags,
        params: Type.Object({ address: Type.String({ minLength: 1, maxLength: 128 }) }),
        body: AddressDepositBody,
        response: { 200: Deposit, ...errors },
      },
    },
    async (request) => ctx.funds.depositToAddress(request.params.address, request.body),
  );

  app.post(
    '/payouts',
    { schema: { tags, body: PayoutBody, response: { 200: Payout, ...errors } } },
    async (request) =>
      ctx.funds.payout({
        ...request.body,
        env: request.body.env ?? 'test',
        outcome: request.body.outcome ?? 'completed',
      }),
  );

  app.get(
    '/merchants/:id/deposits',
    {
      schema: {
        tags,
        params: IdParams,
        querystring: ListQuery,
        response: { 200: Type.Array(Deposit), ...errors },
      },
    },
    async (request) =>
      ctx.funds.deposits(request.params.id, request.query.env ?? 'test', request.query.limit),
  );

  app.get(
    '/merchants/:id/payouts',
    {
      schema: {
        tags,
        params: IdParams,
        querystring: ListQuery,
        response: { 200: Type.Array(Payout), ...errors },
      },
    },
    async (request) => ctx.funds.payouts(request.params.id, request.query.env ?? 'test', request.query.limit),
  );

  app.get(
    '/merchants/:id/balances',
    {
      schema: {
        tags,
        params: IdParams,
        querystring: EnvQuery,
        response: { 200: Type.Array(Balance), ...errors },
      },
    },
    async (request) => {
      ctx.merchants.get(request.params.id);
      return ctx.ledger.merchantBalances(request.query.env ?? 'test', request.params.id);
    },
  );

  app.get(
    '/merchants/:id/ledger',
    {
      schema: {
        tags,
        params: IdParams,
        querystring: ListQuery,
        response: { 200: Type.Array(LedgerTransaction), ...errors },
      },
    },
    async (request) => {
      ctx.merchants.get(request.params.id);
      return ctx.ledger.merchantTransactions(
        request.query.env ?? 'test',
        request.params.id,
        request.query.limit,
      );
    },
  );

  app.post(
    '/merchants/:id/credit',
    {
      schema: { tags, params: IdParams, body: CreditBody, response: { 200: Type.Array(Balance), ...errors } },
    },
    async (request) => {
      const env = request.body.env ?? 'test';
      ctx.funds.credit(request.params.id, env, request.body.currency, request.body.amount, request.body.memo);
      return ctx.ledger.merchantBalances(env, request.params.id);
    },
  );
}
