import type { BoundWorkspace } from './binding.js';

/** What a request can be bound to: a workspace of the host (server/workspaces/workspace.ts). */
export interface Bindable {
  readonly id: string;
  bind(): BoundWorkspace | Promise<BoundWorkspace | null> | null;
}

/** Where the edge finds a request's workspace. */
export interface WorkspaceFinder<W extends Bindable = Bindable> {
  readonly default: W;
  /** by id or name */
  find(idOrName: string): W | undefined;
  /** the workspace holding this API key */
  findByKey(key: string): W | undefined;
}

/** What of a request says which workspace it acts in. */
export interface RequestFacts {
  /** the raw URL, before any `/w/<id>` prefix was taken off */
  url: string;
  /** the id a `/w/<id>` prefix named, if any */
  prefixed?: string | undefined;
  /** the X-SVC-Workspace header */
  header?: string | string[] | undefined;
  authorization?: string | undefined;
}

export type Resolution<W> =
  /** the request acts in `workspace` */
  | { workspace: W; missing: null; unknownKey?: undefined }
  /** it named a workspace that does not exist: refused (a 404), answered from the default one */
  | { workspace: W; missing: string; unknownKey?: undefined }
  /**
   * a `/v1` request whose key no workspace holds: refused (a 401 saying so) before any workspace's
   * keys are read; answered from the default one, whose request log lists it
   */
  | { workspace: W; missing: null; unknownKey: true };

const BEARER = /^Bearer\s+(\S+)\s*$/i;
const QUERY = /[?&]workspace=([^&#]*)/;

/** Which workspace a request names, if any: the URL prefix, the header, or `?workspace=`. */
export function namedWorkspace(facts: RequestFacts): string | undefined {
  if (facts.prefixed !== undefined) return facts.prefixed;
  const header = facts.header;
  if (typeof header === 'string' && header !== '') return header;
  const query = facts.url.includes('workspace=') ? QUERY.exec(facts.url) : null;
  if (query) {
    try {
      return decodeURIComponent(query[1]!.replace(/\+/g, ' '));
    } catch {
      return query[1];
    }
  }
  return undefined;
}

/**
 * The workspace a request acts in, decided once, at the edge. `/v1` finds it from the API key (a
 * key no workspace holds is refused as unknown, answered from the default one; no key, or a
 * malformed header, is the default's to refuse as such); everything else from the URL
 * prefix, `X-SVC-Workspace` or `?workspace=`, or acts in the default one. The same path whether the
 * sandbox holds one workspace or many.
 */
export function resolveWorkspace<W extends Bindable>(
  workspaces: WorkspaceFinder<W>,
  facts: RequestFacts,
): Resolution<W> {
  if (facts.url.startsWith('/v1/') || facts.url === '/v1') {
    const match = BEARER.exec(facts.authorization ?? '');
    if (!match) return { workspace: workspaces.default, missing: null };
    const holder = workspaces.findByKey(match[1]!);
    return holder === undefined
      ? { workspace: workspaces.default, missing: null, unknownKey: true }
      : { workspace: holder, missing: null };
  }
  const name = namedWorkspace(facts);
  if (name === undefined) return { workspace: workspaces.default, missing: null };
  const workspace = workspaces.find(name);
  return workspace === undefined
    ? { workspace: workspaces.default, missing: name }
    : { workspace, missing: null };
}
