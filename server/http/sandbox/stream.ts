import type { ServerResponse } from 'node:http';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { SandboxContext } from '../../context.js';
import { StreamQuery } from '../../contract/sandbox-state.js';
import type { EventRecorder, RecordedEvent } from '../../domain/events/recorder.js';
import type { RequestLogService } from '../../domain/requests/service.js';
import type { ScenarioRecorder } from '../../recording/recorder.js';
import type { ScenarioService } from '../../scenarios/service.js';
import type { WebhookDispatcher } from '../../webhooks/dispatcher.js';
import { presentDelivery } from '../../webhooks/service.js';
import type { BoundWorkspace } from '../../workspaces/binding.js';
import { workspaceOf } from '../plugins/workspace-scope.js';

const HEARTBEAT_MS = 15_000;

/**
 * GET /sandbox/events: server-sent events — every recorded event (`event: event`) and every
 * delivery attempt (`event: delivery`) and every /v1 request of the request log (`event: request`,
 * the entry) as it happens, and a change notice (`event: change`, a ChangeNotice) after every
 * committed write whatever made it, optionally filtered by env and merchant. A change that does not
 * say its env or merchant passes every filter, and so does the merchant filter a request no
 * merchant's key matched (a 401: `merchant_id` null). Also, never filtered: each finished step of a
 * scenario run on this sandbox (`event: scenario`) and the recording's state (`event: recording`)
 * whenever it changes.
 */
export interface StreamControlRoutesDeps {
  // (the change feed lives with the database, server/db/changes.ts: named through the context)
  changes: Pick<SandboxContext['changes'], 'on' | 'onRetire'>;
  dispatcher: Pick<WebhookDispatcher, 'onAttempt'>;
  events: Pick<EventRecorder, 'on'>;
  requests: Pick<RequestLogService, 'on'>;
  recorder: Pick<ScenarioRecorder, 'on'>;
}

export const streamControlRoutes: FastifyPluginAsyncTypebox<{
  /** the services of one context of the workspace (a stream follows its workspace's contexts) */
  servicesOf: (bound: BoundWorkspace) => StreamControlRoutesDeps;
  scenarios: Pick<ScenarioService, 'on'>;
}> = async (app, { servicesOf, scenarios }) => {
  const streams = new Set<ServerResponse>();
  app.addHook('preClose', async () => {
    for (const stream of streams) stream.end();
  });

  app.get(
    '/events',
    {
      config: { workspace: 'outlives' },
      schema: {
        operationId: 'sandboxStreamEvents',
        summary: 'Stream events (server-sent events)',
        tags: ['sandbox: events'],
        querystring: StreamQuery,
      },
    },
    (request, reply) => {
      const { env, merchant_id: merchantId } = request.query;
      const wanted = (e: { env: string; merchant_id: string | null }) =>
        (env === undefined || e.env === env) && (merchantId === undefined || e.merchant_id === merchantId);
      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive',
        'x-content-type-options': 'nosniff',
      });
      raw.write(': connected\n\n');
      streams.add(raw);
      const frame = (type: string, id: string, data: unknown) =>
        `event: ${type}\nid: ${id}\ndata: ${JSON.stringify(data)}\n\n`;
      // Everything but a request's line waits one turn, in order: a write's commit announces its
      // events before its response leaves (and its request is recorded), so without the wait a
      // reader would see what a request caused before the request.
      let held: string[] = [];
      let flushing: NodeJS.Immediate | null = null;
      const flush = () => {
        if (flushing) clearImmediate(flushing);
        flushing = null;
        if (held.length > 0 && !raw.writableEnded) raw.write(held.join(''));
        held = [];
      };
      const send = (type: string, id: string, data: unknown) => {
        held.push(frame(type, id, data));
        flushing ??= setImmediate(flush);
      };
      const sendNow = (type: string, id: string, data: unknown) => {
        if (!raw.writableEnded) raw.write(frame(type, id, data));
      };
      // A stream outlives any one context (`config.workspace`): it holds none open (a restore does
      // not wait for it) and follows its workspace's. A restore or a reset mounts a new context in
      // the workspace: the stream says so (a `workspace` change) and follows the new one.
      // The context it follows now: the request's own at first, then each one a restore mounts.
      let current = workspaceOf(request);
      const follow = () => {
        const { changes, dispatcher, events, requests, recorder } = servicesOf(current);
        const offEvents = events.on((event: RecordedEvent) => {
          if (wanted(event)) send('event', event.id, event);
        });
        const offAttempts = dispatcher.onAttempt(({ delivery, attempt }) => {
          if (!wanted(delivery)) return;
          send('delivery', `${delivery.id}:${attempt.number}`, { ...presentDelivery(delivery, []), attempt });
        });
        const offRequests = requests.on((entry) => {
          // A request no key matched passes the merchant filter: it may be this merchant's, sent
          // with a wrong key, and is exactly what a developer watching one merchant needs to see.
          if (wanted(entry) || (entry.merchant_id === null && (env === undefined || entry.env === env)))
            sendNow('request', entry.id, entry);
        });
        const offChanges = changes.on((notice) => {
          const shown = notice.changes.filter(
            (c) =>
              (env === undefined || c.env === undefined || c.env === env) &&
              (merchantId === undefined || c.merchant_id === undefined || c.merchant_id === merchantId),
          );
          if (shown.length > 0) send('change', `change:${notice.seq}`, { seq: notice.seq, changes: shown });
        });
        const offRecording = recorder.on((state) => send('recording', `recording:${++recordings}`, state));
        const offRetire = changes.onRetire((reason) => {
          send('change', `change:${reason}`, { seq: 0, changes: [{ kind: 'workspace' }] });
          off();
          const next = reason === 'deleted' ? null : current.successor();
          if (next === null) {
            flush();
            raw.end();
          } else {
            current = next;
            follow();
          }
        });
        off = () => {
          offEvents();
          offAttempts();
          offRequests();
          offChanges();
          offRecording();
          offRetire();
        };
      };
      let recordings = 0;
      let off = () => {};
      follow();
      const offScenarios = scenarios.on(
        (progress) => send('scenario', `${progress.run_id}:${progress.step.index}`, progress),
        current.id,
      );
      const heartbeat = setInterval(() => raw.write(': ping\n\n'), HEARTBEAT_MS);
      heartbeat.unref();
      raw.on('close', () => {
        clearInterval(heartbeat);
        if (flushing) clearImmediate(flushing);
        off();
        offScenarios();
        streams.delete(raw);
      });
    },
  );
};
