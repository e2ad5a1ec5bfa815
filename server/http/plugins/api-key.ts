import fp from 'fastify-plugin';
import type { Env } from '../../contract/common.js';
import type { MerchantService } from '../../domain/merchants/service.js';
import type { SettingsService } from '../../domain/settings/service.js';
import { UnauthorizedError } from '../../errors.js';
import type { Use } from '../types.js';
import type { KeyLimiter } from './key-limiter.js';

export interface ApiKeyOptions {
  use: Use<{ merchants: Pick<MerchantService, 'authenticate'>; settings: Pick<SettingsService, 'get'> }>;
  limiter: KeyLimiter;
  /** the listener's environment: a key acts in the environment of the address it is sent to */
  env: Env;
}

/** The scheme is case-insensitive (RFC 9110 §11.1): `bearer` and `BEARER` work too. */
const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** A key no workspace holds: mistyped, from another sandbox, or of a workspace since deleted or reset. */
export const UNKNOWN_KEY =
  "Invalid API key: no workspace of this sandbox holds it (a deleted or reset workspace takes its keys along; GET /sandbox/merchants/{id}/api-keys lists a merchant's keys)";

/**
 * /v1 authentication and per-key limits, for every route of the scope it is registered in. A
 * request holds a concurrency slot from the moment its headers arrive until its response finishes
 * or its connection closes, whichever comes first, so a client that aborts cannot leak a slot.
 */
export const apiKey = fp<ApiKeyOptions>(
  async (app, { use, limiter, env }) => {
    // Callback style: this runs on every /v1 request, and a promise per request is measurable.
    app.addHook('onRequest', (request, reply, done) => {
      try {
        const header = request.headers.authorization;
        if (header === undefined)
          throw new UnauthorizedError('Missing API key: send Authorization: Bearer svcb_...');
        const match = BEARER.exec(header);
        if (!match) throw new UnauthorizedError('Malformed Authorization header: expected Bearer svcb_...');
        // Decided where the workspace was: no workspace of this sandbox holds the key.
        if (request.unknownKey) throw new UnauthorizedError(UNKNOWN_KEY);
        const { merchants, settings } = use(request);
        const key = merchants.authenticate(match[1]!);
        const current = settings.get();
        limiter.take(key.id, current.rate_limit_per_minute);
        if (current.concurrency_limit !== 0) {
          // 'close' fires once the response is finished or the connection is gone, whichever is first.
          reply.raw.once('close', limiter.enter(key.id, current.concurrency_limit));
        }
        request.principal = { env, merchantId: key.merchant_id, apiKeyId: key.id, role: key.role };
        done();
      } catch (error) {
        done(error as Error);
      }
    });
  },
  { name: 'api-key' },
);
