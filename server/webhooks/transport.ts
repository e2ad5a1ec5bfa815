import { performance } from 'node:perf_hooks';
import type { Agent, Dispatcher } from 'undici';
import { lazy } from '../runtime/lazy-require.js';
import { describeTlsFailure, trustedCertificates } from './trust.js';

// Loaded with the first send, not at start-up.
const undici = lazy<typeof import('undici')>('undici');

export const RESPONSE_BODY_CAP = 64 * 1024;

/** What one POST came to: the receiver's answer, or why there was none (in words). */
export interface SendResult {
  status: number | null;
  body: string | null;
  error: string | null;
}

export interface TransportOptions {
  /** the whole exchange's timeout, read for each send (a setting) */
  timeoutMs: () => number;
  /**
   * PEM certificates trusted for HTTPS receivers besides Node's own roots (a local CA such as
   * mkcert's, or a self-signed receiver's certificate).
   */
  ca?: readonly string[] | undefined;
  /** the environment NODE_EXTRA_CA_CERTS is read from (default: this process's) */
  env?: NodeJS.ProcessEnv;
}

interface Target {
  origin: string;
  path: string;
}

/**
 * Sends webhook requests: HTTP(S) POSTs through one undici Agent (keep-alive, up to 128 connections
 * per origin), each bounded by the timeout, and says what came of each in words.
 */
export class WebhookTransport {
  private agent: Agent | undefined;
  private readonly deadlines = new Deadlines();
  /** delivery URL → where undici's dispatch sends it (a handful of endpoints; bounded anyway) */
  private readonly targets = new Map<string, Target>();
  private readonly ca: string[] | undefined;

  constructor(private readonly options: TransportOptions) {
    this.ca = trustedCertificates(options.ca, options.env ?? process.env);
  }

  /** One POST; never throws: a failure is the result's `error`. */
  async post(url: string, headers: Record<string, string>, body: string): Promise<SendResult> {
    const timeoutMs = this.options.timeoutMs();
    try {
      const { Agent } = undici();
      this.agent ??= new Agent({
        keepAliveTimeout: 30_000,
        connections: 128,
        pipelining: 1,
        ...(this.ca ? { connect: { ca: this.ca } } : {}),
      });
      const response = await post(this.agent, this.deadlines, this.target(url), headers, body, timeoutMs);
      return { status: response.status, body: response.body, error: null };
    } catch (caught) {
      return { status: null, body: null, error: describeError(caught, timeoutMs) };
    }
  }

  async close(): Promise<void> {
    this.deadlines.clear();
    await this.agent?.close();
  }

  /** Cuts off every send in flight (each ends with an error) and closes the connections. */
  async destroy(): Promise<void> {
    this.deadlines.clear();
    await this.agent?.destroy();
  }

  private target(url: string): Target {
    let target = this.targets.get(url);
    if (!target) {
      // What undici's request(url) sends: the origin, then path and query (no fragment, no userinfo).
      const parsed = new URL(url);
      target = { origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` };
      if (this.targets.size >= 1000) this.targets.clear();
      this.targets.set(url, target);
    }
    return target;
  }
}

/**
 * One POST through undici's dispatch API: the status and the response body (capped at
 * RESPONSE_BODY_CAP), or the error. request() would add a body stream, an async iterator and an
 * AbortSignal with its own timer per send, several times the cost of the send itself; here the
 * body is collected from callbacks and the timeout is one of `deadlines`. The timeout covers the
 * whole exchange, waiting for a connection included.
 */
function post(
  agent: Agent,
  deadlines: Deadlines,
  target: Target,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    let controller: Dispatcher.DispatchController | undefined;
    let settled = false;
    let status = 0;
    let size = 0;
    const chunks: Buffer[] = [];
    const settle = (error?: Error) => {
      if (settled) return;
      settled = true;
      deadlines.remove(deadline);
      if (error) {
        reject(error);
        return;
      }
      const text = Buffer.concat(chunks).toString('utf8');
      resolve({
        status,
        body: size > RESPONSE_BODY_CAP ? `${text}…[truncated ${size - RESPONSE_BODY_CAP} bytes]` : text,
      });
    };
    const timedOut = () => new DOMException(`no answer within ${timeoutMs} ms`, 'TimeoutError');
    const deadline = deadlines.add(timeoutMs, () => {
      const error = timedOut();
      settle(error);
      controller?.abort(error);
    });
    try {
      agent.dispatch(
        { origin: target.origin, path: target.path, method: 'POST', headers, body },
        {
          onRequestStart(started) {
            controller = started;
            // timed out while waiting for a connection: it goes no further
            if (settled) started.abort(timedOut());
          },
          onResponseStart(_controller, statusCode) {
            status = statusCode;
          },
          onResponseData(_controller, chunk) {
            if (size < RESPONSE_BODY_CAP) chunks.push(chunk.subarray(0, RESPONSE_BODY_CAP - size));
            size += chunk.length;
          },
          onResponseEnd() {
            settle();
          },
          onResponseError(_controller, error) {
            settle(error);
          },
        },
      );
    } catch (error) {
      settle(error instanceof Error ? error : new Error(String(error)));
    }
  });
}

type DeadlineEntry = { at: number; expire: () => void };

/**
 * The timeouts of the sends in flight, on one timer (armed for the earliest deadline) instead of
 * one timer and one AbortSignal per send.
 */
class Deadlines {
  private readonly pending = new Set<DeadlineEntry>();
  private timer: NodeJS.Timeout | undefined;
  private armedAt = Number.POSITIVE_INFINITY;

  add(ms: number, expire: () => void): DeadlineEntry {
    const entry = { at: performance.now() + ms, expire };
    this.pending.add(entry);
    if (entry.at < this.armedAt) this.arm(entry.at);
    return entry;
  }

  remove(entry: DeadlineEntry): void {
    this.pending.delete(entry);
  }

  clear(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.armedAt = Number.POSITIVE_INFINITY;
  }

  private arm(at: number): void {
    clearTimeout(this.timer);
    this.armedAt = at;
    this.timer = setTimeout(() => this.fire(), Math.max(0, Math.ceil(at - performance.now())));
    // Like AbortSignal.timeout: a pending timeout alone does not keep the process alive.
    this.timer.unref();
  }

  private fire(): void {
    this.timer = undefined;
    this.armedAt = Number.POSITIVE_INFINITY;
    const now = performance.now();
    let next = Number.POSITIVE_INFINITY;
    for (const entry of this.pending) {
      if (entry.at <= now) {
        this.pending.delete(entry);
        entry.expire();
      } else if (entry.at < next) next = entry.at;
    }
    if (next !== Number.POSITIVE_INFINITY) this.arm(next);
  }
}

function describeError(error: unknown, timeoutMs: number): string {
  if (!(error instanceof Error)) return String(error);
  if (error.name === 'TimeoutError' || error.name === 'AbortError')
    return `timeout: no answer within ${timeoutMs} ms`;
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const code = (error as { code?: string }).code ?? cause?.code;
  const tls = describeTlsFailure(error, code);
  if (tls) return tls;
  return [code, error.message || cause?.message].filter(Boolean).join(': ');
}
