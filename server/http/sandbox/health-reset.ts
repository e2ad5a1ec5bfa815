import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { SandboxClock } from '../../clock.js';
import { Health, ResetResult } from '../../contract/sandbox-state.js';
import { workspaceOf } from '../plugins/workspace-scope.js';
import type { Use } from '../types.js';

/** What the routes know of the sandbox itself, beyond the request's workspace (server/sandbox.ts). */
export interface SandboxInfo {
  version: string;
  urls: () => { test: string; production: string };
  /** empties workspace `id` */
  reset: (id: string) => Promise<void>;
  /** the workspace a dashboard opens on when it has none in mind */
  startWorkspace?: () => string | null;
}

export interface HealthResetRoutesDeps {
  clock: Pick<SandboxClock, 'nowIso'>;
}

/**
 * GET /sandbox/health (the sandbox answers: its version, addresses and the request's workspace's
 * time) and POST /sandbox/reset (the request's workspace emptied, in place).
 */
export const healthResetRoutes: FastifyPluginAsyncTypebox<{
  use: Use<HealthResetRoutesDeps>;
  sandbox: SandboxInfo;
}> = async (app, { use, sandbox }) => {
  app.get(
    '/health',
    {
      schema: {
        operationId: 'sandboxGetHealth',
        summary: 'Get the health',
        tags: ['sandbox: workspace'],
        response: { 200: Health },
      },
    },
    async (request) => {
      const urls = sandbox.urls();
      return {
        status: 'ok' as const,
        version: sandbox.version,
        now: use(request).clock.nowIso(),
        urls: { ...urls, dashboard: `${urls.test}/` },
        start_workspace: sandbox.startWorkspace?.() ?? null,
      };
    },
  );

  app.post(
    '/reset',
    {
      config: { workspace: 'replaces' },
      schema: {
        operationId: 'sandboxReset',
        summary: 'Reset the workspace',
        tags: ['sandbox: workspace'],
        response: { 200: ResetResult },
      },
    },
    async (request) => {
      await sandbox.reset(workspaceOf(request).id);
      return { reset: true as const };
    },
  );
};
