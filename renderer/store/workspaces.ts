import { DEFAULT_WORKSPACE, onWorkspaceMissing, setActiveWorkspace } from '../api/active-workspace';
import { health as sandboxHealth } from '../api/sandbox';
import { importWorkspace } from '../api/scenarios';
import type { Checkpoint, CreateWorkspaceBody, Workspace } from '../api/types';
import * as api from '../api/workspaces';
import { formatTimestamp } from '../lib/format';
import { chooseStartWorkspace, withWorkspaceParam, workspaceParamOf } from '../lib/workspaces';
import { serialized } from './merchant-scope';
import { attempt } from './notices';
import type { Slice, Store } from './types';

/** Where the last workspace is remembered: the browser (or the desktop window) reopens it. */
export const WORKSPACE_KEY = 'svc-sandbox.workspace';

interface Remembered {
  id: string;
  name: string;
}

function remembered(): Remembered | null {
  try {
    const parsed: unknown = JSON.parse(globalThis.localStorage?.getItem(WORKSPACE_KEY) ?? 'null');
    if (parsed && typeof parsed === 'object' && 'id' in parsed && 'name' in parsed) {
      const { id, name } = parsed;
      if (typeof id === 'string' && typeof name === 'string') return { id, name };
    }
  } catch {
    // storage refused or a value that is not ours: start in the default workspace
  }
  return null;
}

/** Remembers the workspace, and names it in the page's address so a reload or a copied link opens it. */
function remember(workspace: Workspace): void {
  try {
    if (workspace.default) globalThis.localStorage?.removeItem(WORKSPACE_KEY);
    else
      globalThis.localStorage?.setItem(
        WORKSPACE_KEY,
        JSON.stringify({ id: workspace.id, name: workspace.name } satisfies Remembered),
      );
  } catch {
    // not remembered; the address still names it
  }
  const location = globalThis.location;
  if (!location || !globalThis.history) return;
  // By name: a readable link (`?workspace=Demo`); names are unique, and the header takes either.
  const next = withWorkspaceParam(location.href, workspace.default ? null : workspace.name);
  if (next !== location.href) globalThis.history.replaceState(globalThis.history.state, '', next);
}

export interface WorkspacesSlice {
  /** The workspace on screen (its id): every control call and the event stream are for it. */
  workspaceId: string;
  /** Every workspace of the sandbox, as last read; `workspacesReadAt` dates their clocks. */
  workspaces: Workspace[];
  workspacesReadAt: number;
  /** The checkpoints of the workspace on screen, newest first. */
  checkpoints: Checkpoint[];
  /** Picks the workspace to open (the link's, the remembered one, or the default) before anything is read. */
  startWorkspace: () => Promise<void>;
  loadWorkspaces: () => Promise<void>;
  /** Shows another workspace: every store is read again from it. */
  openWorkspace: (id: string) => Promise<boolean>;
  /** Creates (or forks, with `from`) a workspace, fills it from a bundle file if one is given, and opens it. */
  createWorkspace: (body: CreateWorkspaceBody, bundle?: Blob) => Promise<boolean>;
  deleteWorkspace: (id: string) => Promise<boolean>;
  loadCheckpoints: () => Promise<void>;
  saveCheckpoint: (name: string) => Promise<boolean>;
  restoreCheckpoint: (name: string) => Promise<boolean>;
  deleteCheckpoint: (name: string) => Promise<boolean>;
}

const newestFirst = (a: Checkpoint, b: Checkpoint) => b.created_at.localeCompare(a.created_at);

