import * as api from '../api/sandbox';
import type { Urls } from '../api/types';
import { attempt } from './notices';
import type { Slice } from './types';

export interface WorkspaceSlice {
  urls: Urls | null;
  version: string | null;
  /** 'offline' once a health check failed: the server stopped or the page outlived it. */
  connection: 'connecting' | 'online' | 'offline';
  loadHealth: () => Promise<void>;
}

export const createWorkspaceSlice: Slice<WorkspaceSlice> = (set, get) => ({
  urls: null,
  version: null,
  connection: 'connecting',
  loadHealth: async () => {
    const ok = await attempt(get, async () => {
      const health = await api.health();
      set({ urls: health.urls, version: health.version, connection: 'online' });
    });
    if (!ok) set({ connection: 'offline' });
  },
});
