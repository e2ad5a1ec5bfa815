import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Env } from '../../contract/common.js';
import { WEBHOOK_HEADER } from '../../contract/webhooks.js';
import type { FiredEvents } from '../../recording/exchange.js';
import type { ScenarioRecorder } from '../../recording/recorder.js';
import type { Use } from '../types.js';

export interface RecordingOptions {
  use: Use<{ recorder: Pick<ScenarioRecorder, 'capture' | 'recording' | 'track'> }>;
  /** the listener's environment */
  env: Env;
}

const headerOf = (request: FastifyRequest, name: string): string | null => {
  const value = request.headers[name];
  return typeof value === 'string' ? value : null;
};

const parse = (payload: unknown): unknown => {
  const text =
    typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : null;
  if (text === null || text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/**
 * Hands every exchange of the app (the `/v1` API and the control API, so dashboard clicks too) to
 * the scenario recorder while a recording runs. It runs in `onSend` after the group commit's hook:
 * the change is durable, and the step exists before the caller has its answer, so a stop that
 * follows can never miss it. Nothing happens (not even a parse) when no recording runs; a failure
 * here is logged, never the request's. The handler runs inside the recorder's scope (`track`), so
 * the events it fires are the step's; after a simulation, the answer waits for the recorder to read
 * the state it left.
 */
export const recording = fp<RecordingOptions>(
  async (app, { use, env }) => {
    const fired = new WeakMap<FastifyRequest, FiredEvents>();
    // The last hook before the handler: the rest of the request runs in the scope `track` opens.
    app.addHook('preHandler', (request, _reply, done) => {
      const collected = use(request).recorder.track(done);
      if (collected) fired.set(request, collected);
    });
    app.addHook('onSend', (request, reply, payload, done) => {
      const collected = fired.get(request);
      if (collected) collected.open = false;
      // Refused before it had a workspace (no Host, a foreign origin): no recorder to ask.
      // (A request refused before it was bound to a workspace has nothing to record.)
      const recorder = request.workspace === null ? null : use(request).recorder;
      if (recorder?.recording && request.routeOptions.url !== undefined) {
        try {
          const pending = recorder.capture({
            env,
            method: request.method,
            url: request.url,
            route: request.routeOptions.url,
            params: (request.params ?? {}) as Record<string, string>,
            query: (request.query ?? {}) as Record<string, unknown>,
            body: request.body,
            status: reply.statusCode,
            response: parse(payload),
            merchantId: request.principal?.merchantId ?? null,
            fired: collected?.events ?? null,
            deliveryId: headerOf(request, WEBHOOK_HEADER.deliveryId),
          });
          if (pending) {
            pending.then(
              () => done(null, payload),
              (error: unknown) => {
                request.log.error({ err: error }, 'recording: outcome not recorded');
                done(null, payload);
              },
            );
            return;
          }
        } catch (error) {
          request.log.error({ err: error }, 'recording: step not recorded');
        }
      }
      done(null, payload);
    });
  },
  { name: 'recording', dependencies: ['group-commit'] },
);
