import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { SandboxClock } from '../../clock.js';
import { ErrorBody } from '../../contract/common.js';
import { AdvanceBody, AdvanceResult, ClockState } from '../../contract/sandbox-state.js';
import { Settings, SettingsPatch } from '../../contract/settings.js';
import type { Fired } from '../../contract/workspaces.js';
import type { EventRecorder } from '../../domain/events/recorder.js';
import type { SettingsService } from '../../domain/settings/service.js';
import type { Scheduler } from '../../scheduler.js';
import type { WebhookDispatcher } from '../../webhooks/dispatcher.js';
import type { Use } from '../types.js';

export interface ClockSettingsRoutesDeps {
  clock: Pick<SandboxClock, 'freeze' | 'frozen' | 'nowIso' | 'offsetMs' | 'resume'>;
  scheduler: Pick<Scheduler, 'advance' | 'settle'>;
  settings: Pick<SettingsService, 'get' | 'patch'>;
  events: Pick<EventRecorder, 'on'>;
  dispatcher: Pick<WebhookDispatcher, 'onAttempt'>;
}

export const clockSettingsRoutes: FastifyPluginAsyncTypebox<{
  use: Use<ClockSettingsRoutesDeps>;
}> = async (app, { use }) => {
  /** Runs `work` and says what it fired in this workspace meanwhile: events, delivery attempts. */
  const watching = async (
    { events, dispatcher }: Pick<ClockSettingsRoutesDeps, 'dispatcher' | 'events'>,
    work: () => Promise<number>,
  ): Promise<{ ran: number; fired: Fired }> => {
    const fired: Fired = { events: [], deliveries: 0, jobs: 0 };
    const offEvents = events.on((event) => {
      fired.events.push({ type: event.type, id: event.id, resource_id: event.resource_id });
    });
    const offAttempts = dispatcher.onAttempt(() => {
      fired.deliveries++;
    });
    try {
      fired.jobs = await work();
    } finally {
      offEvents();
      offAttempts();
    }
    return { ran: fired.jobs, fired };
  };
  // One context for the whole answer: the request's own, even if a restore comes in between.
  const clockState = ({ clock }: Pick<ClockSettingsRoutesDeps, 'clock'>, ran?: number) => ({
    now: clock.nowIso(),
    offset_ms: Math.round(clock.offsetMs),
    frozen: clock.frozen,
    ...(ran === undefined ? {} : { ran }),
  });

  const tags = ['sandbox: clock'];
  app.get(
    '/clock',
    {
      schema: {
        operationId: 'sandboxGetClock',
        summary: 'Get the clock',
        tags,
        response: { 200: ClockState },
      },
    },
    async (request) => clockState(use(request)),
  );
  app.post(
    '/clock/advance',
    {
      // Each job commits on its own, so the webhook sends it starts leave inside the jump.
      config: { groupCommit: false },
      schema: {
        operationId: 'sandboxAdvanceClock',
        summary: 'Advance the clock',
        tags,
        body: AdvanceBody,
        response: { 200: AdvanceResult, 422: ErrorBody },
      },
    },
    async (request) => {
      const deps = use(request);
      const { ran, fired } = await watching(deps, () => deps.scheduler.advance(request.body.seconds * 1000));
      return { ...clockState(deps, ran), fired };
    },
  );
  app.post(
    '/clock/freeze',
    {
      schema: {
        operationId: 'sandboxFreezeClock',
        summary: 'Freeze the clock',
        tags,
        response: { 200: ClockState },
      },
    },
    async (request) => {
      const deps = use(request);
      deps.clock.freeze();
      return clockState(deps);
    },
  );
  app.post(
    '/clock/resume',
    {
      config: { groupCommit: false },
      schema: {
        operationId: 'sandboxResumeClock',
        summary: 'Resume the clock',
        tags,
        response: { 200: ClockState },
      },
    },
    async (request) => {
      const deps = use(request);
      deps.clock.resume();
      return clockState(deps, await deps.scheduler.settle());
    },
  );

  app.get(
    '/settings',
    {
      schema: {
        operationId: 'sandboxGetSettings',
        summary: 'Get the settings',
        tags: ['sandbox: settings'],
        response: { 200: Settings },
      },
    },
    async (request) => use(request).settings.get(),
  );
  app.patch(
    '/settings',
    {
      schema: {
        operationId: 'sandboxUpdateSettings',
        summary: 'Update the settings',
        tags: ['sandbox: settings'],
        body: SettingsPatch,
        response: { 200: Settings, 422: ErrorBody },
      },
    },
    async (request) => use(request).settings.patch(request.body),
  );
};
