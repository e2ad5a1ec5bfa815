import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WebhookEndpoint } from '../contract/webhooks.js';
import { DEFAULT_CONNECTION_LIMITS, guardConnections } from '../http/connections.js';
import { CHAOS_HELP, describeChaos, parseChaos } from './chaos-option.js';
import { clientFor } from './client.js';
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

Forwards the sandbox's webhooks to a URL on your machine, like \`stripe listen\`. Starts a local
listener on 127.0.0.1 (a free port), registers a temporary webhook endpoint pointing at it for each
merchant, prints each endpoint's signing secret, then forwards every delivery to --forward-to: the
exact body with the original X-SVC-Event, X-SVC-Delivery-Id and X-SVC-Signature headers, so the
signature verifies against the printed secret. The sandbox sees your app's answer (status and body;
502 when it cannot be reached), so failures are retried on the sandbox clock as usual. One line per
delivery: <time>  <event>  <delivery id>  → <status> <url>.

Without --merchant every merchant is included: those present at start, and new ones (the merchant
list is polled every 2 s). The endpoints are removed on exit (Ctrl-C, SIGTERM).

Options:
  --forward-to <url>  where to send each delivery (required)
  --events <a,b>      only these event types (default: every event)
  --merchant <id>     only this merchant (default: every merchant, including new ones)
  --env <env>         test or production (default test)
${CHAOS_HELP}
${COMMON_HELP}
Example:
  svc-sandbox listen --forward-to http://localhost:3000/webhooks --events checkout.paid
`;

const OPTIONS = {
  'forward-to': { type: 'string' },
  events: { type: 'string' },
  merchant: { type: 'string' },
  env: { type: 'string' },
  chaos: { type: 'string' },
} as const;

const POLL_MS = 2000;
const FORWARD_TIMEOUT_MS = 30_000;

interface Endpoint {
  id: string;
  merchant_id: string;
  env: string;
  url: string;
  secret: string;
}

interface MerchantRow {
  id: string;
  name: string;
}

export async function listen(argv: string[]): Promise<number | 'help'> {
  const { values, positionals } = parse(argv, OPTIONS);
  if (values.help) return 'help';
  noExtra(positionals, 1);
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

  await client.get('/sandbox/health');
  if (only !== undefined) await client.get(`/sandbox/merchants/${encodeURIComponent(only)}`);

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
    const event = headers['x-svc-event'] ?? '?';
    const deliveryId = headers['x-svc-delivery-id'] ?? '?';
    const started = performance.now();
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
    const duration = Math.round(performance.now() - started);
    if (asJson) {
      json({
        type: 'delivery',
        at: new Date().toISOString(),
        event,
        delivery_id: deliveryId,
        merchant_id: merchantId,
        env,
        url: forwardTo,
        status,
        error,
        duration_ms: duration,
      });
    } else {
      out(`${clockTime()}  ${event}  ${deliveryId}  → ${status ?? `error (${error})`} ${forwardTo}`);
    }
    if (status !== null) res.writeHead(status, { 'content-type': 'text/plain' }).end(answer);
    else res.writeHead(502, { 'content-type': 'text/plain' }).end(`svc-sandbox listen: ${error}`);
  }

  const endpoints: Endpoint[] = [];
  const known = new Set<string>();
  let closing = false;
  let pending: Promise<unknown> = Promise.resolve();

  const register = async (merchant: MerchantRow): Promise<void> => {
    known.add(merchant.id);
    const endpoint = await client.post<Endpoint>(
      `/sandbox/merchants/${encodeURIComponent(merchant.id)}/webhook-endpoints?env=${env}`,
      { url: `${local}/${encodeURIComponent(merchant.id)}`, ...(events ? { events } : {}) },
    );
    endpoints.push(endpoint);
    const chaotic =
      chaos === undefined
        ? undefined
        : await client.request<Pick<WebhookEndpoint, 'chaos'>>(
            'PATCH',
            `/sandbox/webhook-endpoints/${endpoint.id}`,
            { chaos },
          );
    if (closing) return;
    if (asJson) {
      json({
        type: 'ready',
        endpoint_id: endpoint.id,
        merchant_id: merchant.id,
        merchant_name: merchant.name,
        env,
        secret: endpoint.secret,
        forward_to: forwardTo,
      });
    } else {
      out(
        `Ready! Your webhook signing secret is ${endpoint.secret} (merchant ${merchant.name} ${merchant.id}, ${env})`,
      );
    }
    if (chaotic?.chaos) {
      if (asJson) json({ type: 'chaos', endpoint_id: endpoint.id, chaos: chaotic.chaos });
      else out(`Chaos on ${merchant.name}'s endpoint: ${describeChaos(chaotic.chaos)}`);
    }
  };

  const sync = async (): Promise<void> => {
    const merchants =
      only !== undefined
        ? [await client.get<MerchantRow>(`/sandbox/merchants/${encodeURIComponent(only)}`)]
        : await client.get<MerchantRow[]>('/sandbox/merchants');
    for (const merchant of merchants) {
      if (closing) return;
      if (!known.has(merchant.id)) await register(merchant);
    }
  };

  const cleanup = async (): Promise<number> => {
    closing = true;
    clearInterval(poller);
    await pending.catch(() => {});
    let removed = 0;
    let failed = 0;
    for (const endpoint of endpoints) {
      try {
        await client.delete(`/sandbox/webhook-endpoints/${endpoint.id}`);
        removed++;
      } catch (error) {
        // Already gone (a reset): nothing to remove.
        if (/ 404 /.test((error as Error).message)) continue;
        failed++;
        process.stderr.write(
          `svc-sandbox: could not remove endpoint ${endpoint.id}: ${(error as Error).message}\n`,
        );
      }
    }
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

  let warned = false;
  const poll = () => {
    pending = pending.then(sync).then(
      () => {
        warned = false;
      },
      (error: unknown) => {
        if (closing || warned) return;
        warned = true;
        process.stderr.write(`svc-sandbox: ${(error as Error).message}\n`);
      },
    );
  };
  const poller = setInterval(() => {
    if (only === undefined) poll();
  }, POLL_MS);

  try {
    pending = sync();
    await pending;
  } catch (error) {
    const code = await cleanup();
    if (error instanceof CliFailure) throw error;
    return code || 1;
  }
  if (endpoints.length === 0 && !asJson) {
    out(`Ready! No merchants yet: new ones get an endpoint as they appear (forwarding to ${forwardTo})`);
  }
  return done;
}
