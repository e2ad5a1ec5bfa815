import { request } from './client';
import type { Checkpoint, CreateWorkspaceBody, RestoreResult, Workspace } from './types';

// The routes on workspaces themselves belong to the sandbox, not to one workspace: they go without
// the header, so they answer even when the workspace the dashboard was in has just been deleted.
const sandboxWide = { workspace: null };
const id = encodeURIComponent;

export const listWorkspaces = () =>
  request<Workspace[]>('GET', '/sandbox/workspaces', undefined, sandboxWide);
export const createWorkspace = (body: CreateWorkspaceBody) =>
  request<Workspace>('POST', '/sandbox/workspaces', body, sandboxWide);
export const deleteWorkspace = (workspaceId: string) =>
  request<void>('DELETE', `/sandbox/workspaces/${id(workspaceId)}`, undefined, sandboxWide);

// Checkpoints are the active workspace's (the header names it).
export const listCheckpoints = () => request<Checkpoint[]>('GET', '/sandbox/checkpoints');
export const saveCheckpoint = (name: string) => request<Checkpoint>('POST', '/sandbox/checkpoints', { name });
export const restoreCheckpoint = (name: string) =>
  request<RestoreResult>('POST', `/sandbox/checkpoints/${id(name)}/restore`);
export const deleteCheckpoint = (name: string) => request<void>('DELETE', `/sandbox/checkpoints/${id(name)}`);
