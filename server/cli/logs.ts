import { clientFor, resolved, type SseMessage } from './client.js';
import { COMMON_HELP, envOption, json, noExtra, out, parse, UsageError } from './common.js';

export const LOGS_USAGE = `Usage: svc-sandbox logs tail [options]

Streams what happens in the sandbox (GET /sandbox/events) until interrupted, one line each:
  event     <time> <env> <type> <resource id>  (merchant <id>)
  delivery  <time> <env> delivery <event> <delivery id> #<attempt> → <status> <url>  [<state>]
            (<url> is the --forward-to URL for the endpoints of \`svc-sandbox listen\`, marked "via listen")
  request   <time> <env> <method> <path> → <status> <duration>ms  (merchant <id>)  (every /v1 request;
            one no key matched ends in "(no merchant: unauthenticated)"; one an API fault
            changed ends in "[fault <rule>: <effect>]")
Lines come in the order things happened: a request, then the events it caused, then their
deliveries. <time> is sandbox time (a request's: when its response left). With --json, one object per line: {"kind": "event"|"delivery"|"request", "data": {...}}.

Options:
  --merchant <id>   only this merchant
  --env <env>       only test or production (default both)
${COMMON_HELP}
Example:
  svc-sandbox logs tail --env test
`;

const OPTIONS = { merchant: { type: 'string' }, env: { type: 'string' } } as const;

type Row = Record<string, unknown>;

const str = (value: unknown, fallback = '-'): string =>
  value === null || value === undefined || value === '' ? fallback : String(value);

/** A duration with the decimals that matter: `0.42`, `3.6`, `250.3` (a sub-ms request is not `0`). */
export function formatMs(ms: number): string {
  return ms < 1 ? ms.toFixed(2) : ms.toFixed(1);
}

/** One human line per stream message, or undefined for messages not worth a line. */
export function formatMessage(kind: string, data: Row): string | undefined {
  if (kind === 'event') {
    return `${str(data.created_at)} ${str(data.env)} ${str(data.type)} ${str(data.resource_id)}  (merchant ${str(data.merchant_id)})`;
  }
  if (kind === 'delivery') {
    const attempt = (data.attempt ?? {}) as Row;
    const outcome =
      attempt.response_status !== null && attempt.response_status !== undefined
        ? String(attempt.response_status)
        : `error (${str(attempt.error, 'unknown')})`;
    // listen's endpoints deliver to listen itself: the URL that matters is where it forwards to.
    const url = typeof data.forward_to === 'string' ? `${data.forward_to} (via listen)` : str(data.url);
    return `${str(attempt.at ?? data.updated_at)} ${str(data.env)} delivery ${str(data.event)} ${str(data.id)} #${str(attempt.number)} → ${outcome} ${url}  [${str(data.status)}]`;
  }
  if (kind === 'request') {
    // A request no merchant's key matched says so: the most common integration mistake.
    const who = data.merchant_id
      ? `  (merchant ${str(data.merchant_id)})`
      : '  (no merchant: unauthenticated)';
    const ms = typeof data.duration_ms === 'number' ? formatMs(data.duration_ms) : str(data.duration_ms);
    const fault = data.fault as { rule?: unknown; effect?: unknown } | undefined;
    // A request an API fault changed says which rule did what (faults set).
    const faulted = fault ? `  [fault ${str(fault.rule)}: ${str(fault.effect)}]` : '';
    return `${str(data.at ?? data.created_at)} ${str(data.env)} ${str(data.method)} ${str(data.path)} → ${str(data.status)} ${ms}ms${who}${faulted}`;
  }
  return undefined;
}

export async function logs(argv: string[]): Promise<number | 'help'> {
  const { values, positionals } = parse(argv, OPTIONS);
  if (values.help) return 'help';
  if (positionals[1] !== 'tail')
    throw new UsageError(
      positionals[1] === undefined
        ? 'missing subcommand: logs tail'
        : `unknown subcommand: logs ${positionals[1]}`,
    );
  noExtra(positionals, 2);
  const env = envOption(values.env);
  const merchant = values.merchant as string | undefined;
  const asJson = values.json === true;
  const client = clientFor(values);

  const { path } = resolved('sandboxStreamEvents', {
    query: { ...(env ? { env } : {}), ...(merchant ? { merchant_id: merchant } : {}) },
  });

  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);

  // Each endpoint's forward_to (listen's endpoints), read once per endpoint; null for others.
  const forwardTo = new Map<string, Promise<string | null>>();
  const forwardToOf = (endpointId: string): Promise<string | null> => {
    let known = forwardTo.get(endpointId);
    if (!known) {
      known = client.call('sandboxGetWebhookEndpoint', { params: { id: endpointId } }).then(
        (endpoint) => endpoint.forward_to ?? null,
        // Gone already (listen removed it on exit): its deliveries show the URL they went to.
        () => null,
      );
      if (forwardTo.size >= 10_000) forwardTo.clear();
      forwardTo.set(endpointId, known);
    }
    return known;
  };

  // Lines leave in the order their messages came, whatever a lookup costs.
  let printed: Promise<void> = Promise.resolve();
  const onMessage = (message: SseMessage) => {
    // Change notices (`event: change`) drive the dashboard's re-reads; a log shows what happened.
    if (message.event === 'change') return;
    let data: Row;
    try {
      data = JSON.parse(message.data) as Row;
    } catch {
      return;
    }
    const ready =
      message.event === 'delivery' && typeof data.endpoint_id === 'string'
        ? forwardToOf(data.endpoint_id).then((url) => {
            if (url !== null) data.forward_to = url;
          })
        : undefined;
    const print = () => {
      if (asJson) {
        json({ kind: message.event, data });
        return;
      }
      const line = formatMessage(message.event, data);
      if (line !== undefined) out(line);
    };
    printed = ready ? printed.then(() => ready).then(print) : printed.then(print);
  };
  await client.stream(path, onMessage, controller.signal, () => {
    process.stderr.write(`svc-sandbox: tailing ${client.baseUrl}${path} (Ctrl-C to stop)\n`);
  });
  await printed;
  return 0;
}
