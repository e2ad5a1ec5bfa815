import { once } from 'node:events';
import type { IncomingMessage, Server } from 'node:http';
import { connect, type Socket } from 'node:net';

/** Waits until the server has seen `count` more requests (headers parsed), and its hooks have run. */
export function nextRequests(server: Server, count: number): Promise<IncomingMessage[]> {
  return new Promise((resolve) => {
    const seen: IncomingMessage[] = [];
    const listener = (req: IncomingMessage) => {
      seen.push(req);
      if (seen.length === count) {
        server.off('request', listener);
        // Fastify's onRequest hooks run a few microtasks after the 'request' event.
        setImmediate(() => setImmediate(() => resolve(seen)));
      }
    };
    server.on('request', listener);
  });
}

export interface HeldRequest {
  socket: Socket;
  /** Sends the rest of the body; resolves with the raw response text once the server answers. */
  finish(): Promise<string>;
}

/**
 * Opens a raw connection and sends a POST whose headers promise a body that is only partly sent,
 * so the request stays in flight (holding its concurrency slot) until finished or destroyed.
 */
export async function holdRequest(
  baseUrl: string,
  authorization: string,
  path = '/v1/customers',
): Promise<HeldRequest> {
  const { hostname, port } = new URL(baseUrl);
  const socket = connect(Number(port), hostname);
  await once(socket, 'connect');
  const body = JSON.stringify({ name: 'Held request' });
  const head = body.slice(0, 5);
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: ${authorization}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${head}`,
  );
  return {
    socket,
    async finish() {
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => {
        text += chunk;
      });
      const ended = once(socket, 'end');
      socket.write(body.slice(head.length));
      await ended;
      return text;
    },
  };
}

/** Sends raw bytes and returns the raw response (the server closes the connection). */
export async function rawRequest(baseUrl: string, raw: string): Promise<string> {
  const { hostname, port } = new URL(baseUrl);
  const socket = connect(Number(port), hostname);
  await once(socket, 'connect');
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    text += chunk;
  });
  const closed = once(socket, 'close');
  socket.write(raw);
  await closed;
  return text;
}

/** Resolves when the stream closes, whatever error (an abort) comes first. */
export function closed(stream: NodeJS.EventEmitter): Promise<void> {
  return new Promise((resolve) => {
    stream.once('close', () => resolve());
  });
}

/**
 * A call over the test listener as the dashboard makes it: a control path in workspace `ws` (by
 * `?workspace=`), a `/v1` path by the key alone. Expects a success and answers the parsed JSON.
 */
export async function callInWorkspace(
  base: string,
  ws: string,
  method: string,
  path: string,
  body?: object,
  key?: string,
): Promise<Record<string, unknown>> {
  const sep = path.includes('?') ? '&' : '?';
  const res = await fetch(`${base}${path}${path.startsWith('/v1/') ? '' : `${sep}workspace=${ws}`}`, {
    method,
    headers: {
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...(key ? { authorization: `Bearer ${key}` } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return (text ? JSON.parse(text) : {}) as Record<string, unknown>;
}
