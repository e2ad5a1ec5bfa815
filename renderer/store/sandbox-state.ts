import * as api from '../api/sandbox';
import type { Env, Settings, SettingsPatch, Urls } from '../api/types';
import { serialized } from './merchant-scope';
import { attempt } from './notices';
import type { Slice } from './types';

export interface SandboxSlice {
  urls: Urls | null;
  version: string | null;
  /** 'offline' once a health check failed: the server stopped or the page outlived it. */
  connection: 'connecting' | 'online' | 'offline';
  /**
   * The environment the merchant pages (checkouts, webhooks, money, cards) show and act in; with
   * the selected merchant it is their scope. Shared by all of them, like the merchant.
   */
  env: Env;
  /** The sandbox settings (GET /sandbox/settings); null before the first read. */
  settings: Settings | null;
  loadHealth: () => Promise<void>;
  setEnv: (env: Env) => void;
  loadSettings: () => Promise<void>;
  saveSettings: (patch: SettingsPatch) => Promise<boolean>;
  /** POST /sandbox/reset: the live stream's notice then drops what the dashboard held. */
  resetWorkspace: () => Promise<boolean>;
}

export const createSandboxSlice: Slice<SandboxSlice> = (set, get) => ({
  urls: null,
  version: null,
  connection: 'connecting',
  env: 'test',
  settings: null,
  loadHealth: async () => {
    const ok = await attempt(get, async () => {
      const health = await api.health();
      set({ urls: health.urls, version: health.version, connection: 'online' });
    });
    if (!ok) set({ connection: 'offline' });
  },
  setEnv: (env) => set({ env }),
  loadSettings: serialized(async () => {
    await attempt(get, async () => {
      set({ settings: await api.getSettings() });
    });
  }),
  saveSettings: (patch) =>
    attempt(get, async () => {
      set({ settings: await api.patchSettings(patch) });
      get().notify('success', 'Settings saved.');
    }),
  resetWorkspace: () =>
    attempt(get, async () => {
      await api.resetWorkspace();
      get().forgetWorkspace();
      const name = get().workspaces.find((w) => w.id === get().workspaceId)?.name;
      get().notify(
        'success',
        `Workspace${name ? ` “${name}”` : ''} reset: every merchant, resource and event is gone; the clock is back to real time.`,
      );
      await get().refreshAll();
    }),
});
