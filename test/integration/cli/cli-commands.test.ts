import { createServer } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatMessage } from '../../../server/cli/logs.js';
import type { Sandbox } from '../../../server/sandbox.js';
import { verify } from '../../../server/webhooks/signing.js';
import { ensureBuilt, runCli, spawnCli } from '../../helpers/cli.js';
import { startReceiver } from '../../helpers/receiver.js';
import { testSandbox } from '../../helpers/sandbox.js';
import { Streaming } from '../../helpers/streaming.js';

// The client commands of the built CLI (`node dist/server/cli.js <command> --url ...`), real child
// processes talking over HTTP to a sandbox started in this process.
const EXIT_TIMEOUT_MS = 8_000;
const LINE_TIMEOUT_MS = 8_000;

beforeAll(() => ensureBuilt(), 120_000);

/** Runs the CLI to completion; rejects if it has not exited within EXIT_TIMEOUT_MS. */
const run = (args: string[], env: Record<string, string> = {}) =>
  runCli(args, { env, timeoutMs: EXIT_TIMEOUT_MS });

function start(args: string[]): Streaming {
  return new Streaming(spawnCli(args));
}

async function sandboxUrl(): Promise<{ sandbox: Sandbox; url: string }> {
  const sandbox = await testSandbox();
  const urls = await sandbox.listen();
  return { sandbox, url: urls.test };
}

