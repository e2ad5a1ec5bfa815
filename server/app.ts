import { existsSync } from 'node:fs';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import { registerAjvFormats, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyReply, type FastifyServerOptions } from 'fastify';
import type { SandboxContext } from './context.js';
import type { Env } from './domain/types.js';
import { errorHandler, formatSchemaErrors, notFoundHandler } from './http/errors.js';
import { KeyLimiter } from './http/limits.js';
import { hostedPageRoutes } from './http/pages/hosted.js';
import { kycPageRoutes } from './http/pages/kyc.js';
import { actingControlRoutes } from './http/sandbox/acting.js';
import { cardControlRoutes } from './http/sandbox/cards.js';
import { checkoutControlRoutes } from './http/sandbox/checkouts.js';
import { eventControlRoutes } from './http/sandbox/events.js';
import { fundsControlRoutes } from './http/sandbox/funds.js';
import { streamControlRoutes } from './http/sandbox/stream.js';
import { merchantViewRoutes } from './http/sandbox/views.js';
import { webhookControlRoutes } from './http/sandbox/webhooks.js';
import { merchantControlRoutes } from './http/sandbox/merchants.js';
import { type WorkspaceInfo, workspaceControlRoutes } from './http/sandbox/workspace.js';
import { localOnly } from './http/security.js';
import { validatorCompiler } from './http/validation.js';
import type { App, RouteDeps } from './http/types.js';
import { authenticate } from './http/v1/auth.js';
import { cardholderRoutes } from './http/v1/cardholders.js';
import { checkoutRoutes } from './http/v1/checkouts.js';
import { customerRoutes } from './http/v1/customers.js';
import { invoiceRoutes } from './http/v1/invoices.js';
import { addressRoutes } from './http/v1/static-addresses.js';

registerAjvFormats();

export interface BuildAppOptions {
  ctx: SandboxContext;
  env: Env;
  /** Built dashboard (renderer) directory served at `/`; absent → a page saying how to build it. */
  dashboardDir?: string | undefined;
  logger?: FastifyServerOptions['logger'];
  workspace: WorkspaceInfo;
  /** Shared by both listeners so limits count per key, whichever address is called. */
  limiter?: KeyLimiter;
}

/** Builds the Fastify app for one environment's listener. Never listens: that is createSandbox's job. */
export async function buildApp(options: BuildAppOptions): Promise<App> {
  const { ctx, env } = options;
  const app = Fastify({
    logger: options.logger ?? false,
    schemaErrorFormatter: formatSchemaErrors,
    bodyLimit: 1024 * 1024,
    // Ids, timestamps and money are what matter; request ids make logs traceable.
    requestIdHeader: false,
    // Malformed URLs and over-long ids are refused before routing: still `{error}`, no internals.
    frameworkErrors: (error, _request, reply) => {
      void (reply as FastifyReply).code(error.statusCode ?? 400).send({ error: error.message });
    },
  }).withTypeProvider<TypeBoxTypeProvider>();
  // TypeBox validates; it converts querystring/params exactly (limit=10) but never coerces a body.
  app.setValidatorCompiler(validatorCompiler);

  // JSON bodies only: no text/plain parser (a CSRF vector for simple cross-site POSTs).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string' },
    app.getDefaultJsonParser('error', 'error'),
  );

  app.decorateRequest('principal', null);
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler(notFoundHandler);
  app.addHook('onRequest', localOnly);
  // A POST with no body is validated as `{}`, so the answer names the missing field, not "body".
  // Group commit: a write joins this event-loop turn's transaction, and no reply leaves before it
  // commits (see CommitBatcher). Reads that happen to overlap a batch wait for it too, so nobody
  // is ever shown a write that could still roll back.
  app.addHook('preHandler', (request, _reply, done) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') ctx.batcher.join();
    done();
  });
  app.addHook('onSend', (_request, _reply, payload, done) => {
    if (!ctx.batcher.open) {
      done(null, payload);
      return;
    }
    ctx.batcher.durable().then(
      () => done(null, payload),
      (error: Error) => done(error),
    );
  });
  app.addHook('preValidation', (request, _reply, done) => {
    if (request.body === undefined && request.method !== 'GET' && request.method !== 'HEAD')
      request.body = {};
    done();
  });
  // No CORS headers at all: other origins get no access (never Access-Control-Allow-Origin: *).

  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'svc-sandbox',
        version: options.workspace.version,
        description: 'The /v1 API and the sandbox control API (/sandbox).',
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'svcb_... API key' } },
      },
    },
  });

  const deps: RouteDeps = { ctx, env };
  const limiter = options.limiter ?? new KeyLimiter();

  await app.register(
    async (v1) => {
      const scoped = v1 as unknown as App;
      scoped.addHook('onRequest', authenticate(deps, limiter));
      customerRoutes(scoped, deps);
      checkoutRoutes(scoped, deps);
      invoiceRoutes(scoped, deps);
      addressRoutes(scoped, deps);
      cardholderRoutes(scoped, deps);
    },
    { prefix: '/v1' },
  );

  await app.register(
    async (control) => {
      const scoped = control as unknown as App;
      workspaceControlRoutes(scoped, deps, options.workspace);
      merchantControlRoutes(scoped, deps);
      checkoutControlRoutes(scoped, deps);
      eventControlRoutes(scoped, deps);
      webhookControlRoutes(scoped, deps);
      fundsControlRoutes(scoped, deps);
      streamControlRoutes(scoped, deps);
      cardControlRoutes(scoped, deps);
      merchantViewRoutes(scoped, deps);
      actingControlRoutes(scoped, deps);
      scoped.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
    },
    { prefix: '/sandbox' },
  );

  hostedPageRoutes(app, deps);
  kycPageRoutes(app, deps);

  if (options.dashboardDir && existsSync(options.dashboardDir)) {
    await app.register(fastifyStatic, { root: options.dashboardDir, prefix: '/', index: 'index.html' });
  } else {
    app.get('/', { schema: { hide: true } }, async (_request, reply) =>
      reply
        .type('text/html; charset=utf-8')
        .send(
          '<!doctype html><title>svc-sandbox</title><p>The dashboard is not built. Run <code>npm run build</code>.</p>',
        ),
    );
  }

  return app;
}
