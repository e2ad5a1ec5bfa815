import { type Static, Type } from 'typebox';
import { AdvanceBody, AdvanceResult, ClockState, type Fired } from '../../contract/sandbox-state.js';
import {
  Checkpoint,
  CheckpointName,
  CreateCheckpointBody,
  CreateWorkspaceBody,
  type RestoreResult,
  Workspace,
  WorkspaceParams,
} from '../../contract/workspaces.js';
import { count, described, list, operationTool, type Tool } from './tool.js';

// Workspaces, checkpoints and the clock: the world a test runs in and its time.

const WorkspaceBrief = Type.Pick(Workspace, ['id', 'name', 'default', 'ephemeral', 'from']);
type WorkspaceBrief = Static<typeof WorkspaceBrief>;

const clockWords = (c: ClockState): string => `Sandbox time is ${c.now}${c.frozen ? ' (frozen)' : ''}.`;

const firedWords = (fired: Fired | undefined): string => {
  if (!fired) return '';
  const types = [...new Set(fired.events.map((e) => e.type))];
  return ` Fired ${count(fired.events.length, 'event')}${types.length ? ` (${types.join(', ')})` : ''}, ${count(fired.deliveries, 'delivery attempt')}, ${count(fired.jobs, 'job')}.`;
};

export const worldTools: Tool[] = [
  operationTool<WorkspaceBrief[]>({
    name: 'workspaces_list',
    title: 'List workspaces',
    description:
      'List the isolated worlds (workspaces) of this sandbox. Every other tool acts in one of them: its `workspace` argument (id or name), else the default one.',
    operationId: 'sandboxListWorkspaces',
    global: true,
    output: list(WorkspaceBrief, 'every workspace, the default one first'),
    words: (items) =>
      `${count(items.length, 'workspace')}: ${items.map((w) => `${w.name} (${w.id})`).join(', ')}.`,
  }),
  operationTool<WorkspaceBrief>({
    name: 'workspace_create',
    title: 'Create a workspace',
    description:
      'Create a workspace: its own data, API keys, clock, webhooks and checkpoints. `ephemeral: true` keeps it in memory only; `from` forks an existing one; `seed` makes ids repeat; `clock` sets where its time begins. Pass its id or name as `workspace` to the other tools.',
    operationId: 'sandboxCreateWorkspace',
    body: CreateWorkspaceBody,
    global: true,
    output: WorkspaceBrief,
    words: (w) =>
      `Created workspace ${w.name} (${w.id})${w.ephemeral ? ', ephemeral' : ''}${w.from ? `, forked from ${w.from.workspace_id}${w.from.checkpoint ? ` at checkpoint ${w.from.checkpoint}` : ''}` : ''}. Pass workspace: "${w.name}" to the other tools.`,
  }),
  operationTool<undefined>({
    name: 'workspace_delete',
    title: 'Delete a workspace',
    description: 'Delete a workspace and everything in it (the default workspace cannot be deleted).',
    operationId: 'sandboxDeleteWorkspace',
    pathArg: 'workspace_id',
    global: true,
    output: Type.Object({
      deleted: described(WorkspaceParams.properties.id, 'the workspace deleted'),
    }),
    words: (_, args) => `Deleted workspace ${String(args.workspace_id)}.`,
    shape: (_, args) => ({ deleted: args.workspace_id }),
  }),
  operationTool<Checkpoint>({
    name: 'checkpoint_save',
    title: 'Save a checkpoint',
    description:
      'Save the present moment of the workspace (data, clock, settings) under a name, to come back to it with checkpoint_restore or fork it with workspace_create.',
    operationId: 'sandboxSaveCheckpoint',
    body: CreateCheckpointBody,
    output: Checkpoint,
    words: (c) => `Saved checkpoint "${c.name}" at sandbox time ${c.at}.`,
  }),
  operationTool<Static<typeof RestoreResult>>({
    name: 'checkpoint_restore',
    title: 'Restore a checkpoint',
    description:
      'Bring the workspace back to a saved checkpoint: its data, clock and settings as they were (what happened since is gone).',
    operationId: 'sandboxRestoreCheckpoint',
    pathArg: 'checkpoint_name',
    destructive: true,
    idempotent: true,
    output: Type.Object({ restored: CheckpointName, workspace: WorkspaceBrief }),
    words: (r) => `Restored checkpoint "${r.restored}" into workspace ${r.workspace.name}.`,
  }),
  operationTool<Checkpoint[]>({
    name: 'checkpoints_list',
    title: 'List checkpoints',
    description: 'List the checkpoints saved in the workspace: name, the sandbox time saved, size.',
    operationId: 'sandboxListCheckpoints',
    output: list(Checkpoint),
    words: (items) =>
      `${count(items.length, 'checkpoint')}${items.length ? `: ${items.map((c) => c.name).join(', ')}` : ''}.`,
  }),
  operationTool<undefined>({
    name: 'checkpoint_delete',
    title: 'Delete a checkpoint',
    description: 'Delete a saved checkpoint of the workspace (the workspace itself is unchanged).',
    operationId: 'sandboxDeleteCheckpoint',
    pathArg: 'checkpoint_name',
    output: Type.Object({ deleted: described(CheckpointName, 'the checkpoint deleted') }),
    words: (_, args) => `Deleted checkpoint "${String(args.checkpoint_name)}".`,
    shape: (_, args) => ({ deleted: args.checkpoint_name }),
  }),
  operationTool<ClockState>({
    name: 'clock_now',
    title: 'Read the sandbox clock',
    description:
      "The workspace's sandbox time (expiry, settlement, webhook retries all run on it), its offset from real time and whether it is frozen. Use it to compute expires_at and other timestamps.",
    operationId: 'sandboxGetClock',
    output: ClockState,
    words: clockWords,
  }),
  operationTool<Static<typeof AdvanceResult>>({
    name: 'clock_advance',
    title: 'Advance the sandbox clock',
    description:
      'Move the sandbox clock forward `seconds`, running everything that falls due on the way, in order: checkout expiry, settlement (~60 s after paid), fee releases, webhook deliveries and retries (5 m, 30 m, 2 h, 5 h). Answers what fired.',
    operationId: 'sandboxAdvanceClock',
    body: AdvanceBody,
    output: AdvanceResult,
    words: (c, args) => `Advanced ${String(args.seconds)} s. ${clockWords(c)}${firedWords(c.fired)}`,
  }),
  operationTool<ClockState>({
    name: 'clock_freeze',
    title: 'Freeze the sandbox clock',
    description: 'Stop the sandbox clock: time stands still until clock_resume or clock_advance.',
    operationId: 'sandboxFreezeClock',
    idempotent: true,
    output: ClockState,
    words: clockWords,
  }),
  operationTool<ClockState>({
    name: 'clock_resume',
    title: 'Resume the sandbox clock',
    description: 'Let a frozen sandbox clock run again, from where it stands.',
    operationId: 'sandboxResumeClock',
    idempotent: true,
    output: ClockState,
    words: clockWords,
  }),
];
