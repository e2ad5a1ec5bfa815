import {
  type InputArgs,
  MissingParameter,
  type OperationAnswer,
  type OperationId,
  operations,
  type ResolvedCall,
  resolveCall,
} from '../contract/call.js';
import type { Workspace } from '../contract/workspaces.js';
import { WORKSPACE_HEADER } from '../contract/workspaces.js';
import { baseUrl, CliFailure, controlHeaders, type Parsed, workspaceOption } from './common.js';

/** A list as the control API answers it: a bare array, or `{items}` / `{data}` around one. */
export function listOf<T>(answer: unknown): T[] {
  if (Array.isArray(answer)) return answer as T[];
  const wrapped = answer as { items?: unknown; data?: unknown } | null;
  if (Array.isArray(wrapped?.items)) return wrapped.items as T[];
  if (Array.isArray(wrapped?.data)) return wrapped.data as T[];
  throw new CliFailure('the sandbox answered a list in a shape this svc-sandbox does not know');
}

/** The client a command's --url and --workspace (or their variables) name. */
export function clientFor(values: Parsed['values']): SandboxClient {
  return new SandboxClient(baseUrl(values), workspaceOption(values));
}

/**
 * The method and path (parameters filled, query added) of one operation of the table
 * (server/contract/operations.ts); a missing path parameter is a CliFailure like any other.
 */
export function resolved<K extends OperationId>(id: K, ...input: InputArgs<K>): ResolvedCall {
  try {
    return resolveCall(id, ...input);
  } catch (error) {
    if (error instanceof MissingParameter) throw new CliFailure(`${operations[id]}: ${error.message}`);
    throw error;
  }
}

/**
 * The control API of a running sandbox, over fetch. Every failure becomes a CliFailure.
 * With a workspace (an id or a name), every call carries X-SVC-Workspace and acts in it.
 * Calls go by operationId (`call`): the operation table gives each one's method and path.
 */
export class SandboxClient {
  private scope: Promise<Record<string, string>> | undefined;

  constructor(
    readonly baseUrl: string,
    readonly workspace?: string | undefined,
  ) {}

  /** The same sandbox, scoped to another workspace (undefined: the default one). */
  in(workspace: string | undefined): SandboxClient {
    return new SandboxClient(this.baseUrl, workspace);
  }

  /** Every workspace of the sandbox (sandbox-wide: no workspace header). */
  async workspaces(): Promise<Workspace[]> {
    return listOf<Workspace>(await this.in(undefined).call('sandboxListWorkspaces'));
  }

  /** The workspace an id or a name (case-insensitive, as the server matches it) stands for. */
  async findWorkspace(idOrName: string): Promise<Workspace> {
    const all = await this.workspaces();
    const lower = idOrName.toLowerCase();
    const found = all.find((w) => w.id === idOrName) ?? all.find((w) => w.name.toLowerCase() === lower);
    if (!found)
      throw new CliFailure(
        `no workspace ${JSON.stringify(idOrName)} at ${this.baseUrl} (svc-sandbox workspaces list shows them)`,
      );
    return found;
  }

  /** The X-SVC-Workspace header, if any. */
  workspaceHeaders(): Promise<Record<string, string>> {
    const workspace = this.workspace;
    if (workspace === undefined) return Promise.resolve({});
    // A header carries printable ASCII safely; a name beyond it is looked up to its id first.
    this.scope ??= /^[\x20-\x7e]+$/.test(workspace)
      ? Promise.resolve({ [WORKSPACE_HEADER]: workspace })
      : this.findWorkspace(workspace).then((w) => ({ [WORKSPACE_HEADER]: w.id }));
    return this.scope;
  }

  notRunning(): CliFailure {
    return new CliFailure(`no sandbox answering at ${this.baseUrl} (start one with: svc-sandbox serve)`);
  }

