import { writeFileSync } from 'node:fs';
import { EVENT_TYPES, type EventType } from '../contract/events.js';
import type { ReceiverCheckResult } from '../contract/receiver-checks.js';
import { xmlEscape } from '../scenarios/junit.js';
import { clientFor } from './client.js';
import { json, noExtra, out, parse, UsageError } from './common.js';

export const CHECK_RECEIVER_USAGE = `Usage: svc-sandbox check-receiver --url <receiver> --secret <secret> [options]

Grades your webhook receiver: the sandbox sends it deliveries signed with --secret and checks each
answer — a signed delivery of each event type (2xx), a wrong and a missing signature (non-2xx), a
body whose bytes differ from re-serialized JSON (2xx: the HMAC is over the raw bytes), the same
delivery twice, events out of order, an unknown event type and a large payload (2xx), and every
answer within the delivery timeout. Sends go to the receiver only; nothing is recorded in the
workspace. Exit 0 when every case holds, 1 when one fails.

Options:
  --url <url>       the receiver to check (your webhook endpoint). Here --url is the receiver: the
                    sandbox is --sandbox <url> (default $SVC_SANDBOX_URL or http://127.0.0.1:4010)
  --sandbox <url>   the running sandbox that sends the deliveries
  --secret <secret> the signing secret it verifies with
  --events <a,b>    only these event types for the signed-delivery cases (default: all)
  --seed <text>     the same seed sends the same bodies (default: a new one, printed)
  --effects-url <url>
                    a URL of the receiver answering how many deliveries it processed (a JSON number
                    or {"processed": n}): the duplicate case then checks "processed once"
  --junit <file>    also write the cases as JUnit XML
  --workspace <id|name>
                    the workspace whose delivery timeout applies (default $SVC_SANDBOX_WORKSPACE)
  --json            the result as JSON
  -h, --help        show this help

Examples:
  svc-sandbox check-receiver --url http://localhost:3000/webhooks --secret whsec_…
  svc-sandbox check-receiver --url http://localhost:3000/webhooks --secret "$SECRET" --junit receiver.xml
`;

export async function checkReceiver(argv: string[]): Promise<number | 'help'> {
  const { values, positionals } = parse(argv, {
    sandbox: { type: 'string' },
    secret: { type: 'string' },
    events: { type: 'string' },
    seed: { type: 'string' },
    'effects-url': { type: 'string' },
    junit: { type: 'string' },
  });
  if (values.help) return 'help';
  noExtra(positionals, 1);
  const receiver = values.url as string | undefined;
  const secret = values.secret as string | undefined;
  if (receiver === undefined) throw new UsageError('check-receiver needs --url <receiver>');
  if (secret === undefined) throw new UsageError('check-receiver needs --secret <secret>');
  const names = (values.events as string | undefined)?.split(',').map((e) => e.trim());
  for (const event of names ?? [])
    if (!(EVENT_TYPES as string[]).includes(event))
      throw new UsageError(`--events: unknown event type ${event} (one of ${EVENT_TYPES.join(', ')})`);
  const events = names as EventType[] | undefined;
  // --url names the receiver here (as the command reads best); the sandbox is --sandbox.
  const result = await clientFor({ ...values, url: values.sandbox }).call('sandboxCheckReceiver', {
    body: {
      url: receiver,
      secret,
      ...(events ? { events } : {}),
      ...(typeof values.seed === 'string' ? { seed: values.seed } : {}),
      ...(typeof values['effects-url'] === 'string' ? { effects_url: values['effects-url'] } : {}),
    },
  });
  if (typeof values.junit === 'string') writeFileSync(values.junit, receiverJunit(result));
  if (values.json) json(result);
  else for (const line of scorecard(result)) out(line);
  return result.failed === 0 ? 0 : 1;
}

/** The scorecard for people: one line per case, what failed explained, then the totals. */
export function scorecard(result: ReceiverCheckResult): string[] {
  const lines = [`receiver check of ${result.url} (seed ${result.seed})`];
  for (const c of result.cases) {
    lines.push(`  ${c.ok ? 'ok  ' : 'FAIL'}  ${c.name}  (${c.ms} ms)`);
    if (!c.ok) {
      lines.push(`        sent:     ${c.sent}`);
      lines.push(`        expected: ${c.expected}`);
      lines.push(`        got:      ${c.actual}`);
    }
  }
  for (const hint of result.hints) lines.push(`hint: ${hint}`);
  lines.push(`${result.passed} passed, ${result.failed} failed`);
  return lines;
}

/** One <testsuite>, one <testcase> per case; a failed case's <failure> says expected and got. */
export function receiverJunit(result: ReceiverCheckResult): string {
  const seconds = (ms: number) => (ms / 1000).toFixed(3);
  const total = result.cases.reduce((sum, c) => sum + c.ms, 0);
  const cases = result.cases.map((c) => {
    const open = `    <testcase classname="receiver-check" name="${xmlEscape(c.name)}" time="${seconds(c.ms)}"`;
    if (c.ok) return `${open}/>`;
    const message = `expected ${c.expected}; got ${c.actual}`;
    return `${open}>\n      <failure message="${xmlEscape(message)}">${xmlEscape(`sent: ${c.sent}\nexpected: ${c.expected}\ngot: ${c.actual}`)}</failure>\n    </testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="svc-sandbox receiver check" tests="${result.cases.length}" failures="${result.failed}" time="${seconds(total)}">`,
    `  <testsuite name="${xmlEscape(`receiver check of ${result.url}`)}" tests="${result.cases.length}" failures="${result.failed}" errors="0" skipped="0" time="${seconds(total)}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
