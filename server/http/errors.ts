import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyReply, FastifyRequest, FastifySchemaValidationError } from 'fastify';
import type { SchemaErrorDataVar } from 'fastify/types/schema.js';
import { AppError, TooManyRequestsError } from '../errors.js';
import { isLingering } from './connections.js';

/**
 * Turns schema violations into one readable sentence naming the field, e.g.
 * `amount: must be integer` or `title: is required`.
 */
export function formatSchemaErrors(
  errors: FastifySchemaValidationError[],
  dataVar: SchemaErrorDataVar,
): Error {
  const first = errors[0];
  if (!first) return new Error(`${dataVar}: invalid`);
  const params = first.params as Record<string, unknown>;
  const path = first.instancePath
    .split('/')
    .filter(Boolean)
    .map((part) => (/^\d+$/.test(part) ? `[${part}]` : `.${part}`))
    .join('')
    .replace(/^\./, '');
  const missing =
    typeof params.missingProperty === 'string'
      ? params.missingProperty
      : Array.isArray(params.requiredProperties)
        ? String(params.requiredProperties[0])
        : undefined;
  if (first.keyword === 'required' && missing !== undefined) {
    return new Error(`${path ? `${path}.` : ''}${missing}: is required`);
  }
  const field = path || (dataVar === 'body' ? 'body' : dataVar);
  return new Error(`${field}: ${describe(first, params)}`);
}

/** The contract's patterns in words: a regular expression is no message for a person. */
const PATTERNS: Record<string, string> = {
  '^[A-Z]{2}$': 'must be a two-letter country code in capitals (ISO 3166-1 alpha-2, e.g. DE)',
  '^[A-Z]{3}$': 'must be a three-letter code in capitals (e.g. DEU for a country, EUR for a currency)',
  '^[A-Za-z]{3,5}$': 'must be a currency code of 3 to 5 letters (e.g. USDC)',
  '^[A-Za-z0-9_-]{1,64}$': 'must be 1 to 64 letters, digits, _ or -',
  '^\\+?[0-9 ()-]{3,32}$': 'must be a phone number: digits, spaces, ( ) and -, optionally after a +',
  '^[1-5](?:[0-9]{2}|xx)$': 'must be a status code (e.g. 404) or a class of them (e.g. 4xx)',
  '^[0-9]{1,12}_[0-9]{1,12}$': 'must be a range of two whole numbers, e.g. 50000_100000',
};

function describe(error: FastifySchemaValidationError, params: Record<string, unknown>): string {
  if (error.keyword === 'format') return `must be a valid ${String(params.format)}`;
  if (error.keyword === 'pattern') return PATTERNS[String(params.pattern)] ?? 'has an invalid format';
  if (error.keyword === 'enum' && Array.isArray(params.allowedValues)) {
    return `must be one of ${params.allowedValues.join(', ')}`;
  }
  if (error.keyword === 'anyOf' || error.keyword === 'union') return 'has an invalid type or value';
  return error.message ?? 'is invalid';
}

/** Every error leaves as `{error}`; 5xx hide internals. Client input never yields a 500. */
export function errorHandler(
  error: FastifyError | AppError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  if (error.statusCode === 413) {
    // As Fastify does for any body it could not parse: the connection ends after this answer, once
    // the rest of the body has been read and discarded (http/connections.ts), so the client reads it.
    void reply.header('connection', 'close');
  }
  if (error instanceof TooManyRequestsError) {
    void reply
      .header('Retry-After', String(error.retryAfterSeconds))
      .code(429)
      .send({ error: error.message });
    return;
  }
  if (error instanceof AppError) {
    void reply.code(error.statusCode).send({ error: error.message });
    return;
  }
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) {
    void reply.code(422).send({ error: fastifyError.message });
    return;
  }
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      void reply.code(400).send({ error: `Malformed JSON body: ${fastifyError.message}` });
      return;
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      void reply.code(400).send({ error: 'Malformed JSON body: the body is empty' });
      return;
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      void reply
        .code(415)
        .send({ error: 'Unsupported Content-Type: request bodies must be application/json' });
      return;
  }
  const storage = storageProblem(error);
  if (storage) {
    // Not a bug and not the client's fault: say what happened; the same call works once space
    // returns (the transaction rolled back, nothing half-written).
    console.error(`svc-sandbox: ${storage.status} on ${request.method} ${request.url}: ${error.message}`);
    void reply.code(storage.status).send({ error: storage.message });
    return;
  }
  const status = fastifyError.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    void reply.code(status).send({ error: fastifyError.message });
    return;
  }
  // Always visible, even with request logging off: a 500 is a bug in the sandbox.
  console.error(`svc-sandbox: 500 on ${request.method} ${request.url}:`, error);
  void reply.code(500).send({ error: 'Internal server error' });
}

export function notFoundHandler(request: FastifyRequest, reply: FastifyReply): void {
  void reply.code(404).send({ error: `Route not found: ${request.method} ${request.url.split('?')[0]}` });
}

/** SQLite's own failures that are about the machine, not the request: 507 / 503 with the cause. */
export function storageProblem(error: unknown): { status: number; message: string } | null {
  const code = (error as { code?: unknown }).code;
  if (code === 'SQLITE_FULL')
    return {
      status: 507,
      message:
        'Insufficient storage: the database disk is full. Free some space and retry; nothing was written.',
    };
  if (code === 'SQLITE_ABORT_ROLLBACK')
    return {
      status: 503,
      message:
        'Storage unavailable: the database rolled this write back (disk full or I/O error). Retry; nothing was written.',
    };
  if (code === 'SQLITE_IOERR' || (typeof code === 'string' && code.startsWith('SQLITE_IOERR_')))
    return {
      status: 503,
      message:
        'Storage unavailable: the database could not be written (I/O error). Retry; nothing was written.',
    };
  return null;
}

/**
 * Errors from the HTTP parser, before Fastify has a request (431, a malformed request line, a
 * timeout): still `{error}`, then the connection closes, as Node does by default.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  // Already answered (a 413 whose body is still being discarded): a second answer would corrupt
  // the stream; the timeout only ends the discarding.
  if (isLingering(socket)) {
    socket.destroy();
    return;
  }
  // A connection that never sent a byte timed out: there is nothing to answer (Node's sweep would
  // write a 408, which a client that is not reading never sees end).
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT' && (socket as Partial<Socket>).bytesRead === 0) {
    socket.destroy();
    return;
  }
  const [status, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request header fields too large']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request timeout: the request did not arrive in time']
        : [
            400,
            `Bad request: ${error.code === 'HPE_INVALID_METHOD' ? 'unknown method' : 'malformed HTTP request'}`,
          ];
  const body = JSON.stringify({ error: message });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
