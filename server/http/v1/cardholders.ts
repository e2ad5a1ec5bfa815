import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Compile } from 'typebox/compile';
import {
  Card,
  Cardholder,
  CardParams,
  CardTransactionItem,
  CardTransactionListQuery,
  KycToken,
  LimitsBody,
  PinResult,
  SecretsBody,
  SecretsResult,
  SessionHeaders,
  SessionQuery,
  SetPinBody,
} from '../../contract/cards.js';
import { EmptyObject, ErrorBody, errorResponses, IdParams, ListQuery } from '../../contract/common.js';
import type { CardSecrets } from '../../domain/cards/secrets.js';
import type { CardService } from '../../domain/cards/service.js';
import { ValidationError } from '../../errors.js';
import { lazy } from '../../runtime/lazy-require.js';
import { readJsonBody } from '../raw-json.js';
import { principalOf, type Use } from '../types.js';
import { registerMerchantWrites } from './merchant-writes.js';

const tags = ['cardholders and cards'];
const typeboxCompile = lazy<{ Compile: typeof Compile }>('typebox/compile');
const secretsValidator = () => typeboxCompile().Compile(SecretsBody);
let secretsBody: ReturnType<typeof secretsValidator> | undefined;

/**
 * The card-secret reads' `session`: from the JSON body (the spec), the `X-SVC-Session` header or the
 * `session` query parameter (for clients that cannot send a GET body). Exactly one value: given in
 * several places it must be the same everywhere.
 */
function sessionOf(body: unknown, header: string | undefined, query: string | undefined): string {
  secretsBody ??= secretsValidator();
  const check = secretsBody;
  if (!check.Check(body)) throw new ValidationError('session', 'must be a string');
  const given = [body.session, header, query].filter((v): v is string => v !== undefined);
  const [session] = given;
  if (session === undefined) {
    throw new ValidationError(
      'session',
      'is required (a string in the body, the X-SVC-Session header or the session query parameter)',
    );
  }
  if (given.some((v) => v !== session)) {
    throw new ValidationError('session', 'was given more than once with different values');
  }
  return session;
}

export interface CardholderRoutesDeps {
  cards: Pick<
    CardService,
    | 'apply'
    | 'createHolder'
    | 'fund'
    | 'getCard'
    | 'getHolder'
    | 'issue'
    | 'listCards'
    | 'listHolders'
    | 'listTransactions'
    | 'recall'
    | 'setLimits'
    | 'setStatus'
    | 'startKyc'
  >;
  secrets: Pick<CardSecrets, 'getPin' | 'secrets' | 'setPin'>;
}

