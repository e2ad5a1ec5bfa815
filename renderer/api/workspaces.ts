import { call, callGlobal } from './client';
import type { CreateWorkspaceBody } from './types';

// The routes on workspaces themselves belong to the sandbox, not to one workspace: they go without
// the header (`callGlobal`), so they answer even when the workspace the dashboard was in has just
// been deleted.
export const listWorkspaces = () => callGlobal('sandboxListWorkspaces');
export const createWorkspace = (body: CreateWorkspaceBody) => callGlobal('sandboxCreateWorkspace', { body });
export const deleteWorkspace = (workspaceId: string) =>
  callGlobal('sandboxDeleteWorkspace', { params: { id: workspaceId } });

// Checkpoints are the active workspace's (the header names it).
export const listCheckpoints = () => call('sandboxListCheckpoints');
export const saveCheckpoint = (name: string) => call('sandboxSaveCheckpoint', { body: { name } });
export const restoreCheckpoint = (name: string) => call('sandboxRestoreCheckpoint', { params: { name } });
export const deleteCheckpoint = (name: string) => call('sandboxDeleteCheckpoint', { params: { name } });
