import { type Call, caller, type Method, operation } from '../../server/contract/call.js';
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

/**
 * Where the control API lives, as the operation table spells it (the first segment of a control
 * operation's path): a 401 there means the control token is missing, not an API key.
 */
const CONTROL_PREFIX = `/${operation('sandboxGetHealth').path.split('/')[1]}/`;

export interface RequestOptions {
  /** `null`: a sandbox-wide call that names no workspace; otherwise the active one is named. */
  workspace?: null;
}

/**
 * The one place the renderer calls fetch (but for binary bundles, api/scenarios.ts). Paths are relative to the page's origin: the dashboard is
 * served by the sandbox itself, so same-origin requests pass its Origin check for state changes.
 * The api/ modules do not call it with a path of their own: they go through `call` below, by operationId.
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
    if (response.status === 401 && path.startsWith(CONTROL_PREFIX)) controlTokenRequired();
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

/**
 * `call(operationId, { params, query, body })` by the operation table (server/contract/call.ts): the
 * method and path come from the table, the answer is typed by the contract. Names the workspace on
 * screen, like every control call.
 */
export const call: Call = caller((method, path, body) => request(method, path, body));

/**
 * The same for a sandbox-wide call that names no workspace (`request(..., { workspace: null })`): the
 * routes on workspaces themselves, which must answer while the one on screen is being deleted.
 */
export const callGlobal: Call = caller((method, path, body) =>
  request(method, path, body, { workspace: null }),
);
