import type { Static } from 'typebox';
import { IdParams } from '../../contract/common.js';
import type { Coverage } from '../../contract/coverage.js';
import { type Faults, FaultsInput } from '../../contract/faults.js';
import { ReceiverCheckBody, type ReceiverCheckResult } from '../../contract/receiver-checks.js';
import {
  type RequestLogEntry,
  RequestLogQuery,
  VerifyRequestsBody,
  type VerifyRequestsResult,
} from '../../contract/requests.js';
import type { ResetResult, SandboxEvent } from '../../contract/sandbox-state.js';
import {
  type LibraryList,
  LibraryNameParams,
  type LibraryRun,
  LibraryRunBody,
} from '../../contract/scenario-library.js';
import { type Settings, SettingsPatch } from '../../contract/settings.js';
import { EventListQuery } from '../../contract/views.js';
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
    params: IdParams,
    words: (r) => `${r.method} ${r.path} → ${r.status} in ${r.duration_ms} ms at ${r.created_at}.`,
  }),
  operationTool<VerifyRequestsResult>({
    name: 'requests_verify',
    description:
      'Check what the app sent: the /v1 requests matching method, path (a route template like /v1/checkouts/{id} or an exact path), env, status, query, body (a subset) and since, against count {eq|gte|lte} (default gte 1). Not ok: the closest requests, each with the fields that differed.',
    operationId: 'sandboxVerifyRequests',
    body: VerifyRequestsBody,
    words: (r) =>
      r.ok
        ? `Verified: ${count(r.matched, 'matching request')}.`
        : `Not verified: ${count(r.matched, 'matching request')}${
            r.near_misses.length
              ? `; nearest: ${r.near_misses[0]!.request.method} ${r.near_misses[0]!.request.path} (${r.near_misses[0]!.differences.join('; ')})`
              : ''
          }.`,
    shape: (r) => ({
      ok: r.ok,
      matched: r.matched,
      count: r.count,
      requests: r.requests.map((q) => ({ id: q.id, method: q.method, path: q.path, status: q.status })),
      near_misses: r.near_misses.map((m) => ({ id: m.request.id, differences: m.differences })),
    }),
  }),
  operationTool<Faults>({
    name: 'faults_get',
    description:
      "The workspace's API faults in force: each rule with what it matches, its effect, how many requests it changed and how many it may still change.",
    operationId: 'sandboxGetFaults',
    words: (f) =>
      f.rules.length ? `${count(f.rules.length, 'fault rule')} (seed ${f.seed}).` : 'No faults.',
  }),
  operationTool<Faults>({
    name: 'faults_set',
    description:
      "Make the workspace's /v1 API misbehave on purpose, seeded: rules [{match {method, path, env}, rate, count, effect}] where effect is one of {status: 429|500|502|503|504, retry_after_s}, {latency_ms: {min, max}}, {timeout: true} or {lost_response: true} (the write commits, the answer is lost). Replaces the rules before; the same seed gives the same decisions.",
    operationId: 'sandboxSetFaults',
    body: FaultsInput,
    words: (f) => `${count(f.rules.length, 'fault rule')} in force (seed ${f.seed}).`,
  }),
  operationTool<undefined>({
    name: 'faults_clear',
    description: 'End every API fault of the workspace: /v1 answers normally again.',
    operationId: 'sandboxClearFaults',
    words: () => 'No faults: the API answers normally.',
    shape: () => ({ cleared: true }),
  }),
  operationTool<ReceiverCheckResult>({
    name: 'receiver_check',
    description:
      "Grade the developer's webhook receiver at `url` with its `secret`: signed deliveries of every event type, wrong and missing signatures, a body whose bytes differ from re-serialized JSON, a duplicate, events out of order, an unknown type, a large payload, and the time to answer. Sends only to that URL; nothing is recorded in the workspace.",
    operationId: 'sandboxCheckReceiver',
    body: ReceiverCheckBody,
    words: (r) =>
      r.failed === 0
        ? `The receiver passed all ${count(r.passed, 'case')}.`
        : `The receiver failed ${count(r.failed, 'case')} of ${r.passed + r.failed}: ${r.cases
            .filter((c) => !c.ok)
            .map((c) => c.name)
            .join(', ')}.${r.hints.map((hint) => ` ${hint}`).join('')}`,
    shape: (r) => ({
      passed: r.passed,
      failed: r.failed,
      seed: r.seed,
      hints: r.hints,
      failures: r.cases
        .filter((c) => !c.ok)
        .map((c) => ({ name: c.name, expected: c.expected, actual: c.actual })),
    }),
  }),
  operationTool<Coverage>({
    name: 'coverage_get',
    description:
      "Which of the spec's event types and state transitions (checkout, invoice, card, KYC, application, reseller connection, payout, delivery) the workspace has reached since it was made or reset; unreached ones have count 0.",
    operationId: 'sandboxGetCoverage',
    words: (c) => {
      const events = c.events.filter((e) => e.count > 0).length;
      const moves = c.transitions.filter((t) => t.count > 0).length;
      return `Reached ${events} of ${c.events.length} event types and ${moves} of ${c.transitions.length} transitions.`;
    },
    shape: (c) => ({
      unreached_events: c.events.filter((e) => e.count === 0).map((e) => e.type),
      unreached_transitions: c.transitions
        .filter((t) => t.count === 0)
        .map((t) => `${t.machine}: ${t.from} → ${t.to}`),
    }),
  }),
  operationTool<Settings>({
    name: 'settings_get',
    description:
      "The workspace's settings: platform_rate, settlement_delay_seconds, application_review (auto|manual), limits, webhook timeout, chains and card catalogue.",
    operationId: 'sandboxGetSettings',
    words: (s) =>
      `platform_rate ${s.platform_rate} bps, settlement after ${s.settlement_delay_seconds} s, application_review ${s.application_review}.`,
  }),
  operationTool<Settings>({
    name: 'settings_update',
    description:
      'Change settings (merged into the current ones), e.g. application_review "manual" or settlement_delay_seconds.',
    operationId: 'sandboxUpdateSettings',
    body: SettingsPatch,
    words: (s) =>
      `Settings saved: platform_rate ${s.platform_rate} bps, settlement after ${s.settlement_delay_seconds} s, application_review ${s.application_review}.`,
  }),
  operationTool<Static<typeof ResetResult>>({
    name: 'workspace_reset',
    description:
      'Erase everything in the workspace (merchants, keys, checkouts, webhooks, events): a clean slate. Checkpoints are kept.',
    operationId: 'sandboxReset',
    words: () => 'The workspace is empty again.',
  }),
  operationTool<LibraryList>({
    name: 'scenarios_list',
    description:
      'The built-in scenarios (one event sequence each, e.g. checkout.partial) scenario_trigger can run.',
    operationId: 'sandboxListLibraryScenarios',
    words: (l) => `${count(l.items.length, 'scenario')}: ${l.items.map((s) => s.name).join(', ')}.`,
  }),
  operationTool<LibraryRun>({
    name: 'scenario_trigger',
    description:
      'Run a built-in scenario in the workspace (makes its merchant, objects and webhooks); answers each step.',
    operationId: 'sandboxRunLibraryScenario',
    params: LibraryNameParams,
    body: LibraryRunBody,
    words: (r) => `Scenario ${r.name} ${r.ok ? 'ran' : 'failed'}: ${count(r.steps.length, 'step')}.`,
  }),
];
