import type { LibraryList, RunChanges } from '../contract/scenario-library.js';
import { clientFor } from './client.js';
import { COMMON_HELP, envOption, json, noExtra, out, parse, UsageError } from './common.js';

export const TRIGGER_USAGE = `Usage: svc-sandbox trigger <name> [--env test|production] [--url <url>]
       svc-sandbox trigger --list

Runs a built-in scenario against the running sandbox: each produces one event sequence (every
webhook event type, and paths like checkout.partial, refund.clawback, card.declined.limit,
webhook.retries-exhausted) and checks it. Its merchants are reused: a scenario's merchant step
takes the newest merchant of that name (e.g. "Demo Coffee Roasters") and makes one only the first
time. Scenarios that wait for time (expiry, retries, fee release) advance the sandbox clock. After
the steps it prints what it changed: merchants made or reused, how far the clock moved, the events
fired. Exit 0 when every step held, 1 when one failed.

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
  const run = await client.call('sandboxRunLibraryScenario', {
    params: { name },
    body: { ...(env === undefined ? {} : { env }), reuse_merchants: true },
  });
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
  if (run.changes) for (const line of changeLines(run.changes)) out(`  ${line}`);
  return run.ok ? 0 : 1;
}

/** What a run changed, in words: one line each for merchants, the clock and the events. */
export function changeLines(changes: RunChanges): string[] {
  const merchants = changes.merchants.map((m) => `${m.made ? 'made' : 'reused'} ${m.name} (${m.id})`);
  const s = changes.clock.moved_seconds;
  const moved =
    s === 0
      ? 'not moved'
      : `moved ${[
          [Math.floor(s / 86_400), 'd'],
          [Math.floor((s % 86_400) / 3600), 'h'],
          [Math.floor((s % 3600) / 60), 'm'],
          [s % 60, 's'],
        ]
          .filter(([n]) => n !== 0)
          .map(([n, unit]) => `${n}${unit}`)
          .join(' ')} (${changes.clock.from} → ${changes.clock.to})`;
  const events = changes.events.map((e) => `${e.type} ×${e.count}`);
  return [
    `merchants: ${merchants.length ? merchants.join(', ') : 'none'}`,
    `clock: ${moved}`,
    `events fired: ${events.length ? events.join(', ') : 'none'}`,
  ];
}