/** A port nothing listens on: bound, then released. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

interface Created {
  merchant: { id: string; name: string };
  api_key: { key: string };
}

async function createMerchant(url: string, name: string): Promise<Created> {
  const result = await run(['merchants', 'create', name, '--json', '--url', url]);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Created;
}

async function createCheckout(url: string, key: string): Promise<{ id: string }> {
  const clock = (await (await fetch(`${url}/sandbox/clock`)).json()) as { now: string };
  const res = await fetch(`${url}/v1/checkouts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      title: 'Order 1',
      amount: 25_000_000,
      expires_at: new Date(Date.parse(clock.now) + 3600_000).toISOString(),
    }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { id: string };
}

/** The deliveries matching `query`, once none is pending any more (the attempt is recorded after the answer). */
async function settledDeliveries(
  url: string,
  query: string,
): Promise<{ status: string; attempts: { response_status: number | null }[] }[]> {
  const deadline = Date.now() + LINE_TIMEOUT_MS;
  for (;;) {
    const list = (await (await fetch(`${url}/sandbox/deliveries?${query}`)).json()) as {
      status: string;
      attempt_count: number;
      attempts: { response_status: number | null }[];
    }[];
    if (list.length > 0 && list.every((d) => d.attempt_count > 0)) return list;
    if (Date.now() > deadline) throw new Error(`deliveries ${query}: still unattempted`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function endpointsOf(url: string, merchantId: string, env = 'test'): Promise<{ id: string }[]> {
  const res = await fetch(`${url}/sandbox/merchants/${merchantId}/webhook-endpoints?env=${env}`);
  expect(res.status).toBe(200);
  return (await res.json()) as { id: string }[];
}

const COMMANDS = ['serve', 'listen', 'logs', 'merchants', 'clock', 'reset'];

describe('svc-sandbox help and usage', () => {
  it('lists every command on --help, and details each on <command> --help, exit 0', async () => {
    const top = await run(['--help']);
    expect(top.code).toBe(0);
    for (const command of COMMANDS) expect(top.stdout).toMatch(new RegExp(`^ {2}${command}\\b`, 'm'));
    for (const command of COMMANDS) {
      const args = command === 'logs' ? ['logs', 'tail', '--help'] : [command, '--help'];
      const help = await run(args);
      expect(help.code, command).toBe(0);
      expect(help.stdout, command).toContain(`Usage: svc-sandbox ${command}`);
      expect(help.stderr).toBe('');
    }
  });

  it.each([
    ['listen without --forward-to', ['listen'], /--forward-to <url> is required/],
    [
      'listen with a bad --env',
      ['listen', '--forward-to', 'http://127.0.0.1:9/x', '--env', 'staging'],
      /--env/,
    ],
    ['logs without tail', ['logs'], /missing subcommand/],
    ['clock advance without a duration', ['clock', 'advance'], /needs a duration/],
    ['clock advance with a bad duration', ['clock', 'advance', '1 week'], /not a duration/],
    ['an unknown clock subcommand', ['clock', 'rewind'], /unknown subcommand: clock rewind/],
    ['merchants create without a name', ['merchants', 'create'], /needs a name/],
    ['an unknown flag', ['merchants', 'list', '--bogus'], /--bogus/],
    ['reset without --yes and no terminal', ['reset'], /pass --yes/],
  ])('rejects %s with exit 2 and the usage', async (_name, args, message) => {
    // A dead --url: a usage error is reported before any request.
    const { code, stdout, stderr } = await run([...args, '--url', 'http://127.0.0.1:9']);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(stderr).toContain('Usage: svc-sandbox');
    expect(stdout).toBe('');
  });
});

describe('svc-sandbox client commands with no sandbox running', () => {
  it.each([
    [['merchants', 'list']],
    [['clock']],
    [['reset', '--yes']],
    [['logs', 'tail']],
    [['listen', '--forward-to', 'http://127.0.0.1:9/hook']],
  ])('%j exits 1 with a clear message', async (args) => {
    const url = `http://127.0.0.1:${await deadPort()}`;
    const { code, stdout, stderr } = await run([...args, '--url', url]);
    expect(code).toBe(1);
    expect(stderr).toBe(`svc-sandbox: no sandbox answering at ${url} (start one with: svc-sandbox serve)\n`);
    expect(stdout).toBe('');
  });

  it('takes the address from SVC_SANDBOX_URL', async () => {
    const url = `http://127.0.0.1:${await deadPort()}`;
    const { code, stderr } = await run(['clock'], { SVC_SANDBOX_URL: url });
    expect(code).toBe(1);
    expect(stderr).toContain(`no sandbox answering at ${url}`);
  });
});

describe('svc-sandbox merchants, clock, reset', () => {
  it('creates and lists merchants, as text and as JSON', async () => {
    const { url } = await sandboxUrl();
    const text = await run(['merchants', 'create', 'Acme Ltd', '--url', url]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^merchant {2}[0-9a-f-]{36} {2}Acme Ltd\nkey {7}\S+ {2}\(owner\)\n$/);
    const created = await createMerchant(url, 'Beta GmbH');
    expect(created.merchant.name).toBe('Beta GmbH');
    // The printed key works on /v1.
    const list = await fetch(`${url}/v1/checkouts`, {
      headers: { authorization: `Bearer ${created.api_key.key}` },
    });
    expect(list.status).toBe(200);

    const listed = await run(['merchants', 'list', '--url', url]);
    expect(listed.code).toBe(0);
    expect(listed.stdout.trim().split('\n')).toHaveLength(2);
    expect(listed.stdout).toContain(created.merchant.id);
    const json = await run(['merchants', 'list', '--json', '--url', url]);
    expect((JSON.parse(json.stdout) as { name: string }[]).map((m) => m.name).sort()).toEqual([
      'Acme Ltd',
      'Beta GmbH',
    ]);
  });

  it('reports an API error with exit 1', async () => {
    const { url } = await sandboxUrl();
    const long = 'x'.repeat(300);
    const { code, stderr } = await run(['merchants', 'create', long, '--url', url]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/^svc-sandbox: POST \/sandbox\/merchants failed: (400|422) /);
  });

  it('shows, advances, freezes and resumes the clock', async () => {
    const { url } = await sandboxUrl();
    const shown = await run(['clock', '--url', url]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/^now=\S+Z {2}offset=\+0s {2}frozen=false\n$/);

    const frozen = await run(['clock', 'freeze', '--json', '--url', url]);
    expect(JSON.parse(frozen.stdout)).toMatchObject({ frozen: true });
    // Frozen: `now` moves only by what is advanced.
    const before = Date.parse((JSON.parse(frozen.stdout) as { now: string }).now);
    let total = 0;
    // Two advances, to see them add up; every written form of a duration is in cli-duration.test.ts.
    for (const [duration, seconds] of [
      ['2d', 172_800],
      ['1h15m', 4500],
    ] as const) {
      const advanced = await run(['clock', 'advance', duration, '--json', '--url', url]);
      expect(advanced.code, advanced.stderr).toBe(0);
      total += seconds;
      const state = JSON.parse(advanced.stdout) as { now: string; ran: number };
      expect(Date.parse(state.now) - before, duration).toBe(total * 1000);
      expect(typeof state.ran).toBe('number');
    }
    const text = await run(['clock', '--url', url]);
    expect(text.stdout).toMatch(/offset=\+2d1h1[45]m(\d+s)? {2}frozen=true/);
    const resumed = await run(['clock', 'resume', '--url', url]);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toMatch(/frozen=false {2}ran=\d+ job\(s\)/);
  });

  it('resets only with --yes', async () => {
    const { url } = await sandboxUrl();
    await createMerchant(url, 'Gone Soon');
    const refused = await run(['reset', '--url', url]);
    expect(refused.code).toBe(2);
    expect((await run(['merchants', 'list', '--json', '--url', url])).stdout).toContain('Gone Soon');
    const done = await run(['reset', '--yes', '--json', '--url', url]);
    expect(done.code, done.stderr).toBe(0);
    expect(JSON.parse(done.stdout)).toEqual({ reset: true });
    expect(JSON.parse((await run(['merchants', 'list', '--json', '--url', url])).stdout)).toEqual([]);
  });
});

describe('svc-sandbox logs tail', () => {
  it('prints one line per event and per delivery attempt until SIGINT, exit 0', async () => {
    const { url } = await sandboxUrl();
    const actor = await createMerchant(url, 'Acme');
    const receiver = await startReceiver();
    await fetch(`${url}/sandbox/merchants/${actor.merchant.id}/webhook-endpoints`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiver.url }),
    });
    const tail = start(['logs', 'tail', '--url', url]);
    await tail.stderrMatches(/tailing/);
    const checkout = await createCheckout(url, actor.api_key.key);
    const event = await tail.line(/ checkout\.created /);
    expect(event).toMatch(
      new RegExp(`^\\S+Z test checkout\\.created ${checkout.id} {2}\\(merchant ${actor.merchant.id}\\)$`),
    );
    const delivery = await tail.line(/ delivery checkout\.created /);
    expect(delivery).toMatch(
      /^\S+Z test delivery checkout\.created [0-9a-f-]{36} #1 → 200 http:\/\/127\.0\.0\.1:\d+\/hook/,
    );
    // In the order things happened: the request, the event it caused, that event's delivery.
    const request = await tail.line(/ POST \/v1\/checkouts → 200 /);
    expect(tail.lines.indexOf(request)).toBeLessThan(tail.lines.indexOf(event));
    expect(tail.lines.indexOf(event)).toBeLessThan(tail.lines.indexOf(delivery));
    expect(await tail.stop('SIGINT')).toEqual({ code: 0, signal: null });
  });

  it('filters by merchant and prints JSON lines with --json', async () => {
    const { url } = await sandboxUrl();
    const mine = await createMerchant(url, 'Mine');
    const other = await createMerchant(url, 'Other');
    const tail = start([
      'logs',
      'tail',
      '--json',
      '--merchant',
      mine.merchant.id,
      '--env',
      'test',
      '--url',
      url,
    ]);
    await tail.stderrMatches(/tailing/);
    await createCheckout(url, other.api_key.key);
    const checkout = await createCheckout(url, mine.api_key.key);
    const line = await tail.line(/checkout\.created/);
    const parsed = JSON.parse(line) as { kind: string; data: Record<string, unknown> };
    expect(parsed).toMatchObject({
      kind: 'event',
      data: {
        type: 'checkout.created',
        resource_id: checkout.id,
        merchant_id: mine.merchant.id,
        env: 'test',
      },
    });
    expect(await tail.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    for (const l of tail.lines) expect(JSON.parse(l).data.merchant_id).toBe(mine.merchant.id);
  });

  it('formats request-log entries (event: request) when the sandbox sends them', () => {
    const line = formatMessage('request', {
      id: 'r1',
      created_at: '2026-01-15T12:00:00.000Z',
      env: 'test',
      merchant_id: 'm1',
      key: 'sk_test_x',
      method: 'POST',
      path: '/v1/checkouts',
      status: 201,
      duration_ms: 3.6,
    });
    expect(line).toBe('2026-01-15T12:00:00.000Z test POST /v1/checkouts → 201 3.6ms  (merchant m1)');
    const refused = formatMessage('request', {
      created_at: '2026-01-15T12:00:00.000Z',
      env: 'test',
      merchant_id: null,
      method: 'GET',
      path: '/v1/checkouts',
      status: 401,
      duration_ms: 0.0421,
    });
    expect(refused).toBe(
      '2026-01-15T12:00:00.000Z test GET /v1/checkouts → 401 0.04ms  (no merchant: unauthenticated)',
    );
    expect(formatMessage('something-new', {})).toBeUndefined();
  });

  it('exits 1 when the sandbox goes away', async () => {
    const { sandbox, url } = await sandboxUrl();
    const tail = start(['logs', 'tail', '--url', url]);
    await tail.stderrMatches(/tailing/);
    await sandbox.close();
    const exit = await Promise.race([
      tail.exit,
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error('logs tail did not exit')), EXIT_TIMEOUT_MS),
      ),
    ]);
    expect(exit).toEqual({ code: 1, signal: null });
    expect(tail.stderr).toMatch(/closed the event stream|broke/);
  });
});