  async request<T>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<T> {
    const scope = await this.workspaceHeaders();
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers: {
          ...controlHeaders(),
          ...scope,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
    } catch (error) {
      if ((error as Error).name === 'TimeoutError')
        throw new CliFailure(`${method} ${path}: no answer from ${this.baseUrl} within 30 s`);
      throw this.notRunning();
    }
    const text = await response.text();
    if (!response.ok) {
      let message = text;
      try {
        const parsed = JSON.parse(text) as { error?: unknown };
        if (typeof parsed.error === 'string') message = parsed.error;
      } catch {}
      const hint =
        response.status === 404 && this.workspace !== undefined && /workspace/i.test(message)
          ? ' (svc-sandbox workspaces list shows them)'
          : '';
      throw new CliFailure(`${method} ${path} failed: ${response.status} ${message}`.trim() + hint);
    }
    if (response.status === 204 || text === '') return undefined as T;
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new CliFailure(`${method} ${path}: ${this.baseUrl} did not answer JSON (is it a sandbox?)`);
    }
  }

  /**
   * One operation of the table by its operationId, typed from end to end:
   * `call('sandboxAdvanceClock', { body: { seconds: 60 } })`. A write without a body sends `{}`.
   */
  call<K extends OperationId>(id: K, ...input: InputArgs<K>): Promise<OperationAnswer<K>> {
    return this.callWith({}, id, ...input);
  }

  /** `call` with headers of its own: a merchant's API key, as its app sends it on /v1. */
  callWith<K extends OperationId>(
    headers: Record<string, string>,
    id: K,
    ...input: InputArgs<K>
  ): Promise<OperationAnswer<K>> {
    const { method, path, body } = resolved(id, ...input);
    const sent = body === undefined && method !== 'GET' && method !== 'DELETE' ? {} : body;
    return this.request<OperationAnswer<K>>(method, path, sent, headers);
  }

  /**
   * Opens a server-sent-events stream (its `path` from `resolved('sandboxStreamEvents', { query })`)
   * and calls `onMessage` for each message until `signal` aborts (resolves) or the server ends the
   * stream (rejects with a CliFailure).
   * `onOpen` runs once the response headers are in.
   */
  async stream(
    path: string,
    onMessage: (message: SseMessage) => void,
    signal: AbortSignal,
    onOpen?: () => void,
  ): Promise<void> {
    const scope = await this.workspaceHeaders();
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl}${path}`, {
        headers: { accept: 'text/event-stream', ...controlHeaders(), ...scope },
        signal,
      });
    } catch {
      if (signal.aborted) return;
      throw this.notRunning();
    }
    if (!response.ok || !response.body) {
      const text = await response.text().catch(() => '');
      throw new CliFailure(`GET ${path} failed: ${response.status} ${text}`.trim());
    }
    onOpen?.();
    const parser = new SseParser(onMessage);
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        parser.push(decoder.decode(chunk, { stream: true }));
      }
    } catch (error) {
      if (signal.aborted) return;
      throw new CliFailure(`the event stream from ${this.baseUrl} broke: ${(error as Error).message}`);
    }
    if (signal.aborted) return;
    throw new CliFailure(`the sandbox at ${this.baseUrl} closed the event stream (did it stop?)`);
  }
}

export interface SseMessage {
  event: string;
  id: string | undefined;
  data: string;
}

/** The text/event-stream format: fields per line, a blank line ends a message, `:` lines are comments. */
export class SseParser {
  private buffer = '';
  private event = '';
  private id: string | undefined;
  private data: string[] = [];

  constructor(private readonly onMessage: (message: SseMessage) => void) {}

  push(text: string): void {
    this.buffer += text;
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.buffer);
      if (!match) return;
      // A lone \r at the very end may be the first half of \r\n: wait for more.
      if (match[0] === '\r' && match.index === this.buffer.length - 1) return;
      const line = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      this.line(line);
    }
  }

  private line(line: string): void {
    if (line === '') {
      if (this.data.length > 0 || this.event !== '') {
        this.onMessage({ event: this.event || 'message', id: this.id, data: this.data.join('\n') });
      }
      this.event = '';
      this.data = [];
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.event = value;
    else if (field === 'data') this.data.push(value);
    else if (field === 'id') this.id = value;
  }
}
