import type { VerifyRequestsBody } from '../contract/requests.js';
import { clientFor } from './client.js';
import { COMMON_HELP, envOption, json, noExtra, out, parse, UsageError } from './common.js';

export const VERIFY_USAGE = `Usage: svc-sandbox verify [options]

Checks that the app sent the /v1 requests described (POST /sandbox/request-log/verify): exit 0
when the number of matching requests is as expected, 1 when not, printing the closest requests
and what differed (\`body.amount: expected 5000, actual 1000\`).

Options:
  --method <m>        the method
  --path <p>          a route template (/v1/checkouts/{id}) or an exact path
  --env <env>         test or production
  --status <s>        an exact status (201) or a class (4xx)
  --query <k=v>       a query parameter (repeatable)
  --body <json>       a subset of the JSON body ('{"amount":5000}')
  --since <id|time>   only requests after this request id, or at or after this time
  --count <n>         exactly n matching requests (default: at least one)
  --at-least <n>      at least n
  --at-most <n>       at most n
${COMMON_HELP}
Example:
  svc-sandbox verify --method POST --path /v1/checkouts --body '{"reference":"order-1"}' --count 1
`;

const OPTIONS = {
  method: { type: 'string' },
  path: { type: 'string' },
  env: { type: 'string' },
  status: { type: 'string' },
  query: { type: 'string', multiple: true },
  body: { type: 'string' },
  since: { type: 'string' },
  count: { type: 'string' },
  'at-least': { type: 'string' },
  'at-most': { type: 'string' },
} as const;

const integer = (flag: string, value: string): number => {
  if (!/^\d+$/.test(value)) throw new UsageError(`--${flag} must be a whole number, got ${value}`);
  return Number(value);
};

export async function verifyCommand(argv: string[]): Promise<number | 'help'> {
  const { values, positionals } = parse(argv, OPTIONS);
  if (values.help) return 'help';
  noExtra(positionals, 1);
  const str = (key: string) => (typeof values[key] === 'string' ? (values[key] as string) : undefined);
  const criteria: VerifyRequestsBody = {};
  if (str('method')) criteria.method = str('method')!.toUpperCase();
  if (str('path')) criteria.path = str('path');
  const env = envOption(values.env);
  if (env) criteria.env = env;
  const status = str('status');
  if (status !== undefined) criteria.status = /^\d+$/.test(status) ? Number(status) : status;
  const queries = (values as unknown as { query?: string[] }).query;
  if (queries && queries.length > 0) {
    criteria.query = {};
    for (const pair of queries) {
      const at = pair.indexOf('=');
      if (at < 1) throw new UsageError(`--query must be key=value, got ${pair}`);
      criteria.query[pair.slice(0, at)] = pair.slice(at + 1);
    }
  }
  const body = str('body');
  if (body !== undefined) {
    try {
      criteria.body = JSON.parse(body) as unknown;
    } catch {
      throw new UsageError(`--body must be JSON, got ${body}`);
    }
  }
  if (str('since')) criteria.since = str('since');
  const count: NonNullable<VerifyRequestsBody['count']> = {};
  if (str('count') !== undefined) count.eq = integer('count', str('count')!);
  if (str('at-least') !== undefined) count.gte = integer('at-least', str('at-least')!);
  if (str('at-most') !== undefined) count.lte = integer('at-most', str('at-most')!);
  if (Object.keys(count).length > 0) criteria.count = count;

  const result = await clientFor(values).call('sandboxVerifyRequests', { body: criteria });
  if (values.json) json(result);
  else {
    const expected = Object.entries(result.count)
      .map(([op, n]) => `${{ eq: 'exactly', gte: 'at least', lte: 'at most' }[op] ?? op} ${n}`)
      .join(' and ');
    out(`${result.ok ? 'ok' : 'FAILED'}: ${result.matched} matching request(s), expected ${expected}`);
    for (const request of result.requests)
      out(`  ${request.created_at} ${request.method} ${request.path} → ${request.status}  ${request.id}`);
    if (result.near_misses.length > 0) out('near misses:');
    for (const { request, differences } of result.near_misses) {
      out(`  ${request.created_at} ${request.method} ${request.path} → ${request.status}  ${request.id}`);
      for (const difference of differences) out(`    ${difference}`);
    }
  }
  return result.ok ? 0 : 1;
}
