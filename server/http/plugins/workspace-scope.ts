import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import fp from 'fastify-plugin';
import { WORKSPACE_HEADER } from '../../contract/workspaces.js';
import { NotFoundError } from '../../errors.js';
import type { BoundWorkspace } from '../../workspaces/binding.js';
import { resolveWorkspace, type WorkspaceFinder } from '../../workspaces/resolve.js';

export type { WorkspaceFinder };

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The workspace the request acts in, bound to its context for the whole request: set by the
     * first hook of all, so every route and plugin hook has it (read it with `workspaceOf`). Null
     * only where no hook ran: the answer to a request Fastify refused while routing it.
     */
    workspace: BoundWorkspace | null;
    /** the name or id of a workspace the request named that does not exist */
    missingWorkspace: string | null;
    /** a `/v1` request whose key no workspace of the sandbox holds (`api-key` refuses it) */
    unknownKey: boolean;
  }
  interface FastifyContextConfig {
    /**
     * How the route holds its workspace's context. Unset: for the whole request (a restore,
     * reset or delete waits for it). `'replaces'`: the route is that restore, reset or delete,
     * and would wait for itself. `'outlives'`: a live stream, which follows its workspace from
     * context to context (BoundWorkspace.successor). Either way the request is bound (it reads
     * `request.workspace`) without holding the context open.
     */
    workspace?: 'replaces' | 'outlives';
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

/**
 * Binds every request to its workspace (server/workspaces/resolve.ts decides which), once, before
 * anything else runs: `request.workspace` holds the workspace's context as it was when the request
 * started, and every route and plugin reads its services from there. The binding is let go when
 * the response closes (sent, or the client gone), which a restore, reset or delete waits for. A
 * workspace named but not found is a 404, before any route runs.
 */
export const workspaceScope = fp<{ workspaces: WorkspaceFinder }>(
  async (app, { workspaces }) => {
    app.decorateRequest('workspace', null);
    app.decorateRequest('missingWorkspace', null);
    app.decorateRequest('unknownKey', false);
    // First of all hooks: even a request refused before routing is answered inside a workspace.
    app.addHook('onRequest', (request, reply, done) => {
      const raw = request.raw;
      const { workspace, missing, unknownKey } = resolveWorkspace(workspaces, {
        url: raw.url ?? '',
        prefixed: (raw as Marked)[PREFIXED],
        header: request.headers[WORKSPACE_HEADER],
        authorization: request.headers.authorization,
      });
      // Refused by `workspaceRequired` (after the Host and Origin checks), from the default one.
      if (missing !== null) request.missingWorkspace = missing;
      if (unknownKey) request.unknownKey = true;
      const bound = workspace.bind();
      if (bound === null || bound instanceof Promise) {
        // A restore, reset or delete of this workspace is under way: the request starts after it.
        void Promise.resolve(bound).then((later) => {
          // Deleted meanwhile: answered like a request naming a workspace that does not exist.
          if (later === null) request.missingWorkspace ??= workspace.id;
          enter(request, reply, later, done);
        });
        return;
      }
      enter(request, reply, bound, done);
    });

    const enter = (
      request: FastifyRequest,
      reply: FastifyReply,
      bound: BoundWorkspace | null,
      done: HookHandlerDoneFunction,
    ) => {
      if (bound === null) {
        const fallback = workspaces.default.bind();
        if (fallback === null || fallback instanceof Promise) {
          void Promise.resolve(fallback).then((later) => enter(request, reply, later, done));
          return;
        }
        bound = fallback;
      }
      request.workspace = bound;
      if (request.routeOptions.config.workspace !== undefined) bound.leave();
      else reply.raw.once('close', () => bound.leave());
      done();
    };
  },
  { name: 'workspace-scope' },
);

/** The request's workspace, where the workspace scope has bound one (every route, every hook it ran before). */
export function workspaceOf(request: FastifyRequest): BoundWorkspace {
  const bound = request.workspace;
  if (bound === null)
    throw new Error(`${request.method} ${request.url} reached a route with no workspace bound`);
  return bound;
}

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
