import { randomBytes } from 'node:crypto';
import { parseDuration } from '../cli/clock.js';
import { type Call, caller, type OperationInput, resolveCall } from '../contract/call.js';
import { WORKSPACE_HEADER } from '../contract/workspaces.js';
import { COVERAGE_DIR_ENV, keepCoverage } from './coverage.js';
import { requestJson, SandboxRequestError, SandboxUnreachableError } from './http.js';
import type {
  CheckpointInfo,
  ClockAdvance,
  ClockState,
  CountExpectation,
  CoverageCounts,
  Env,
  FaultsState,
  InboxMessage,
  RequestCriteria,
  RequestOptions,
  TestCheckpoints,
  TestClock,
  TestFaults,
  TestInbox,
  TestWorkspace,
  VerifyResult,
  WebhookEnvelope,
  WorkspaceInfo,
  WorkspaceOptions,
} from './types.js';

/** The sandbox a workspace is made in, as the workspace needs it. */
export interface WorkspaceHost {
  urls: { test: string; production: string; dashboard: string };
  /** the control token header, when the sandbox has one */
  baseHeaders: Record<string, string>;
  /** told when the workspace is closed, so the host stops tracking it */
  forget(id: string): void;
}

interface CreatedMerchant {
  merchant: { id: string; name: string };
  api_key: { key: string };
}

/** How often an inbox is read while waiting for a message: short, a test waits on it. */
const POLL_MS = 20;

