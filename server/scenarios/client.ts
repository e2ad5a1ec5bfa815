/**
 * The scenario runner's view of a sandbox: plain HTTP to its two listeners, a fresh sandbox on
 * ephemeral ports (the CLI) or a running one (--url, the control API). It never reaches into the
 * sandbox's internals, so what passes here passes for an integration calling the same addresses.
 */
import { type Call, caller } from '../contract/call.js';
import type { Env } from '../contract/common.js';
import { DEFAULT_WORKSPACE_ID, WORKSPACE_HEADER } from '../contract/workspaces.js';

export interface ScenarioTarget {
  /** base URLs of the sandbox's two listeners; the control API is reached on the test one */
  urls: { test: string; production: string };
  /** the sandbox's control token, when it requires one (--control-token) */
  controlToken?: string | undefined;
  /**
   * The workspace to run in (its id or name): every control call carries it. The /v1 calls need
   * nothing more: the keys the run makes there belong to that workspace.
   */
  workspace?: string | undefined;
}

/** A step that did not hold: the message says what was expected and what was found. */
export class StepFailure extends Error {}

export interface Response {
  status: number;
  body: unknown;
}

/** An event as the control API lists it. */
export interface ListedEvent {
  id: string;
  type: string;
  data: Record<string, unknown>;
  created_at: string;
}

const SHOWN_CHARS = 500;
/** A value as JSON in a message, cut short when long (a whole list would drown the point). */
export const show = (value: unknown): string => {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value);
  return text.length <= SHOWN_CHARS ? text : `${text.slice(0, SHOWN_CHARS)}… (${text.length} characters)`;
};

export const withQuery = (path: string, query?: Record<string, string | number | boolean>): string => {
  if (!query || Object.keys(query).length === 0) return path;
  const params = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]));
  return `${path}${path.includes('?') ? '&' : '?'}${params}`;
};

/**
 * One run's HTTP client: the sandbox's addresses, the environment of steps that name none, and the
 * merchants the run made (by their name in the file), whose keys its merchant API calls carry.
 */
export class ScenarioClient {
  private readonly merchants = new Map<string, { id: string; key: string }>();
  /** What merchants the run reused already had when it took them (./reuse.ts), by merchant id. */
  private readonly before = new Map<string, Baseline>();

  constructor(
    readonly urls: ScenarioTarget['urls'],
    private readonly defaults: { env: Env; merchant: string | undefined },
    private readonly controlToken?: string,
    private readonly workspace?: string,
  ) {}

  /**
   * The addresses a scenario file writes with `${sandbox.url}` and `${sandbox.urls.*}`: in a
   * workspace other than the default, under its `/w/<id>` prefix, so a URL built from them (the
   * built-in inbox as a webhook endpoint, a page) reaches that workspace without a header.
   */
  refUrls(): ScenarioTarget['urls'] {
    const workspace = this.workspace;
    if (workspace === undefined || workspace === DEFAULT_WORKSPACE_ID) return { ...this.urls };
    const prefix = `/w/${encodeURIComponent(workspace)}`;
    return { test: `${this.urls.test}${prefix}`, production: `${this.urls.production}${prefix}` };
  }

  envOf(stepEnv?: Env): Env {
    return stepEnv ?? this.defaults.env;
  }

  /** The base URL of an environment's listener. */
  baseUrl(env: Env): string {
    return this.urls[env];
  }

  addMerchant(name: string, merchant: { id: string; key: string }): void {
    this.merchants.set(name, merchant);
  }

  /** A merchant the run made (the first merchant step's when no name is given). */
  merchant(name: string | undefined): { id: string; key: string } {
    const merchant = this.merchants.get(name ?? this.defaults.merchant ?? '');
    if (!merchant) throw new StepFailure(`merchant ${name ?? '(default)'} was not created (its step failed)`);
    return merchant;
  }

  merchantNames(): string[] {
    return [...this.merchants.keys()];
  }

  merchantIds(): Set<string> {
    return new Set([...this.merchants.values()].map((m) => m.id));
  }

  async request(
    method: string,
    url: string,
    init: { body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json', ...init.headers };
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    let response: globalThis.Response;
    try {
      response = await fetch(url, {
        method,
        headers,
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        signal: AbortSignal.timeout(30_000),
      });
    } catch (error) {
      throw new StepFailure(`${method} ${url}: no answer (${(error as Error).message})`);
    }
    const text = await response.text();
    let body: unknown = text;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {}
    return { status: response.status, body };
  }

  /** A call to the control API (on the test listener), in the run's workspace. */
  control(method: string, path: string, body?: unknown): Promise<Response> {
    const headers: Record<string, string> =
      this.controlToken === undefined ? {} : { 'x-svc-control-token': this.controlToken };
    if (this.workspace !== undefined) headers[WORKSPACE_HEADER] = this.workspace;
    return this.request(method, `${this.urls.test}${path}`, { body, headers });
  }

  /** A control call that has to succeed for the step to make sense. */
  async controlOk(method: string, path: string, body?: unknown): Promise<unknown> {
    const response = await this.control(method, path, body);
    if (response.status < 200 || response.status > 299)
      throw new StepFailure(`${method} ${path}: ${response.status} ${show(response.body)}`);
    return response.body;
  }

  /** A control call by operation (server/contract/operations.ts) that has to succeed. */
  readonly call: Call = caller((method, path, body) => this.controlOk(method, path, body));

  /** The merchant's events (newest first), without those a reused merchant had before this run. */
  async events(merchantId: string, env: Env): Promise<ListedEvent[]> {
    const all: ListedEvent[] = await this.call('sandboxListMerchantEvents', {
      params: { id: merchantId },
      query: { env, limit: 1000 },
    });
    const before = this.before.get(merchantId);
    return before ? all.filter((e) => !before.events.has(e.id)) : all;
  }

  /** Records what a reused merchant already had: expectations then see only what this run made. */
  setBaseline(merchantId: string, baseline: Baseline): void {
    this.before.set(merchantId, baseline);
  }

  /** Whether the event was there before this run took the (reused) merchant. */
  eventBefore(merchantId: string, eventId: string): boolean {
    return this.before.get(merchantId)?.events.has(eventId) ?? false;
  }

  /** A reused merchant's balance when the run took it (zero for one the run made). */
  balanceBefore(merchantId: string, env: Env, currency: string): { available: number; held: number } {
    return this.before.get(merchantId)?.balances.get(`${env}:${currency}`) ?? { available: 0, held: 0 };
  }
}

/** A reused merchant's state when a run took it: its event ids, its balances by `env:currency`. */
export interface Baseline {
  events: Set<string>;
  balances: Map<string, { available: number; held: number }>;
}
