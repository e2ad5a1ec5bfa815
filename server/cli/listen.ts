import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ListenSession, WebhookEndpoint } from '../contract/webhooks.js';
import { DEFAULT_CONNECTION_LIMITS, guardConnections } from '../http/connections.js';
import { CHAOS_HELP, describeChaos, parseChaos } from './chaos-option.js';
import { clientFor, resolved, type SseMessage } from './client.js';
import {
  CliFailure,
  COMMON_HELP,
  clockTime,
  envOption,
  json,
  noExtra,
  out,
  parse,
  UsageError,
} from './common.js';

export const LISTEN_USAGE = `Usage: svc-sandbox listen --forward-to <url> [options]
       svc-sandbox listen --print-secret

Forwards the sandbox's webhooks to a URL on your machine, like \`stripe listen\`. Starts a local
listener on 127.0.0.1 (a free port), registers a temporary webhook endpoint pointing at it for each
merchant, all signed with one secret, then forwards every delivery to --forward-to: the exact body
with the original X-SVC-Event, X-SVC-Delivery-Id and X-SVC-Signature headers (so the signature
verifies against the printed secret), plus X-SVC-Merchant-Id and X-SVC-Endpoint-Id. The secret is
kept by the sandbox (per workspace): it stays the same across runs of listen, so configure your app
with it once. The sandbox sees your app's answer (status and body; 502 when it cannot be reached),
so failures are retried on the sandbox clock as usual. One line per attempt:
  <time>  <event>  <delivery id>  #<attempt>  → <status> <url>  [pending|delivered|failed ...]
<time> is this machine's clock (when the attempt was forwarded); pending: a retry is due, at the
sandbox time shown (labelled "sandbox time": the sandbox clock may be frozen or moved ahead);
delivered/failed after several attempts say so.

Without --merchant every merchant is included: those present at start, and new ones, whose endpoint
the sandbox makes as their first event is recorded (a listen session, set up before Ready is
printed: every event from then on is forwarded, however soon it comes). The endpoints are removed
on exit (Ctrl-C, SIGTERM); the Webhooks page and \`logs tail\` show them as listen's, with the
--forward-to URL.

Options:
  --forward-to <url>  where to send each delivery (required)
  --events <a,b>      only these event types (default: every event)
  --merchant <id>     only this merchant (default: every merchant, including new ones)
  --env <env>         test or production (default test)
  --print-secret      print listen's signing secret and exit
${CHAOS_HELP}
${COMMON_HELP}
Examples:
  svc-sandbox listen --forward-to http://localhost:3000/webhooks --events checkout.paid
  svc-sandbox listen --print-secret
`;

const OPTIONS = {
  'forward-to': { type: 'string' },
  events: { type: 'string' },
  merchant: { type: 'string' },
  env: { type: 'string' },
  'print-secret': { type: 'boolean' },
  chaos: { type: 'string' },
} as const;

const POLL_MS = 2000;
/** The body listen answers with when --forward-to could not be reached (see `forward`). */
const UNREACHABLE = 'svc-sandbox listen: ';
const FORWARD_TIMEOUT_MS = 30_000;

/** One of the session's endpoints, as the sandbox made it. */
type Endpoint = WebhookEndpoint;

