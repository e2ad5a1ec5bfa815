// biome-ignore-all lint/suspicious/noTemplateCurlyInString: scenario references (${co1.id}) are literal text here
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { ParityReport } from '../../../server/contract/parity.js';
import { afterEveryTest } from '../../helpers/cleanup.js';
import { ensureBuilt, ROOT, runCli } from '../../helpers/cli.js';
import { startReceiver } from '../../helpers/receiver.js';
import { json, startRecord, upstreamMerchant, upstreamTime } from '../../helpers/record.js';
import { tempDir, testSandbox } from '../../helpers/sandbox.js';

/**
 * Record, then parity, both through the built CLI. (a) A session recorded through `svc-sandbox
 * record` against a second sandbox replays in the sandbox with no difference. (b) The same session
 * against a stand-in for the service of this test's own (a proxy to a sandbox that changes what it
 * answers and delivers: a renamed field, an extra field, another status code, a webhook not
 * delivered, two webhooks swapped, a state reached differently) is reported difference by
 * difference, each once, at its step and field.
 */
beforeAll(
  () => ensureBuilt([join(ROOT, 'dist/server/cli/record.js'), join(ROOT, 'dist/server/cli/parity.js')]),
  180_000,
);

type Json = Record<string, unknown>;

const servers: Server[] = [];
afterEveryTest(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const read = async (req: IncomingMessage): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

/**
 * The service as this test plays it: `/v1` answered by the sandbox at `inner`, then changed; the
 * sandbox's webhooks (its endpoint points at `/hooks`) forwarded to `hooksTo` as they came, bytes
 * and signature intact, but for the one not delivered and the two swapped.
 */
async function mutatingService(inner: string) {
  const state = { hooksTo: '', dropped: [] as string[] };
  let held: { body: Buffer; headers: Record<string, string> } | undefined;
  const deliver = (body: Buffer, headers: Record<string, string>) =>
    fetch(state.hooksTo, {
      method: 'POST',
      headers,
      body: new Uint8Array(body),
      signal: AbortSignal.timeout(10_000),
    });

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    });
  });
  async function handle(req: IncomingMessage, res: ServerResponse) {
    const body = await read(req);
    const url = req.url ?? '/';
    if (url === '/hooks') {
      res.writeHead(200).end('ok');
      const headers = Object.fromEntries(
        ['content-type', 'x-svc-event', 'x-svc-delivery-id', 'x-svc-signature'].map((h) => [
          h,
          String(req.headers[h]),
        ]),
      );
      const event = headers['x-svc-event'];
      // Not delivered: the refund's webhook.
      if (event === 'checkout.refunded') return void state.dropped.push(event);
      // Swapped: the partial payment's expiry held back until the unpaid checkout's has gone.
      if (event === 'checkout.partial') {
        held = { body, headers };
        return;
      }
      await deliver(body, headers);
      if (event === 'checkout.expired' && held) {
        const later = held;
        held = undefined;
        await deliver(later.body, later.headers);
      }
      return;
    }
    const method = req.method ?? 'GET';
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (req.headers.authorization) headers.authorization = req.headers.authorization;
    const answer = await fetch(`${inner}${url}`, {
      method,
      headers,
      ...(body.length > 0 ? { body: new Uint8Array(body) } : {}),
      signal: AbortSignal.timeout(10_000),
    });
    let status = answer.status;
    const text = await answer.text();
    let out: unknown = text === '' ? undefined : JSON.parse(text);
    const path = url.split('?')[0]!;
    const o = out as Json;
    if (method === 'GET' && /^\/v1\/checkouts\/[^/]+$/.test(path)) {
      if (o.title === 'Order 1') {
        // Renamed, and one more field.
        const { paid_amount, ...rest } = o;
        out = { ...rest, amount_paid: paid_amount, risk_score: 3 };
      } else if (o.status === 'partial') {
        // A state the sandbox reaches differently.
        out = { ...o, status: 'expired' };
      }
    }
    // Another status code.
    if (method === 'POST' && path.endsWith('/refund') && status === 200) status = 201;
    res
      .writeHead(status, { 'content-type': 'application/json' })
      .end(out === undefined ? '' : JSON.stringify(out));
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, state };
}

/**
 * One session: two checkouts paid and read, a refund, two more expiring (one paid in part, told by
 * a note). `service` answers /v1 (through the proxy); `world` is the sandbox whose control API
 * plays the outside world.
 */
