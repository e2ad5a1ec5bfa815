import { type Static, Type } from 'typebox';
import { Uuid } from '../../contract/common.js';
import type { Coverage } from '../../contract/coverage.js';
import { Faults, FaultsInput } from '../../contract/faults.js';
import { ReceiverCheckBody, ReceiverCheckCase, ReceiverCheckResult } from '../../contract/receiver-checks.js';
import {
  CountExpectation,
  RequestLogEntry,
  RequestLogQuery,
  VerifiedRequest,
  VerifyRequestsBody,
  VerifyRequestsResult,
} from '../../contract/requests.js';
import { ResetResult, SandboxEvent } from '../../contract/sandbox-state.js';
import { LibraryList, LibraryRun, LibraryRunBody } from '../../contract/scenario-library.js';
import { Settings, SettingsPatch } from '../../contract/settings.js';
import { EventListQuery } from '../../contract/views.js';
import { explainTool } from './explain.js';
import { count, described, list, merge, operationTool, type Tool } from './tool.js';

// What happened and why: the event log, the request log, explain; the workspace's settings and
// reset; the built-in scenarios.

const RequestBrief = Type.Pick(RequestLogEntry, [
  'id',
  'created_at',
  'method',
  'path',
  'status',
  'merchant_id',
  'duration_ms',
]);

// The request body to match is a JSON object here (a subset: the fields given, at any depth),
// where the contract takes any JSON value: a schema an MCP client can type.
const VerifyInput = merge(
  Type.Omit(VerifyRequestsBody, ['body']),
  Type.Object({
    body: Type.Optional(
      Type.Object(
        {},
        {
          additionalProperties: true,
          description:
            'the fields the request body must have (a subset, at any depth), e.g. {"amount": 5000}',
        },
      ),
    ),
  }),
);

const VerifyAnswer = Type.Object({
  ok: VerifyRequestsResult.properties.ok,
  matched: VerifyRequestsResult.properties.matched,
  count: CountExpectation,
  requests: Type.Array(Type.Pick(VerifiedRequest, ['id', 'method', 'path', 'status']), {
    description: 'the matching requests, newest first (at most 20)',
  }),
  near_misses: Type.Array(
    Type.Object({
      id: described(Uuid, 'the request that came closest'),
      differences: Type.Array(Type.String(), { description: '`body.amount: expected 5000, actual 1000`' }),
    }),
    { description: 'when not ok: the closest requests, each with what differed' },
  ),
});

const ReceiverAnswer = Type.Object({
  passed: ReceiverCheckResult.properties.passed,
  failed: ReceiverCheckResult.properties.failed,
  seed: ReceiverCheckResult.properties.seed,
  hints: ReceiverCheckResult.properties.hints,
  failures: Type.Array(Type.Pick(ReceiverCheckCase, ['name', 'expected', 'actual']), {
    description: 'the cases the receiver failed',
  }),
});

const CoverageAnswer = Type.Object({
  reached_events: Type.Integer({ minimum: 0, description: 'event types reached at least once' }),
  events: Type.Integer({ minimum: 0, description: "the spec's event types" }),
  reached_transitions: Type.Integer({ minimum: 0, description: 'state transitions reached at least once' }),
  transitions: Type.Integer({ minimum: 0, description: "the spec's state transitions" }),
  unreached_events: Type.Array(Type.String(), { description: 'event types never reached' }),
  unreached_transitions: Type.Array(Type.String(), {
    description: 'transitions never reached, as `machine: from → to`',
  }),
});

const settingsWords = (s: Settings) =>
  `platform_rate ${s.platform_rate} bps, settlement after ${s.settlement_delay_seconds} s, application_review ${s.application_review}.`;

