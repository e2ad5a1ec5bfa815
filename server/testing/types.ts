/**
 * The shapes `svc-sandbox/testing` hands to a test, written out in full so the published
 * declarations stand alone (test/unit/testing-types.test.ts checks each against the contract).
 */

/** An environment of the sandbox: each has its own listener, and a key acts in the one it is sent to. */
export type Env = 'test' | 'production';

/** A workspace's clock, as `GET /sandbox/clock` answers. */
export interface ClockState {
  /** the workspace's sandbox time, ISO 8601 */
  now: string;
  /** how far the clock stands from real time, in ms */
  offset_ms: number;
  frozen: boolean;
  /** jobs that fell due and ran because of this call (advance, resume) */
  ran?: number;
}

/** What a clock advance ran: the events recorded, delivery attempts made, jobs run. */
export interface Fired {
  /** each event: its type, its id, and the resource it is about (a checkout, a card…) */
  events: { type: string; id: string; resource_id: string | null }[];
  deliveries: number;
  jobs: number;
}

/** `POST /sandbox/clock/advance`'s answer: the clock after the jump and what fell due on the way. */
export interface ClockAdvance extends ClockState {
  fired: Fired;
}

/** A workspace, as `GET /sandbox/workspaces/{id}` answers. */
export interface WorkspaceInfo {
  /** `default`, or `ws_` and 16 base62 characters */
  id: string;
  name: string;
  /** real time of creation */
  created_at: string;
  default: boolean;
  /** kept in memory only: gone when the sandbox stops */
  ephemeral: boolean;
  /** the seed its ids, keys and addresses follow, if any */
  seed: string | null;
  clock: ClockState;
  /** what it was forked from */
  from: { workspace_id: string; checkpoint: string | null } | null;
  /** how many checkpoints it holds */
  checkpoints: number;
}

/** A saved moment of a workspace: its data, clock and settings. */
export interface CheckpointInfo {
  name: string;
  /** the workspace's sandbox time at the moment saved */
  at: string;
  /** real time of saving */
  created_at: string;
  size_bytes: number;
}

/** A webhook request the sandbox's built-in inbox received. */
export interface InboxMessage {
  id: number;
  received_at: string;
  /** lowercase names, as sent: `x-svc-event`, the signature header, … */
  headers: Record<string, string>;
  /** the raw body: JSON text of the event envelope */
  body: string;
  /** whether the signature checks out with the endpoint's secret (null: no endpoint to check with) */
  signature_valid: boolean | null;
  response_status: number;
}

/** How a workspace for a test is made. Everything is optional. */
export interface WorkspaceOptions {
  /** Unique across the sandbox (case-insensitive). Default: `test-` and a random suffix. */
  name?: string;
  /** Makes its ids, keys and addresses deterministic. */
  seed?: string;
  /** Where its clock starts (ISO 8601 or a Date) and whether it stands still. Default: now, running. */
  clock?: { start?: string | Date; frozen?: boolean };
  /** Fork: a copy of that workspace now, or of one of its checkpoints. */
  from?: { workspace_id: string; checkpoint?: string };
  /**
   * Kept in memory only (default true): a test's workspace never outlives the sandbox, even when
   * the test forgets to close it.
   */
  ephemeral?: boolean;
  /**
   * The merchant the workspace's key belongs to (created through `POST /sandbox/merchants`).
   * Default `{ name: 'Test merchant' }`. In a fork, the fork's first merchant is used instead,
   * when it has one.
   */
  merchant?: { name?: string; country?: string; kyb_status?: 'draft' | 'pending' | 'approved' | 'rejected' };
}

/** What {@link TestWorkspace.api} and {@link TestWorkspace.control} send besides method and path. */
export interface RequestOptions {
  /** JSON body */
  body?: unknown;
  /** `/v1` only: the listener to call (default `test`) */
  env?: Env;
  /** more headers */
  headers?: Record<string, string>;
}

/** The sandbox's built-in webhook receiver, set up as the workspace merchant's endpoint. */
export interface TestInbox {
  /** The inbox's name (inboxes are per workspace). */
  readonly name: string;
  /** The URL the endpoint delivers to: under the workspace's `/w/<id>` prefix (a delivery carries no header). */
  readonly url: string;
  /** The webhook endpoint pointing at it, with its signing secret. */
  readonly endpoint: { id: string; secret: string; events: string[] };
  /** The messages received so far, oldest first. */
  messages(): Promise<InboxMessage[]>;
  /**
   * Resolves with the first message whose event type is `type` (or that `match` accepts), polling
   * until `timeoutMs` (default 4 s: under Vitest's and Jest's 5 s test timeout) has passed; then
   * rejects naming the event types that did arrive.
   */
  waitFor(
    match: string | ((message: InboxMessage, event: WebhookEnvelope) => boolean),
    options?: { timeoutMs?: number },
  ): Promise<InboxMessage & { event: WebhookEnvelope }>;
  /** Forgets the messages received so far. */
  clear(): Promise<void>;
}

