import type { LibraryList } from '../contract/scenario-library.js';
import type { ScenarioRun } from '../contract/scenarios.js';
import { clientFor } from './client.js';
import { COMMON_HELP, envOption, json, noExtra, out, parse, UsageError } from './common.js';

export const TRIGGER_USAGE = `Usage: svc-sandbox trigger <name> [--env test|production] [--url <url>]
       svc-sandbox trigger --list

Runs a built-in scenario against the running sandbox: each produces one event sequence (every
webhook event type, and paths like checkout.partial, refund.clawback, card.declined.limit,
webhook.retries-exhausted) and checks it. It creates its own merchants; scenarios that wait for
time (expiry, retries, fee release) advance the sandbox clock. Exit 0 when every step held, 1 when
one failed.

Options:
  --list            list the built-in scenarios with the events each produces
  --env <env>       environment of the steps that name none (default test)
${COMMON_HELP}
Examples:
  svc-sandbox trigger --list
  svc-sandbox trigger checkout.partial
  svc-sandbox trigger webhook.retries-exhausted --url http://127.0.0.1:4010
`;

export async function trigger(argv: string[]): Promise<number | 'help'> {
  const { values, positionals } = parse(argv, { list: { type: 'boolean' }, env: { type: 'string' } });
  if (values.help) return 'help';
  const { LIBRARY, libraryEntry } = await import('../scenarios/library.js');
  if (values.list) {
    noExtra(positionals, 1);
    const items: LibraryList['items'] = LIBRARY.map(({ name, description, events }) => ({
      name,
      description,
      events,
    }));
    if (values.json) {
      for (const item of items) json(item);
      return 0;
    }
    const width = Math.max(...items.map((i) => i.name.length));
    for (const item of items) {
      out(`${item.name.padEnd(width)}  ${item.description}`);
      if (item.events.length > 0) out(`${''.padEnd(width)}  events: ${[...new Set(item.events)].join(', ')}`);
    }
    return 0;
  }
  const name = positionals[1];
  if (name === undefined)
    throw new UsageError('missing the scenario name (svc-sandbox trigger --list shows them)');
  noExtra(positionals, 2);
  if (!libraryEntry(name))
    throw new UsageError(`no built-in scenario named ${name} (svc-sandbox trigger --list shows them)`);
  const env = envOption(values.env);
  const client = clientFor(values);
  const run = await client.post<ScenarioRun>(
    `/sandbox/scenarios/library/${encodeURIComponent(name)}/run`,
    env === undefined ? {} : { env },
  );
  if (values.json) {
    json(run);
    return run.ok ? 0 : 1;
  }
  out(
    `${run.name} → ${client.baseUrl}${client.workspace === undefined ? '' : ` (workspace ${client.workspace})`}`,
  );
  for (const step of run.steps) {
    out(`  ${step.ok ? '✓' : '✗'} ${step.index} ${step.label}${step.ok ? '' : ` (line ${step.line})`}`);
    if (!step.ok && step.error) for (const line of step.error.split('\n')) out(`      ${line}`);
  }
  const failed = run.steps.filter((s) => !s.ok).length;
  out(
    `  ${run.ok ? 'passed' : 'FAILED'}: ${run.steps.length - failed} of ${run.steps.length} steps held` +
      (failed ? `, ${failed} failed` : ''),
  );
  return run.ok ? 0 : 1;
}