async function session(service: string, world: string, hooksAt: (proxy: string) => string) {
  const receiver = await startReceiver();
  const dir = tempDir();
  const rec = await startRecord(
    ['--upstream', service, '--out', 's.yaml', '--webhooks-to', receiver.url],
    dir,
  );
  const acme = await upstreamMerchant(world, hooksAt(rec.url));
  const v1 = async (method: string, path: string, body?: unknown) => {
    const answer = await json(`${rec.url}${path}`, method, body, acme.auth);
    expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
    return answer.body as Json;
  };
  const outside = async (path: string, body: unknown = {}) =>
    expect((await json(`${world}${path}`, 'POST', body)).status).toBe(200);
  const delivered = (event: string, n = 1) =>
    receiver.waitFor((r) => r.filter((d) => d.body.event === event).length >= n, 10_000);
  const checkout = async (title: string, amount: number) =>
    (await v1('POST', '/v1/checkouts', { title, amount, expires_at: await upstreamTime(world, 3600_000) }))
      .id as string;

  const co1 = await checkout('Order 1', 10_000_000);
  await delivered('checkout.created');
  await outside(`/sandbox/checkouts/${co1}/payments`);
  await delivered('checkout.paid');
  await v1('GET', `/v1/checkouts/${co1}`);
  await v1('POST', `/v1/checkouts/${co1}/refund`, { amount: 3_000_000, reason: 'duplicate' });
  const co2 = await checkout('Order 2', 5_000_000);
  const co3 = await checkout('Order 3', 5_000_000);
  await delivered('checkout.created', 3);
  expect((await json(`${rec.url}/__record/note`, 'POST', { line: 'pay co2 2000000' })).status).toBe(200);
  await outside(`/sandbox/checkouts/${co2}/payments`, { amount: 2_000_000 });
  await outside('/sandbox/clock/advance', { seconds: 2 * 3600 });
  await delivered('checkout.expired');
  await delivered('checkout.partial');
  await v1('GET', `/v1/checkouts/${co2}`);
  await v1('GET', `/v1/checkouts/${co3}`);
  expect(await rec.stop()).toBe(0);

  const parity = await runCli(['parity', 's.yaml', '--json'], { cwd: dir, timeoutMs: 60_000 });
  const report = JSON.parse(parity.stdout.trim().split('\n').at(-1) ?? '{}') as ParityReport;
  const steps = (parse(readFileSync(join(dir, 's.yaml'), 'utf8')) as { steps: Json[] }).steps;
  return { parity, report, steps };
}

const label = (step: Json) =>
  (step.call as string | undefined) ??
  (step.control as string | undefined) ??
  `clock advance ${(step.clock as { advance: string }).advance}`;

describe('record, then parity', () => {
  it('(a) a session recorded against a sandbox replays in a sandbox with no difference', async () => {
    const sandbox = (await (await testSandbox()).listen()).test;
    const { parity, report, steps } = await session(sandbox, sandbox, (proxy) => `${proxy}/webhooks`);
    expect(report.differences, parity.stdout + parity.stderr).toEqual([]);
    expect(parity.code).toBe(0);
    expect(report.compared).toBeGreaterThanOrEqual(10);
    expect(steps.filter((s) => s.inferred).length).toBe(3);
  }, 90_000);

  it('(b) a service that answers otherwise: each difference once, at its step and field', async () => {
    const sandbox = (await (await testSandbox()).listen()).test;
    const service = await mutatingService(sandbox);
    const { parity, report, steps } = await session(service.url, sandbox, (proxy) => {
      service.state.hooksTo = `${proxy}/webhooks`;
      return `${service.url}/hooks`;
    });
    expect(service.state.dropped).toEqual(['checkout.refunded']);
    expect(parity.code).toBe(1);
    // Each names its step as the file has it: that step's own label, at that index.
    for (const d of report.differences) expect(d.step.label).toContain(label(steps[d.step.index - 1]!));
    expect(report.differences.map((d) => `${d.kind} ${d.step.label}: ${d.path}`)).toEqual([
      // the renamed field: one missing, one extra; and the extra field
      'missing GET /v1/checkouts/${co1.id} as merchant: amount_paid',
      'missing GET /v1/checkouts/${co1.id} as merchant: risk_score',
      'extra GET /v1/checkouts/${co1.id} as merchant: paid_amount',
      // another status code (the body under it is not compared), and the webhook not delivered
      'status POST /v1/checkouts/${co1.id}/refund as merchant: (status)',
      'webhook_extra POST /v1/checkouts/${co1.id}/refund as merchant: webhook:checkout.refunded',
      // the two webhooks swapped: one out of order, at the clock step inferred from the first
      'webhook_order clock advance 1h1s: webhook:checkout.expired',
      // the state reached differently
      'state GET /v1/checkouts/${co2.id} as merchant: status',
    ]);
    const state = report.differences.find((d) => d.kind === 'state')!;
    expect(state.message).toBe('recorded "expired", the sandbox "partial"');
  }, 90_000);
});
