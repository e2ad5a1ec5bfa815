import { Type } from 'typebox';
import { ErrorBody, Timestamp } from '../../schemas/common.js';
import { Settings, SettingsPatch } from '../../schemas/settings.js';
import type { App, RouteDeps } from '../types.js';

const ClockState = Type.Object({
  now: Timestamp,
  offset_ms: Type.Integer(),
  frozen: Type.Boolean(),
  /** jobs that ran because of this call (advance) */
  ran: Type.Optional(Type.Integer()),
});

const AdvanceBody = Type.Object({
  seconds: Type.Integer({ minimum: 0, maximum: 10 * 365 * 86400 }),
});

export interface WorkspaceInfo {
  version: string;
  urls: () => { test: string; production: string };
  reset: () => void;
}

export function workspaceControlRoutes(app: App, { ctx }: RouteDeps, info: WorkspaceInfo): void {
  const clockState = (ran?: number) => ({
    now: ctx.clock.nowIso(),
    offset_ms: Math.round(ctx.clock.offsetMs),
    frozen: ctx.clock.frozen,
    ...(ran === undefined ? {} : { ran }),
  });

  app.get(
    '/health',
    {
      schema: {
        tags: ['sandbox: workspace'],
        response: {
          200: Type.Object({
            status: Type.Literal('ok'),
            version: Type.String(),
            now: Timestamp,
            urls: Type.Object({ test: Type.String(), production: Type.String(), dashboard: Type.String() }),
          }),
        },
      },
    },
    async () => {
      const urls = info.urls();
      return {
        status: 'ok' as const,
        version: info.version,
        now: ctx.clock.nowIso(),
        urls: { ...urls, dashboard: `${urls.test}/` },
      };
    },
  );

  const tags = ['sandbox: clock'];
  app.get('/clock', { schema: { tags, response: { 200: ClockState } } }, async () => clockState());
  app.post(
    '/clock/advance',
    { schema: { tags, body: AdvanceBody, response: { 200: ClockState, 422: ErrorBody } } },
    async (request) => clockState(await ctx.advance(request.body.seconds * 1000)),
  );
  app.post('/clock/freeze', { schema: { tags, response: { 200: ClockState } } }, async () => {
    ctx.clock.freeze();
    return clockState();
  });
  app.post('/clock/resume', { schema: { tags, response: { 200: ClockState } } }, async () => {
    ctx.clock.resume();
    return clockState(await ctx.settle());
  });

  app.get('/settings', { schema: { tags: ['sandbox: settings'], response: { 200: Settings } } }, async () =>
    ctx.settings.get(),
  );
  app.patch(
    '/settings',
    {
      schema: {
        tags: ['sandbox: settings'],
        body: SettingsPatch,
        response: { 200: Settings, 422: ErrorBody },
      },
    },
    async (request) => ctx.settings.patch(request.body),
  );

  app.post(
    '/reset',
    {
      schema: { tags: ['sandbox: workspace'], response: { 200: Type.Object({ reset: Type.Literal(true) }) } },
    },
    async () => {
      info.reset();
      return { reset: true as const };
    },
  );
}
