import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { rootCertificates } from 'node:tls';
import type { Agent, Dispatcher } from 'undici';
import { lazy } from '../lazy-require.js';

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
 * The certificates an HTTPS receiver may chain to, when extra ones are given: Node's bundled roots,
 * the file NODE_EXTRA_CA_CERTS names, and the extra. A `ca` given to TLS replaces Node's default
 * store (which holds the NODE_EXTRA_CA_CERTS certificates) rather than adding to it, so both are
 * listed again here. Without extra ones: undefined, Node's default store as it is.
 */
export function trustedCertificates(
  extra: readonly string[] | undefined,
  env: NodeJS.ProcessEnv,
): string[] | undefined {
  if (!extra || extra.length === 0) return undefined;
  const fromEnv: string[] = [];
  const file = env.NODE_EXTRA_CA_CERTS;
  if (file) {
    try {
      fromEnv.push(readFileSync(file, 'utf8'));
    } catch {
      // Node has already warned about an unreadable file at start-up and goes on without it.
    }
  }
  return [...rootCertificates, ...fromEnv, ...extra];
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

const TRUST_HINT =
  'trust its CA with the webhook CA setting (serve --webhook-ca FILE) or NODE_EXTRA_CA_CERTS';

/**
 * What OpenSSL's and Node's certificate checks mean for a developer's receiver, by error code.
 * The code stays in the text, for searching.
 */
const TLS_FAILURES: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: `the receiver's certificate is self-signed and not trusted: ${TRUST_HINT}`,
  SELF_SIGNED_CERT_IN_CHAIN: `the receiver's certificate chains to a self-signed CA that is not trusted: ${TRUST_HINT}`,
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: `the receiver's certificate is signed by an unknown CA: ${TRUST_HINT}`,
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: `the receiver's certificate is signed by an unknown CA: ${TRUST_HINT}`,
  UNABLE_TO_GET_ISSUER_CERT: `the receiver's certificate is signed by an unknown CA: ${TRUST_HINT}`,
  CERT_UNTRUSTED: `the receiver's certificate is not trusted: ${TRUST_HINT}`,
  CERT_HAS_EXPIRED: "the receiver's certificate has expired",
  CERT_NOT_YET_VALID: "the receiver's certificate is not valid yet (its start date is in the future)",
  CERT_SIGNATURE_FAILURE: "the receiver's certificate has an invalid signature",
  CERT_REVOKED: "the receiver's certificate has been revoked",
  ERR_SSL_WRONG_VERSION_NUMBER: 'the receiver does not speak TLS on this port (is it http://, not https://?)',
};

function describeError(error: unknown, timeoutMs: number): string {
  if (!(error instanceof Error)) return String(error);
  if (error.name === 'TimeoutError' || error.name === 'AbortError')
    return `timeout: no answer within ${timeoutMs} ms`;
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const code = (error as { code?: string }).code ?? cause?.code;
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    const reason = (error as { reason?: string }).reason ?? error.message;
    return `TLS (${code}): the receiver's certificate is for another host name: ${reason}`;
  }
  const tls = code === undefined ? undefined : TLS_FAILURES[code];
  if (tls) return `TLS (${code}): ${tls}`;
  return [code, error.message || cause?.message].filter(Boolean).join(': ');
}
