import type { preHandlerHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { storageProblem } from '../errors.js';
import type { Use } from '../types.js';
import { hooksOf, takesBody } from './route-hooks.js';
export interface GroupCommitOptions {
  use: Use<{ batcher: GroupCommitBatcher }>;
}

/** The part of the CommitBatcher (server/db/batch.ts) the HTTP edge drives. */
export interface GroupCommitBatcher {
  /** joins the current turn's transaction (opening it if needed) */
  join(): void;
  /** whether a batch is open */
  readonly open: boolean;
  /** resolves once the open batch has committed */
  durable(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * false: the route's writes commit on their own, at once. For routes that run scheduled work
     * and wait for what it starts (a clock advance runs jobs, each its own transaction, and waits
     * for the webhook sends they start — which leave only after their job has committed).
     */
    groupCommit?: boolean;
  }
}

/**
 * Group commit: a write request joins this event-loop turn's transaction (see CommitBatcher), and
 * no reply leaves before that transaction commits. Reads that happen to overlap a batch wait for
 * it too, so nobody is ever shown a write that could still roll back. A failing request rolls back
 * alone (its savepoint), the others of the batch commit.
 */
export const groupCommit = fp<GroupCommitOptions>(
  async (app, { use }) => {
    const join: preHandlerHookHandler = (request, _reply, done) => {
      if (request.method !== 'GET' && request.method !== 'HEAD') use(request).batcher.join();
      done();
    };
    // Joining is for the routes that write: a GET (the most frequent call) runs no hook for it.
    app.addHook('onRoute', (route) => {
      if (!takesBody(route.method) || route.config?.groupCommit === false) return;
      route.preHandler = [join, ...hooksOf(route.preHandler)];
    });
    app.addHook('onSend', (request, reply, payload, done) => {
      const batcher = request.workspace === null ? null : use(request).batcher;
      if (batcher === null || !batcher.open) {
        done(null, payload);
        return;
      }
      batcher.durable().then(
        () => done(null, payload),
        (error: Error) => {
          // A request that failed already keeps its own answer (it names the real cause).
          if (reply.statusCode >= 400) {
            done(null, payload);
            return;
          }
          // The commit failed: whatever the handler answered did not happen. Answer that instead,
          // as `{error}` (507 when the disk is full), the way the error handler would.
          const storage = storageProblem(error);
          if (!storage)
            console.error(`svc-sandbox: commit failed on ${request.method} ${request.url}:`, error);
          reply.code(storage?.status ?? 500).type('application/json; charset=utf-8');
          done(null, JSON.stringify({ error: storage?.message ?? 'Internal server error' }));
        },
      );
    });
  },
  { name: 'group-commit' },
);
