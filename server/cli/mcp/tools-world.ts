import type { Static } from 'typebox';
import { AdvanceBody, type ClockState, type Fired } from '../../contract/sandbox-state.js';
import {
  type Checkpoint,
  CheckpointParams,
  CreateCheckpointBody,
  CreateWorkspaceBody,
  type RestoreResult,
  type Workspace,
  WorkspaceParams,
} from '../../contract/workspaces.js';
import { count, operationTool, type Tool } from './tool.js';

// Workspaces, checkpoints and the clock: the world a test runs in and its time.

const workspaceShape = (w: Workspace) => ({
  id: w.id,
  name: w.name,
  default: w.default,
  ephemeral: w.ephemeral,
  clock: w.clock,
  from: w.from,
  checkpoints: w.checkpoints,
});

const clockWords = (c: ClockState): string => `Sandbox time is ${c.now}${c.frozen ? ' (frozen)' : ''}.`;

const firedWords = (fired: Fired | undefined): string => {
  if (!fired) return '';
  const types = [...new Set(fired.events.map((e) => e.type))];
  return ` Fired ${count(fired.events.length, 'event')}${types.length ? ` (${types.join(', ')})` : ''}, ${count(fired.deliveries, 'delivery attempt')}, ${count(fired.jobs, 'job')}.`;
};

export const worldTools: Tool[] = [
  operationTool<Workspace[]>({
    name: 'workspaces_list',
    description:
      'List the isolated worlds (workspaces) of this sandbox: id, name, clock, checkpoints. Every other tool acts in one of them: its `workspace` argument (id or name), else the default one.',
    operationId: 'sandboxListWorkspaces',
    global: true,
    words: (list) =>
      `${count(list.length, 'workspace')}: ${list.map((w) => `${w.name} (${w.id})`).join(', ')}.`,
    shape: (list) => list.map(workspaceShape),
  }),
  operationTool<Workspace>({
    name: 'workspace_create',
    description:
      'Create a workspace: its own data, API keys, clock, webhooks and checkpoints. `ephemeral: true` keeps it in memory only; `from: {workspace_id, checkpoint?}` forks an existing one (now, or at a checkpoint); `seed` makes ids repeat; `clock: {start, frozen}` sets where its time begins. Pass its id or name as `workspace` to the other tools.',
    operationId: 'sandboxCreateWorkspace',
    body: CreateWorkspaceBody,
    global: true,
    words: (w) =>
      `Created workspace ${w.name} (${w.id})${w.ephemeral ? ', ephemeral' : ''}${w.from ? `, forked from ${w.from.workspace_id}${w.from.checkpoint ? ` at checkpoint ${w.from.checkpoint}` : ''}` : ''}.`,
    shape: workspaceShape,
  }),
  operationTool<undefined>({
    name: 'workspace_delete',
    description:
      'Delete a workspace and everything in it (the default workspace cannot be deleted). `id`: its id.',
    operationId: 'sandboxDeleteWorkspace',
    params: WorkspaceParams,
    global: true,
    words: (_, args) => `Deleted workspace ${String(args.id)}.`,
    shape: (_, args) => ({ deleted: args.id }),
  }),
  operationTool<Checkpoint>({
    name: 'checkpoint_save',
    description:
      'Save the present moment of the workspace (data, clock, settings) under a name, to come back to it with checkpoint_restore or fork it with workspace_create.',
    operationId: 'sandboxSaveCheckpoint',
    body: CreateCheckpointBody,
    words: (c) => `Saved checkpoint "${c.name}" at sandbox time ${c.at}.`,
  }),
  operationTool<Static<typeof RestoreResult>>({
    name: 'checkpoint_restore',
    description: 'Bring the workspace back to a saved checkpoint: its data, clock and settings as they were.',
    operationId: 'sandboxRestoreCheckpoint',
    params: CheckpointParams,
    words: (r) => `Restored checkpoint "${r.restored}"; sandbox time is ${r.workspace.clock.now}.`,
    shape: (r) => ({ restored: r.restored, workspace: workspaceShape(r.workspace) }),
  }),
  operationTool<Checkpoint[]>({
    name: 'checkpoints_list',
    description: 'List the checkpoints saved in the workspace: name, the sandbox time saved, size.',
    operationId: 'sandboxListCheckpoints',
    words: (list) =>
      `${count(list.length, 'checkpoint')}${list.length ? `: ${list.map((c) => c.name).join(', ')}` : ''}.`,
  }),
  operationTool<undefined>({
    name: 'checkpoint_delete',
    description: 'Delete a saved checkpoint of the workspace (the workspace itself is unchanged).',
    operationId: 'sandboxDeleteCheckpoint',
    params: CheckpointParams,
    words: (_, args) => `Deleted checkpoint "${String(args.name)}".`,
    shape: (_, args) => ({ deleted: args.name }),
  }),
  operationTool<ClockState>({
    name: 'clock_now',
    description:
      "The workspace's sandbox time (expiry, settlement, webhook retries all run on it), its offset from real time and whether it is frozen. Use it to compute expires_at and other timestamps.",
    operationId: 'sandboxGetClock',
    words: clockWords,
  }),
  operationTool<ClockState & { fired?: Fired }>({
    name: 'clock_advance',
    description:
      'Move the sandbox clock forward `seconds`, running everything that falls due on the way, in order: checkout expiry, settlement (~60 s after paid), fee releases, webhook deliveries and retries (5 m, 30 m, 2 h, 5 h). Answers what fired.',
    operationId: 'sandboxAdvanceClock',
    body: AdvanceBody,
    words: (c, args) => `Advanced ${String(args.seconds)} s. ${clockWords(c)}${firedWords(c.fired)}`,
  }),
  operationTool<ClockState>({
    name: 'clock_freeze',
    description: 'Stop the sandbox clock: time stands still until clock_resume or clock_advance.',
    operationId: 'sandboxFreezeClock',
    words: clockWords,
  }),
  operationTool<ClockState>({
    name: 'clock_resume',
    description: 'Let a frozen sandbox clock run again, from where it stands.',
    operationId: 'sandboxResumeClock',
    words: clockWords,
  }),
];
