import { renameSync, rmSync, writeFileSync } from 'node:fs';
import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { basename, dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { DEFAULT_CONNECTION_LIMITS, guardConnections } from '../http/connections.js';
import type { Step } from '../recording/session.js';
import { UpstreamRecorder } from '../recording/upstream.js';
import { CliFailure, noExtra, out, parse, UsageError } from './common.js';

export const RECORD_USAGE = `Usage: svc-sandbox record --upstream <base url> --port <n> --out <file> [--webhooks-to <url>]

Records a session of your integration against the real service (its test environment) as a
scenario file that \`svc-sandbox run\` replays and \`svc-sandbox parity\` compares. Point your
integration at the local proxy on 127.0.0.1:<port>: every /v1 request goes to --upstream unchanged
(method, path, query, headers, body) and comes back unchanged. Each request becomes a step with what
the service answered; what the outside world did (a payment arriving, a KYC decision, a card
authorization, time passing) is inferred from changed answers and webhooks, or told by a note.
The file is rewritten after every step, and on Ctrl-C or SIGTERM. API keys, signing secrets and
card data are never written.

Options:
  --upstream <url>     the service's base address (e.g. https://api-test.example.com)
  --port <n>           the proxy's port on 127.0.0.1 (0: a free one, printed)
  --out <file>         the scenario file to write (replaced as the session goes)
  --webhooks-to <url>  also receive the service's webhooks at http://127.0.0.1:<port>/webhooks
                       (register that URL at the service), record each, and forward it byte for
                       byte, signature intact, to <url>; its answer goes back to the service
                       (502 when it cannot be reached)
  --name <text>        the scenario's name (default: "session recorded against <upstream>")
  -h, --help           show this help

Notes, typed on stdin (or POST http://127.0.0.1:<port>/__record/note {"line": "..."}), become a
step at that point, for what inference cannot tell:
  pay <checkout> <amount>      advance <duration>      control METHOD /sandbox/... [json]      help

A request the service never answered (it is down) gets 502 {"error": ...} and is not recorded;
nor are 401, 429 and 5xx answers (nothing a replay reproduces), or a request whose body is not
JSON (a step sends JSON).
`;

const OPTIONS = {
  upstream: { type: 'string' },
  port: { type: 'string' },
  out: { type: 'string' },
  'webhooks-to': { type: 'string' },
  name: { type: 'string' },
} as const;

/** Headers of one connection, not of the message: never forwarded (RFC 9110, 7.6.1). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
]);
const MAX_BODY = 20 * 1024 * 1024;
const UPSTREAM_TIMEOUT_MS = 60_000;

function httpUrl(flag: string, raw: string | undefined): URL {
  if (raw === undefined) throw new UsageError(`--${flag} <url> is required`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`--${flag} must be an http(s) URL, got ${raw}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--${flag} must be an http(s) URL, got ${raw}`);
  return url;
}

/** The headers to send on: the message's, without those of the connection. */
function forwardable(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const dropped = new Set(HOP_BY_HOP);
  for (const name of String(headers.connection ?? '').split(','))
    if (name.trim() !== '') dropped.add(name.trim().toLowerCase());
  const kept: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined && !dropped.has(name)) kept[name] = value;
  return kept;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
}

/** One request, its answer read whole; rejects with the network's error (no answer). */
function send(
  target: URL,
  method: string,
  headers: Record<string, string | string[]>,
  body: Buffer,
): Promise<Answer> {
  return new Promise((done, fail) => {
    const request = (target.protocol === 'https:' ? httpsRequest : httpRequest)(target, {
      method,
      headers: { ...headers, host: target.host },
      signal: AbortSignal.timeout(UPSTREAM_TIMEOUT_MS),
    });
    request.once('error', fail);
    request.once('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.once('error', fail);
      response.once('end', () => {
        const answer = Buffer.concat(chunks);
        const kept = forwardable(response.headers);
        if (response.headers['content-length'] !== undefined || answer.length > 0)
          kept['content-length'] = String(answer.length);
        done({ status: response.statusCode ?? 502, headers: kept, body: answer });
      });
    });
    request.end(body);
  });
}

function readBody(req: IncomingMessage): Promise<Buffer | null> {
  return new Promise((done, fail) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    });
    req.once('error', fail);
    req.once('end', () => done(size > MAX_BODY ? null : Buffer.concat(chunks)));
  });
}

const reply = (res: ServerResponse, status: number, body: unknown) => {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
};

