import fp from 'fastify-plugin';
/** The part of the CommitBatcher (server/db/batch.ts) the HTTP edge drives. */
export interface GroupCommitOptions {
  batcher: {
    /** joins the current turn's transaction (opening it if needed) */
    join(): void;
    /** whether a batch is open */
    readonly open: boolean;
    /** resolves once the open batch has committed */
    durable(): Promise<void>;
  };
}

/**
 * Group commit: a write request joins this event-loop turn's transaction (see CommitBatcher), and
 * no reply leaves before that transaction commits. Reads that happen to overlap a batch wait for
 * it too, so nobody is ever shown a write that could still roll back. A failing request rolls back
 * alone (its savepoint), the others of the batch commit.
 */
export const groupCommit = fp<GroupCommitOptions>(
  async (app, { batcher }) => {
    app.addHook('preHandler', (request, _reply, done) => {
      if (request.method !== 'GET' && request.method !== 'HEAD') batcher.join();
      done();
    });
    app.addHook('onSend', (_request, _reply, payload, done) => {
      if (!batcher.open) {
        done(null, payload);
        return;
      }
      batcher.durable().then(
        () => done(null, payload),
        (error: Error) => done(error),
      );
    });
  },
  { name: 'group-commit' },
);