/** Makes a workspace in the host's sandbox, with a merchant and its key. */
export async function openWorkspace(
  host: WorkspaceHost,
  options: WorkspaceOptions = {},
): Promise<TestWorkspace> {
  const control = `${host.urls.test}/sandbox`;
  // Calls by operation (server/contract/operations.ts), sandbox-wide or in the workspace.
  const callWith = (headers: Record<string, string>): Call =>
    caller((method, path, body) => requestJson(method, `${host.urls.test}${path}`, headers, body));
  const sandboxWide = callWith(host.baseHeaders);
  const start = options.clock?.start;
  const created = await sandboxWide('sandboxCreateWorkspace', {
    body: {
      name: options.name ?? `test-${randomBytes(6).toString('hex')}`,
      ...(options.seed === undefined ? {} : { seed: options.seed }),
      ...(options.clock === undefined
        ? {}
        : {
            clock: {
              ...(start === undefined ? {} : { start: start instanceof Date ? start.toISOString() : start }),
              ...(options.clock.frozen === undefined ? {} : { frozen: options.clock.frozen }),
            },
          }),
      ...(options.from === undefined ? {} : { from: options.from }),
      ephemeral: options.ephemeral ?? true,
    },
  }).catch((error: unknown) => {
    if (error instanceof SandboxRequestError && error.status === 404 && error.url.endsWith('/workspaces'))
      throw new Error(`the sandbox at ${host.urls.test} has no workspaces: it is older than this package`);
    throw error;
  });
  const info = created as WorkspaceInfo;
  const controlHeaders = { ...host.baseHeaders, [WORKSPACE_HEADER]: info.id };
  const inWorkspace = callWith(controlHeaders);
  const removeWorkspace = () => sandboxWide('sandboxDeleteWorkspace', { params: { id: info.id } });
  let owner: CreatedMerchant['merchant'];
  let apiKey: string;
  try {
    ({ merchant: owner, apiKey } = await merchantOf(inWorkspace, options));
  } catch (error) {
    await removeWorkspace().catch(() => {});
    throw error;
  }
  const headers = { authorization: `Bearer ${apiKey}` };
  let closed: Promise<void> | undefined;
  // A run that collects coverage (startSandbox({ coverage: true })) keeps each workspace's report
  // as it closes; coverageReport() adds them up.
  const collectCoverage = async () => {
    if (!process.env[COVERAGE_DIR_ENV]) return;
    keepCoverage((await inWorkspace('sandboxGetCoverage')) as CoverageCounts);
  };

  const clock: TestClock = {
    now: async () => new Date((await inWorkspace('sandboxGetClock')).now),
    state: async () => (await inWorkspace('sandboxGetClock')) as ClockState,
    advance: async (by) =>
      (await inWorkspace('sandboxAdvanceClock', {
        body: { seconds: typeof by === 'number' ? by : parseDuration(by) },
      })) as ClockAdvance,
    freeze: async () => (await inWorkspace('sandboxFreezeClock')) as ClockState,
    resume: async () => (await inWorkspace('sandboxResumeClock')) as ClockState,
  };
  const checkpoints: TestCheckpoints = {
    save: async (name) => (await inWorkspace('sandboxSaveCheckpoint', { body: { name } })) as CheckpointInfo,
    list: async () => (await inWorkspace('sandboxListCheckpoints')) as CheckpointInfo[],
    restore: async (name) =>
      (await inWorkspace('sandboxRestoreCheckpoint', { params: { name } })).workspace as WorkspaceInfo,
    delete: async (name) => {
      await inWorkspace('sandboxDeleteCheckpoint', { params: { name } });
    },
  };

  const faults: TestFaults = {
    set: async (rules) =>
      (await inWorkspace('sandboxSetFaults', {
        body: (Array.isArray(rules) ? { rules } : rules) as OperationInput<'sandboxSetFaults'>['body'],
      })) as FaultsState,
    list: async () => (await inWorkspace('sandboxGetFaults')) as FaultsState,
    clear: async () => {
      await inWorkspace('sandboxClearFaults');
    },
  };
  const check = async (criteria: RequestCriteria & { count?: CountExpectation | number }) =>
    (await inWorkspace('sandboxVerifyRequests', {
      body: {
        ...criteria,
        ...(criteria.since instanceof Date ? { since: criteria.since.toISOString() } : {}),
        ...(typeof criteria.count === 'number' ? { count: { eq: criteria.count } } : {}),
      } as OperationInput<'sandboxVerifyRequests'>['body'],
    })) as VerifyResult;

  const workspace: TestWorkspace = {
    id: info.id,
    name: info.name,
    info,
    merchant: { id: owner.id, name: owner.name },
    apiKey,
    headers,
    controlHeaders,
    urls: {
      test: host.urls.test,
      production: host.urls.production,
      control,
      dashboard: withWorkspace(host.urls.dashboard, info.id),
    },
    clock,
    checkpoints,
    api: <T>(method: string, path: string, options: RequestOptions = {}) =>
      requestJson<T>(
        method,
        `${host.urls[options.env ?? 'test']}${path}`,
        { ...headers, ...options.headers },
        options.body,
      ),
    control: <T>(method: string, path: string, options: RequestOptions = {}) =>
      requestJson<T>(method, `${control}${path}`, { ...controlHeaders, ...options.headers }, options.body),
    inbox: (name = 'test', inboxOptions = {}) =>
      openInbox(inWorkspace, {
        name,
        // A workspace's own addresses carry its prefix: a delivery sends no header.
        url: `${host.urls.test}/w/${info.id}${resolveCall('sandboxReceiveInboxWebhook', { params: { name } }).path}`,
        merchantId: owner.id,
        env: inboxOptions.env ?? 'test',
        events: inboxOptions.events,
      }),
    faults,
    verify: async (criteria) => {
      const result = await check(criteria);
      if (!result.ok) throw new RequestVerificationError(criteria, result);
      return result;
    },
    requests: async (criteria = {}) => (await check({ ...criteria, count: { gte: 0 } })).requests,
    close: () => {
      closed ??= collectCoverage()
        .then(removeWorkspace)
        .catch((error: unknown) => {
          // Already gone (deleted elsewhere), or its sandbox stopped and took it along (a test
          // workspace is ephemeral): what close wanted.
          const gone = error instanceof SandboxRequestError && error.status === 404;
          if (!gone && !(error instanceof SandboxUnreachableError)) throw error;
        })
        .finally(() => host.forget(info.id));
      return closed;
    },
    [Symbol.asyncDispose]: () => workspace.close(),
  };
  return workspace;
}

/** A fork brings its merchants along: the first one's owner key serves; else a new merchant. */
async function merchantOf(
  inWorkspace: Call,
  options: WorkspaceOptions,
): Promise<{ merchant: CreatedMerchant['merchant']; apiKey: string }> {
  if (options.from !== undefined) {
    const [first] = await inWorkspace('sandboxListMerchants');
    if (first !== undefined) {
      const keys = await inWorkspace('sandboxListMerchantApiKeys', { params: { id: first.id } });
      const key = keys.find((k) => k.role === 'owner' && k.revoked_at === null);
      if (key !== undefined) return { merchant: first, apiKey: key.key };
    }
  }
  const created = await inWorkspace('sandboxCreateMerchant', {
    body: { name: 'Test merchant', ...options.merchant } as OperationInput<'sandboxCreateMerchant'>['body'],
  });
  return { merchant: created.merchant, apiKey: created.api_key.key };
}

