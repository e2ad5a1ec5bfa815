import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { PinResult, SecretsResult, SessionBody } from '../../contract/cards.js';
import { ErrorBody, IdParams } from '../../contract/common.js';
import type { CardSecrets } from '../../domain/cards/secrets.js';
import type { CardService } from '../../domain/cards/service.js';
import type { Use } from '../types.js';

const tags = ['sandbox: acting as a merchant'];
const errors = { 400: ErrorBody, 404: ErrorBody, 422: ErrorBody };

/**
 * The card secrets exchange of /v1 (spec: Card secrets and PIN encryption model), as the card's
 * merchant's owner in the card's environment, for the dashboard's "Reveal": the browser makes the
 * AES key and wraps it in `session`, the server answers PAN, CVC and PIN encrypted under it. Both are
 * POSTs because a browser cannot send the GET body the spec gives the PIN read; neither changes
 * anything. Same checks and errors as /v1.
 */
export interface CardSecretControlRoutesDeps {
  cards: Pick<CardService, 'cardById' | 'holderById'>;
  secrets: Pick<CardSecrets, 'getPin' | 'secrets'>;
}

export const cardSecretControlRoutes: FastifyPluginAsyncTypebox<{
  use: Use<CardSecretControlRoutesDeps>;
}> = async (app, { use }) => {
  const ownerOf = (request: FastifyRequest, cardId: string) => {
    const card = use(request).cards.cardById(cardId);
    const holder = use(request).cards.holderById(card.cardholder_id);
    const principal = {
      env: holder.env,
      merchantId: holder.merchant_id,
      apiKeyId: 'sandbox-control',
      role: 'owner' as const,
    };
    return { card, principal };
  };

  app.post(
    '/cards/:id/secrets',
    {
      schema: {
        operationId: 'sandboxCreateCardSecret',
        summary: 'Create a secret of a card',
        tags,
        params: IdParams,
        body: SessionBody,
        response: { 200: SecretsResult, ...errors },
      },
    },
    async (request) => {
      const { card, principal } = ownerOf(request, request.params.id);
      return use(request).secrets.secrets(principal, card.cardholder_id, card.id, request.body.session);
    },
  );

  app.post(
    '/cards/:id/pin',
    {
      schema: {
        operationId: 'sandboxPinCard',
        summary: 'Pin a card',
        tags,
        params: IdParams,
        body: SessionBody,
        response: { 200: PinResult, ...errors },
      },
    },
    async (request) => {
      const { card, principal } = ownerOf(request, request.params.id);
      return use(request).secrets.getPin(principal, card.cardholder_id, card.id, request.body.session);
    },
  );
};
