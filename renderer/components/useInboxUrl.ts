import { inboxUrl } from '../lib/workspaces';
import { useStore } from '../store';

/** The built-in inbox's address in the workspace on screen (`?workspace=` for all but the default). */
export function useInboxUrl(inbox: string): string | null {
  const base = useStore((s) => s.urls?.test);
  const workspaceId = useStore((s) => s.workspaceId);
  return base ? inboxUrl(base, inbox, workspaceId) : null;
}
