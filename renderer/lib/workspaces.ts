// Which workspace the dashboard opens, and the addresses that name one: pure functions, so the unit
// tests load them in Node. The fields used, not the contract's types: this leaf imports nothing but
// the operation table's call.ts (pure, no schema), for the inbox's path.

import { resolveCall } from '../../server/contract/call.js';

/** The default workspace's id (the contract's DEFAULT_WORKSPACE_ID; api/active-workspace.ts checks it). */
const DEFAULT_ID = 'default';

/** The query parameter that names a workspace where a header cannot be sent (a link, a stream, an inbox). */
export const WORKSPACE_PARAM = 'workspace';

interface Named {
  id: string;
  name: string;
  default: boolean;
}

/** The workspace `wanted` names: its id, else its name (names are unique, whatever their case). */
export function findWorkspace<T extends Named>(list: readonly T[], wanted: string): T | undefined {
  const lower = wanted.toLowerCase();
  return list.find((w) => w.id === wanted) ?? list.find((w) => w.name.toLowerCase() === lower);
}

export interface StartChoice<T> {
  workspace: T | undefined;
  /** what was asked for (the link's or the remembered one) and is not there: the user is told */
  missing: string | null;
}

/**
 * The workspace to open: the link's (`?workspace=`), else the one this browser last used, else the
 * default. One asked for that is gone (deleted, or a sandbox started afresh) falls back to the
 * default, and `missing` says what it was.
 */
export function chooseStartWorkspace<T extends Named>(
  list: readonly T[],
  fromLink: string | null,
  remembered: string | null,
  /** the sandbox's own choice (`serve --demo`: the demo), over what this browser remembers */
  start: string | null = null,
): StartChoice<T> {
  const fallback = list.find((w) => w.default) ?? list.find((w) => w.id === DEFAULT_ID);
  const started = start === null ? undefined : findWorkspace(list, start);
  if (!fromLink && started) return { workspace: started, missing: null };
  const wanted = fromLink || remembered;
  if (!wanted) return { workspace: fallback, missing: null };
  const found = findWorkspace(list, wanted);
  return found ? { workspace: found, missing: null } : { workspace: fallback, missing: wanted };
}

/**
 * `url` with `?workspace=` set to `workspace`, or without it for the default workspace (so the
 * default's addresses stay exactly what they were); the path, other parameters and hash are kept.
 */
export function withWorkspaceParam(url: string, workspace: string | null): string {
  const hashAt = url.indexOf('#');
  const hash = hashAt === -1 ? '' : url.slice(hashAt);
  const beforeHash = hashAt === -1 ? url : url.slice(0, hashAt);
  const queryAt = beforeHash.indexOf('?');
  const path = queryAt === -1 ? beforeHash : beforeHash.slice(0, queryAt);
  const params = new URLSearchParams(queryAt === -1 ? '' : beforeHash.slice(queryAt + 1));
  if (workspace === null || workspace === DEFAULT_ID) params.delete(WORKSPACE_PARAM);
  else params.set(WORKSPACE_PARAM, workspace);
  const query = params.toString();
  return `${path}${query ? `?${query}` : ''}${hash}`;
}

/** The workspace a page address names (`?workspace=`), or null. */
export function workspaceParamOf(search: string): string | null {
  const value = new URLSearchParams(search).get(WORKSPACE_PARAM);
  return value ? value : null;
}

/**
 * The built-in inbox's address in a workspace. Deliveries reach it over HTTP from the workspace's
 * dispatcher, and a POST to an inbox cannot carry the header, so a non-default workspace is named
 * in the query; by id, which is never reused, so a deleted workspace's endpoints reach nobody.
 */
export function inboxUrl(base: string, inbox: string, workspaceId: string): string {
  const { path } = resolveCall('sandboxReceiveInboxWebhook', { params: { name: inbox } });
  return withWorkspaceParam(`${base}${path}`, workspaceId);
}

/** The inbox an endpoint URL sends to (`…/sandbox/inbox/<name>`, with or without a query), or null. */
export function inboxNameOf(url: string): string | null {
  return /\/sandbox\/inbox\/([A-Za-z0-9_-]{1,64})(?:\?[^#]*)?$/.exec(url)?.[1] ?? null;
}

interface FiredLike {
  events: readonly { type: string }[];
  deliveries: number;
  jobs: number;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * What a clock advance set off in the workspace, in a sentence: "3 events (checkout.expired ×2,
 * invoice.overdue), 1 delivery attempt, 2 scheduled jobs." Event types by how often, most first.
 */
export function describeFired(fired: FiredLike): string {
  const parts: string[] = [];
  if (fired.events.length > 0) {
    const counts = new Map<string, number>();
    for (const { type } of fired.events) counts.set(type, (counts.get(type) ?? 0) + 1);
    const types = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    const shown = types.slice(0, 4).map(([type, n]) => (n > 1 ? `${type} ×${n}` : type));
    if (types.length > 4) shown.push(`${types.length - 4} more`);
    parts.push(`${plural(fired.events.length, 'event')} (${shown.join(', ')})`);
  }
  if (fired.deliveries > 0) parts.push(plural(fired.deliveries, 'delivery attempt'));
  if (fired.jobs > 0) parts.push(plural(fired.jobs, 'scheduled job'));
  return parts.length === 0 ? 'Nothing fell due.' : `Fired: ${parts.join(', ')}.`;
}
