// The scenario feature's control-API operations: recording, running, the library and the
// workspace bundle. JSON goes through `call`; the bundle is binary, so export and import call
// fetch here themselves (still the api/ layer, same origin), with the method and path of
// `resolveCall`.
import { type ResolvedCall, resolveCall } from '../../server/contract/call.js';
import type { RecordingState } from '../../server/contract/recording.js';
import type { ScenarioProgress } from '../../server/contract/scenarios.js';
import type { ImportResult } from '../../server/contract/transfer.js';
import { openWorkspaceStream, workspaceHeader } from './active-workspace';
import { ApiError, call } from './client';
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

export const recordingState = () => call('sandboxGetRecording');
export const startRecording = (name?: string) =>
  call('sandboxStartRecording', { body: name ? { name } : {} });
export const stopRecording = () => call('sandboxStopRecording');
export const addExpectation = (path: string, fields?: string[]) =>
  call('sandboxAddRecordingExpectation', {
    body: { kind: 'resource', path, ...(fields && fields.length > 0 ? { fields } : {}) },
  });

export const runScenario = (scenario: string, env: Env) =>
  call('sandboxRunScenarios', { body: { scenario, env } });
export const listLibrary = () => call('sandboxListLibraryScenarios');
export const getLibraryScenario = (name: string) => call('sandboxGetLibraryScenario', { params: { name } });

/** What the workspace holds, counted: what an import would replace (ImportConfirm says it). */
export const workspaceContents = () => call('sandboxGetWorkspaceContents');

/** A bundle request: its method and path from the operation table, its body and answer binary. */
async function binary(
  { method, path }: ResolvedCall,
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

/** sandboxExportWorkspace (GET): the workspace (or one merchant) as one bundle file. */
export async function exportWorkspace(merchantId?: string): Promise<Blob> {
  return (
    await binary(
      resolveCall('sandboxExportWorkspace', { query: merchantId ? { merchant_id: merchantId } : {} }),
    )
  ).blob();
}

/** sandboxImportWorkspace (POST): a bundle made by an export replaces the workspace. */
export async function importWorkspace(bundle: Blob, workspaceId?: string): Promise<ImportResult> {
  return (await (
    await binary(resolveCall('sandboxImportWorkspace'), bundle, workspaceHeader(workspaceId))
  ).json()) as ImportResult;
}

export interface ScenarioStreamHandlers {
  onRecording: (state: RecordingState) => void;
  onScenario: (progress: ScenarioProgress) => void;
  /** the stream (re)opened: read the recording state again, it may have changed meanwhile */
  onOpen: () => void;
}

/**
 * The stream's `event: recording` and `event: scenario` messages (sandboxStreamEvents). Its own
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
