import type { Static } from 'typebox';
import { IdParams } from '../../contract/common.js';
import { type RequestLogEntry, RequestLogQuery } from '../../contract/requests.js';
import {
  type LibraryList,
  LibraryNameParams,
  type LibraryRun,
  LibraryRunBody,
} from '../../contract/scenario-library.js';
import { type Settings, SettingsPatch } from '../../contract/settings.js';
import { EventListQuery } from '../../contract/views.js';
import type { ResetResult, SandboxEvent } from '../../contract/workspace.js';
import { explainTool } from './explain.js';
import { count, operationTool, type Tool } from './tool.js';

// What happened and why: the event log, the request log, explain; the workspace's settings and
// reset; the built-in scenarios.

const requestShape = (r: RequestLogEntry) => ({
  id: r.id,
  at: r.created_at,
  method: r.method,
  path: r.path,
  status: r.status,
  merchant_id: r.merchant_id,
  duration_ms: r.duration_ms,
});

export const inspectTools: Tool[] = [
  operationTool<SandboxEvent[]>({
    name: 'events_list',
    description:
      "A merchant's events (what its webhooks carry), newest first; filter by `type` or `q` (an event id or part of a resource id).",
    operationId: 'sandboxListMerchantEvents',
    method: 'GET',
    path: '/sandbox/merchants/{id}/events',
    params: IdParams,
    query: EventListQuery,
    words: (list) =>
      `${count(list.length, 'event')}${list.length ? `: ${list.map((e) => e.type).join(', ')}` : ''}.`,
    shape: (list) =>
      list.map((e) => ({ id: e.id, type: e.type, resource_id: e.resource_id, created_at: e.created_at })),
  }),
  explainTool,
  operationTool<RequestLogEntry[]>({
    name: 'request_log_list',
    description:
      'The /v1 requests the app made (method, path, status, time), newest first: what did my integration actually send? Filter by merchant_id, env, status (404 or 4xx), unauthenticated. request_log_get shows one with its bodies.',
    operationId: 'sandboxListRequestLog',
    method: 'GET',
    path: '/sandbox/request-log',
    query: RequestLogQuery,
    words: (list) =>
      `${count(list.length, 'request')}${
        list.length
          ? `: ${list
              .slice(0, 10)
              .map((r) => `${r.method} ${r.path} → ${r.status}`)
              .join(', ')}${list.length > 10 ? ', …' : ''}`
          : ''
      }.`,
    shape: (list) => list.map(requestShape),
  }),
  operationTool<RequestLogEntry>({
    name: 'request_log_get',
    description: 'One /v1 request of the log with its request and response bodies (key masked).',
    operationId: 'sandboxGetRequestLogEntry',
    method: 'GET',
    path: '/sandbox/request-log/{id}',
    params: IdParams,
    words: (r) => `${r.method} ${r.path} → ${r.status} in ${r.duration_ms} ms at ${r.created_at}.`,
  }),
  // Request verification (what the app should have sent, with near misses) and API faults are
  // tools of their own beside these, one operationTool each, once their control routes exist.
  operationTool<Settings>({
    name: 'settings_get',
    description:
      "The workspace's settings: platform_rate, settlement_delay_seconds, application_review (auto|manual), limits, webhook timeout, chains and card catalogue.",
    operationId: 'sandboxGetSettings',
    method: 'GET',
    path: '/sandbox/settings',
    words: (s) =>
      `platform_rate ${s.platform_rate} bps, settlement after ${s.settlement_delay_seconds} s, application_review ${s.application_review}.`,
  }),
  operationTool<Settings>({
    name: 'settings_update',
    description:
      'Change settings (merged into the current ones), e.g. application_review "manual" or settlement_delay_seconds.',
    operationId: 'sandboxUpdateSettings',
    method: 'PATCH',
    path: '/sandbox/settings',
    body: SettingsPatch,
    words: (s) =>
      `Settings saved: platform_rate ${s.platform_rate} bps, settlement after ${s.settlement_delay_seconds} s, application_review ${s.application_review}.`,
  }),
  operationTool<Static<typeof ResetResult>>({
    name: 'workspace_reset',
    description:
      'Erase everything in the workspace (merchants, keys, checkouts, webhooks, events): a clean slate. Checkpoints are kept.',
    operationId: 'sandboxReset',
    method: 'POST',
    path: '/sandbox/reset',
    words: () => 'The workspace is empty again.',
  }),
  operationTool<LibraryList>({
    name: 'scenarios_list',
    description:
      'The built-in scenarios (one event sequence each, e.g. checkout.partial) scenario_trigger can run.',
    operationId: 'sandboxListLibraryScenarios',
    method: 'GET',
    path: '/sandbox/scenarios/library',
    words: (l) => `${count(l.items.length, 'scenario')}: ${l.items.map((s) => s.name).join(', ')}.`,
  }),
  operationTool<LibraryRun>({
    name: 'scenario_trigger',
    description:
      'Run a built-in scenario in the workspace (makes its merchant, objects and webhooks); answers each step.',
    operationId: 'sandboxRunLibraryScenario',
    method: 'POST',
    path: '/sandbox/scenarios/library/{name}/run',
    params: LibraryNameParams,
    body: LibraryRunBody,
    words: (r) => `Scenario ${r.name} ${r.ok ? 'ran' : 'failed'}: ${count(r.steps.length, 'step')}.`,
  }),
];
