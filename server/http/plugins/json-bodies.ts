import type { preValidationHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { hooksOf, takesBody } from './route-hooks.js';

const emptyBodyAsObject: preValidationHookHandler = (request, _reply, done) => {
  if (request.body === undefined && request.method !== 'GET' && request.method !== 'HEAD') request.body = {};
  done();
};

/**
 * Bodies are JSON and nothing else: no text/plain or form parser (a CSRF vector for simple
 * cross-site POSTs), so any other content type is a 415. A POST, PUT, PATCH or DELETE with no body
 * is validated as `{}`, so the answer names the missing field rather than "body".
 */
export const jsonBodies = fp(
  async (app) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser(
      'application/json',
      { parseAs: 'string' },
      app.getDefaultJsonParser('error', 'error'),
    );
    // On the routes that take a body only: a GET (the most frequent call) runs no hook for it.
    app.addHook('onRoute', (route) => {
      if (!takesBody(route.method)) return;
      route.preValidation = [...hooksOf(route.preValidation), emptyBodyAsObject];
    });
  },
  { name: 'json-bodies' },
);
