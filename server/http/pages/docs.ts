import fastifySwagger from '@fastify/swagger';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { lazy } from '../../runtime/lazy-require.js';
import type { App } from '../types.js';

type SwaggerUi = typeof import('@fastify/swagger-ui');

/**
 * Swagger UI (@fastify/swagger-ui, which carries its own copy of the swagger-ui bundle: no CDN, no
 * network) is ~15–40 ms to load and 1.5 MB of script to serve: loaded on the first visit to /docs,
 * never at start-up. It runs in a Fastify instance of its own, fed the document the control API
 * serves, and every /docs request is passed to it by inject (so the app's own hooks, the Host
 * allow-list first, still run on every request).
 */
const swaggerUi = lazy<SwaggerUi>('@fastify/swagger-ui');

const PREFIX = '/docs';
/** Headers of the inner answer that describe the body, not the inner connection. */
const PASSED = [
  'content-type',
  'cache-control',
  'etag',
  'last-modified',
  'content-security-policy',
  'location',
];

export interface DocsOptions {
  /** The OpenAPI document as GET /sandbox/openapi.json serves it to this request (its servers). */
  document: (request: FastifyRequest) => unknown;
}

/** The plugin insists on @fastify/swagger beside it; the document itself is served by /docs/json. */
const PLACEHOLDER = { openapi: '3.1.0', info: { title: 'svc-sandbox', version: '0' }, paths: {} };

async function buildDocsApp(): Promise<FastifyInstance> {
  const docs = Fastify({ logger: false });
  await docs.register(fastifySwagger, { mode: 'static', specification: { document: PLACEHOLDER } });
  await docs.register(swaggerUi().default, {
    routePrefix: PREFIX,
    theme: { title: 'svc-sandbox API reference' },
    // BaseLayout: no top bar (a Fastify logo and a box to open other documents).
    uiConfig: { deepLinking: true, docExpansion: 'list', layout: 'BaseLayout' },
    // Everything the page loads comes from here: no online validator badge, no remote fonts.
    validatorUrl: false,
    staticCSP:
      "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'",
  });
  await docs.ready();
  return docs;
}

/** GET /docs: the API reference, rendered in the browser from the served OpenAPI document. */
export async function docsPageRoutes(app: App, options: DocsOptions): Promise<void> {
  // One build per process: the document does not change while it runs.
  let docs: Promise<FastifyInstance> | undefined;
  const forward = async (request: FastifyRequest, reply: FastifyReply) => {
    docs ??= buildDocsApp().catch((error: unknown) => {
      docs = undefined;
      throw error;
    });
    const answer = await (await docs).inject({
      method: request.method === 'HEAD' ? 'HEAD' : 'GET',
      url: request.url,
      headers: {
        ...(request.headers['if-none-match'] ? { 'if-none-match': request.headers['if-none-match'] } : {}),
        ...(request.headers['if-modified-since']
          ? { 'if-modified-since': request.headers['if-modified-since'] }
          : {}),
      },
    });
    reply.code(answer.statusCode);
    for (const name of PASSED) {
      const value = answer.headers[name];
      if (value !== undefined) reply.header(name, value);
    }
    return reply.send(answer.rawPayload);
  };
  const hidden = { schema: { hide: true } };
  app.get(PREFIX, hidden, forward);
  app.get(`${PREFIX}/static/*`, hidden, forward);
  // What the page renders: the served document itself, with the servers this request reached.
  app.get(`${PREFIX}/json`, hidden, async (request) => options.document(request));
}
