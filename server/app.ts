import { existsSync } from 'node:fs';
import { relative, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import { registerAjvFormats, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import type { Env } from './contract/common.js';
import { DEFAULT_CONNECTION_LIMITS, guardConnections } from './http/connections.js';
import { clientErrorHandler, formatSchemaErrors } from './http/errors.js';
import { lazySerializers } from './http/lazy-compile.js';
import {
  type DeclaredOperation,
  documentRoutes,
  openapiServers,
  servedDocument,
  swaggerOptions,
} from './http/openapi.js';
import { SettingsDocumentCache } from './http/openapi-rules.js';
import { docsPageRoutes } from './http/pages/docs.js';
import { hostedPageRoutes } from './http/pages/hosted.js';
import { kycPageRoutes } from './http/pages/kyc.js';
import { apiKey } from './http/plugins/api-key.js';
import { errors } from './http/plugins/errors.js';
import { faults } from './http/plugins/faults.js';
import { groupCommit } from './http/plugins/group-commit.js';
import { jsonBodies } from './http/plugins/json-bodies.js';
import { KeyLimiter } from './http/plugins/key-limiter.js';
import { localOnlyPlugin } from './http/plugins/local-only.js';
import { recording } from './http/plugins/recording.js';
import { requestLog } from './http/plugins/request-log.js';
import { securityHeaders } from './http/plugins/security-headers.js';
import {
  rewriteWorkspaceUrl,
  type WorkspaceFinder,
  workspaceOf,
  workspaceRequired,
  workspaceScope,
} from './http/plugins/workspace-scope.js';
import { actingControlRoutes } from './http/sandbox/acting.js';
import { cardSecretControlRoutes } from './http/sandbox/card-secrets.js';
import { cardControlRoutes } from './http/sandbox/cards.js';
import { checkoutControlRoutes } from './http/sandbox/checkouts.js';
import { clockSettingsRoutes } from './http/sandbox/clock-settings.js';
import { coverageRoutes } from './http/sandbox/coverage.js';
import { eventControlRoutes } from './http/sandbox/events.js';
import { faultControlRoutes } from './http/sandbox/faults.js';
import { fundsControlRoutes } from './http/sandbox/funds.js';
import { healthResetRoutes, type SandboxInfo } from './http/sandbox/health-reset.js';
import { listenSessionRoutes } from './http/sandbox/listen-sessions.js';
import { merchantControlRoutes } from './http/sandbox/merchants.js';
import { parityRoutes } from './http/sandbox/parity.js';
import { receiverCheckRoutes } from './http/sandbox/receiver-checks.js';
import { recordingControlRoutes } from './http/sandbox/recording.js';
import { requestLogControlRoutes } from './http/sandbox/request-log.js';
import { resellerControlRoutes } from './http/sandbox/resellers.js';
import { scenarioLibraryRoutes } from './http/sandbox/scenario-library.js';
import { scenarioControlRoutes } from './http/sandbox/scenarios.js';
import { streamControlRoutes } from './http/sandbox/stream.js';
import { transferControlRoutes } from './http/sandbox/transfer.js';
import { merchantViewRoutes } from './http/sandbox/views.js';
import { webhookWorkbenchRoutes } from './http/sandbox/webhook-workbench.js';
import { webhookControlRoutes } from './http/sandbox/webhooks.js';
import { type WorkspaceHostRoutesDeps, workspaceRoutes } from './http/sandbox/workspaces.js';
import type { App } from './http/types.js';
import { cardholderRoutes } from './http/v1/cardholders.js';
import { checkoutRoutes } from './http/v1/checkouts.js';
import { customerRoutes } from './http/v1/customers.js';
import { invoiceRoutes } from './http/v1/invoices.js';
import { resellerRoutes } from './http/v1/resellers.js';
import { addressRoutes } from './http/v1/static-addresses.js';
import { validatorCompiler } from './http/validation.js';
import type { ScenarioService } from './scenarios/service.js';

registerAjvFormats();

export interface BuildAppOptions {
  /**
   * The sandbox's workspaces: where every request finds its own (server/http/plugins/
   * workspace-scope.ts), and where they are made, listed, deleted and checkpointed.
   */
  host: WorkspaceFinder & WorkspaceHostRoutesDeps['host'];
  env: Env;
  /** Built dashboard (renderer) directory served at `/`; absent → a page saying how to build it. */
  dashboardDir?: string | undefined;
  logger?: FastifyServerOptions['logger'];
  /** the sandbox itself: its version, addresses, how to reset a workspace */
  sandbox: SandboxInfo;
  /** Scenario runs over this sandbox's own addresses (built with the listeners, in createSandbox). */
  scenarios: Pick<ScenarioService, 'on' | 'run' | 'runText' | 'schema' | 'addresses'>;
  /** Shared by both listeners so limits count per key, whichever address is called. */
  limiter?: KeyLimiter;
  /** Serve the control API to other machines too (--allow-remote-control). */
  allowRemoteControl?: boolean | undefined;
  /** Host names besides the loopback ones (--allow-host). */
  allowedHosts?: readonly string[] | undefined;
  /** The public URLs (--public-url): their hosts are allowed, their origins same-origin. */
  publicOrigins?: readonly string[] | undefined;
  /** The control API's shared secret (--control-token). */
  controlToken?: string | undefined;
  timeouts?: Partial<Timeouts> | undefined;
  /** told every named route as its definition declares it (the operation table, server/http/operation-table.ts) */
  onOperation?: ((operation: DeclaredOperation) => void) | undefined;
}

/** Slow and idle clients are cut off: no connection stays open for nothing. */
export interface Timeouts {
  /** the request line and headers must arrive within this (of the connection opening, for its first) */
  headersMs: number;
  /** the whole request (headers and body) within this; also how long the rest of an already answered body is read */
  requestMs: number;
  /** an idle keep-alive connection is closed after this */
  keepAliveMs: number;
}

/** The router's limit on one path parameter: the contract's longest `maxLength` of a path parameter. */
export const MAX_PARAM_LENGTH = 128;

export const DEFAULT_TIMEOUTS: Timeouts = { ...DEFAULT_CONNECTION_LIMITS, keepAliveMs: 5_000 };

/**
 * Builds the Fastify app for one environment's listener. Never listens: that is createSandbox's
 * job. Each route module is a plugin that reads, from the workspace its request is bound to, only the
 * services it calls (`use(request).checkouts`).
 */
export async function buildApp(options: BuildAppOptions): Promise<App> {
  const { env } = options;
  // Every route and plugin reads its services from the workspace its request is bound to.
  const use = (request: FastifyRequest) => workspaceOf(request).ctx;
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const app = Fastify({
    logger: options.logger ?? false,
    // A request without Host reaches the local-only plugin, which answers {error} (Node's own
    // answer is an empty 400).
    http: {
      requireHostHeader: false,
      headersTimeout: timeouts.headersMs,
      // How often Node looks for connections past those timeouts (its default is 30 s).
      connectionsCheckingInterval: Math.max(100, Math.min(1000, timeouts.headersMs / 2)),
    },
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    clientErrorHandler,
    schemaErrorFormatter: formatSchemaErrors,
    bodyLimit: 1024 * 1024,
    // Response serializers are built on first use (start-up time; see http/lazy-compile.ts).
    schemaController: { compilersFactory: { buildSerializer: lazySerializers() } },
    // Ids, timestamps and money are what matter; request ids make logs traceable.
    requestIdHeader: false,
    // `/w/<id>/...`: an address of workspace <id> (its hosted pages, its inbox).
    rewriteUrl: rewriteWorkspaceUrl,
    // The longest path parameter the contract takes (a static address: 128); longer is a 414.
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // Malformed URLs and over-long ids are refused before routing: still `{error}`, no internals.
    frameworkErrors: (error, _request, reply) => {
      void (reply as FastifyReply).code(error.statusCode ?? 400).send({ error: error.message });
    },
  }).withTypeProvider<TypeBoxTypeProvider>();
  // A connection that never sends a request is closed too, and every early answer (a 413 while the
  // body is still arriving) is read by its client (http/connections.ts).
  guardConnections(app.server, { headersMs: timeouts.headersMs, requestMs: timeouts.requestMs });
  // TypeBox validates; it converts querystring/params exactly (limit=10) but never coerces a body.
  app.setValidatorCompiler(validatorCompiler);
  app.decorateRequest('principal', null);

  await app.register(workspaceScope, { workspaces: options.host });
  await app.register(localOnlyPlugin, {
    allowRemoteControl: options.allowRemoteControl,
    allowedHosts: options.allowedHosts,
    publicOrigins: options.publicOrigins,
    controlToken: options.controlToken,
  });
  await app.register(workspaceRequired);
  await app.register(securityHeaders);
  await app.register(jsonBodies);
  await app.register(errors);
  await app.register(groupCommit, { use });
  // After the group commit: a change is recorded once it is durable (server/recording/).
  await app.register(recording, { use, env });
  // No CORS headers at all: other origins get no access (never Access-Control-Allow-Origin: *).

  // The document: operationIds, summaries and security on each route (before any route is added),
  // then servers, tags and webhooks around them (server/http/openapi.ts).
  app.addHook('onRoute', documentRoutes(options.onOperation));
  await app.register(fastifySwagger, swaggerOptions(options.sandbox.version));
  /** The document as served to `request`: its servers are the addresses it reached (also /docs/json). */
  // Per sandbox: its chains and tokens as enums, rebuilt only when its chain catalogue changes.
  const bySettings = new SettingsDocumentCache();
  const served = (request: FastifyRequest) =>
    servedDocument(
      bySettings.get(app.swagger(), workspaceOf(request).ctx.settings.get()),
      openapiServers(options.sandbox.urls(), { env, origin: `${request.protocol}://${request.host}` }),
    );

  const limiter = options.limiter ?? new KeyLimiter();
  await app.register(
    async (v1) => {
      // The log first: its clock starts before authentication, so a refused key is timed too.
      await v1.register(requestLog, { use, env });
      await v1.register(apiKey, { use, limiter, env });
      // API faults, once the key is known: only this workspace's /v1 requests, never the control API.
      await v1.register(faults, { use, env, timeoutMs: timeouts.requestMs });
      await v1.register(customerRoutes, { use });
      await v1.register(checkoutRoutes, { use });
      await v1.register(invoiceRoutes, { use });
      await v1.register(addressRoutes, { use });
      await v1.register(cardholderRoutes, { use });
      await v1.register(resellerRoutes, { use });
    },
    { prefix: '/v1' },
  );

  await app.register(
    async (control) => {
      await control.register(healthResetRoutes, { use, sandbox: options.sandbox });
      await control.register(clockSettingsRoutes, { use });
      await control.register(workspaceRoutes, { host: options.host });
      await control.register(merchantControlRoutes, { use });
      await control.register(checkoutControlRoutes, { use });
      await control.register(eventControlRoutes, { use });
      await control.register(webhookControlRoutes, { use });
      await control.register(listenSessionRoutes, { use });
      await control.register(webhookWorkbenchRoutes, { use });
      await control.register(fundsControlRoutes, { use });
      await control.register(requestLogControlRoutes, { use });
      await control.register(faultControlRoutes, { use });
      await control.register(streamControlRoutes, {
        servicesOf: (bound) => bound.ctx,
        scenarios: options.scenarios,
      });
      await control.register(cardControlRoutes, { use });
      await control.register(merchantViewRoutes, { use });
      await control.register(cardSecretControlRoutes, { use });
      await control.register(actingControlRoutes, { use });
      await control.register(resellerControlRoutes, { use });
      await control.register(recordingControlRoutes, { use });
      await control.register(scenarioControlRoutes, { scenarios: options.scenarios });
      await control.register(scenarioLibraryRoutes, { runner: options.scenarios });
      await control.register(parityRoutes, { scenarios: options.scenarios });
      // Export and import act on the workspace itself (its database), not on one of its services.
      await control.register(transferControlRoutes, { use: workspaceOf });
      // Testing the integration: grading the developer's receiver, and what a suite reached.
      await control.register(receiverCheckRoutes, { use });
      await control.register(coverageRoutes, { use });
      control.get('/openapi.json', { schema: { hide: true } }, async (request) => served(request));
    },
    { prefix: '/sandbox' },
  );

  await app.register(hostedPageRoutes, { use, env });
  await app.register(kycPageRoutes, { use, env });
  await app.register(docsPageRoutes, { document: served });

  const dashboardDir = options.dashboardDir;
  if (dashboardDir && existsSync(dashboardDir)) {
    // The build writes .br and .gz beside every text file (electron.vite.config.ts): sent as they
    // are to clients that accept them, nothing compressed per request. Hashed assets never change
    // under their name; index.html (which names them) is revalidated every time.
    await app.register(fastifyStatic, {
      root: dashboardDir,
      prefix: '/',
      // (an array: with preCompressed, a plain string never finds /index.html.br for `/`)
      index: ['index.html'],
      preCompressed: true,
      cacheControl: false,
      setHeaders: (res, path) => {
        res.setHeader('vary', 'accept-encoding');
        res.setHeader(
          'cache-control',
          relative(dashboardDir, path).startsWith(`assets${sep}`)
            ? 'public, max-age=31536000, immutable'
            : 'no-cache',
        );
      },
    });
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
