// A client in its own process (its own event loop, as a real client has): sends over-limit bodies,
// streamed, to the routes it is given, and prints one JSON line per try saying whether it read the
// answer. Used by test/reliability/connections.test.ts; run as
//   node oversize.mjs '<job as JSON>'
// job: { base, auth, tries, sizesMb, clients: ('raw'|'fetch'|'undici')[],
//        routes: [{ name, method, path, headers?, anonymous? }] }
import { once } from 'node:events';
import { connect } from 'node:net';
import { Readable } from 'node:stream';
import { request } from 'undici';

const job = JSON.parse(process.argv[2]);
const base = new URL(job.base);
const CHUNK = 64 * 1024;
const TRY_MS = 60_000;

/** `{"name":"xxx…"}` of exactly `bytes` bytes, produced as it is sent (never held whole). */
async function* jsonOf(bytes) {
  const head = Buffer.from('{"name":"');
  const tail = Buffer.from('"}');
  const filler = Buffer.alloc(CHUNK, 'x');
  let left = bytes - head.length - tail.length;
  yield head;
  while (left > 0) {
    const n = Math.min(left, CHUNK);
    yield n === CHUNK ? filler : filler.subarray(0, n);
    left -= n;
  }
  yield tail;
}

const headersOf = (route) => ({
  ...(route.path.startsWith('/v1') && !route.anonymous ? { authorization: `Bearer ${job.auth}` } : {}),
  'content-type': 'application/json',
  ...route.headers,
});

/** The first complete response in `buffer` (Content-Length framed), or null. */
function parseResponse(buffer) {
  const end = buffer.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const head = buffer.subarray(0, end).toString('latin1');
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
  const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? Number.NaN);
  if (Number.isNaN(length) || buffer.length < end + 4 + length) return null;
  const close = /\r\nconnection: *close/i.test(head);
  return {
    status,
    body: buffer.subarray(end + 4, end + 4 + length).toString('utf8'),
    close,
    rest: buffer.subarray(end + 4 + length),
  };
}

/**
 * Raw TCP: headers with Content-Length, then the whole body with back-pressure, reading all the
 * while. Once the body is sent: a second request on the same connection when the answer kept it
 * alive, else this side's FIN and a wait for a clean close (no reset: the server read everything).
 */
function raw(route, bytes) {
  return new Promise((resolve) => {
    const started = performance.now();
    // Node's default socket: a FIN from the server would end this side too, and the next write of
    // the body would fail. The server must not send one before it has read the whole body.
    const socket = connect(Number(base.port), base.hostname);
    let buffer = Buffer.alloc(0);
    let first = null;
    let second = null;
    let error = null;
    let closed = false;
    let sent = 0;
    let wake = () => {};
    const timer = setTimeout(() => socket.destroy(new Error('try timed out')), TRY_MS);
    socket.on('data', (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      const parsed = parseResponse(buffer);
      if (parsed === null) return;
      buffer = parsed.rest;
      if (first === null) first = parsed;
      else second = parsed;
      wake();
    });
    socket.on('error', (e) => {
      error ??= e.code ?? e.message;
    });
    socket.on('close', () => {
      closed = true;
      wake();
    });
    const until = (predicate) =>
      new Promise((done) => {
        const check = () => {
          if (predicate() || closed) done();
          else wake = check;
        };
        check();
      });
    socket.on('connect', async () => {
      socket.write(
        `${route.method} ${route.path} HTTP/1.1\r\nHost: ${base.host}\r\n` +
          Object.entries(headersOf(route))
            .map(([k, v]) => `${k}: ${v}\r\n`)
            .join('') +
          `Content-Length: ${bytes}\r\n\r\n`,
      );
      for await (const chunk of jsonOf(bytes)) {
        if (closed || socket.destroyed) break;
        if (socket.write(chunk)) {
          sent += chunk.length;
          continue;
        }
        sent += chunk.length;
        await Promise.race([once(socket, 'drain').catch(() => {}), until(() => false)]);
      }
      const bodySent = sent === bytes && !closed;
      await until(() => first !== null);
      // What the server did with the connection once the whole body was in: closed it cleanly
      // (the answer said close) or kept it alive (a second request is served on it).
      let after = 'reset';
      if (bodySent && first !== null && error === null) {
        if (first.close) {
          socket.end();
          const ended = await Promise.race([
            until(() => false).then(() => true),
            new Promise((done) => setTimeout(done, 5000, false)),
          ]);
          after = !ended ? 'open' : error === null ? 'closed' : 'reset';
        } else {
          socket.write(`GET /sandbox/health HTTP/1.1\r\nHost: ${base.host}\r\n\r\n`);
          await until(() => second !== null);
          after = second?.status === 200 ? 'kept-alive' : 'open';
        }
      }
      clearTimeout(timer);
      socket.destroy();
      resolve({
        status: first?.status ?? null,
        body: first?.body ?? null,
        error,
        bodySent,
        after,
        ms: Math.round(performance.now() - started),
      });
    });
  });
}

/** Node's fetch (the undici inside Node), a streamed body (chunked). */
async function viaFetch(route, bytes) {
  const started = performance.now();
  try {
    const response = await fetch(new URL(route.path, base), {
      method: route.method,
      headers: headersOf(route),
      body: Readable.from(jsonOf(bytes)),
      duplex: 'half',
      signal: AbortSignal.timeout(TRY_MS),
    });
    const body = await response.text();
    return { status: response.status, body, error: null, ms: Math.round(performance.now() - started) };
  } catch (e) {
    return {
      status: null,
      body: null,
      error: e.cause?.code ?? e.cause?.message ?? e.message,
      ms: Math.round(performance.now() - started),
    };
  }
}

/** undici's request(), a streamed body with its Content-Length. */
async function viaUndici(route, bytes) {
  const started = performance.now();
  try {
    const response = await request(new URL(route.path, base), {
      method: route.method,
      headers: { ...headersOf(route), 'content-length': String(bytes) },
      body: Readable.from(jsonOf(bytes)),
      headersTimeout: TRY_MS,
      bodyTimeout: TRY_MS,
    });
    const body = await response.body.text();
    return { status: response.statusCode, body, error: null, ms: Math.round(performance.now() - started) };
  } catch (e) {
    return {
      status: null,
      body: null,
      error: e.code ?? e.message,
      ms: Math.round(performance.now() - started),
    };
  }
}

const CLIENTS = { raw, fetch: viaFetch, undici: viaUndici };

for (const client of job.clients) {
  for (const route of job.routes) {
    for (const mb of job.sizesMb) {
      for (let attempt = 0; attempt < job.tries; attempt++) {
        const result = await CLIENTS[client](route, mb * 1024 * 1024);
        process.stdout.write(`${JSON.stringify({ client, route: route.name, mb, attempt, ...result })}\n`);
      }
    }
  }
}
