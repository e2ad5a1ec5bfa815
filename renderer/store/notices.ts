import { ApiError } from '../api/client';
import { currentScope, type MerchantScope } from './merchant-scope';
import type { Slice, Store } from './types';

export interface Notice {
  id: number;
  kind: 'error' | 'success';
  message: string;
}

export interface NoticesSlice {
  notices: Notice[];
  notify: (kind: Notice['kind'], message: string) => void;
  dismiss: (id: number) => void;
}

let nextId = 1;

export const createNoticesSlice: Slice<NoticesSlice> = (set) => ({
  notices: [],
  notify: (kind, message) =>
    set((state) => ({
      // The same message twice (several calls failing for one reason) shows once.
      notices: [
        ...state.notices.filter((n) => n.message !== message).slice(-3),
        { id: nextId++, kind, message },
      ],
    })),
  dismiss: (id) => set((state) => ({ notices: state.notices.filter((notice) => notice.id !== id) })),
});

/**
 * Runs an API call for an action; an error becomes a notice the user sees (the server's `{error}`
 * message as is), unless the workspace was reset meanwhile. Resolves true on success, so forms know
 * whether to clear their fields.
 */
export async function attempt(get: () => Store, action: () => Promise<void>): Promise<boolean> {
  const epoch = get().workspaceEpoch;
  try {
    await action();
    return true;
  } catch (error) {
    // The workspace was reset while the call ran (a script's reset): its "Merchant not found" is
    // about data that is gone, and the dashboard has already read the new workspace.
    if (get().workspaceEpoch !== epoch) return false;
    // The workspace on screen was deleted elsewhere: one notice says so (store/workspaces.ts).
    if (error instanceof ApiError && error.workspaceGone) return false;
    const message = error instanceof ApiError || error instanceof Error ? error.message : String(error);
    get().notify('error', message);
    return false;
  }
}

/**
 * A slice's change in the current merchant and environment: runs `action`, shows its message as a
 * success notice (an error as an error notice), then reads the slice again with `reload`.
 */
export function scopedChange(get: () => Store, reload: () => Promise<void>) {
  return (action: (scope: MerchantScope) => Promise<string>): Promise<boolean> =>
    attempt(get, async () => {
      const scope = currentScope(get());
      if (!scope) throw new Error('Select a merchant first.');
      get().notify('success', await action(scope));
    }).then(async (ok) => {
      await reload();
      return ok;
    });
}
