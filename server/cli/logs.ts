import { clientFor, type SseMessage } from './client.js';
import { COMMON_HELP, envOption, json, noExtra, out, parse, UsageError } from './common.js';

export const LOGS_USAGE = `Usage: svc-sandbox logs tail [options]

Streams what happens in the sandbox (GET /sandbox/events) until interrupted, one line each:
  event     <time> <env> <type> <resource id>  (merchant <id>)
  delivery  <time> <env> delivery <event> <delivery id> #<attempt> → <status> <url>
  request   <time> <env> <method> <path> → <status> <duration>ms  (merchant <id>)  (every /v1 request;
            one no key matched ends in "(no merchant: unauthenticated)")
<time> is sandbox time. With --json, one object per line: {"kind": "event"|"delivery"|"request", "data": {...}}.

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
    return `${str(attempt.at ?? data.updated_at)} ${str(data.env)} delivery ${str(data.event)} ${str(data.id)} #${str(attempt.number)} → ${outcome} ${str(data.url)}  [${str(data.status)}]`;
  }
  if (kind === 'request') {
    // A request no merchant's key matched says so: the most common integration mistake.
    const who = data.merchant_id
      ? `  (merchant ${str(data.merchant_id)})`
      : '  (no merchant: unauthenticated)';
    const ms = typeof data.duration_ms === 'number' ? formatMs(data.duration_ms) : str(data.duration_ms);
    return `${str(data.at ?? data.created_at)} ${str(data.env)} ${str(data.method)} ${str(data.path)} → ${str(data.status)} ${ms}ms${who}`;
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

  const query = new URLSearchParams();
  if (env) query.set('env', env);
  if (merchant) query.set('merchant_id', merchant);
  const path = `/sandbox/events${query.size > 0 ? `?${query}` : ''}`;

  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);

  const onMessage = (message: SseMessage) => {
    // Change notices (`event: change`) drive the dashboard's re-reads; a log shows what happened.
    if (message.event === 'change') return;
    let data: Row;
    try {
      data = JSON.parse(message.data) as Row;
    } catch {
      return;
    }
    if (asJson) {
      json({ kind: message.event, data });
      return;
    }
    const line = formatMessage(message.event, data);
    if (line !== undefined) out(line);
  };
  await client.stream(path, onMessage, controller.signal, () => {
    process.stderr.write(`svc-sandbox: tailing ${client.baseUrl}${path} (Ctrl-C to stop)\n`);
  });
  return 0;
}
