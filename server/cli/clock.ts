import type { Fired } from '../contract/workspaces.js';
import { clientFor, type SandboxClient } from './client.js';
import { COMMON_HELP, json, noExtra, out, parse, UsageError } from './common.js';

export const CLOCK_USAGE = `Usage: svc-sandbox clock [advance <duration> | freeze | resume] [options]

  clock                     print the sandbox time: now, offset from real time, frozen or not
  clock advance <duration>  move the clock forward, running every job that falls due (90s, 15m, 1h,
                            2d, or plain seconds); prints what fired: events, webhook delivery
                            attempts, jobs
  clock freeze              stop the clock
  clock resume              let it run again (from where it stands)

Options:
${COMMON_HELP}
Examples:
  svc-sandbox clock advance 1h
  svc-sandbox clock advance 2d --workspace ci-run-7
`;

interface ClockState {
  now: string;
  offset_ms: number;
  frozen: boolean;
  ran?: number;
  /** what an advance ran (a sandbox with workspaces says) */
  fired?: Fired;
}

/** The most events an advance lists one per line; the rest are counted. */
const SHOWN_EVENTS = 20;

const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/** `90s`, `15m`, `1h`, `2d`, `1h30m` or plain seconds → whole seconds. */
export function parseDuration(text: string): number {
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const parts = [...trimmed.matchAll(/(\d+(?:\.\d+)?)([smhd])/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== trimmed)
    throw new UsageError(`not a duration: ${text} (use e.g. 90s, 15m, 1h, 2d or seconds)`);
  return Math.round(parts.reduce((sum, p) => sum + Number(p[1]) * UNITS[p[2]!]!, 0));
}

export function formatOffset(ms: number): string {
  const sign = ms < 0 ? '-' : '+';
  let rest = Math.round(Math.abs(ms) / 1000);
  const parts: string[] = [];
  for (const [unit, size] of [
    ['d', 86400],
    ['h', 3600],
    ['m', 60],
  ] as const) {
    if (rest >= size) {
      parts.push(`${Math.floor(rest / size)}${unit}`);
      rest %= size;
    }
  }
  if (rest > 0 || parts.length === 0) parts.push(`${rest}s`);
  return `${sign}${parts.join('')}`;
}

export async function clock(argv: string[]): Promise<number | 'help'> {
  const { values, positionals } = parse(argv, {});
  if (values.help) return 'help';
  const action = positionals[1];
  let state: ClockState;
  let client: SandboxClient;
  if (action === undefined) {
    client = clientFor(values);
    state = await client.call('sandboxGetClock');
  } else if (action === 'advance') {
    const duration = positionals[2];
    if (duration === undefined) throw new UsageError('clock advance needs a duration (e.g. 1h)');
    noExtra(positionals, 3);
    const seconds = parseDuration(duration);
    if (seconds > 10 * 365 * 86400) throw new UsageError('clock advance: at most 10 years at once');
    client = clientFor(values);
    state = await client.call('sandboxAdvanceClock', { body: { seconds } });
  } else if (action === 'freeze' || action === 'resume') {
    noExtra(positionals, 2);
    client = clientFor(values);
    state = await client.call(action === 'freeze' ? 'sandboxFreezeClock' : 'sandboxResumeClock');
  } else {
    throw new UsageError(`unknown subcommand: clock ${action}`);
  }
  if (values.json) {
    json(state);
    return 0;
  }
  const ran = state.ran === undefined || state.fired ? '' : `  ran=${state.ran} job(s)`;
  const where = client.workspace === undefined ? '' : `  workspace=${client.workspace}`;
  // What the command did first, exactly as asked: the offset from real time below also holds
  // whatever the clock was off before (a start time, a restore) and, frozen, the time since then.
  if (action === 'advance')
    out(`advanced by ${formatOffset(parseDuration(positionals[2]!) * 1000).slice(1)}`);
  out(`now=${state.now}  offset=${formatOffset(state.offset_ms)}  frozen=${state.frozen}${ran}${where}`);
  if (state.fired) for (const line of firedLines(state.fired)) out(line);
  return 0;
}

/** What an advance fired, for people: a summary line, then the events (type and what each is about), in order. */
export function firedLines(fired: Fired): string[] {
  const { events, deliveries, jobs } = fired;
  const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  const lines = [
    `fired: ${plural(events.length, 'event', 'events')}, ${plural(deliveries, 'webhook delivery attempt', 'webhook delivery attempts')}, ${plural(jobs, 'job', 'jobs')}`,
  ];
  const width = Math.max(0, ...events.slice(0, SHOWN_EVENTS).map((e) => e.type.length));
  // The resource (the checkout, the card) is what a user looks for; the event id is in --json.
  for (const event of events.slice(0, SHOWN_EVENTS))
    lines.push(`  ${event.type.padEnd(width)}  ${event.resource_id ?? `event ${event.id}`}`);
  if (events.length > SHOWN_EVENTS)
    lines.push(`  … and ${events.length - SHOWN_EVENTS} more (--json lists them all)`);
  return lines;
}