export async function listen(argv: string[]): Promise<number | 'help'> {
  const { values, positionals } = parse(argv, OPTIONS);
  if (values.help) return 'help';
  noExtra(positionals, 1);
  if (values['print-secret']) {
    const { secret } = await clientFor(values).call('sandboxGetListenSecret');
    if (values.json) json({ secret });
    else out(secret);
    return 0;
  }
  const forwardTo = values['forward-to'] as string | undefined;
  if (!forwardTo) throw new UsageError('--forward-to <url> is required');
  let target: URL;
  try {
    target = new URL(forwardTo);
  } catch {
    throw new UsageError(`--forward-to must be an http(s) URL, got ${forwardTo}`);
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:')
    throw new UsageError(`--forward-to must be an http(s) URL, got ${forwardTo}`);
  let events: string[] | undefined;
  if (values.events !== undefined) {
    events = String(values.events)
      .split(',')
      .map((e) => e.trim())
      .filter((e) => e !== '');
    if (events.length === 0) throw new UsageError('--events needs at least one event type');
  }
  const env = envOption(values.env) ?? 'test';
  const only = values.merchant as string | undefined;
  const chaos = values.chaos === undefined ? undefined : parseChaos(String(values.chaos));
  const asJson = values.json === true;
  const client = clientFor(values);

  await client.call('sandboxGetHealth');
  if (only !== undefined) await client.call('sandboxGetMerchant', { params: { id: only } });
  const { secret } = await client.call('sandboxGetListenSecret');

  // The local listener the sandbox delivers to: /<merchant id>, one path per endpoint.
  // Held to the sandbox's own connection limits: any local process can connect to it.
  const limits = DEFAULT_CONNECTION_LIMITS;
  const server = createServer(
    { headersTimeout: limits.headersMs, requestTimeout: limits.requestMs, connectionsCheckingInterval: 1000 },
    (req, res) => {
      forward(req, res).catch(() => {
        if (!res.headersSent) res.writeHead(500).end();
      });
    },
  );
  server.keepAliveTimeout = 60_000;
  guardConnections(server, limits);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const local = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  /** This run's endpoints by merchant (read once for a merchant made after the start). */
  const byMerchant = new Map<string, Promise<Endpoint | undefined>>();

  // The line for each attempt is printed from the sandbox's record of it (the event stream), not
  // here: only the sandbox knows its attempt number and what follows (a retry, or giving up).
  async function forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value !== 'string') continue;
      if (name.startsWith('x-svc-') || name === 'content-type' || name === 'user-agent')
        headers[name] = value;
    }
    const merchantId = decodeURIComponent((req.url ?? '/').slice(1).split('?')[0] ?? '');
    // Which merchant (and temporary endpoint) this is for: listen covers many with one secret.
    headers['x-svc-merchant-id'] = merchantId;
    const endpoint = await endpointOf(merchantId);
    if (endpoint) headers['x-svc-endpoint-id'] = endpoint.id;
    let status: number | null = null;
    let answer = '';
    let error: string | null = null;
    try {
      const response = await fetch(target, {
        method: 'POST',
        headers,
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
      });
      status = response.status;
      answer = (await response.text()).slice(0, 64 * 1024);
    } catch (caught) {
      const cause = (caught as { cause?: { code?: string; message?: string } }).cause;
      error =
        (caught as Error).name === 'TimeoutError'
          ? `no answer within ${FORWARD_TIMEOUT_MS / 1000} s`
          : (cause?.code ?? cause?.message ?? (caught as Error).message);
    }
    if (status !== null) res.writeHead(status, { 'content-type': 'text/plain' }).end(answer);
    else res.writeHead(502, { 'content-type': 'text/plain' }).end(`${UNREACHABLE}${error}`);
  }

  const onAttempt = (message: SseMessage): void => {
    if (message.event !== 'delivery') return;
    let delivery: StreamedDelivery;
    try {
      delivery = JSON.parse(message.data) as StreamedDelivery;
    } catch {
      return;
    }
    if (!delivery.url.startsWith(`${local}/`)) return;
    const { attempt } = delivery;
    const unreachable =
      attempt.response_status === 502 && attempt.response_body?.startsWith(UNREACHABLE) === true
        ? attempt.response_body.slice(UNREACHABLE.length)
        : null;
    const status = unreachable === null ? attempt.response_status : null;
    const error = unreachable ?? (status === null ? attempt.error : null);
    if (asJson) {
      json({
        type: 'delivery',
        at: new Date().toISOString(),
        event: delivery.event,
        delivery_id: delivery.id,
        merchant_id: delivery.merchant_id,
        env: delivery.env,
        url: forwardTo,
        attempt: attempt.number,
        state: delivery.status,
        next_attempt_at: delivery.next_attempt_at,
        status,
        error,
        duration_ms: attempt.duration_ms,
      });
      return;
    }
    out(
      `${clockTime()}  ${delivery.event}  ${delivery.id}  #${attempt.number}  → ${status ?? `error (${error ?? 'unknown'})`} ${forwardTo}  [${stateText(delivery)}]`,
    );
  };

  // The stream is open before any endpoint exists: no attempt goes unprinted.
  const streaming = new AbortController();
  const eventStream = resolved('sandboxStreamEvents', {
    query: { env, ...(only !== undefined ? { merchant_id: only } : {}) },
  }).path;
  let streamWarned = false;
  const openStream = (): Promise<void> =>
    new Promise<void>((opened, failed) => {
      client
        .stream(eventStream, onAttempt, streaming.signal, () => {
          streamWarned = false;
          opened();
        })
        .then(undefined, (error: unknown) => {
          failed(error);
          if (streaming.signal.aborted) return;
          // The sandbox went away (a restart): reconnect, warning once.
          if (!streamWarned) process.stderr.write(`svc-sandbox: ${(error as Error).message}\n`);
          streamWarned = true;
          setTimeout(() => {
            if (!streaming.signal.aborted) openStream().catch(() => {});
          }, POLL_MS).unref();
        });
    });

  let session: ListenSession | undefined;
  let closing = false;

  const announce = (endpoint: Endpoint, name: string): void => {
    if (closing) return;
    if (asJson) {
      json({
        type: 'endpoint',
        endpoint_id: endpoint.id,
        merchant_id: endpoint.merchant_id,
        merchant_name: name,
        env,
      });
    } else out(`  forwarding ${name} (${endpoint.merchant_id}, ${env})`);
    if (chaos !== undefined) {
      const chaotic = endpoint.chaos;
      if (!chaotic) return;
      if (asJson) json({ type: 'chaos', endpoint_id: endpoint.id, chaos: chaotic });
      else out(`Chaos on ${name}'s endpoint: ${describeChaos(chaotic)}`);
    }
  };

  /**
   * The endpoint the sandbox made for a merchant: those of the session's start are known; one made
   * for a new merchant (at its first event) is read once, and announced.
   */
  function endpointOf(merchantId: string): Promise<Endpoint | undefined> {
    let found = byMerchant.get(merchantId);
    if (!found) {
      found = (async () => {
        const url = `${local}/${encodeURIComponent(merchantId)}`;
        const [merchant, endpoints] = await Promise.all([
          client.call('sandboxGetMerchant', { params: { id: merchantId } }),
          client.call('sandboxListMerchantWebhookEndpoints', { params: { id: merchantId }, query: { env } }),
        ]);
        const endpoint = endpoints.find((e) => e.url === url);
        if (endpoint) announce(endpoint, merchant.name);
        return endpoint;
      })().catch(() => undefined);
      byMerchant.set(merchantId, found);
    }
    return found;
  }

  const cleanup = async (): Promise<number> => {
    closing = true;
    let removed = 0;
    let failed = 0;
    if (session !== undefined) {
      try {
        ({ removed } = await client.call('sandboxDeleteListenSession', { params: { id: session.id } }));
      } catch (error) {
        // Gone with a sandbox restart: its endpoints stay, listed on the Webhooks page as listen's.
        if (!/ 404 /.test((error as Error).message)) {
          failed++;
          process.stderr.write(
            `svc-sandbox: could not end the listen session: ${(error as Error).message}\n`,
          );
        }
      }
    }
    streaming.abort();
    server.closeAllConnections();
    server.close();
    process.stderr.write(`svc-sandbox: removed ${removed} temporary webhook endpoint(s)\n`);
    return failed === 0 ? 0 : 1;
  };

  const done = new Promise<number>((resolve) => {
    const stop = () => {
      if (closing) return;
      cleanup().then(resolve, () => resolve(1));
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });

  try {
    await openStream();
    // Before Ready: from here on every event of the workspace reaches listen.
    session = await client.call('sandboxCreateListenSession', {
      query: { env },
      body: {
        url: local,
        forward_to: forwardTo,
        ...(events ? { events } : {}),
        ...(only !== undefined ? { merchant_id: only } : {}),
        ...(chaos !== undefined ? { chaos } : {}),
      },
    });
    const names = new Map(
      (only !== undefined
        ? [await client.call('sandboxGetMerchant', { params: { id: only } })]
        : await client.call('sandboxListMerchants')
      ).map((m) => [m.id, m.name]),
    );
    if (asJson) json({ type: 'ready', secret, forward_to: forwardTo, env });
    else out(`Ready! Your webhook signing secret is ${secret} (forwarding ${env} webhooks to ${forwardTo})`);
    for (const endpoint of session.endpoints) {
      byMerchant.set(endpoint.merchant_id, Promise.resolve(endpoint));
      announce(endpoint, names.get(endpoint.merchant_id) ?? endpoint.merchant_id);
    }
  } catch (error) {
    const code = await cleanup();
    if (error instanceof CliFailure) throw error;
    return code || 1;
  }
  if (session.endpoints.length === 0 && !asJson) {
    out('  no merchants yet: new ones get an endpoint as they appear');
  }
  return done;
}

/** A delivery attempt as the event stream carries it (the fields listen reads). */
interface StreamedDelivery {
  id: string;
  url: string;
  event: string;
  merchant_id: string;
  env: string;
  endpoint_id: string;
  status: 'pending' | 'delivered' | 'failed';
  next_attempt_at: string | null;
  attempt: {
    number: number;
    response_status: number | null;
    response_body: string | null;
    duration_ms: number;
    error: string | null;
  };
}

/** The delivery's state after an attempt, with what comes next or how it ended. */
export function stateText(
  delivery: Pick<StreamedDelivery, 'status' | 'next_attempt_at' | 'attempt'>,
): string {
  const n = delivery.attempt.number;
  if (delivery.status === 'pending')
    // The one sandbox time on the line, labelled: the leading time is this machine's clock.
    return delivery.next_attempt_at === null
      ? 'pending'
      : `pending: retry at ${delivery.next_attempt_at} sandbox time`;
  if (delivery.status === 'delivered') return n > 1 ? `delivered after ${n} attempts` : 'delivered';
  return `failed: gave up after ${n} attempt${n === 1 ? '' : 's'}`;
}