function withWorkspace(url: string, id: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set('workspace', id);
  return parsed.href;
}

/**
 * Shorter than the common runners' test timeouts (Vitest and Jest: 5 s), so a webhook that never
 * comes fails with this helper's message (what did arrive) rather than the runner's bare timeout.
 */
export const WAIT_FOR_TIMEOUT_MS = 4000;

async function openInbox(
  inWorkspace: Call,
  spec: { name: string; url: string; merchantId: string; env: Env; events: string[] | undefined },
): Promise<TestInbox> {
  const endpoint = await inWorkspace('sandboxCreateMerchantWebhookEndpoint', {
    params: { id: spec.merchantId },
    query: { env: spec.env },
    body: {
      url: spec.url,
      ...(spec.events === undefined ? {} : { events: spec.events }),
    } as OperationInput<'sandboxCreateMerchantWebhookEndpoint'>['body'],
  });
  const params = { name: spec.name };
  const messages = async () =>
    (
      (await inWorkspace('sandboxGetInbox', { params, query: { limit: 1000 } })).messages as InboxMessage[]
    ).sort((a, b) => a.id - b.id);
  return {
    name: spec.name,
    url: spec.url,
    endpoint: { id: endpoint.id, secret: endpoint.secret, events: endpoint.events },
    messages,
    clear: async () => {
      await inWorkspace('sandboxClearInboxMessages', { params });
    },
    async waitFor(match, { timeoutMs = WAIT_FOR_TIMEOUT_MS } = {}) {
      const accepts =
        typeof match === 'string'
          ? (_: InboxMessage, event: WebhookEnvelope) => event.event === match
          : match;
      const deadline = Date.now() + timeoutMs;
      let seen: InboxMessage[] = [];
      for (;;) {
        seen = await messages();
        for (const message of seen) {
          const event = parseEnvelope(message.body);
          if (event !== undefined && accepts(message, event)) return { ...message, event };
        }
        if (Date.now() >= deadline) break;
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
      const types = seen.map((m) => parseEnvelope(m.body)?.event ?? '(not JSON)');
      throw new Error(
        `inbox ${spec.name}: no matching webhook within ${timeoutMs} ms; received ${types.length ? types.join(', ') : 'nothing'}`,
      );
    },
  };
}

function parseEnvelope(body: string): WebhookEnvelope | undefined {
  try {
    const parsed = JSON.parse(body) as unknown;
    return typeof parsed === 'object' &&
      parsed !== null &&
      typeof (parsed as WebhookEnvelope).event === 'string'
      ? (parsed as WebhookEnvelope)
      : undefined;
  } catch {
    return undefined;
  }
}

/** A failed `ws.verify`: reads like a test failure, naming the near misses and what differed. */
export class RequestVerificationError extends Error {
  constructor(
    readonly criteria: RequestCriteria & { count?: CountExpectation | number },
    readonly result: VerifyResult,
  ) {
    super(describeFailure(criteria, result));
    this.name = 'AssertionError';
  }
}

function describeFailure(criteria: RequestCriteria & { count?: unknown }, result: VerifyResult): string {
  const { count: _count, ...wanted } = criteria;
  const expected = Object.entries(result.count)
    .map(([op, n]) => `${{ eq: 'exactly', gte: 'at least', lte: 'at most' }[op]} ${n}`)
    .join(' and ');
  const lines = [
    `expected ${expected} request(s) matching ${JSON.stringify(wanted)}, found ${result.matched}`,
  ];
  if (result.near_misses.length > 0) {
    lines.push('near misses:');
    for (const { request, differences } of result.near_misses)
      lines.push(
        `  ${request.method} ${request.path} (${request.status}, ${request.id})`,
        ...differences.map((d) => `    ${d}`),
      );
  } else if (result.matched === 0) lines.push('no other requests were sent');
  return lines.join('\n');
}
