import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import type { WebhookEndpoint } from '../../../server/contract/webhooks.js';
import type { Sandbox } from '../../../server/sandbox.js';
import { verify } from '../../../server/webhooks/signing.js';
import { ensureBuilt, runCli, spawnCli } from '../../helpers/cli.js';
import { startReceiver } from '../../helpers/receiver.js';
import { testSandbox } from '../../helpers/sandbox.js';
import { Streaming } from '../../helpers/streaming.js';

// The webhook workbench in the built CLI: listen's one stable secret, its per-attempt lines with
// the delivery's state, --print-secret, and logs tail naming listen's forward-to URL. Real child
// processes against a sandbox started in this process, all on 127.0.0.1.

beforeAll(() => ensureBuilt(), 120_000);

const start = (args: string[]) => new Streaming(spawnCli(args));

async function sandboxUrl(): Promise<{ sandbox: Sandbox; url: string }> {
  const sandbox = await testSandbox();
  const urls = await sandbox.listen();
  return { sandbox, url: urls.test };
}

/** Over the control API: the CLI's `merchants create` has its own test, and each spawn costs. */
async function createMerchant(url: string, name: string) {
  const res = await fetch(`${url}/sandbox/merchants`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { merchant: { id: string }; api_key: { key: string } };
}

async function createCheckout(url: string, key: string): Promise<{ id: string }> {
  const clock = (await (await fetch(`${url}/sandbox/clock`)).json()) as { now: string };
  const res = await fetch(`${url}/v1/checkouts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      title: 'Order',
      amount: 1_000_000,
      expires_at: new Date(Date.parse(clock.now) + 86_400_000).toISOString(),
    }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { id: string };
}

async function endpointsOf(url: string, merchantId: string): Promise<WebhookEndpoint[]> {
  return (await (
    await fetch(`${url}/sandbox/merchants/${merchantId}/webhook-endpoints`)
  ).json()) as WebhookEndpoint[];
}

const advance = (url: string, seconds: number) =>
  fetch(`${url}/sandbox/clock/advance`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ seconds }),
  });

const listenArgs = (forwardTo: string, url: string, extra: string[] = []) => [
  'listen',
  '--forward-to',
  forwardTo,
  '--events',
  'checkout.created',
  '--url',
  url,
  ...extra,
];

describe('svc-sandbox listen: one secret', () => {
  it('prints one secret for every merchant, and --print-secret prints the same', async () => {
    const { url } = await sandboxUrl();
    const a = await createMerchant(url, 'A');
    const b = await createMerchant(url, 'B');
    const receiver = await startReceiver();

    const first = start(listenArgs(receiver.url, url));
    const ready = await first.line(/^Ready! /);
    const secret = /(whsec_[A-Za-z0-9]+)/.exec(ready)![1]!;
    await first.line(new RegExp(`forwarding B \\(${b.merchant.id}, test\\)`));
    await first.line(new RegExp(`forwarding A \\(${a.merchant.id}, test\\)`));
    expect(first.lines.filter((l) => l.includes('whsec_'))).toHaveLength(1);
    // Both endpoints are listen's: they carry its secret and the forward-to URL.
    for (const merchant of [a, b]) {
      const [endpoint] = await endpointsOf(url, merchant.merchant.id);
      expect(endpoint).toMatchObject({ secret, forward_to: receiver.url });
    }

    await createCheckout(url, b.api_key.key);
    await receiver.count(1);
    const got = receiver.received[0]!;
    expect(verify(secret, got.raw, got.headers['x-svc-signature'] as string)).toBe(true);
    expect(got.headers['x-svc-merchant-id']).toBe(b.merchant.id);
    expect(got.headers['x-svc-endpoint-id']).toBe((await endpointsOf(url, b.merchant.id))[0]!.id);
    expect(await first.stop('SIGINT')).toEqual({ code: 0, signal: null });

    const printed = await runCli(['listen', '--print-secret', '--url', url], { timeoutMs: 8_000 });
    expect(printed).toMatchObject({ code: 0, stdout: `${secret}\n` });
  });

  it('keeps the secret from one run to the next (--print-secret --json first, then listen)', async () => {
    const { url } = await sandboxUrl();
    await createMerchant(url, 'A');
    const receiver = await startReceiver();
    const asJson = await runCli(['listen', '--print-secret', '--json', '--url', url], { timeoutMs: 8_000 });
    expect(asJson.code, asJson.stderr).toBe(0);
    const { secret } = JSON.parse(asJson.stdout) as { secret: string };
    expect(secret).toMatch(/^whsec_[A-Za-z0-9]+$/);

    const next = start(listenArgs(receiver.url, url));
    expect(await next.line(/^Ready! /)).toContain(secret);
    await next.line(/forwarding A/);
    expect(await next.stop('SIGTERM')).toEqual({ code: 0, signal: null });
  });
});

describe('svc-sandbox listen: every event from Ready on', () => {
  it('forwards a trigger run at once after Ready, whose merchant is made after listen started', async () => {
    const { url } = await sandboxUrl();
    const receiver = await startReceiver();
    const listener = start(['listen', '--forward-to', receiver.url, '--url', url]);
    await listener.line(/^Ready! /);
    const triggered = await runCli(['trigger', 'checkout.partial', '--url', url], { timeoutMs: 30_000 });
    expect(triggered.code, triggered.stderr).toBe(0);
    await receiver.waitFor((got) => got.some((r) => r.body.event === 'checkout.partial'), 15_000);
    expect(receiver.received.map((r) => r.body.event)).toContain('checkout.created');
    // The new merchant is announced when its first delivery comes.
    await listener.line(/^ {2}forwarding .+ \([0-9a-f-]{36}, test\)$/);
    expect(await listener.stop('SIGINT')).toEqual({ code: 0, signal: null });
    expect(listener.stderr).toMatch(/removed [1-9]\d* temporary webhook endpoint/);
  });
});

describe('svc-sandbox listen: one line per attempt, with its state', () => {
  it('shows the attempt number, a retry due, success after retries, and giving up', async () => {
    const { url } = await sandboxUrl();
    const shop = await createMerchant(url, 'Shop');
    const receiver = await startReceiver();
    // The first attempt fails, the retry succeeds.
    receiver.respond = (_request, index) => (index === 0 ? { status: 500, body: 'boom' } : { status: 200 });
    const listener = start(listenArgs(receiver.url, url));
    await listener.line(/forwarding Shop/);

    const checkout = await createCheckout(url, shop.api_key.key);
    const firstLine = await listener.line(/#1 {2}→ 500/);
    const deliveryId = receiver.received[0]!.body.id;
    expect(firstLine).toMatch(
      new RegExp(
        `^\\d\\d:\\d\\d:\\d\\d\\.\\d{3} {2}checkout\\.created {2}${deliveryId} {2}#1 {2}→ 500 ${receiver.url.replaceAll('.', '\\.')} {2}\\[pending: retry at \\S+Z sandbox time\\]$`,
      ),
    );
    expect(checkout.id).toBe((receiver.received[0]!.body.data as { id: string }).id);
    await advance(url, 300);
    expect(await listener.line(/#2 {2}→ 200/)).toMatch(
      new RegExp(`${deliveryId} {2}#2 {2}→ 200 \\S+ {2}\\[delivered after 2 attempts\\]$`),
    );

    // Now every answer is a failure: five attempts, then the sandbox gives up.
    receiver.respond = () => ({ status: 503, body: 'down' });
    await createCheckout(url, shop.api_key.key);
    await listener.line(/#1 {2}→ 503/);
    for (const seconds of [300, 1800, 7200, 18_000]) await advance(url, seconds);
    const last = await listener.line(/#5 {2}→ 503/);
    expect(last).toMatch(/\[failed: gave up after 5 attempts\]$/);
    expect(listener.lines.filter((l) => /→ 503/.test(l)).map((l) => /#(\d)/.exec(l)![1])).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
    ]);
    expect(await listener.stop('SIGINT')).toEqual({ code: 0, signal: null });
  });

  it('--json: attempt, state and next_attempt_at; an unreachable app is an error, not a status', async () => {
    const { url } = await sandboxUrl();
    const shop = await createMerchant(url, 'Shop');
    const dead = createServer();
    await new Promise<void>((resolve) => dead.listen(0, '127.0.0.1', resolve));
    const forwardTo = `http://127.0.0.1:${(dead.address() as AddressInfo).port}/hooks`;
    await new Promise<void>((resolve) => dead.close(() => resolve()));
    const listener = start(listenArgs(forwardTo, url, ['--json']));
    await listener.line(/"type":"endpoint"/);
    await createCheckout(url, shop.api_key.key);
    const line = JSON.parse(await listener.line(/"type":"delivery"/)) as Record<string, unknown>;
    expect(line).toMatchObject({
      attempt: 1,
      state: 'pending',
      status: null,
      url: forwardTo,
    });
    expect(line.error).toMatch(/ECONNREFUSED/);
    expect(typeof line.next_attempt_at).toBe('string');
    expect(await listener.stop('SIGINT')).toEqual({ code: 0, signal: null });
  });
});