export const inspectTools: Tool[] = [
  operationTool<Static<typeof SandboxEvent>[]>({
    name: 'events_list',
    title: "List a merchant's events",
    description:
      "A merchant's events (what its webhooks carry), newest first; filter by `type` or `q` (an event id or part of a resource id).",
    operationId: 'sandboxListMerchantEvents',
    pathArg: 'merchant_id',
    query: EventListQuery,
    describe: { type: 'only events of this type (e.g. checkout.partial)' },
    output: list(Type.Pick(SandboxEvent, ['id', 'type', 'resource_id', 'created_at'])),
    words: (items) =>
      `${count(items.length, 'event')}${items.length ? `: ${items.map((e) => e.type).join(', ')}` : ''}.`,
  }),
  explainTool,
  operationTool<RequestLogEntry[]>({
    name: 'request_log_list',
    title: 'List the /v1 requests the app made',
    description:
      'The /v1 requests the app made (method, path, status, time), newest first: what did my integration actually send? Filter by merchant_id, env, status (404 or 4xx), unauthenticated. request_log_get shows one with its bodies.',
    operationId: 'sandboxListRequestLog',
    query: RequestLogQuery,
    output: list(RequestBrief),
    words: (items) =>
      `${count(items.length, 'request')}${
        items.length
          ? `: ${items
              .slice(0, 10)
              .map((r) => `${r.method} ${r.path} → ${r.status}`)
              .join(', ')}${items.length > 10 ? ', …' : ''}`
          : ''
      }.`,
  }),
  operationTool<RequestLogEntry>({
    name: 'request_log_get',
    title: 'Get a logged /v1 request',
    description: 'One /v1 request of the log with its request and response bodies (key masked).',
    operationId: 'sandboxGetRequestLogEntry',
    pathArg: 'request_id',
    output: RequestLogEntry,
    words: (r) => `${r.method} ${r.path} → ${r.status} in ${r.duration_ms} ms at ${r.created_at}.`,
  }),
  operationTool<Static<typeof VerifyRequestsResult>>({
    name: 'requests_verify',
    title: 'Verify the requests the app sent',
    description:
      'Check what the app sent: the /v1 requests matching method, path (a route template like /v1/checkouts/{id} or an exact path), env, status, query, body (a subset) and since, against count {eq|gte|lte} (default gte 1). Not ok: the closest requests, each with the fields that differed.',
    operationId: 'sandboxVerifyRequests',
    body: VerifyInput,
    // A POST that only reads the request log.
    readOnly: true,
    output: VerifyAnswer,
    words: (r) =>
      r.ok
        ? `Verified: ${count(r.matched, 'matching request')}.`
        : `Not verified: ${count(r.matched, 'matching request')}${
            r.near_misses.length
              ? `; nearest: ${r.near_misses[0]!.request.method} ${r.near_misses[0]!.request.path} (${r.near_misses[0]!.differences.join('; ')})`
              : ''
          }.`,
    shape: (r) => ({
      ...r,
      near_misses: r.near_misses.map((m) => ({ id: m.request.id, differences: m.differences })),
    }),
  }),
  operationTool<Faults>({
    name: 'faults_get',
    title: 'The API faults in force',
    description:
      "The workspace's API faults in force: each rule with what it matches, its effect, how many requests it changed and how many it may still change.",
    operationId: 'sandboxGetFaults',
    output: Faults,
    words: (f) =>
      f.rules.length ? `${count(f.rules.length, 'fault rule')} (seed ${f.seed}).` : 'No faults.',
  }),
  operationTool<Faults>({
    name: 'faults_set',
    title: 'Make the API misbehave',
    description:
      "Make the workspace's /v1 API misbehave on purpose, seeded: rules [{match {method, path, env}, rate, count, effect}] where effect is one of {status: 429|500|502|503|504, retry_after_s}, {latency_ms: {min, max}}, {timeout: true} or {lost_response: true} (the write commits, the answer is lost). Replaces the rules before; the same seed gives the same decisions.",
    operationId: 'sandboxSetFaults',
    body: FaultsInput,
    output: Faults,
    words: (f) => `${count(f.rules.length, 'fault rule')} in force (seed ${f.seed}).`,
  }),
  operationTool<undefined>({
    name: 'faults_clear',
    title: 'End the API faults',
    description: 'End every API fault of the workspace: /v1 answers normally again.',
    operationId: 'sandboxClearFaults',
    output: Type.Object({ cleared: Type.Boolean({ description: 'true: no fault is in force' }) }),
    words: () => 'No faults: the API answers normally.',
    shape: () => ({ cleared: true }),
  }),
  operationTool<Static<typeof ReceiverCheckResult>>({
    name: 'receiver_check',
    title: "Grade the app's webhook receiver",
    description:
      "Grade the developer's webhook receiver at `url` with its `secret`: signed deliveries of every event type, wrong and missing signatures, a body whose bytes differ from re-serialized JSON, a duplicate, events out of order, an unknown type, a large payload, and the time to answer. Sends only to that URL; nothing is recorded in the workspace.",
    operationId: 'sandboxCheckReceiver',
    body: ReceiverCheckBody,
    openWorld: true,
    output: ReceiverAnswer,
    words: (r) =>
      r.failed === 0
        ? `The receiver passed all ${count(r.passed, 'case')}.`
        : `The receiver failed ${count(r.failed, 'case')} of ${r.passed + r.failed}: ${r.cases
            .filter((c) => !c.ok)
            .map((c) => c.name)
            .join(', ')}.${r.hints.map((hint) => ` ${hint}`).join('')}`,
    shape: (r) => ({ ...r, failures: r.cases.filter((c) => !c.ok) }),
  }),
  operationTool<Coverage>({
    name: 'coverage_get',
    title: 'What the tests have reached',
    description:
      "Which of the spec's event types and state transitions (checkout, invoice, card, KYC, application, reseller connection, payout, delivery) the workspace has reached since it was made or reset.",
    operationId: 'sandboxGetCoverage',
    output: CoverageAnswer,
    words: (c) => {
      const events = c.events.filter((e) => e.count > 0).length;
      const moves = c.transitions.filter((t) => t.count > 0).length;
      return `Reached ${events} of ${c.events.length} event types and ${moves} of ${c.transitions.length} transitions.`;
    },
    shape: (c) => ({
      reached_events: c.events.filter((e) => e.count > 0).length,
      events: c.events.length,
      reached_transitions: c.transitions.filter((t) => t.count > 0).length,
      transitions: c.transitions.length,
      unreached_events: c.events.filter((e) => e.count === 0).map((e) => e.type),
      unreached_transitions: c.transitions
        .filter((t) => t.count === 0)
        .map((t) => `${t.machine}: ${t.from} → ${t.to}`),
    }),
  }),
  operationTool<Settings>({
    name: 'settings_get',
    title: 'The workspace settings',
    description:
      "The workspace's settings: platform_rate, settlement_delay_seconds, application_review (auto|manual), limits, webhook timeout, chains and card catalogue.",
    operationId: 'sandboxGetSettings',
    output: Settings,
    words: settingsWords,
  }),
  operationTool<Settings>({
    name: 'settings_update',
    title: 'Change the workspace settings',
    description:
      'Change settings (merged into the current ones), e.g. application_review "manual" or settlement_delay_seconds.',
    operationId: 'sandboxUpdateSettings',
    body: SettingsPatch,
    output: Settings,
    words: (s) => `Settings saved: ${settingsWords(s)}`,
  }),
  operationTool<Static<typeof ResetResult>>({
    name: 'workspace_reset',
    title: 'Erase the workspace',
    description:
      'Erase everything in the workspace (merchants, keys, checkouts, webhooks, events): a clean slate. Checkpoints are kept.',
    operationId: 'sandboxReset',
    destructive: true,
    idempotent: true,
    output: ResetResult,
    words: () => 'The workspace is empty again.',
  }),
  operationTool<Static<typeof LibraryList>>({
    name: 'scenarios_list',
    title: 'List the built-in scenarios',
    description:
      'The built-in scenarios (one event sequence each, e.g. checkout.partial) scenario_trigger can run.',
    operationId: 'sandboxListLibraryScenarios',
    output: LibraryList,
    words: (l) => `${count(l.items.length, 'scenario')}: ${l.items.map((s) => s.name).join(', ')}.`,
  }),
  operationTool<Static<typeof LibraryRun>>({
    name: 'scenario_trigger',
    title: 'Run a built-in scenario',
    description:
      'Run a built-in scenario in the workspace (makes its merchant, objects and webhooks); answers each step.',
    operationId: 'sandboxRunLibraryScenario',
    pathArg: 'scenario_name',
    body: LibraryRunBody,
    output: LibraryRun,
    words: (r) => `Scenario ${r.name} ${r.ok ? 'ran' : 'failed'}: ${count(r.steps.length, 'step')}.`,
  }),
];
