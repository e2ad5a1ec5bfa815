import * as api from '../api/sandbox';
import type { Env, Urls } from '../api/types';
import { attempt } from './notices';
import type { Slice } from './types';

export interface WorkspaceSlice {
  urls: Urls | null;
  version: string | null;
  /** 'offline' once a health check failed: the server stopped or the page outlived it. */
  connection: 'connecting' | 'online' | 'offline';
  /**
   * The environment the merchant pages (checkouts, webhooks, money, cards) show and act in; with
   * the selected merchant it is their scope. Shared by all of them, like the merchant.
   */
  env: Env;
  loadHealth: () => Promise<void>;
  setEnv: (env: Env) => void;
}

export const createWorkspaceSlice: Slice<WorkspaceSlice> = (set, get) => ({
  urls: null,
  version: null,
  connection: 'connecting',
  env: 'test',
  loadHealth: async () => {
    const ok = await attempt(get, async () => {
      const health = await api.health();
      set({ urls: health.urls, version: health.version, connection: 'online' });
    });
    if (!ok) set({ connection: 'offline' });
  },
  setEnv: (env) => set({ env }),
});
