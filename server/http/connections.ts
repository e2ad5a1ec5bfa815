import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

/** The two limits a connection is held to before and while a request arrives (ms; 0 = none). */
export interface ConnectionLimits {
  /** From the moment the connection opens, its first request's headers must be in within this. */
  headersMs: number;
  /** A request (headers and body) must have arrived within this of its headers. */
  requestMs: number;
}

/** What the sandbox's listeners use unless told otherwise (createSandbox `timeouts`). */
export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = { headersMs: 10_000, requestMs: 30_000 };

/** Sockets whose answer has gone out while the request body is still arriving. */
const lingering = new WeakSet<Duplex>();

/**
 * True while the server is discarding the rest of a body it already answered: a timeout then
 * closes the connection without another answer (the client has its answer).
 */
export function isLingering(socket: Duplex): boolean {
  return lingering.has(socket);
}

const declaresBody = (request: IncomingMessage): boolean => {
  const length = request.headers['content-length'];
  return (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
};

/**
 * Holds every connection of `server` to its limits, and makes every early answer readable.
 *
 * - A connection that sends no complete request headers within `headersMs` of opening is closed:
 *   silently if it sent nothing (there is nothing to answer), with the server's 408 if it sent part
 *   of a request. Node's own sweep (every `connectionsCheckingInterval`) closes such a connection
 *   up to an interval late, after writing a 408 that a client not reading never sees end. Later
 *   requests on a kept-alive connection are covered by Node's keep-alive and headers timeouts; a
 *   request whose headers are in (an event stream, a slow upload) is not cut by this.
 * - Lingering close (nginx's `lingering_close`): when the answer goes out before the request body
 *   has been read (a 413, a 401 or 415 before the body is parsed), the rest of the body is read and
 *   discarded (it costs no memory) until it ends or `requestMs` has passed. The connection is then
 *   kept alive if the answer allows it, else closed. Closing at once instead would make the
 *   client's kernel answer its remaining bytes with a reset, and most clients then lose the answer
 *   they were about to read.
 */
export function guardConnections(server: Server, limits: ConnectionLimits): void {
  server.on('connection', (socket: Socket) => {
    if (limits.headersMs > 0) {
      const timer = setTimeout(() => {
        if (socket.destroyed) return;
        // Part of a request line or headers: the server's own 408 path; nothing at all: just close.
        if (socket.bytesRead > 0 && server.listenerCount('clientError') > 0) {
          server.emit('clientError', requestTimeout(), socket);
        } else {
          socket.destroy();
        }
      }, limits.headersMs);
      timer.unref();
      firstRequest.set(socket, timer);
      socket.once('close', () => clearTimeout(timer));
    }
    // Node ends a connection whose answer says `Connection: close` (a 413, a body Fastify could not
    // parse, a client that asked for it) by destroying it as soon as the answer is written. With
    // part of the body unread, it is closed once the body is in instead: not even a FIN before, as
    // a client that sees one may stop its upload with an error before reading the answer.
    const destroySoon = socket.destroySoon.bind(socket);
    socket.destroySoon = () => {
      const request = receiving.get(socket);
      if (request === undefined || request.complete || request.destroyed) destroySoon();
      else linger(socket, request, destroySoon);
    };
  });

  // Before the application's own listener, so the socket's state is set whatever it answers.
  server.prependListener('request', (request: IncomingMessage, response) => {
    const socket = request.socket;
    const timer = firstRequest.get(socket);
    if (timer !== undefined) {
      clearTimeout(timer);
      firstRequest.delete(socket);
    }
    if (!declaresBody(request)) return;
    receiving.set(socket, request);
    deadlines.set(request, performance.now() + limits.requestMs);
    request.once('end', () => {
      if (receiving.get(socket) === request) receiving.delete(socket);
    });
    // Runs after Node's own 'finish' handler, which has dumped an unread body (kept alive) or
    // called destroySoon (closing).
    response.once('finish', () => {
      if (!request.complete && !request.destroyed && !socket.destroyed) linger(socket, request);
    });
  });

  /** Reads and discards the rest of an answered request's body, then `close` (if given). */
  function linger(socket: Socket, request: IncomingMessage, close?: () => void): void {
    if (lingering.has(socket)) return;
    lingering.add(socket);
    // Whoever read the body may have stopped: keep it flowing, nothing is kept.
    request.removeAllListeners('data');
    request.resume();
    const deadline = deadlines.get(request) ?? performance.now();
    const timer =
      limits.requestMs > 0
        ? setTimeout(() => socket.destroy(), Math.max(0, deadline - performance.now()))
        : undefined;
    timer?.unref();
    const done = () => {
      clearTimeout(timer);
      request.off('end', done);
      socket.off('close', done);
      lingering.delete(socket);
      if (close !== undefined && !socket.destroyed) close();
    };
    request.once('end', done);
    socket.once('close', done);
  }
}

/** The first request's header deadline of a connection still waiting for one. */
const firstRequest = new WeakMap<Socket, NodeJS.Timeout>();
/** The request whose body a socket is receiving, if any. */
const receiving = new WeakMap<Socket, IncomingMessage>();
const deadlines = new WeakMap<IncomingMessage, number>();

function requestTimeout(): Error & { code: string } {
  return Object.assign(new Error('Request timeout: the request headers did not arrive in time'), {
    code: 'ERR_HTTP_REQUEST_TIMEOUT',
  });
}