describe('svc-sandbox logs tail', () => {
  it("shows the forward-to URL for listen's deliveries, the endpoint's URL for others", async () => {
    const { url } = await sandboxUrl();
    const shop = await createMerchant(url, 'Shop');
    const app = await startReceiver();
    const direct = await startReceiver();
    await fetch(`${url}/sandbox/merchants/${shop.merchant.id}/webhook-endpoints`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: direct.url, events: ['checkout.created'] }),
    });
    const listener = start(listenArgs(app.url, url));
    await listener.line(/forwarding Shop/);
    const tail = start(['logs', 'tail', '--url', url]);
    await tail.stderrMatches(/tailing/);

    await createCheckout(url, shop.api_key.key);
    await app.count(1);
    await direct.count(1);
    const viaListen = await tail.line(/delivery checkout\.created .* \(via listen\)/);
    expect(viaListen).toContain(`→ 200 ${app.url} (via listen)  [delivered]`);
    // Not listen's own address (/<merchant id> on its port).
    expect(viaListen).not.toContain(`/${shop.merchant.id}`);
    const other = await tail.line(
      new RegExp(`delivery checkout\\.created .* → 200 ${direct.url.replaceAll('.', '\\.')}  `),
    );
    expect(other).not.toContain('via listen');
    expect(await tail.stop('SIGINT')).toMatchObject({ signal: null });
    expect(await listener.stop('SIGINT')).toEqual({ code: 0, signal: null });
  });
});
