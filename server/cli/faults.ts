import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import type { FaultEffect, FaultRuleInput, Faults, FaultsInput } from '../contract/faults.js';
import { clientFor } from './client.js';
import { CliFailure, COMMON_HELP, envOption, json, noExtra, out, parse, UsageError } from './common.js';

export const FAULTS_USAGE = `Usage: svc-sandbox faults set|list|clear [options]

API faults for the workspace's /v1 requests (PUT/GET/DELETE /sandbox/faults): errors, 429s with
Retry-After, latency, timeouts and lost responses, decided by a seeded sequence (the same seed and
the same requests give the same faults). Never the control API.

  faults set [rule flags | --file <rules>]   replace the rules (one rule from the flags, or a file)
  faults list                                the rules, with how many requests each has changed
  faults clear                               no faults any more

Rule flags (one rule):
  --status <429|500|502|503|504>   answer this instead of running the request
  --retry-after <s>                a 429's Retry-After (default 1)
  --latency <min>-<max>            the right answer, after a wait in this range (ms)
  --timeout                        no answer (closed when the client gives up)
  --lost-response                  the request runs and commits; the answer is lost
  --method <m> --path <p> --env <env>
                                   which requests (path: /v1/checkouts/{id} or an exact path)
  --rate <0..1>                    the chance a matching request is changed (default 1)
  --count <n>                      only the next n matching requests
  --id <name>                      the rule's name (in answers and the request log)
  --seed <seed>                    restarts the sequence (default: a new seed)
  --file <path>                    JSON or YAML: {seed?, rules: [...]} or a list of rules
${COMMON_HELP}
Examples:
  svc-sandbox faults set --method POST --path /v1/checkouts --status 503 --count 2
  svc-sandbox faults set --status 429 --retry-after 5 --rate 0.2 --seed ci
  svc-sandbox faults set --file faults.yaml
`;

const OPTIONS = {
  status: { type: 'string' },
  'retry-after': { type: 'string' },
  latency: { type: 'string' },
  timeout: { type: 'boolean' },
  'lost-response': { type: 'boolean' },
  method: { type: 'string' },
  path: { type: 'string' },
  env: { type: 'string' },
  rate: { type: 'string' },
  count: { type: 'string' },
  id: { type: 'string' },
  seed: { type: 'string' },
  file: { type: 'string' },
} as const;

type Values = Record<string, string | boolean | undefined>;

const number = (flag: string, value: string): number => {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n))
    throw new UsageError(`--${flag} must be a number, got ${value}`);
  return n;
};

/** The one rule the flags describe. */
export function ruleFromFlags(values: Values): FaultRuleInput {
  const effects: FaultEffect[] = [];
  if (typeof values.status === 'string') {
    effects.push({
      status: number('status', values.status) as NonNullable<FaultEffect['status']>,
      ...(typeof values['retry-after'] === 'string'
        ? { retry_after_s: number('retry-after', values['retry-after']) }
        : {}),
    });
  } else if (values['retry-after'] !== undefined)
    throw new UsageError('--retry-after goes with --status 429');
  if (typeof values.latency === 'string') {
    const range = /^(\d+)(?:-(\d+))?$/.exec(values.latency);
    if (!range)
      throw new UsageError(`--latency must be <min>-<max> in ms (or one number), got ${values.latency}`);
    effects.push({ latency_ms: { min: Number(range[1]), max: Number(range[2] ?? range[1]) } });
  }
  if (values.timeout) effects.push({ timeout: true });
  if (values['lost-response']) effects.push({ lost_response: true });
  if (effects.length !== 1)
    throw new UsageError('give one effect: --status, --latency, --timeout or --lost-response (or --file)');
  const env = envOption(values.env);
  const match = {
    ...(typeof values.method === 'string' ? { method: values.method.toUpperCase() as 'GET' } : {}),
    ...(typeof values.path === 'string' ? { path: values.path } : {}),
    ...(env ? { env } : {}),
  };
  return {
    ...(typeof values.id === 'string' ? { id: values.id } : {}),
    ...(Object.keys(match).length > 0 ? { match } : {}),
    ...(typeof values.rate === 'string' ? { rate: number('rate', values.rate) } : {}),
    ...(typeof values.count === 'string' ? { count: number('count', values.count) } : {}),
    effect: effects[0]!,
  };
}

function fromFile(path: string): FaultsInput {
  let parsed: unknown;
  try {
    parsed = parseYaml(readFileSync(path, 'utf8')) as unknown;
  } catch (error) {
    throw new CliFailure(`${path}: ${(error as Error).message}`);
  }
  if (Array.isArray(parsed)) return { rules: parsed as FaultRuleInput[] };
  if (parsed && typeof parsed === 'object' && Array.isArray((parsed as FaultsInput).rules))
    return parsed as FaultsInput;
  throw new CliFailure(`${path}: expected {seed?, rules: [...]} or a list of rules`);
}

const describeEffect = (effect: FaultEffect): string =>
  effect.status !== undefined
    ? `status ${effect.status}${effect.status === 429 ? ` (Retry-After ${effect.retry_after_s ?? 1})` : ''}`
    : effect.latency_ms
      ? `latency ${effect.latency_ms.min}-${effect.latency_ms.max} ms`
      : effect.timeout
        ? 'timeout'
        : 'lost response';

function print(faults: Faults): void {
  if (faults.rules.length === 0) {
    out('no faults');
    return;
  }
  out(`seed ${faults.seed}`);
  for (const rule of faults.rules) {
    const { method, path, env } = rule.match;
    const match = [method, path, env].filter((part) => part !== undefined).join(' ') || 'every /v1 request';
    const limit = rule.count === null ? '' : `, ${rule.remaining} of ${rule.count} left`;
    out(
      `${rule.id}: ${match} → ${describeEffect(rule.effect)} (rate ${rule.rate}${limit}; applied ${rule.applied})`,
    );
  }
}

export async function faultsCommand(argv: string[]): Promise<number | 'help'> {
  const { values, positionals } = parse(argv, OPTIONS);
  if (values.help) return 'help';
  const sub = positionals[1];
  noExtra(positionals, 2);
  const client = clientFor(values);
  if (sub === 'list') {
    const faults = await client.call('sandboxGetFaults');
    if (values.json) json(faults);
    else print(faults);
    return 0;
  }
  if (sub === 'clear') {
    await client.call('sandboxClearFaults');
    if (values.json) json({ cleared: true });
    else out('no faults');
    return 0;
  }
  if (sub === 'set') {
    const file = values.file as string | undefined;
    const input: FaultsInput = file !== undefined ? fromFile(file) : { rules: [ruleFromFlags(values)] };
    if (typeof values.seed === 'string') input.seed = values.seed;
    const faults = await client.call('sandboxSetFaults', { body: input });
    if (values.json) json(faults);
    else print(faults);
    return 0;
  }
  throw new UsageError(
    sub === undefined ? 'missing subcommand: faults set|list|clear' : `unknown subcommand: faults ${sub}`,
  );
}
