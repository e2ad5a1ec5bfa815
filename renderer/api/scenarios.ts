// The scenario feature's control-API routes: recording, running, the library and the
// workspace bundle. JSON goes through `request`; the bundle is binary, so export and import call
// fetch here themselves (still the api/ layer, same origin).
import type {
  RecordingExpectResult,
  RecordingState,
  RecordingStopped,
} from '../../server/contract/recording.js';
import type { LibraryList, LibraryScenarioDetail } from '../../server/contract/scenario-library.js';
import type { ScenarioProgress, ScenarioRun } from '../../server/contract/scenarios.js';
import type { ImportResult } from '../../server/contract/transfer.js';
import { openWorkspaceStream, workspaceHeader } from './active-workspace';
import { ApiError, request } from './client';
import type { Env } from './types';

export type {
  RecordedResource,
  RecordingExpectResult,
  RecordingState,
  RecordingStopped,
} from '../../server/contract/recording.js';
export type {
  LibraryScenario as LibraryItem,
  LibraryScenarioDetail,
} from '../../server/contract/scenario-library.js';
export type { ScenarioProgress, ScenarioRun, ScenarioStepResult } from '../../server/contract/scenarios.js';
export type { ImportResult } from '../../server/contract/transfer.js';

export const recordingState = () => request<RecordingState>('GET', '/sandbox/recording');
export const startRecording = (name?: string) =>
  request<RecordingState>('POST', '/sandbox/recording/start', name ? { name } : {});
export const stopRecording = () => request<RecordingStopped>('POST', '/sandbox/recording/stop');
export const addExpectation = (path: string, fields?: string[]) =>
  request<RecordingExpectResult>('POST', '/sandbox/recording/expect', {
    kind: 'resource',
    path,
    ...(fields && fields.length > 0 ? { fields } : {}),
  });

export const runScenario = (scenario: string, env: Env) =>
  request<ScenarioRun>('POST', '/sandbox/scenarios/run', { scenario, env });
export const listLibrary = () => request<LibraryList>('GET', '/sandbox/scenarios/library');
export const getLibraryScenario = (name: string) =>
  request<LibraryScenarioDetail>('GET', `/sandbox/scenarios/library/${encodeURIComponent(name)}`);

async function binary(
  method: 'GET' | 'POST',
  path: string,
  body?: Blob,
  workspace = workspaceHeader(),
): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers: { ...workspace, ...(body ? { 'content-type': 'application/octet-stream' } : {}) },
      body,
    });
  } catch {
    throw new ApiError(0, 'The sandbox server is not reachable. Is it still running?');
  }
  if (!response.ok) {
    let message = `${method} ${path} failed with HTTP ${response.status}`;
    try {
      const data = (await response.json()) as { error?: unknown };
      if (typeof data.error === 'string') message = data.error;
    } catch {}
    throw new ApiError(response.status, message);
  }
  return response;
}

/** GET /sandbox/export: the workspace (or one merchant) as one bundle file. */
export async function exportWorkspace(merchantId?: string): Promise<Blob> {
  const query = merchantId ? `?merchant_id=${encodeURIComponent(merchantId)}` : '';
  return (await binary('GET', `/sandbox/export${query}`)).blob();
}

/** POST /sandbox/import: a bundle made by an export replaces the workspace. */
export async function importWorkspace(bundle: Blob, workspaceId?: string): Promise<ImportResult> {
  return (await (
    await binary('POST', '/sandbox/import', bundle, workspaceHeader(workspaceId))
  ).json()) as ImportResult;
}

export interface ScenarioStreamHandlers {
  onRecording: (state: RecordingState) => void;
  onScenario: (progress: ScenarioProgress) => void;
  /** the stream (re)opened: read the recording state again, it may have changed meanwhile */
  onOpen: () => void;
}

/**
 * The stream's `event: recording` and `event: scenario` messages (GET /sandbox/events). Its own
 * connection, so the recording indicator works on every page whatever else listens.
 */
export function subscribeToScenarioStream(handlers: ScenarioStreamHandlers): () => void {
  return openWorkspaceStream((source) => attachScenarioStream(source, handlers));
}

function attachScenarioStream(source: EventSource, handlers: ScenarioStreamHandlers): void {
  const parse = (message: MessageEvent<string>): unknown => {
    try {
      return JSON.parse(message.data);
    } catch {
      return undefined;
    }
  };
  source.addEventListener('open', handlers.onOpen);
  source.addEventListener('recording', (message) => {
    const state = parse(message);
    if (state) handlers.onRecording(state as RecordingState);
  });
  source.addEventListener('scenario', (message) => {
    const progress = parse(message);
    if (progress) handlers.onScenario(progress as ScenarioProgress);
  });
}
