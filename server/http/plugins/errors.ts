import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { errorHandler, notFoundHandler } from '../errors.js';

/** One path the router serves (`/v1/checkouts/:id`) and the methods it serves there. */
interface PathRoutes {
  url: string;
  /** the urls its routes were added with (with or without a trailing slash) */
  raw: Set<string>;
  /** per segment: its text, or null for a parameter */
  segments: (string | null)[];
  methods: Set<string>;
}

const segmentsOf = (url: string): (string | null)[] =>
  url
    .replace(/\/$/, '')
    .split('/')
    .map((segment) => (segment.startsWith(':') ? null : segment));

/** Whether `path`'s segments fit the route's: its text where it has text, anything where a parameter. */
function fits(route: PathRoutes, path: string[]): boolean {
  if (route.segments.length !== path.length) return false;
  return route.segments.every((segment, i) => segment === null || segment === path[i]);
}

/**
 * Which of two routes that fit the same path the router prefers: as find-my-way does, text beats a
 * parameter at the first segment where they differ. Positive when `a` is the more specific.
 */
function specificity(a: PathRoutes, b: PathRoutes): number {
  for (let i = 0; i < a.segments.length; i++) {
    const x = a.segments[i] === null ? 0 : 1;
    const y = b.segments[i] === null ? 0 : 1;
    if (x !== y) return x - y;
  }
  return 0;
}

/** The route that owns `path`: of those that fit it, the most specific; undefined when none does. */
function owner(routes: Iterable<PathRoutes>, path: string): PathRoutes | undefined {
  const parts = path.replace(/\/$/, '').split('/');
  let best: PathRoutes | undefined;
  for (const route of routes) {
    if (!fits(route, parts)) continue;
    if (!best || specificity(route, best) > 0) best = route;
  }
  return best;
}

/** Whether a path `a` routes could also be one `b` routes, `b` winning it (more specific). */
function shadows(b: PathRoutes, a: PathRoutes): boolean {
  if (a === b || a.segments.length !== b.segments.length) return false;
  const overlap = a.segments.every((x, i) => x === null || b.segments[i] === null || x === b.segments[i]);
  return overlap && specificity(b, a) > 0;
}

/**
 * One error handler for the whole app: every failure is `{error}`, internals hidden on 5xx. A path
 * the router knows, asked with a method it does not serve there, is a 405 with `Allow` (not a 404),
 * and `Allow` names the methods of that path alone: the route that owns it, as the router chooses
 * (`/sandbox/request-log/verify`, not `/sandbox/request-log/:id`). The router alone would send a
 * GET of `/sandbox/request-log/verify` to `:id` (it has a GET, `verify` has not): a request that
 * reached a parametric route while a more specific one owns its path is that 405 too. A method no
 * route serves anywhere (QUERY, PROPFIND) is answered here, before its body is read. The routes are
 * collected as they are added (register this before them). Wildcard routes (the dashboard's files)
 * are left out: they would make every unknown path "known".
 */
export const errors = fp(
  async (app) => {
    const routes = new Map<string, PathRoutes>();
    const served = new Set<string>();
    /** parametric routes, each with the more specific routes that may own some of its paths */
    const shadowedBy = new Map<string, PathRoutes[]>();
    app.addHook('onRoute', (route) => {
      if (route.url.includes('*')) return;
      const methods = (Array.isArray(route.method) ? route.method : [route.method]).map(String);
      const url = route.url.replace(/\/$/, '') || '/';
      let entry = routes.get(url);
      if (!entry) {
        entry = { url, raw: new Set(), segments: segmentsOf(url), methods: new Set() };
        routes.set(url, entry);
      }
      entry.raw.add(route.url);
      for (const method of methods) {
        entry.methods.add(method);
        served.add(method);
      }
    });
    app.addHook('onReady', async () => {
      for (const route of routes.values()) {
        if (!route.segments.includes(null)) continue;
        const by = [...routes.values()].filter((other) => shadows(other, route));
        if (by.length > 0) for (const raw of route.raw) shadowedBy.set(raw, by);
      }
    });

    const notAllowed = (request: FastifyRequest, reply: FastifyReply, path: string, route: PathRoutes) => {
      const allow = [...route.methods].sort().join(', ');
      void reply
        .code(405)
        .header('allow', allow)
        .send({ error: `Method not allowed: ${request.method} ${path} (allowed: ${allow})` });
    };

    // Before anything reads the body: a method no route has, or a path another route owns.
    app.addHook('onRequest', (request, reply, done) => {
      const matched = request.routeOptions.url;
      if (matched !== undefined) {
        const by = shadowedBy.get(matched);
        if (by === undefined) return done();
        const path = request.url.split('?')[0] ?? '/';
        const route = owner(by, path);
        if (route === undefined || route.methods.has(request.method)) return done();
        return notAllowed(request, reply, path, route);
      }
      if (served.has(request.method)) return done();
      const path = request.url.split('?')[0] ?? '/';
      const route = owner(routes.values(), path);
      if (route) return notAllowed(request, reply, path, route);
      notFoundHandler(request, reply);
    });

    app.setErrorHandler(errorHandler);
    app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
      const path = request.url.split('?')[0] ?? '/';
      const route = owner(routes.values(), path);
      if (route === undefined || route.methods.has(request.method)) {
        notFoundHandler(request, reply);
        return;
      }
      notAllowed(request, reply, path, route);
    });
  },
  { name: 'errors' },
);