export const cardholderRoutes: FastifyPluginAsyncTypebox<{ use: Use<CardholderRoutesDeps> }> = async (
  app,
  { use },
) => {
  registerMerchantWrites(app, use, ['createCardholder']);

  app.get(
    '/cardholders',
    {
      schema: {
        operationId: 'listCardholders',
        summary: 'List cardholders',
        tags,
        querystring: ListQuery,
        response: { 200: Type.Array(Cardholder), ...errorResponses },
      },
    },
    async (request) =>
      use(request).cards.listHolders(principalOf(request), {
        limit: request.query.limit ?? 100,
        startingAfter: request.query.starting_after,
      }),
  );

  app.get(
    '/cardholders/:id',
    {
      schema: {
        operationId: 'getCardholder',
        summary: 'Get a cardholder',
        tags,
        params: IdParams,
        response: { 200: Cardholder, ...errorResponses },
      },
    },
    async (request) => use(request).cards.getHolder(principalOf(request), request.params.id),
  );

  app.post(
    '/cardholders/:id/kyc',
    {
      schema: {
        operationId: 'startCardholderKyc',
        summary: 'Start KYC for a cardholder',
        tags,
        params: IdParams,
        response: { 200: KycToken, ...errorResponses },
      },
    },
    async (request) => use(request).cards.startKyc(principalOf(request), request.params.id),
  );

  registerMerchantWrites(app, use, ['applyForCard']);

  registerMerchantWrites(app, use, ['issueCard']);

  registerMerchantWrites(app, use, ['fundCardholder', 'recallCardholder']);

  app.get(
    '/cardholders/:id/cards',
    {
      schema: {
        operationId: 'listCardholderCards',
        summary: 'List cards of a cardholder',
        tags,
        params: IdParams,
        response: { 200: Type.Array(Card), ...errorResponses },
      },
    },
    async (request) => use(request).cards.listCards(principalOf(request), request.params.id),
  );

  app.get(
    '/cardholders/:ch_id/cards/:card_id',
    {
      schema: {
        operationId: 'getCardholderCard',
        summary: 'Get a card of a cardholder',
        tags,
        params: CardParams,
        response: { 200: Card, ...errorResponses },
      },
    },
    async (request) =>
      use(request).cards.getCard(principalOf(request), request.params.ch_id, request.params.card_id),
  );

  registerMerchantWrites(app, use, ['updateCardholderCard']);

  // The spec does not show the PUT response; we return the card.
  app.put(
    '/cardholders/:ch_id/cards/:card_id/limits',
    {
      schema: {
        operationId: 'updateCardLimits',
        summary: 'Update the limits of a card',
        tags,
        params: CardParams,
        body: LimitsBody,
        response: { 200: Card, ...errorResponses },
      },
    },
    async (request) =>
      use(request).cards.setLimits(
        principalOf(request),
        request.params.ch_id,
        request.params.card_id,
        request.body,
      ),
  );

  app.post(
    '/cardholders/:ch_id/cards/:card_id/secrets',
    {
      config: { redact: 'body' },
      schema: {
        operationId: 'revealCardSecrets',
        summary: 'Read a card’s PAN and CVC (encrypted)',
        tags,
        params: CardParams,
        querystring: SessionQuery,
        headers: SessionHeaders,
        body: SecretsBody,
        response: { 200: SecretsResult, ...errorResponses },
      },
    },
    async (request) =>
      use(request).secrets.secrets(
        principalOf(request),
        request.params.ch_id,
        request.params.card_id,
        sessionOf(request.body, request.headers['x-svc-session'], request.query.session),
      ),
  );

  // A GET with a JSON body, as the spec has it: Fastify does not parse GET bodies, so we do. The
  // session may come in the X-SVC-Session header or the session query parameter instead.
  app.get(
    '/cardholders/:ch_id/cards/:card_id/pin',
    {
      config: { redact: 'body' },
      schema: {
        operationId: 'getCardPin',
        summary: 'Read a card’s PIN (encrypted)',
        tags,
        params: CardParams,
        querystring: SessionQuery,
        headers: SessionHeaders,
        // It reads its JSON body itself (a GET), so it meets a body's edge statuses too.
        response: { 200: PinResult, ...errorResponses, 413: ErrorBody, 415: ErrorBody },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const session = sessionOf(
        await readJsonBody(request.raw),
        request.headers['x-svc-session'],
        request.query.session,
      );
      return use(request).secrets.getPin(principal, request.params.ch_id, request.params.card_id, session);
    },
  );

  app.put(
    '/cardholders/:ch_id/cards/:card_id/pin',
    {
      config: { redact: 'body' },
      schema: {
        operationId: 'setCardPin',
        summary: 'Set a card’s PIN (encrypted)',
        tags,
        params: CardParams,
        body: SetPinBody,
        response: { 200: EmptyObject, ...errorResponses },
      },
    },
    async (request) => {
      const { ch_id: holder, card_id: card } = request.params;
      use(request).secrets.setPin(
        principalOf(request),
        holder,
        card,
        request.body.session,
        request.body.encrypted_data,
      );
      return {};
    },
  );

  app.get(
    '/cardholders/:ch_id/cards/:card_id/transactions',
    {
      schema: {
        operationId: 'listCardTransactions',
        summary: 'List transactions of a card',
        tags,
        params: CardParams,
        querystring: CardTransactionListQuery,
        response: { 200: Type.Array(CardTransactionItem), ...errorResponses },
      },
    },
    async (request) =>
      use(request).cards.listTransactions(
        principalOf(request),
        request.params.ch_id,
        request.params.card_id,
        request.query.limit ?? 100,
      ),
  );
};