describe('svc-sandbox listen', () => {
  it('forwards each delivery with a signature that verifies, and removes its endpoint on SIGINT', async () => {
    const { url } = await sandboxUrl();
    const actor = await createMerchant(url, 'Acme');
    const receiver = await startReceiver();
    const listener = start([
      'listen',
      '--forward-to',
      receiver.url,
      '--merchant',
      actor.merchant.id,
      '--url',
      url,
    ]);
    const ready = await listener.line(/^Ready! Your webhook signing secret is /);
    const secret = /(whsec_[A-Za-z0-9]+)/.exec(ready)![1]!;
    await listener.line(/^ {2}forwarding Acme /);
    const endpoints = await endpointsOf(url, actor.merchant.id);
    expect(endpoints).toHaveLength(1);

    const checkout = await createCheckout(url, actor.api_key.key);
    await receiver.count(1);
    const got = receiver.received[0]!;
    expect(got.body.event).toBe('checkout.created');
    expect((got.body.data as { id: string }).id).toBe(checkout.id);
    expect(got.headers['x-svc-event']).toBe('checkout.created');
    expect(got.headers['x-svc-delivery-id']).toBe(got.body.id);
    expect(verify(secret, got.raw, got.headers['x-svc-signature'] as string)).toBe(true);

    const line = await listener.line(/checkout\.created/);
    expect(line).toMatch(
      new RegExp(
        `^\\d\\d:\\d\\d:\\d\\d\\.\\d{3} {2}checkout\\.created {2}${got.body.id} {2}#1 {2}→ 200 ${receiver.url} {2}\\[delivered\\]$`,
      ),
    );
    // The sandbox recorded the receiver's answer as the delivery's.
    const deliveries = await settledDeliveries(url, `endpoint_id=${endpoints[0]!.id}`);
    expect(deliveries.map((d) => d.status)).toEqual(['delivered']);

    expect(await listener.stop('SIGINT')).toEqual({ code: 0, signal: null });
    expect(listener.stderr).toContain('removed 1 temporary webhook endpoint(s)');
    expect(await endpointsOf(url, actor.merchant.id)).toEqual([]);
  });

  it('covers every merchant, including ones created later; --json; removes all endpoints on SIGTERM', async () => {
    const { url } = await sandboxUrl();
    const first = await createMerchant(url, 'First');
    const receiver = await startReceiver();
    receiver.respond = () => ({ status: 503, body: 'down' });
    const listener = start([
      'listen',
      '--forward-to',
      receiver.url,
      '--json',
      '--events',
      'checkout.created',
      '--url',
      url,
    ]);
    const ready = JSON.parse(await listener.line(/"type":"ready"/)) as { secret: string; env: string };
    expect(ready.env).toBe('test');
    await listener.line(new RegExp(`"type":"endpoint".*"merchant_id":"${first.merchant.id}"`));
    // A merchant made after the start gets its endpoint with its first event, announced when that
    // event's delivery arrives.
    const later = await createMerchant(url, 'Later');
    await createCheckout(url, later.api_key.key);
    await listener.line(new RegExp(`"type":"endpoint".*"merchant_id":"${later.merchant.id}"`));
    await receiver.count(1);
    expect(
      verify(
        ready.secret,
        receiver.received[0]!.raw,
        receiver.received[0]!.headers['x-svc-signature'] as string,
      ),
    ).toBe(true);
    const delivery = JSON.parse(await listener.line(/"type":"delivery"/)) as Record<string, unknown>;
    expect(delivery).toMatchObject({
      event: 'checkout.created',
      merchant_id: later.merchant.id,
      status: 503,
      url: receiver.url,
      attempt: 1,
      state: 'pending',
    });
    // The app's failure is the sandbox's failed attempt (retried later on the sandbox clock).
    const [recorded] = await settledDeliveries(url, `merchant_id=${later.merchant.id}`);
    expect(recorded!.attempts[0]!.response_status).toBe(503);

    expect(await listener.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    expect(await endpointsOf(url, first.merchant.id)).toEqual([]);
    expect(await endpointsOf(url, later.merchant.id)).toEqual([]);
  });

  it('exits 1 for a merchant that does not exist', async () => {
    const { url } = await sandboxUrl();
    const { code, stderr } = await run([
      'listen',
      '--forward-to',
      'http://127.0.0.1:9/hook',
      '--merchant',
      '00000000-0000-4000-8000-000000000000',
      '--url',
      url,
    ]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/404/);
  });
});
