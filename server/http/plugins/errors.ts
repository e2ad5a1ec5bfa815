import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { errorHandler, notFoundHandler } from '../errors.js';

/** `/v1/checkouts/:id` → a pattern of the paths it routes (a parameter is one path segment). */
function pathPattern(url: string): RegExp {
  const source = url
    .split(/(:[A-Za-z0-9_]+)/)
    .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}/?$`);
}

/**
 * One error handler for the whole app: every failure is `{error}`, internals hidden on 5xx. A path
 * the router knows, asked with a method it does not serve there, is a 405 with `Allow` (not a 404):
 * the routes are collected as they are added (register this before them). Wildcard routes (the
 * dashboard's files) are left out: they would make every unknown path "known".
 */
export const errors = fp(
  async (app) => {
    const routes: { pattern: RegExp; methods: string[] }[] = [];
    app.addHook('onRoute', (route) => {
      if (route.url.includes('*')) return;
      const methods = (Array.isArray(route.method) ? route.method : [route.method]).map(String);
      routes.push({ pattern: pathPattern(route.url), methods });
    });
    app.setErrorHandler(errorHandler);
    app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
      const path = request.url.split('?')[0] ?? '/';
      const allowed = new Set<string>();
      for (const route of routes) if (route.pattern.test(path)) for (const m of route.methods) allowed.add(m);
      if (allowed.size === 0 || allowed.has(request.method)) {
        notFoundHandler(request, reply);
        return;
      }
      const allow = [...allowed].sort().join(', ');
      void reply
        .code(405)
        .header('allow', allow)
        .send({ error: `Method not allowed: ${request.method} ${path} (allowed: ${allow})` });
    });
  },
  { name: 'errors' },
);
