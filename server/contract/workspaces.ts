import { type Static, Type } from 'typebox';
import { described, Nullable, StringEnum, Timestamp } from './common.js';
import { ClockState } from './sandbox-state.js';

/**
 * Workspaces: isolated worlds in one sandbox, each with its own data, keys, clock, webhook queue
 * and checkpoints. Control calls name one with `X-SVC-Workspace: <id or name>` (or `?workspace=`
 * where a header cannot be sent: the event stream, an inbox URL); without it, the default one.
 * `/v1` finds the workspace from the API key.
 */
export const WORKSPACE_HEADER = 'x-svc-workspace';
/** The default workspace's id: it always exists and cannot be deleted. */
export const DEFAULT_WORKSPACE_ID = 'default';

/** `default`, or `ws_` and 16 base62 characters. */
export const WorkspaceId = Type.String({ pattern: '^(default|ws_[0-9A-Za-z]{16})$', maxLength: 19 });
/** Unique (case-insensitive) across the sandbox, so it can name the workspace in the header. */
export const WorkspaceName = Type.String({ minLength: 1, maxLength: 64, pattern: '^[^\\u0000-\\u001f]+$' });
/** Words a person chooses ("paid, before refund"): no slash, no control characters. */
export const CheckpointName = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: '^[^/\\\\\\u0000-\\u001f]+$',
});

export const Workspace = Type.Object({
  id: WorkspaceId,
  name: WorkspaceName,
  /** real time of creation */
  created_at: Timestamp,
  default: Type.Boolean(),
  /** kept in memory only: gone when the sandbox stops (always so in a `:memory:` sandbox) */
  ephemeral: Type.Boolean(),
  /** the seed its ids, keys and addresses follow, if any */
  seed: Nullable(Type.String()),
  /** its own clock */
  clock: ClockState,
  /** what it was forked from */
  from: Nullable(Type.Object({ workspace_id: Type.String(), checkpoint: Nullable(Type.String()) })),
  /** how many checkpoints it holds */
  checkpoints: Type.Integer({ minimum: 0 }),
});
export type Workspace = Static<typeof Workspace>;

export const CreateWorkspaceBody = Type.Object(
  {
    name: Type.Optional(described(WorkspaceName, 'unique in the sandbox (default: one is made up)')),
    seed: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'ids, keys and addresses repeat for the same seed',
      }),
    ),
    clock: Type.Optional(
      Type.Object(
        {
          start: Type.Optional(described(Timestamp, 'where its time begins (default: now)')),
          frozen: Type.Optional(Type.Boolean({ description: 'time stands still until advanced' })),
        },
        { additionalProperties: false, description: 'its clock' },
      ),
    ),
    from: Type.Optional(
      Type.Object(
        {
          workspace_id: Type.String({ minLength: 1, maxLength: 64, description: 'the workspace copied' }),
          checkpoint: Type.Optional(
            described(CheckpointName, 'one of its checkpoints (default: as it is now)'),
          ),
        },
        {
          additionalProperties: false,
          description: 'fork: a copy of that workspace now, or of one of its checkpoints',
        },
      ),
    ),
    ephemeral: Type.Optional(
      Type.Boolean({ description: 'kept in memory only: gone when the sandbox stops' }),
    ),
  },
  { additionalProperties: false },
);
export type CreateWorkspaceBody = Static<typeof CreateWorkspaceBody>;

export const WorkspaceParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

export const Checkpoint = Type.Object({
  name: CheckpointName,
  /** the workspace's sandbox time at the moment saved */
  at: Timestamp,
  /** real time of saving */
  created_at: Timestamp,
  size_bytes: Type.Integer({ minimum: 0 }),
});
export type Checkpoint = Static<typeof Checkpoint>;

export const CreateCheckpointBody = Type.Object(
  {
    name: described(CheckpointName, 'words you choose ("paid, before refund")'),
    /**
     * Where a restore (or a fork) puts the moment: at its own sandbox time (`saved`, the default), or
     * at the real current time with every stored time moved by as much (`now`: a demo, whose history
     * should end when it is shown, however long after saving it is restored).
     */
    restore_at: Type.Optional(
      StringEnum(['saved', 'now'], {
        description:
          'a restore puts the moment at its own sandbox time (saved, default) or at the real time now, every stored time moved by as much (now)',
      }),
    ),
  },
  { additionalProperties: false },
);
export const CheckpointParams = Type.Object({ name: CheckpointName });

export const RestoreResult = Type.Object({ restored: CheckpointName, workspace: Workspace });

export { Fired } from './sandbox-state.js';
