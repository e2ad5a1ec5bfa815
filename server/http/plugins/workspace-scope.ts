import type { IncomingMessage } from 'node:http';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { WORKSPACE_HEADER } from '../../contract/workspaces.js';
import { NotFoundError } from '../../errors.js';
import { enterScope, type Scope } from '../../workspaces/scope.js';

/** What the edge needs to find a request's workspace. */
export interface WorkspaceFinder {
  readonly default: Scope;
  /** whether requests enter their workspace's scope (once the sandbox has more than the default) */
  readonly scoped: boolean;
  /** the workspace of a request that entered none (the default, while it is the only one) */
  readonly unscoped: () => Scope | undefined;
  /** by id or name */
  find(idOrName: string): Scope | undefined;
  /** the workspace holding this API key */
  findByKey(key: string): Scope | undefined;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** the workspace the request acts in (set before anything else runs) */
    workspace: Scope;
    /** the name or id of a workspace the request named that does not exist */
    missingWorkspace: string | null;
  }
}

/** Set on the raw request by `rewriteWorkspaceUrl`: the id its `/w/<id>` prefix named. */
const PREFIXED = Symbol('svc.workspace');
type Marked = IncomingMessage & { [PREFIXED]?: string };

const PREFIX = /^\/w\/([^/?#]{1,64})(?=[/?#]|$)/;

/**
 * Fastify's `rewriteUrl`: `/w/<id>/pay/...` is `/pay/...` in workspace `<id>`. The addresses a
 * workspace hands out (hosted_url, a KYC link, the pages' own calls) carry its prefix, so a link
 * opened anywhere reaches the right world without a header.
 */
export function rewriteWorkspaceUrl(raw: IncomingMessage): string {
  const url = raw.url ?? '/';
  const match = PREFIX.exec(url);
  if (!match) return url;
  (raw as Marked)[PREFIXED] = decodeURIComponent(match[1]!);
  const rest = url.slice(match[0].length);
  return rest === '' ? '/' : rest.startsWith('/') ? rest : `/${rest}`;
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;
const QUERY = /[?&]workspace=([^&#]*)/;

/** Which workspace a request names, if any: the URL prefix, the header, or `?workspace=`. */
function named(request: FastifyRequest): string | undefined {
  const prefixed = (request.raw as Marked)[PREFIXED];
  if (prefixed !== undefined) return prefixed;
  const header = request.headers[WORKSPACE_HEADER];
  if (typeof header === 'string' && header !== '') return header;
  const url = request.raw.url ?? '';
  const query = url.includes('workspace=') ? QUERY.exec(url) : null;
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
 * Runs every request inside its workspace (server/workspaces/scope.ts). `/v1` finds it from the
 * API key (an unknown key is refused by the default workspace, like any bad key); everything else
 * from the URL prefix, `X-SVC-Workspace` or `?workspace=`, or acts in the default one. A workspace
 * named but not found is a 404, before any route runs.
 */
export const workspaceScope = fp<{ workspaces: WorkspaceFinder }>(
  async (app, { workspaces }) => {
    app.decorateRequest('workspace', null as unknown as Scope);
    app.decorateRequest('missingWorkspace', null);
    // Callback style: `done` runs inside the scope, so the rest of the request does too. First of
    // all hooks: even a request refused before routing is answered inside a workspace.
    app.addHook('onRequest', (request, _reply, done) => {
      let scope: Scope | undefined;
      const url = request.raw.url ?? '';
      if (url.startsWith('/v1/') || url === '/v1') {
        const match = BEARER.exec(request.headers.authorization ?? '');
        scope = (match && workspaces.findByKey(match[1]!)) || workspaces.default;
      } else {
        const name = named(request);
        scope = name === undefined ? workspaces.default : workspaces.find(name);
        if (scope === undefined) {
          // Refused by `workspaceRequired` (after the Host and Origin checks), from the default one.
          request.missingWorkspace = name ?? '';
          scope = workspaces.default;
        }
      }
      request.workspace = scope;
      if (workspaces.scoped) enterScope(scope, done);
      else done();
    });
    // The body arrives on the connection's own callbacks, outside the scope: go back in for the
    // rest (validation, handler, answer).
    app.addHook('preValidation', (request, _reply, done) => {
      if (workspaces.scoped) enterScope(request.workspace, done);
      else done();
    });
    // An answer may leave from outside the scope (a 413 decided while the body arrives, a URL
    // refused before routing): the answer's own hooks, which run after this one, run inside it.
    app.addHook('onSend', (request, _reply, payload, done) => {
      if (workspaces.scoped) enterScope(request.workspace ?? workspaces.default, () => done(null, payload));
      else done(null, payload);
    });
  },
  { name: 'workspace-scope' },
);

/**
 * The dashboard's own page (`/?workspace=QA`): it names its workspace for itself, and one that has
 * gone is the page's to report (it opens the default and says so), not a 404 instead of the page.
 */
const DASHBOARD_PAGE = /^\/(?:index\.html)?(?:[?#]|$)/;
const isDashboardPage = (request: FastifyRequest) =>
  (request.method === 'GET' || request.method === 'HEAD') && DASHBOARD_PAGE.test(request.raw.url ?? '');

/** A request naming a workspace that does not exist is a 404, before any route runs. */
export const workspaceRequired = fp(
  async (app) => {
    app.addHook('onRequest', (request, reply, done) => {
      if (request.missingWorkspace === null || isDashboardPage(request)) {
        done();
        return;
      }
      reply.code(404).send({ error: new NotFoundError('Workspace', request.missingWorkspace).message });
    });
  },
  { name: 'workspace-required', dependencies: ['workspace-scope'] },
);