export const createWorkspacesSlice: Slice<WorkspacesSlice> = (set, get) => {
  const current = (): Workspace | undefined => get().workspaces.find((w) => w.id === get().workspaceId);

  /**
   * Everything the dashboard holds is of one workspace; after a switch or a restore it is all new
   * (as after a reset: change kind `workspace`). The merchant that was open stays open when the
   * new world has it too (a fork, a restore).
   */
  const readEverythingAgain = async () => {
    const merchant = get().selectedMerchantId;
    get().forgetWorkspace();
    await Promise.all([get().refreshAll(), loadCheckpoints()]);
    if (merchant && get().selectedMerchantId !== merchant && get().merchants.some((m) => m.id === merchant)) {
      await get().selectMerchant(merchant);
    }
  };

  const switchTo = async (workspace: Workspace) => {
    // A presenter's story acts step by step on the workspace on screen: it ends with it.
    get().closeStory();
    setActiveWorkspace(workspace.id); // the header of every call; the streams reopen on it
    remember(workspace);
    set({
      workspaceId: workspace.id,
      checkpoints: [],
      clock: workspace.clock,
      clockReadAt: Date.now(),
      settings: null,
    });
    await readEverythingAgain();
  };

  /** Back to the default workspace, saying why: the one on screen is not there any more. */
  const fallBack = async (what: string) => {
    const fallback = get().workspaces.find((w) => w.default);
    if (!fallback) return;
    get().notify('error', `${what} is not in this sandbox any more: showing the default workspace.`);
    await switchTo(fallback);
  };

  /** "The workspace “QA”", or in presentation mode, for what could be an id, no name at all. */
  const describe = (wanted: string) =>
    get().presenting && /^ws_/.test(wanted) ? 'The workspace last shown' : `The workspace “${wanted}”`;

  const loadCheckpoints = serialized(async () => {
    const workspaceId = get().workspaceId;
    await attempt(get, async () => {
      const checkpoints = await api.listCheckpoints();
      if (get().workspaceId === workspaceId) set({ checkpoints: [...checkpoints].sort(newestFirst) });
    });
  });

  const loadWorkspaces = serialized(async () => {
    const shown = currentWorkspace(get())?.name;
    await attempt(get, async () => {
      const workspaces = await api.listWorkspaces();
      set({ workspaces, workspacesReadAt: Date.now() });
    });
    const { workspaces, workspaceId } = get();
    // Deleted from elsewhere (another window, a script, the CLI) while on screen.
    if (workspaces.length > 0 && !workspaces.some((w) => w.id === workspaceId)) {
      await fallBack(describe(shown ?? remembered()?.name ?? workspaceId));
    }
  });

  // Deleted elsewhere while on screen: a refused call or stream has the list read again, which
  // falls back to the default (once: the list is read serially and the fallback switches away).
  onWorkspaceMissing(() => void loadWorkspaces());

  return {
    workspaceId: DEFAULT_WORKSPACE,
    workspaces: [],
    workspacesReadAt: 0,
    checkpoints: [],

    startWorkspace: async () => {
      const fromLink = workspaceParamOf(globalThis.location?.search ?? '');
      const last = remembered();
      await attempt(get, async () => {
        const [workspaces, health] = await Promise.all([api.listWorkspaces(), sandboxHealth()]);
        set({ workspaces, workspacesReadAt: Date.now() });
        const { workspace, missing } = chooseStartWorkspace(
          workspaces,
          fromLink,
          last?.id ?? null,
          health.start_workspace ?? null,
        );
        if (!workspace) return;
        if (missing) {
          const label = missing === last?.id && !fromLink ? last.name : missing;
          get().notify(
            'error',
            `${describe(label)} is not in this sandbox any more: showing the default workspace.`,
          );
        }
        setActiveWorkspace(workspace.id);
        set({ workspaceId: workspace.id });
        remember(workspace);
      });
      void loadCheckpoints();
    },

    loadWorkspaces,

    openWorkspace: async (id) => {
      if (id === get().workspaceId) return true;
      const workspace = get().workspaces.find((w) => w.id === id);
      if (!workspace) return false;
      await switchTo(workspace);
      return true;
    },

    createWorkspace: (body, bundle) =>
      attempt(get, async () => {
        const origin = body.from ? get().workspaces.find((w) => w.id === body.from?.workspace_id) : undefined;
        const created = await api.createWorkspace(body);
        let filled = '';
        if (bundle) {
          try {
            const { imported } = await importWorkspace(bundle, created.id);
            filled = ` from the bundle: ${imported.merchants} merchant${imported.merchants === 1 ? '' : 's'}, ${imported.checkouts} checkout${imported.checkouts === 1 ? '' : 's'}`;
          } catch (error) {
            // A bundle that does not import leaves no empty workspace behind.
            await api.deleteWorkspace(created.id).catch(() => undefined);
            throw error;
          }
        }
        set((state) => ({ workspaces: [...state.workspaces, created], workspacesReadAt: Date.now() }));
        get().notify(
          'success',
          origin
            ? `Workspace “${created.name}” forked from “${origin.name}”${body.from?.checkpoint ? ` at checkpoint “${body.from.checkpoint}”` : ''}.`
            : `Workspace “${created.name}” created${filled}.`,
        );
        await switchTo(created);
        void loadWorkspaces();
      }),

    deleteWorkspace: (id) =>
      attempt(get, async () => {
        const workspace = get().workspaces.find((w) => w.id === id);
        if (!workspace || workspace.default) throw new Error('The default workspace cannot be deleted.');
        // Leave it first: nothing on screen then reads from a workspace that is going.
        if (get().workspaceId === id) {
          const fallback = get().workspaces.find((w) => w.default);
          if (fallback) await switchTo(fallback);
        }
        await api.deleteWorkspace(id);
        set((state) => ({ workspaces: state.workspaces.filter((w) => w.id !== id) }));
        get().notify('success', `Workspace “${workspace.name}” deleted with its data and checkpoints.`);
        void loadWorkspaces();
      }),

    loadCheckpoints,

    saveCheckpoint: (name) =>
      attempt(get, async () => {
        const checkpoint = await api.saveCheckpoint(name);
        get().notify(
          'success',
          `Checkpoint “${checkpoint.name}” saved: ${current()?.name ?? 'this workspace'} as it is at ${formatTimestamp(checkpoint.at)}.`,
        );
        await Promise.all([loadCheckpoints(), loadWorkspaces()]);
      }),

    restoreCheckpoint: (name) =>
      attempt(get, async () => {
        const { workspace } = await api.restoreCheckpoint(name);
        set((state) => ({
          workspaces: state.workspaces.map((w) => (w.id === workspace.id ? workspace : w)),
          workspacesReadAt: Date.now(),
          clock: workspace.clock,
          clockReadAt: Date.now(),
        }));
        get().notify(
          'success',
          `Restored checkpoint “${name}”: the data, clock and settings are back to ${formatTimestamp(workspace.clock.now)}.`,
        );
        await readEverythingAgain();
      }),

    deleteCheckpoint: (name) =>
      attempt(get, async () => {
        await api.deleteCheckpoint(name);
        set((state) => ({ checkpoints: state.checkpoints.filter((c) => c.name !== name) }));
        get().notify('success', `Checkpoint “${name}” deleted.`);
        void loadWorkspaces();
      }),
  };
};

/** The workspace on screen, as last listed. */
export const currentWorkspace = (state: Store): Workspace | undefined =>
  state.workspaces.find((w) => w.id === state.workspaceId);
