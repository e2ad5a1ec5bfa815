import type { Env } from '../contract/common.js';
import { DEFAULT_WORKSPACE_ID } from '../contract/workspaces.js';

/** A URL on one of the sandbox's own listeners: which listener, which workspace, and the rest. */
export interface OwnUrl {
  env: Env;
  /** the workspace the URL names (its `/w/<id>` prefix or `?workspace=`), else the default one */
  workspace: string;
  /** path, query and fragment, without the workspace's prefix or `workspace=` parameter */
  rest: string;
  /** how it names the workspace: a `/w/<id>` prefix, `?workspace=`, or not at all (the default) */
  form: 'prefix' | 'query' | 'bare';
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);
const PREFIX = /^\/w\/([^/?#]{1,64})(?=[/?#]|$)/;

const sameHost = (a: URL, b: URL) =>
  a.protocol === b.protocol &&
  a.port === b.port &&
  (a.hostname === b.hostname || (LOOPBACK.has(a.hostname) && LOOPBACK.has(b.hostname)));

const parse = (url: string): URL | null => {
  try {
    return new URL(url);
  } catch {
    return null;
  }
};

/**
 * Reads `url` as an address of this sandbox (`origins`: its listeners' base URLs, without any
 * workspace prefix), or null when it is somewhere else. Loopback names count as one host: the
 * built-in inbox named as `localhost` is the same place as `127.0.0.1`.
 */
export function ownUrl(url: string, origins: Readonly<Record<Env, string>>): OwnUrl | null {
  const target = parse(url);
  if (!target) return null;
  const env = (['test', 'production'] as const).find((e) => {
    const origin = parse(origins[e]);
    return origin !== null && sameHost(origin, target);
  });
  if (env === undefined) return null;
  let path = target.pathname;
  let workspace = DEFAULT_WORKSPACE_ID;
  const prefixed = PREFIX.exec(path);
  if (prefixed) {
    workspace = decodeURIComponent(prefixed[1]!);
    path = path.slice(prefixed[0].length) || '/';
  }
  const named = target.searchParams.get('workspace');
  if (named !== null) {
    if (!prefixed) workspace = named;
    target.searchParams.delete('workspace');
  }
  const query = target.searchParams.toString();
  const form = prefixed ? 'prefix' : named !== null ? 'query' : 'bare';
  return { env, workspace, rest: `${path}${query ? `?${query}` : ''}${target.hash}`, form };
}

/** The listener's base URL for a workspace: its `/w/<id>` prefix, none for the default one. */
export function workspaceBase(origin: string, workspace: string): string {
  return workspace === DEFAULT_WORKSPACE_ID ? origin : `${origin}/w/${encodeURIComponent(workspace)}`;
}
