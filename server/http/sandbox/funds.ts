import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { type Env, EnvLimitQuery, EnvQuery, ErrorBody, IdParams } from '../../contract/common.js';
import {
  AddressDepositBody,
  Balance,
  CreditBody,
  Deposit,
  DepositBody,
  DepositBurst,
  DepositBurstBody,
  LedgerTransaction,
  Payout,
  PayoutBody,
} from '../../contract/funds.js';
import { AddressParams } from '../../contract/static-addresses.js';
import type { FundsService } from '../../domain/funds/service.js';
import type { Ledger } from '../../domain/ledger/service.js';
import type { MerchantService } from '../../domain/merchants/service.js';
import { ValidationError } from '../../errors.js';
import type { ChainSimulator } from '../../simulate/chain.js';
import type { PayoutRail } from '../../simulate/payouts.js';
import type { Use } from '../types.js';

const tags = ['sandbox: deposits, payouts, balances'];
const errors = { 400: ErrorBody, 404: ErrorBody, 422: ErrorBody };
export interface FundsControlRoutesDeps {
  chain: Pick<ChainSimulator, 'deposit' | 'depositBurst' | 'depositToAddress'>;
  funds: Pick<FundsService, 'credit' | 'deposits' | 'payouts'>;
  ledger: Pick<Ledger, 'merchantBalances' | 'merchantTransactions'>;
  merchants: Pick<MerchantService, 'get'>;
  payouts: Pick<PayoutRail, 'payout'>;
}

export const fundsControlRoutes: FastifyPluginAsyncTypebox<{ use: Use<FundsControlRoutesDeps> }> = async (
  app,
  { use },
) => {
  app.post(
    '/deposits',
    {
      schema: {
        operationId: 'sandboxCreateDeposit',
        summary: 'Create a deposit',
        tags,
        querystring: EnvQuery,
        body: DepositBody,
        response: { 200: Deposit, ...errors },
      },
    },
    async (request) =>
      use(request).chain.deposit({ ...request.body, env: envOf(request.query, request.body) }),
  );

  app.post(
    '/deposits/bursts',
    {
      schema: {
        operationId: 'sandboxCreateDepositBurst',
        summary: 'Create a burst of deposits',
        description:
          'Many transfers to one static address in the same block: each a deposit with its own txid, ' +
          'credited, and its own deposit.received, in order.',
        tags,
        querystring: EnvQuery,
        body: DepositBurstBody,
        response: { 200: DepositBurst, ...errors },
      },
    },
    async (request) => {
      const { count, ...input } = request.body;
      return use(request).chain.depositBurst({ ...input, env: envOf(request.query, request.body) }, count);
    },
  );

  app.post(
    '/static-addresses/:address/deposits',
    {
      schema: {
        operationId: 'sandboxCreateStaticAddressDeposit',
        summary: 'Create a deposit of a static address',
        tags,
        params: AddressParams,
        body: AddressDepositBody,
        response: { 200: Deposit, ...errors },
      },
    },
    async (request) => use(request).chain.depositToAddress(request.params.address, request.body),
  );

  app.post(
    '/payouts',
    {
      schema: {
        operationId: 'sandboxCreatePayout',
        summary: 'Create a payout',
        tags,
        querystring: EnvQuery,
        body: PayoutBody,
        response: { 200: Payout, ...errors },
      },
    },
    async (request) =>
      use(request).payouts.payout({
        ...request.body,
        env: envOf(request.query, request.body),
        outcome: request.body.outcome ?? 'completed',
      }),
  );

  app.get(
    '/merchants/:id/deposits',
    {
      schema: {
        operationId: 'sandboxListMerchantDeposits',
        summary: 'List deposits of a merchant',
        tags,
        params: IdParams,
        querystring: EnvLimitQuery,
        response: { 200: Type.Array(Deposit), ...errors },
      },
    },
    async (request) =>
      use(request).funds.deposits(request.params.id, request.query.env ?? 'test', request.query.limit),
  );

  app.get(
    '/merchants/:id/payouts',
    {
      schema: {
        operationId: 'sandboxListMerchantPayouts',
        summary: 'List payouts of a merchant',
        tags,
        params: IdParams,
        querystring: EnvLimitQuery,
        response: { 200: Type.Array(Payout), ...errors },
      },
    },
    async (request) =>
      use(request).funds.payouts(request.params.id, request.query.env ?? 'test', request.query.limit),
  );

  app.get(
    '/merchants/:id/balances',
    {
      schema: {
        operationId: 'sandboxListMerchantBalances',
        summary: 'List balances of a merchant',
        tags,
        params: IdParams,
        querystring: EnvQuery,
        response: { 200: Type.Array(Balance), ...errors },
      },
    },
    async (request) => {
      use(request).merchants.get(request.params.id);
      return use(request).ledger.merchantBalances(request.query.env ?? 'test', request.params.id);
    },
  );

  app.get(
    '/merchants/:id/ledger',
    {
      schema: {
        operationId: 'sandboxGetMerchantLedger',
        summary: 'Get the ledger of a merchant',
        tags,
        params: IdParams,
        querystring: EnvLimitQuery,
        response: { 200: Type.Array(LedgerTransaction), ...errors },
      },
    },
    async (request) => {
      use(request).merchants.get(request.params.id);
      return use(request).ledger.merchantTransactions(
        request.query.env ?? 'test',
        request.params.id,
        request.query.limit,
      );
    },
  );

  app.post(
    '/merchants/:id/credit',
    {
      schema: {
        operationId: 'sandboxCreditMerchant',
        summary: 'Credit a merchant',
        tags,
        params: IdParams,
        querystring: EnvQuery,
        body: CreditBody,
        response: { 200: Type.Array(Balance), ...errors },
      },
    },
    async (request) => {
      const env = envOf(request.query, request.body);
      use(request).funds.credit(
        request.params.id,
        env,
        request.body.currency,
        request.body.amount,
        request.body.memo,
      );
      return use(request).ledger.merchantBalances(env, request.params.id);
    },
  );
};

/**
 * The environment a call acts in: `?env=` like every other control call; a body `env` (the older
 * form) still works; both, and different, is a 422 rather than a guess.
 */
function envOf(query: { env?: Env | undefined }, body: { env?: Env | undefined }): Env {
  if (query.env !== undefined && body.env !== undefined && query.env !== body.env)
    throw new ValidationError('env', `?env=${query.env} and the body's env ${body.env} disagree`);
  return query.env ?? body.env ?? 'test';
}