/** Why a request got no answer, in a few words. */
function failure(error: unknown): string {
  const e = error as { name?: string; code?: string; message?: string; cause?: { code?: string } };
  if (e.name === 'TimeoutError' || e.name === 'AbortError')
    return `no answer within ${UPSTREAM_TIMEOUT_MS / 1000} s`;
  return e.code ?? e.cause?.code ?? e.message ?? String(error);
}

/** A step in one line, for the terminal. */
function label(step: Step): string {
  const what =
    typeof step.call === 'string'
      ? step.call
      : typeof step.control === 'string'
        ? `control ${step.control}`
        : `clock ${JSON.stringify(step.clock)}`;
  return typeof step.inferred === 'string' ? `+ ${what}   (${step.inferred})` : what;
}

export async function record(argv: string[]): Promise<number | 'help'> {
  const { values, positionals } = parse(argv, OPTIONS);
  if (values.help) return 'help';
  noExtra(positionals, 1);
  const upstream = httpUrl('upstream', values.upstream as string | undefined);
  if (upstream.username !== '' || upstream.password !== '')
    throw new UsageError('--upstream must not carry credentials: your integration sends its API key');
  if (upstream.search !== '' || upstream.hash !== '')
    throw new UsageError(`--upstream is a base address, without query or fragment: got ${upstream.href}`);
  const portText = values.port as string | undefined;
  if (portText === undefined) throw new UsageError('--port <n> is required (0: a free port)');
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65_535)
    throw new UsageError(`--port must be 0-65535, got ${portText}`);
  const outText = values.out as string | undefined;
  if (outText === undefined || outText === '') throw new UsageError('--out <file> is required');
  const webhooksTo =
    values['webhooks-to'] === undefined ? undefined : httpUrl('webhooks-to', values['webhooks-to'] as string);
  const file = resolve(outText);
  const temp = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
  try {
    writeFileSync(temp, '');
    rmSync(temp, { force: true });
  } catch (error) {
    throw new CliFailure(`cannot write ${outText}: ${(error as Error).message}`);
  }
  const base = upstream.pathname.replace(/\/+$/, '');
  const recorder = new UpstreamRecorder({
    upstream: `${upstream.origin}${base}`,
    startedAt: new Date(),
    webhooks: webhooksTo !== undefined,
    ...(typeof values.name === 'string' && values.name.trim() !== '' ? { name: values.name.trim() } : {}),
  });

  let steps = 0;
  let writeWarned = false;
  /** The file as it stands, replaced whole (a reader never sees half of it). */
  const save = (): void => {
    const text = recorder.render();
    if (text === null) return;
    try {
      writeFileSync(temp, text);
      renameSync(temp, file);
      writeWarned = false;
    } catch (error) {
      if (!writeWarned)
        process.stderr.write(`svc-sandbox record: cannot write ${outText}: ${(error as Error).message}\n`);
      writeWarned = true;
    }
  };
  const show = (added: Step[]): void => {
    for (const step of added) out(`  ${++steps}. ${label(step)}`);
  };

  // Webhooks that arrive while a request is on its way belong after its step (it caused them).
  let inFlight = 0;
  const waiting: Buffer[] = [];
  const recordWebhook = (raw: Buffer): void => {
    const result = recorder.webhook(raw);
    if (result.error) out(`  webhook not recorded: ${result.error}`);
    else {
      show(result.steps);
      out(`     webhook ${result.type}${result.skipped ? ` (not attached: ${result.skipped})` : ''}`);
    }
    save();
  };
  const settle = (): void => {
    if (inFlight === 0) for (const raw of waiting.splice(0)) recordWebhook(raw);
  };

  async function proxy(req: IncomingMessage, res: ServerResponse, url: string): Promise<void> {
    const body = await readBody(req);
    if (body === null) return reply(res, 413, { error: `request body over ${MAX_BODY} bytes` });
    const target = new URL(`${base}${url}`, upstream.origin);
    const method = req.method ?? 'GET';
    let answer: Answer;
    try {
      answer = await send(target, method, forwardable(req.headers), body);
    } catch (error) {
      const why = failure(error);
      out(`  ${method} ${url.split('?')[0]}: the service did not answer (${why}); not recorded`);
      return reply(res, 502, {
        error: `svc-sandbox record: the service at ${upstream.origin} did not answer: ${why}`,
      });
    }
    res.writeHead(answer.status, answer.headers).end(answer.body);
    const result = recorder.exchange({
      method,
      url,
      authorization: req.headers.authorization,
      requestBody: body,
      status: answer.status,
      responseBody: answer.body,
      at: Date.now(),
    });
    if (result.skipped)
      out(`  ${method} ${url.split('?')[0]} → ${answer.status}: not recorded (${result.skipped})`);
    show(result.steps);
    save();
  }

  async function webhook(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    if (body === null) return reply(res, 413, { error: `webhook body over ${MAX_BODY} bytes` });
    if (inFlight === 0) recordWebhook(body);
    else waiting.push(body);
    try {
      const answer = await send(webhooksTo!, 'POST', forwardable(req.headers), body);
      res.writeHead(answer.status, answer.headers).end(answer.body);
    } catch (error) {
      reply(res, 502, { error: `svc-sandbox record: ${webhooksTo!.href} did not answer: ${failure(error)}` });
    }
  }

  const onNote = (line: string): { status: number; body: unknown } => {
    const result = recorder.note(line);
    if ('help' in result) return { status: 200, body: { help: result.help } };
    if ('error' in result) return { status: 400, body: { error: result.error } };
    show(result.steps);
    save();
    return { status: 200, body: { steps: result.steps } };
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = req.url ?? '/';
    const path = url.split('?')[0] ?? '/';
    if (path === '/v1' || path.startsWith('/v1/')) {
      inFlight++;
      try {
        await proxy(req, res, url);
      } finally {
        inFlight--;
        settle();
      }
      return;
    }
    if (path === '/webhooks' && webhooksTo && req.method === 'POST') return webhook(req, res);
    if (path === '/__record/note' && req.method === 'POST') {
      const body = await readBody(req);
      let line: unknown;
      try {
        line = (JSON.parse(body?.toString('utf8') ?? '') as { line?: unknown }).line;
      } catch {
        line = undefined;
      }
      if (typeof line !== 'string')
        return reply(res, 400, { error: 'line: a JSON body {"line": "<note>"} expected' });
      const answer = onNote(line);
      return reply(res, answer.status, answer.body);
    }
    req.resume();
    reply(res, 404, {
      error: `svc-sandbox record forwards /v1 only${webhooksTo ? ' (and receives webhooks at POST /webhooks)' : ''}: ${req.method} ${path} is not forwarded`,
    });
  }

  const limits = DEFAULT_CONNECTION_LIMITS;
  const server = createServer(
    { headersTimeout: limits.headersMs, requestTimeout: UPSTREAM_TIMEOUT_MS + limits.requestMs },
    (req, res) => {
      handle(req, res).catch((error: unknown) =>
        reply(res, 500, { error: `svc-sandbox record: ${failure(error)}` }),
      );
    },
  );
  server.keepAliveTimeout = 60_000;
  guardConnections(server, limits);
  await new Promise<void>((done, fail) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      fail(
        new CliFailure(
          error.code === 'EADDRINUSE'
            ? `cannot listen on 127.0.0.1:${port}: the port is in use (choose another --port, or 0 for a free one)`
            : `cannot listen on 127.0.0.1:${port}: ${error.message}`,
        ),
      ),
    );
    server.listen(port, '127.0.0.1', () => done());
  });
  const local = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  out(
    `svc-sandbox record: ready: point your integration at ${local} (its /v1 goes to ${upstream.origin}${base}); recording to ${outText}`,
  );
  if (webhooksTo)
    out(
      `svc-sandbox record: register ${local}/webhooks as your webhook endpoint at the service (forwarded to ${webhooksTo.href})`,
    );
  out(
    'svc-sandbox record: type help for notes (a payment, time passing, any control call); Ctrl-C ends the recording',
  );

  const lines = createInterface({ input: process.stdin, terminal: false });
  lines.on('line', (line) => {
    if (line.trim() === '') return;
    const answer = onNote(line);
    const body = answer.body as { help?: string; error?: string };
    if (body.help) process.stdout.write(body.help);
    else if (body.error) process.stderr.write(`svc-sandbox record: ${body.error}\n`);
  });
  // Stdin closing (a script, no terminal) ends nothing: the proxy runs until a signal.
  lines.on('error', () => {});

  return new Promise<number>((done) => {
    const stop = (signal: string) => {
      save();
      lines.close();
      server.closeAllConnections();
      server.close();
      const text = recorder.render();
      process.stderr.write(
        text === null
          ? `svc-sandbox record: ${signal}: nothing recorded (no request reached /v1); ${outText} not written\n`
          : `svc-sandbox record: ${signal}: wrote ${outText}\n`,
      );
      done(0);
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
}
