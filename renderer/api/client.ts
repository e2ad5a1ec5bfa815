import { workspaceHeader, workspaceMissing } from './active-workspace';
import { controlTokenRequired } from './control-token';

/** An error answer of the sandbox API: its status and its `{ error }` message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** the workspace the call named is gone (the store says so once, in its own words) */
    readonly workspaceGone = false,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface RequestOptions {
  /** `null`: a sandbox-wide call that names no workspace; otherwise the active one is named. */
  workspace?: null;
}

/**
 * The one place the renderer calls fetch (but for binary bundles, api/scenarios.ts). Paths are relative to the page's origin: the dashboard is
 * served by the sandbox itself, so same-origin requests pass its Origin check for state changes.
 */
export async function request<T>(
  method: Method,
  path: string,
  body?: unknown,
  options: RequestOptions = {},
): Promise<T> {
  // Every control call is for the workspace the dashboard shows (api/workspaces.ts).
  const headers: Record<string, string> = {
    accept: 'application/json',
    ...(options.workspace === null ? {} : workspaceHeader()),
  };
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'The sandbox server is not reachable. Is it still running?');
  }
  const text = await response.text();
  let data: unknown;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    data = undefined;
  }
  if (!response.ok) {
    // The sandbox was started with --control-token and this browser has not given it yet.
    if (response.status === 401 && path.startsWith('/sandbox/')) controlTokenRequired();
    const message =
      data && typeof data === 'object' && 'error' in data && typeof data.error === 'string'
        ? data.error
        : `${method} ${path} failed with HTTP ${response.status}`;
    // The workspace this call named is gone: the store goes back to the default and says so.
    const gone =
      response.status === 404 && options.workspace !== null && message.startsWith('Workspace not found');
    if (gone) workspaceMissing();
    throw new ApiError(response.status, message, gone);
  }
  return data as T;
}
