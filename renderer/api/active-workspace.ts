import { queryString, resolveCall } from '../../server/contract/call.js';
import type { DEFAULT_WORKSPACE_ID, WORKSPACE_HEADER } from '../../server/contract/workspaces.js';
import { WORKSPACE_PARAM } from '../lib/workspaces';

// The workspace the dashboard works in. Every control call names it (`X-SVC-Workspace`, added by
// client.ts), the event streams ask for it (`?workspace=`: EventSource cannot send headers), and
// the streams reopen when it changes. Typed against the contract's constants (type-only: no TypeBox
// in the bundle), so a renamed header or default id fails the renderer's typecheck.

export const DEFAULT_WORKSPACE: typeof DEFAULT_WORKSPACE_ID = 'default';
const HEADER: typeof WORKSPACE_HEADER = 'x-svc-workspace';

let active: string = DEFAULT_WORKSPACE;
const listeners = new Set<() => void>();

/** The id of the workspace every control call and stream is for. */
export const activeWorkspace = (): string => active;

/** Points every later control call and the open streams at another workspace. */
export function setActiveWorkspace(id: string): void {
  if (id === active) return;
  active = id;
  for (const listener of listeners) listener();
}

export function onWorkspaceChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The header naming a workspace: the one on screen, unless another is given (an import into a new one). */
export const workspaceHeader = (id: string = active): Record<string, string> => ({ [HEADER]: id });

const missingListeners = new Set<() => void>();

/**
 * The server does not know the workspace on screen any more (deleted by another window, a script,
 * the CLI): a call was refused with "Workspace not found", or its stream was refused.
 */
export function workspaceMissing(): void {
  for (const listener of missingListeners) listener();
}

export function onWorkspaceMissing(listener: () => void): () => void {
  missingListeners.add(listener);
  return () => missingListeners.delete(listener);
}

/**
 * The live stream's path (sandboxStreamEvents), with `?workspace=` for any workspace but the default
 * (whose URL stays as it was). The workspace parameter is the sandbox's, not the operation's query.
 */
export const streamPath = (): string => {
  const { path } = resolveCall('sandboxStreamEvents', { query: {} });
  return active === DEFAULT_WORKSPACE ? path : path + queryString({ [WORKSPACE_PARAM]: active });
};

/**
 * An EventSource on the active workspace's stream that follows the workspace: on a switch the old
 * connection is closed (nothing of the old workspace arrives after it) and a new one opened, with
 * the same listeners attached by `attach`. Returns the unsubscribe.
 */
export function openWorkspaceStream(attach: (source: EventSource) => void): () => void {
  let source: EventSource | null = null;
  const open = () => {
    source?.close();
    const opened = new EventSource(streamPath());
    source = opened;
    // An answer that is not a stream (a 404 for a deleted workspace) closes it for good, where a
    // dropped connection is retried: that one is worth a look at the workspaces.
    opened.addEventListener('error', () => {
      if (opened.readyState === EventSource.CLOSED && active !== DEFAULT_WORKSPACE) workspaceMissing();
    });
    attach(opened);
  };
  open();
  const stop = onWorkspaceChange(open);
  return () => {
    stop();
    source?.close();
  };
}