/** The JSON body of a webhook delivery. */
export interface WebhookEnvelope {
  /** the delivery's id */
  id: string;
  /** the event type, e.g. `checkout.expired` */
  event: string;
  /** the event's data: for a checkout event, the checkout */
  data: Record<string, unknown>;
}

/** A workspace's clock, moved through the control API with the workspace's header. */
export interface TestClock {
  /** The workspace's sandbox time. */
  now(): Promise<Date>;
  state(): Promise<ClockState>;
  /**
   * Moves the clock forward, running every job of this workspace that falls due on the way
   * (expiries, settlements, webhook retries). `by`: seconds, or a duration such as `90s`, `15m`,
   * `1h`, `2d`, `1h30m`.
   */
  advance(by: number | string): Promise<ClockAdvance>;
  /** Stops the clock where it stands. */
  freeze(): Promise<ClockState>;
  /** Lets it run again from where it stands. */
  resume(): Promise<ClockState>;
}

/** The workspace's checkpoints: saved moments to go back to, or to fork from. */
export interface TestCheckpoints {
  save(name: string): Promise<CheckpointInfo>;
  list(): Promise<CheckpointInfo[]>;
  /** Brings back the data, clock and settings of that moment. */
  restore(name: string): Promise<WorkspaceInfo>;
  delete(name: string): Promise<void>;
}

/** One test's own world in a shared sandbox: its data, key, clock and webhook queue. */
/**
 * What an API fault does to a request: exactly one of `status` (the handler does not run; a 429
 * carries `Retry-After: retry_after_s`, default 1), `latency_ms` (the right answer, later),
 * `timeout` (no answer) or `lost_response` (the request runs and commits, then the connection closes).
 */
export interface FaultEffect {
  status?: 429 | 500 | 502 | 503 | 504;
  retry_after_s?: number;
  latency_ms?: { min: number; max: number };
  timeout?: true;
  lost_response?: true;
}

/** Which /v1 requests a rule applies to; `path` is a route template (`/v1/checkouts/{id}`) or an exact path. */
export interface FaultMatch {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path?: string;
  env?: Env;
}

/** A rule to set: the first rule that matches a request and whose draw falls under `rate` (default 1) changes it. */
export interface FaultRuleInput {
  id?: string;
  match?: FaultMatch;
  rate?: number;
  /** only the next `count` requests it changes */
  count?: number;
  effect: FaultEffect;
}

/** A rule in force, with what it has done. */
export interface FaultRule {
  id: string;
  match: FaultMatch;
  rate: number;
  count: number | null;
  remaining: number | null;
  applied: number;
  effect: FaultEffect;
}

/** The faults of a workspace, as `GET /sandbox/faults` answers. */
export interface FaultsState {
  seed: string | null;
  rules: FaultRule[];
}

/** A workspace's API faults (they go with the workspace when it is closed). */
export interface TestFaults {
  /** Replaces the rules; a seed makes the decisions repeatable (and restarts the sequence). */
  set(rules: FaultRuleInput[] | { seed?: string; rules: FaultRuleInput[] }): Promise<FaultsState>;
  list(): Promise<FaultsState>;
  clear(): Promise<void>;
}

/** Which /v1 requests the app should have sent (every given field must match). */
export interface RequestCriteria {
  method?: string;
  /** a route template (`/v1/checkouts/{id}`) or an exact path, without the query */
  path?: string;
  env?: Env;
  /** an exact status (`201`) or a class (`'4xx'`) */
  status?: number | string;
  query?: Record<string, string>;
  /** a subset of the JSON body: the fields given, at any depth */
  body?: unknown;
  /** only requests after this request id, or at or after this time */
  since?: string | Date;
}

/** How many matching requests are expected (default: at least one). */
export interface CountExpectation {
  eq?: number;
  gte?: number;
  lte?: number;
}

/** A request the verification looked at, briefly. */
export interface VerifiedRequest {
  id: string;
  created_at: string;
  env: Env;
  method: string;
  path: string;
  status: number;
  request_body: string | null;
}

/** `POST /sandbox/request-log/verify`'s answer. */
export interface VerifyResult {
  ok: boolean;
  matched: number;
  count: CountExpectation;
  requests: VerifiedRequest[];
  near_misses: { request: VerifiedRequest; differences: string[] }[];
}

