import { ApiError } from '../api/client';
import * as api from '../api/scenarios';
import type { Env } from '../api/types';
import { attempt } from './notices';
import type { Slice } from './types';

/** A file to hand to the user: the browser downloads it (no server round trip). */
export interface Download {
  name: string;
  blob: Blob;
}

export interface ScenariosSlice {
  /** The recording as the server last told it (null until read). */
  recording: api.RecordingState | null;
  /** The scenario the last stop produced (YAML) and its name. */
  recorded: { name: string; scenario: string; steps: number } | null;
  /** The last expectation added to the running recording (YAML). */
  lastExpectation: string | null;
  /** The scenario text the runner works on (pasted, uploaded, from the library or recorded). */
  scenarioText: string;
  scenarioLibrary: api.LibraryItem[] | null;
  scenarioRunning: boolean;
  /** Steps of the run in progress (from the stream), then of the finished run (its answer). */
  runSteps: api.ScenarioStepResult[];
  runResult: { ok: boolean; name: string } | null;
  /** The run whose progress the page follows: the first one to report after Run was pressed. */
  followedRunId: string | null;

  loadRecording: () => Promise<void>;
  startRecording: (name: string) => Promise<boolean>;
  stopRecording: () => Promise<boolean>;
  addExpectation: (path: string, fields: string[]) => Promise<boolean>;
  setScenarioText: (text: string) => void;
  loadScenarioLibrary: () => Promise<void>;
  pickLibraryScenario: (name: string) => Promise<boolean>;
  runScenarioText: (env: Env) => Promise<boolean>;
  exportWorkspace: () => Promise<Download | null>;
  importWorkspace: (bundle: Blob) => Promise<boolean>;
  /** Opens the stream's recording and scenario messages into the store; returns the unsubscribe. */
  connectScenarioStream: () => () => void;
}

const fileName = (name: string, extension: string) =>
  `${
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'scenario'
  }.${extension}`;

export const scenarioFileName = (name: string) => fileName(name, 'yaml');

export const createScenariosSlice: Slice<ScenariosSlice> = (set, get) => ({
  recording: null,
  recorded: null,
  lastExpectation: null,
  scenarioText: '',
  scenarioLibrary: null,
  scenarioRunning: false,
  runSteps: [],
  runResult: null,
  followedRunId: null,

  loadRecording: async () => {
    await attempt(get, async () => set({ recording: await api.recordingState() }));
  },
  startRecording: (name) =>
    attempt(get, async () => {
      const recording = await api.startRecording(name.trim() || undefined);
      set({ recording, recorded: null, lastExpectation: null });
    }),
  stopRecording: () =>
    attempt(get, async () => {
      const stopped = await api.stopRecording();
      set({
        recording: { recording: false, steps: 0 },
        recorded: { name: stopped.name, scenario: stopped.scenario, steps: stopped.steps },
        lastExpectation: null,
      });
      get().notify(
        'success',
        `Recorded ${stopped.steps} step${stopped.steps === 1 ? '' : 's'}: ${stopped.name}`,
      );
    }),
  addExpectation: (path, fields) =>
    attempt(get, async () => {
      const added = await api.addExpectation(path, fields);
      set((state) => ({
        lastExpectation: added.step,
        recording: state.recording ? { ...state.recording, steps: added.steps } : state.recording,
      }));
    }),
  setScenarioText: (text) => set({ scenarioText: text }),
  loadScenarioLibrary: async () => {
    await attempt(get, async () => {
      try {
        set({ scenarioLibrary: (await api.listLibrary()).items });
      } catch (error) {
        // A sandbox without the library (an older server): the menu says so, no error notice.
        if (error instanceof ApiError && error.status === 404) set({ scenarioLibrary: [] });
        else throw error;
      }
    });
  },
  pickLibraryScenario: (name) =>
    attempt(get, async () => set({ scenarioText: (await api.getLibraryScenario(name)).scenario })),
  runScenarioText: async (env) => {
    set({ scenarioRunning: true, runSteps: [], runResult: null, followedRunId: null });
    try {
      return await attempt(get, async () => {
        const run = await api.runScenario(get().scenarioText, env);
        // The answer is the whole run: it replaces what the stream showed step by step.
        set({ runSteps: run.steps, runResult: { ok: run.ok, name: run.name } });
      });
    } finally {
      set({ scenarioRunning: false });
    }
  },
  exportWorkspace: async () => {
    let download: Download | null = null;
    await attempt(get, async () => {
      const blob = await api.exportWorkspace();
      download = { name: `svc-sandbox-${new Date().toISOString().slice(0, 10)}.svcbundle`, blob };
    });
    return download;
  },
  importWorkspace: (bundle) =>
    attempt(get, async () => {
      const { imported } = await api.importWorkspace(bundle);
      get().notify(
        'success',
        `Imported ${imported.merchants} merchant${imported.merchants === 1 ? '' : 's'}, ` +
          `${imported.checkouts} checkout${imported.checkouts === 1 ? '' : 's'} and ${imported.events} events.`,
      );
      await Promise.all([get().loadMerchants(), get().loadClock()]);
      await get().refreshOpenPage();
    }),
  connectScenarioStream: () =>
    api.subscribeToScenarioStream({
      onOpen: () => void get().loadRecording(),
      onRecording: (recording) => set({ recording }),
      onScenario: (progress) => {
        const state = get();
        if (!state.scenarioRunning) return;
        if (state.followedRunId === null && progress.step.index === 1)
          set({ followedRunId: progress.run_id });
        if (get().followedRunId !== progress.run_id) return;
        set((s) => ({
          runSteps: [...s.runSteps.filter((r) => r.index !== progress.step.index), progress.step],
        }));
      },
    }),
});
