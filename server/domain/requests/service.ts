import { EventEmitter } from 'node:events';
import type { Clock } from '../../clock.js';
import type { Env } from '../../contract/common.js';
import type { FaultMark } from '../../contract/faults.js';
import type {
  RequestLogEntry,
  RequestLogQuery,
  VerifyRequestsBody,
  VerifyRequestsResult,
} from '../../contract/requests.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import type { RequestLog } from '../../request-log/log.js';
import type { NewRequestLogRow } from '../../request-log/rows.js';
import { API_KEY_PREFIX } from '../merchants/service.js';
import { verify } from './verify.js';

/** Each body is kept up to this many bytes (UTF-8); longer ones are cut and end in a marker. */
export const BODY_CAP_BYTES = 16 * 1024;
export const REDACTED = '[redacted]';

/** What a route asks the log to hide (its `config.redact`): both bodies, or these request fields. */
export type Redaction = 'body' | readonly string[];

/** One finished /v1 request, as the HTTP edge saw it (before masking, redaction and caps). */
export interface FinishedRequest {
  env: Env;
  merchantId: string | null;
  apiKeyId: string | null;
  /** the bearer token sent, if any: it is masked here and never stored */
  token: string | null;
  method: string;
  route: string | null;
  url: string;
  status: number;
  durationMs: number;
  /** the parsed request body (undefined: none was read) */
  requestBody: unknown;
  /** the response text as sent */
  responseBody: string | null;
  redact?: Redaction | undefined;
  /** what an API fault did to it */
  fault?: FaultMark | null | undefined;
}

export interface RequestLogDeps {
  repo: Pick<RequestLog, 'append' | 'list' | 'get'>;
  clock: Pick<Clock, 'nowIso'>;
}

/** `svcb_…` and the last 4 characters; nothing of a token too short to hide anything. */
export function maskKey(token: string): string {
  if (token === lastToken) return lastMask;
  lastMask = mask(token);
  lastToken = token;
  return lastMask;
}
// A client sends the same key request after request: the last one's mask is kept.
let lastToken: string | null = null;
let lastMask = '';

function mask(token: string): string {
  const prefix = token.startsWith(API_KEY_PREFIX) ? API_KEY_PREFIX : '';
  const rest = token.slice(prefix.length);
  return rest.length >= 12 ? `${prefix}…${rest.slice(-4)}` : `${prefix}…`;
}

/** At most BODY_CAP_BYTES of UTF-8, then `…[truncated N bytes]` naming the bytes left out. */
export function capBody(text: string): string {
  // At most 3 UTF-8 bytes per UTF-16 unit: a text this short fits without being measured.
  if (text.length * 3 <= BODY_CAP_BYTES) return text;
  const bytes = Buffer.byteLength(text);
  if (bytes <= BODY_CAP_BYTES) return text;
  const kept = Buffer.from(text)
    .subarray(0, BODY_CAP_BYTES)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
  return `${kept}…[truncated ${bytes - Buffer.byteLength(kept)} bytes]`;
}

function requestText(body: unknown, redact: Redaction | undefined): string | null {
  if (redact === 'body') return REDACTED;
  if (body === undefined || body === null) return null;
  let value = body;
  if (redact && typeof body === 'object' && !Array.isArray(body)) {
    const copy: Record<string, unknown> = { ...(body as Record<string, unknown>) };
    for (const field of redact) if (field in copy) copy[field] = REDACTED;
    value = copy;
  }
  return capBody(typeof value === 'string' ? value : JSON.stringify(value));
}

/** The path, without its query on a redacted route (the card session may travel there). */
function pathText(url: string, redact: Redaction | undefined): string {
  if (redact !== 'body') return url;
  const query = url.indexOf('?');
  return query === -1 ? url : `${url.slice(0, query)}?${REDACTED}`;
}

/** The status filter: `404` exactly, or `4xx` for the class. */
export function statusRange(filter: string | undefined): { min: number; max: number } | undefined {
  if (filter === undefined) return undefined;
  if (filter.endsWith('xx')) {
    const base = Number(filter[0]) * 100;
    return { min: base, max: base + 99 };
  }
  return { min: Number(filter), max: Number(filter) };
}

/**
 * The request log: every /v1 request, with its key masked, its bodies capped and, on the routes
 * that carry secrets, redacted. Recording never throws into the request (the repository writes
 * later, outside the request's transaction, and reports its own failures).
 */
export class RequestLogService {
  private readonly bus = new EventEmitter();

  /** whether a live stream listens (a request with none emits nothing) */
  private listening = false;

  constructor(private readonly deps: RequestLogDeps) {
    this.bus.setMaxListeners(0);
  }

  /** Queues the entry (it has its id at once; it is written soon, and before any read of the log). */
  record(request: FinishedRequest): void {
    const entry: NewRequestLogRow = {
      created_at: this.deps.clock.nowIso(),
      env: request.env,
      merchant_id: request.merchantId,
      api_key_id: request.apiKeyId,
      api_key: request.token === null ? null : maskKey(request.token),
      method: request.method,
      route: request.route,
      path: pathText(request.url, request.redact),
      status: request.status,
      duration_ms: Math.round(request.durationMs * 1000) / 1000,
      request_body: requestText(request.requestBody, request.redact),
      response_body:
        request.redact === 'body'
          ? REDACTED
          : request.responseBody === null
            ? null
            : capBody(request.responseBody),
    };
    if (request.fault) entry.fault = request.fault;
    const stored = this.deps.repo.append(entry);
    // Told at once, as the response leaves: the live stream shows a request before the events
    // its commit announced (it holds those for a turn), not after the log's next write.
    if (this.listening) {
      const { seq: _seq, ...row } = stored;
      this.bus.emit('request', row);
    }
  }

  /** Newest first; it includes every entry recorded before the call. */
  list(query: RequestLogQuery): RequestLogEntry[] {
    if (query.unauthenticated === true && query.merchant_id !== undefined)
      throw new ValidationError(
        'unauthenticated',
        'cannot be combined with merchant_id: an unauthenticated request matched no merchant',
      );
    return this.deps.repo.list({
      merchantId: query.merchant_id,
      unauthenticated: query.unauthenticated,
      env: query.env,
      status: statusRange(query.status),
      limit: query.limit ?? 100,
      startingAfter: query.starting_after,
    });
  }

  /** Whether the app sent the requests `criteria` describes (every entry kept, after `since`). */
  verify(criteria: VerifyRequestsBody): VerifyRequestsResult {
    const since = criteria.since;
    const byId = since !== undefined && !since.includes('T');
    if (byId && !this.deps.repo.get(since)) throw new ValidationError('since', `no such request: ${since}`);
    // Times compare as the log writes them (ISO, UTC).
    const after = since === undefined || byId ? undefined : new Date(since).toISOString();
    const entries: RequestLogEntry[] = [];
    for (const entry of this.deps.repo.list({ limit: Number.MAX_SAFE_INTEGER, env: criteria.env })) {
      if (byId ? entry.id === since : after !== undefined && entry.created_at < after) break;
      entries.push(entry);
    }
    return verify(criteria, entries);
  }

  get(id: string): RequestLogEntry {
    const row = this.deps.repo.get(id);
    if (!row) throw new NotFoundError('Request log entry', id);
    return row;
  }

  /** Each entry as it is recorded (the live stream's `event: request`). */
  on(listener: (entry: RequestLogEntry) => void): () => void {
    this.bus.on('request', listener);
    this.listening = true;
    return () => {
      this.bus.off('request', listener);
      this.listening = this.bus.listenerCount('request') > 0;
    };
  }
}
