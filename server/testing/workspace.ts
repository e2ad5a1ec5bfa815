import { randomBytes } from 'node:crypto';
import { parseDuration } from '../cli/clock.js';
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

interface ApiKeyRow {
  key: string;
  role: string;
  revoked_at: string | null;
}

/** How often an inbox is read while waiting for a message: short, a test waits on it. */
const POLL_MS = 20;

/** Makes a workspace in the host's sandbox, with a merchant and its key. */
export async function openWorkspace(
  host: WorkspaceHost,
  options: WorkspaceOptions = {},
): Promise<TestWorkspace> {
  const control = `${host.urls.test}/sandbox`;
  const start = options.clock?.start;
  const info = await requestJson<WorkspaceInfo>('POST', `${control}/workspaces`, host.baseHeaders, {
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
  }).catch((error: unknown) => {
    if (error instanceof SandboxRequestError && error.status === 404 && error.url.endsWith('/workspaces'))
      throw new Error(`the sandbox at ${host.urls.test} has no workspaces: it is older than this package`);
    throw error;
  });
  const controlHeaders = { ...host.baseHeaders, [WORKSPACE_HEADER]: info.id };
  const inWorkspace = <T>(method: string, path: string, body?: unknown): Promise<T> =>
    requestJson<T>(method, `${control}${path}`, controlHeaders, body);
  let owner: CreatedMerchant['merchant'];
  let apiKey: string;
  try {
    ({ merchant: owner, apiKey } = await merchantOf(inWorkspace, options));
  } catch (error) {
    await inWorkspace('DELETE', `/workspaces/${info.id}`).catch(() => {});
    throw error;
  }
  const headers = { authorization: `Bearer ${apiKey}` };
  let closed: Promise<void> | undefined;
  // A run that collects coverage (startSandbox({ coverage: true })) keeps each workspace's report
  // as it closes; coverageReport() adds them up.
  const collectCoverage = async () => {
    if (!process.env[COVERAGE_DIR_ENV]) return;
    keepCoverage(await requestJson<CoverageCounts>('GET', `${control}/coverage`, controlHeaders));
  };

  const clock: TestClock = {
    now: async () => new Date((await inWorkspace<ClockState>('GET', '/clock')).now),
    state: () => inWorkspace<ClockState>('GET', '/clock'),
    advance: async (by) =>
      inWorkspace<ClockAdvance>('POST', '/clock/advance', {
        seconds: typeof by === 'number' ? by : parseDuration(by),
      }),
    freeze: () => inWorkspace<ClockState>('POST', '/clock/freeze'),
    resume: () => inWorkspace<ClockState>('POST', '/clock/resume'),
  };
  const checkpoints: TestCheckpoints = {
    save: (name) => inWorkspace<CheckpointInfo>('POST', '/checkpoints', { name }),
    list: () => inWorkspace<CheckpointInfo[]>('GET', '/checkpoints'),
    restore: async (name) =>
      (
        await inWorkspace<{ workspace: WorkspaceInfo }>(
          'POST',
          `/checkpoints/${encodeURIComponent(name)}/restore`,
        )
      ).workspace,
    delete: (name) => inWorkspace<void>('DELETE', `/checkpoints/${encodeURIComponent(name)}`),
  };

  const faults: TestFaults = {
    set: (rules) => inWorkspace<FaultsState>('PUT', '/faults', Array.isArray(rules) ? { rules } : rules),
    list: () => inWorkspace<FaultsState>('GET', '/faults'),
    clear: () => inWorkspace<void>('DELETE', '/faults'),
  };
  const check = (criteria: RequestCriteria & { count?: CountExpectation | number }) =>
    inWorkspace<VerifyResult>('POST', '/request-log/verify', {
      ...criteria,
      ...(criteria.since instanceof Date ? { since: criteria.since.toISOString() } : {}),
      ...(typeof criteria.count === 'number' ? { count: { eq: criteria.count } } : {}),
    });

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
        url: `${host.urls.test}/w/${info.id}/sandbox/inbox/${encodeURIComponent(name)}`,
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
        .then(() => requestJson<void>('DELETE', `${control}/workspaces/${info.id}`, host.baseHeaders))
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

type InWorkspace = <T>(method: string, path: string, body?: unknown) => Promise<T>;

/** A fork brings its merchants along: the first one's owner key serves; else a new merchant. */
async function merchantOf(
  inWorkspace: InWorkspace,
  options: WorkspaceOptions,
): Promise<{ merchant: CreatedMerchant['merchant']; apiKey: string }> {
  if (options.from !== undefined) {
    const [first] = await inWorkspace<CreatedMerchant['merchant'][]>('GET', '/merchants');
    if (first !== undefined) {
      const keys = await inWorkspace<ApiKeyRow[]>('GET', `/merchants/${first.id}/api-keys`);
      const key = keys.find((k) => k.role === 'owner' && k.revoked_at === null);
      if (key !== undefined) return { merchant: first, apiKey: key.key };
    }
  }
  const created = await inWorkspace<CreatedMerchant>('POST', '/merchants', {
    name: 'Test merchant',
    ...options.merchant,
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
  inWorkspace: InWorkspace,
  spec: { name: string; url: string; merchantId: string; env: Env; events: string[] | undefined },
): Promise<TestInbox> {
  const endpoint = await inWorkspace<{ id: string; secret: string; events: string[] }>(
    'POST',
    `/merchants/${spec.merchantId}/webhook-endpoints?env=${spec.env}`,
    { url: spec.url, ...(spec.events === undefined ? {} : { events: spec.events }) },
  );
  const path = `/inboxes/${encodeURIComponent(spec.name)}`;
  const messages = async () =>
    (await inWorkspace<{ messages: InboxMessage[] }>('GET', `${path}?limit=1000`)).messages.sort(
      (a, b) => a.id - b.id,
    );
  return {
    name: spec.name,
    url: spec.url,
    endpoint: { id: endpoint.id, secret: endpoint.secret, events: endpoint.events },
    messages,
    clear: () => inWorkspace<void>('DELETE', `${path}/messages`),
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
