import fp from 'fastify-plugin';

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
    app.addHook('preValidation', (request, _reply, done) => {
      if (request.body === undefined && request.method !== 'GET' && request.method !== 'HEAD')
        request.body = {};
      done();
    });
  },
  { name: 'json-bodies' },
);