export interface TestWorkspace {
  /** The workspace's id: what `X-SVC-Workspace` carries. */
  readonly id: string;
  readonly name: string;
  /** The workspace as created. */
  readonly info: WorkspaceInfo;
  /** The merchant whose key this is. */
  readonly merchant: { id: string; name: string };
  /** The merchant's owner API key. A key acts in the environment of the listener it is sent to. */
  readonly apiKey: string;
  /** `Authorization: Bearer <apiKey>`, for `/v1`. */
  readonly headers: { authorization: string };
  /** `X-SVC-Workspace` (and the control token, when the sandbox has one), for `/sandbox`. */
  readonly controlHeaders: Record<string, string>;
  readonly urls: {
    /** base URL of the test environment: `/v1` with {@link apiKey} acts in test */
    test: string;
    /** base URL of the production environment: `/v1` with {@link apiKey} acts in production */
    production: string;
    /** base of the control API (`…/sandbox`); send {@link controlHeaders} with every call */
    control: string;
    /** the dashboard, opened on this workspace */
    dashboard: string;
  };
  readonly clock: TestClock;
  readonly checkpoints: TestCheckpoints;
  /** A `/v1` call with the workspace's key; rejects with a {@link SandboxRequestError} unless 2xx. */
  api<T = unknown>(method: string, path: string, options?: RequestOptions): Promise<T>;
  /** A control call in this workspace; `path` is relative to `/sandbox` (`'/clock/freeze'`). Rejects unless 2xx. */
  control<T = unknown>(method: string, path: string, options?: RequestOptions): Promise<T>;
  /**
   * Points a webhook endpoint of the merchant (test environment by default) at the built-in
   * inbox `name` (default `test`) and returns the inbox.
   */
  inbox(name?: string, options?: { env?: Env; events?: string[] }): Promise<TestInbox>;
  /** The workspace's API faults: errors, 429s, latency, timeouts and lost responses on its `/v1` requests. */
  readonly faults: TestFaults;
  /**
   * Checks that the app sent the requests `criteria` describes (`count`: default at least one);
   * throws an assertion error naming the closest requests and what differed when not.
   */
  verify(criteria: RequestCriteria & { count?: CountExpectation | number }): Promise<VerifyResult>;
  /** The requests matching `criteria`, newest first (at most 20). */
  requests(criteria?: RequestCriteria): Promise<VerifiedRequest[]>;
  /** Deletes the workspace (its data, keys and clock with it). Calling it again does nothing. */
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** How {@link startSandbox} runs the sandbox. */
export interface StartOptions {
  /**
   * `in-process` (default): `createSandbox` in this process, on ports 0: no process to start, the
   * fastest. `child`: `svc-sandbox serve --port 0 --prod-port 0 --db :memory:` as a child process,
   * its addresses read from the line it prints when ready: isolated from the test runner's process.
   */
  mode?: 'in-process' | 'child';
  /** Makes ids, keys and addresses of the default workspace deterministic. */
  seed?: string;
  /** Require this token on every control call (sent by the helpers here). */
  controlToken?: string;
  /**
   * Set `SVC_SANDBOX_URL` (and `SVC_SANDBOX_CONTROL_TOKEN`) in this process's environment, so test
   * workers started afterwards (Vitest's and Jest's are) find the sandbox with {@link workspace}.
   * Default true; put back as they were by `close()`.
   */
  setEnv?: boolean;
  /**
   * Collect coverage: each workspace's report is kept as it closes (in a directory the test workers
   * find through `SVC_SANDBOX_COVERAGE_DIR`), for {@link coverageReport} at the end of the run.
   */
  coverage?: boolean;
  /** `child` only: the CLI script to run (default: this package's built `dist/server/cli.js`). */
  cli?: string;
  /** `child` only: how long to wait for the ready line (default 20 s). */
  timeoutMs?: number;
}

/** A sandbox the tests share: started here, or one already running. */
export interface TestSandbox {
  readonly mode: 'in-process' | 'child' | 'remote';
  /** The listeners' base URLs (the control API is `${urls.test}/sandbox`). */
  readonly urls: { test: string; production: string; dashboard: string };
  /** The variables that point {@link workspace} in another process at this sandbox. */
  readonly env: Record<string, string>;
  /** A new workspace of its own for one test, with a merchant and its key. */
  workspace(options?: WorkspaceOptions): Promise<TestWorkspace>;
  /**
   * Stops a sandbox started here, its workspaces with it; for a remote one, deletes the
   * workspaces made through this object and leaves the sandbox running.
   */
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** What a workspace reached (GET /sandbox/coverage): each event type and state transition, with a count. */
export interface CoverageCounts {
  events: { type: string; count: number }[];
  /** `from` is `(new)` for a row's first status; `via` says what makes the move */
  transitions: { machine: string; from: string; to: string; via: string; count: number }[];
}

/** {@link coverageReport}'s result: the counts added up, and how many workspaces they came from. */
export interface CoverageReport extends CoverageCounts {
  workspaces: number;
}
