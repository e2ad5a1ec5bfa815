import fp from 'fastify-plugin';
import type { Env } from '../../contract/common.js';
import type { FaultMark } from '../../contract/faults.js';
import type { ApiFaults } from '../../simulate/api-faults.js';
import type { Use } from '../types.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** what an API fault did to this request (the request log's `fault`); null: nothing */
    fault: FaultMark | null;
  }
}

export interface FaultsPluginOptions {
  use: Use<{ faults: Pick<ApiFaults, 'active' | 'decide'> }>;
  /** the listener's environment (a rule's `match.env`) */
  env: Env;
  /** how long a `timeout` fault holds a request its client has not given up on (the server's request timeout) */
  timeoutMs: number;
}

/**
 * The workspace's API faults (server/simulate/api-faults.ts) on its /v1 requests, decided once
 * the key is known (an unauthenticated request is refused as usual) and the body is read (so the
 * request log and verification see what was sent), before validation. With no rules the hook is
 * one property read: the bench's GET and POST must not pay for faults nobody set.
 * - `status`: answered here, the handler never runs;
 * - `latency_ms`: the request goes on after the drawn wait;
 * - `timeout`: nothing is answered; the socket is closed once the client gives up, or after
 *   `timeoutMs`; the request log keeps it as a 504 marked `timeout` (what a gateway would record);
 * - `lost_response`: the request runs and commits (replies wait for the group commit), then the
 *   connection is closed instead of answered.
 */
export const faults = fp<FaultsPluginOptions>(
  async (app, { use, env, timeoutMs }) => {
    app.decorateRequest('fault', null);
    app.addHook('preValidation', (request, reply, done) => {
      const service = use(request).faults;
      if (!service.active) {
        done();
        return;
      }
      const decision = service.decide({
        method: request.method,
        route: request.routeOptions.url ?? null,
        url: request.url,
        env,
      });
      if (decision === null) {
        done();
        return;
      }
      request.fault = decision.mark;
      const { effect, rule } = decision;
      if (effect.status !== undefined) {
        if (effect.status === 429) reply.header('retry-after', String(effect.retry_after_s ?? 1));
        void reply.code(effect.status).send({ error: `API fault "${rule}": ${effect.status} on purpose` });
        return;
      }
      if (effect.latency_ms) {
        setTimeout(done, decision.delayMs);
        return;
      }
      if (effect.timeout) {
        let ended = false;
        const end = () => {
          if (ended) return;
          ended = true;
          clearTimeout(timer);
          request.raw.socket?.destroy();
          // Nothing reaches the client (its socket is gone); the request log records the request.
          void reply.code(504).send({ error: `API fault "${rule}": no answer` });
        };
        const timer = setTimeout(end, timeoutMs);
        reply.raw.once('close', end);
        return;
      }
      done();
    });
    // After the request log's onSend (registered before this plugin): the entry is recorded, then
    // the answer of a lost response is dropped with its connection.
    app.addHook('onSend', (request, _reply, payload, done) => {
      if (request.fault?.effect === 'lost_response') request.raw.socket?.destroy();
      done(null, payload);
    });
  },
  { name: 'api-faults' },
);
