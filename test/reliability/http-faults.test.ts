import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { networkInterfaces } from 'node:os';
import { performance } from 'node:perf_hooks';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox, SandboxOptions } from '../../server/sandbox.js';
import { type Actor, call, control, ok } from '../helpers/api.js';
import { createMerchant, inFuture, testSandbox } from '../helpers/sandbox.js';

/**
 * Reliability over real HTTP on 127.0.0.1 (raw sockets where the
 * point is what happens on the connection): body limits that close the connection, the money
 * ceiling, settings bounds, timeouts, ?env= on the money controls, who may reach the control API,
 * and errors straight from the HTTP parser.
 */

const MAX = Number.MAX_SAFE_INTEGER; // 2^53 − 1
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Asserts an error answer: the status, a JSON content type, and a body that is exactly `{error}`. */
function expectError(reply: Reply, status: number, ...mentions: (string | RegExp)[]): string {
  expect(reply.status, reply.body).toBe(status);
  expect(reply.headers['content-type']).toMatch(/^application\/json/);
  const body = JSON.parse(reply.body) as Record<string, unknown>;
  expect(Object.keys(body)).toEqual(['error']);
  expect(typeof body.error).toBe('string');
  const message = body.error as string;
  expect(message.length).toBeGreaterThan(0);
  for (const mention of mentions) {
    if (typeof mention === 'string') expect(message).toContain(mention);
    else expect(message).toMatch(mention);
  }
  return message;
}

function json<T = Record<string, unknown>>(reply: Reply, status = 200): T {
  expect(reply.status, reply.body).toBe(status);
  return JSON.parse(reply.body) as T;
}

/** One request through undici (any header may be set, Host and Origin included). */
async function http(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: unknown; raw?: string } = {},
): Promise<Reply> {
  const body = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const res = await request(url, {
    method: (options.method ?? 'GET') as 'GET',
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...options.headers,
    },
    ...(body === undefined ? {} : { body }),
    headersTimeout: 5000,
    bodyTimeout: 5000,
  });
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return { status: res.statusCode, headers, body: await res.body.text() };
}

/** Raw connections of the current test, destroyed after it (a stalled one would hold up close()). */
const connections: Raw[] = [];
afterEach(() => {
  for (const raw of connections.splice(0)) raw.destroy();
});

/** A raw TCP connection: what the server sent, and whether and when it closed the connection. */
class Raw {
  private buffer = Buffer.alloc(0);
  private wake: (() => void) | null = null;
  closedAt: number | null = null;
  readonly closed: Promise<void>;

  private constructor(readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.wake?.();
    });
    // A reset after the server answered (it did not read the rest of a body) is a close too.
    socket.on('error', () => {});
    this.closed = new Promise((resolve) => {
      socket.once('close', () => {
        this.closedAt = performance.now();
        this.wake?.();
        resolve();
      });
    });
  }

  static async open(port: number, host = '127.0.0.1'): Promise<Raw> {
    const socket = connect(port, host);
    await once(socket, 'connect');
    const raw = new Raw(socket);
    connections.push(raw);
    return raw;
  }

  write(data: string | Buffer): void {
    if (!this.socket.destroyed) this.socket.write(data, () => {});
  }

  get received(): string {
    return this.buffer.toString('latin1');
  }

  /** The next complete response (framed by Content-Length, else by the close). */
  async response(timeoutMs = 3000): Promise<Reply> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const parsed = this.parse();
      if (parsed) return parsed;
      const left = deadline - performance.now();
      if (left <= 0)
        throw new Error(`no complete response within ${timeoutMs} ms (got ${JSON.stringify(this.received)})`);
      if (this.closedAt !== null && this.parse(true) === null) {
        throw new Error(
          `connection closed without a complete response (got ${JSON.stringify(this.received)})`,
        );
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.wake = () => {
          clearTimeout(timer);
          this.wake = null;
          resolve();
        };
      });
    }
  }

  /** Resolves true once the server has closed the connection, false if still open after `ms`. */
  async closesWithin(ms: number): Promise<boolean> {
    if (this.closedAt !== null) return true;
    return Promise.race([this.closed.then(() => true), sleep(ms).then(() => false)]);
  }

  destroy(): void {
    this.socket.destroy();
  }

  private parse(atClose = false): Reply | null {
    const end = this.buffer.indexOf('\r\n\r\n');
    if (end < 0) return null;
    const [statusLine, ...lines] = this.buffer.subarray(0, end).toString('latin1').split('\r\n');
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1]);
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const start = end + 4;
    const length = headers['content-length'];
    let stop: number;
    if (length !== undefined) {
      stop = start + Number(length);
      if (this.buffer.length < stop) return null;
    } else if (atClose || this.closedAt !== null) {
      stop = this.buffer.length;
    } else {
      return null;
    }
    const body = this.buffer.subarray(start, stop).toString('utf8');
    this.buffer = this.buffer.subarray(stop);
    return { status, headers, body };
  }
}

async function listening(options: SandboxOptions = {}) {
  const sandbox = await testSandbox(options);
  const urls = await sandbox.listen();
  const port = Number(new URL(urls.test).port);
  return { sandbox, urls, port, base: `http://127.0.0.1:${port}` };
}

const VIRTUAL = '6f1c2a8e-3b4d-4c5e-9f60-7a8b9c0d1e21';

/** A verified cardholder with an active virtual card (through inject: setup only). */
async function issueCard(sandbox: Sandbox, actor: Actor) {
  const v1 = async (url: string, payload: object) =>
    ok<{ id: string; status?: string }>(
      await call(sandbox, { method: 'POST', url, headers: actor.auth, payload }),
    );
  const holder = await v1('/v1/cardholders', { name: 'Jane Doe', email: 'jane@example.com' });
  ok(await control(sandbox, 'POST', `/sandbox/cardholders/${holder.id}/kyc`, { result: 'approved' }));
  await v1(`/v1/cardholders/${holder.id}/cards/apply`, {
    catalogue: VIRTUAL,
    account_purpose: 'business expenses',
    occupation: 'engineer',
    annual_salary: '50000_100000',
    expected_monthly_volume: '1000_5000',
  });
  const card = await v1(`/v1/cardholders/${holder.id}/cards`, { catalogue: VIRTUAL, type: 'virtual' });
  return { holderId: holder.id, cardId: card.id };
}

describe('a body over the 64 KiB limit → 413 {error}, Connection: close, and the connection is closed', () => {
  it('GET /v1/cardholders/{ch}/cards/{card}/pin with a 300 KB JSON body on a keep-alive raw socket; a new connection works after', async () => {
    const { sandbox, port, base } = await listening();
    const actor = await createMerchant(sandbox);
    const { holderId, cardId } = await issueCard(sandbox, actor);

    const raw = await Raw.open(port);
    const body = JSON.stringify({ session: 'x'.repeat(300 * 1024) });
    raw.write(
      `GET /v1/cardholders/${holderId}/cards/${cardId}/pin HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
        `Authorization: Bearer ${actor.key}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: keep-alive\r\n\r\n`,
    );
    raw.write(body);
    const reply = await raw.response();
    expectError(reply, 413);
    expect(reply.headers.connection).toBe('close');
    expect(await raw.closesWithin(1000), 'the server closes the connection within a second').toBe(true);

    const holder = await http(`${base}/v1/cardholders/${holderId}`, { headers: actor.auth });
    expect(json<{ id: string }>(holder).id).toBe(holderId);
  });

  it('any request: a POST whose body is over every limit (2 MiB) → 413 {error}, Connection: close, closed; the next connection is served', async () => {
    const { sandbox, port, base } = await listening();
    const actor = await createMerchant(sandbox);
    const raw = await Raw.open(port);
    const body = JSON.stringify({ name: 'Big', notes: 'x'.repeat(2 * 1024 * 1024) });
    raw.write(
      `POST /v1/customers HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${actor.key}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
    );
    raw.write(body);
    const reply = await raw.response();
    expectError(reply, 413);
    expect(reply.headers.connection).toBe('close');
    expect(await raw.closesWithin(1000)).toBe(true);
    const next = await http(`${base}/v1/customers`, {
      method: 'POST',
      headers: actor.auth,
      body: { name: 'Next' },
    });
    expect(next.status, next.body).toBe(200);
  });
});

describe('the money ceiling (2^53 − 1 minor units per account)', () => {
  const credit = (base: string, merchantId: string, amount: number | string) =>
    http(`${base}/sandbox/merchants/${merchantId}/credit`, {
      method: 'POST',
      raw: `{"currency":"USDC","amount":${amount}}`,
    });

  it('repeated credits of 2^53 − 1: the first 200, then 400 "Amount ceiling…" (never 500); balances keep answering, exact', async () => {
    const { sandbox, base } = await listening();
    const actor = await createMerchant(sandbox);
    const first = json<{ currency: string; available: number; held: number }[]>(
      await credit(base, actor.merchantId, MAX),
    );
    expect(first).toEqual([{ currency: 'USDC', available: MAX, held: 0 }]);
    for (let i = 0; i < 3; i++) {
      expectError(await credit(base, actor.merchantId, MAX), 400, /^Amount ceiling/);
      expectError(await credit(base, actor.merchantId, 1), 400, /^Amount ceiling/);
    }
    const balances = await http(`${base}/sandbox/merchants/${actor.merchantId}/balances`);
    expect(json(balances)).toEqual([{ currency: 'USDC', available: MAX, held: 0 }]);
    // Checked before writing: only the first credit is in the ledger.
    const ledger = json<unknown[]>(await http(`${base}/sandbox/merchants/${actor.merchantId}/ledger`));
    expect(ledger).toHaveLength(1);
  });

  it('up to the ceiling exactly is fine, one unit beyond is refused', async () => {
    const { sandbox, base } = await listening();
    const actor = await createMerchant(sandbox);
    json(await credit(base, actor.merchantId, MAX - 1));
    expect(json(await credit(base, actor.merchantId, 1))).toEqual([
      { currency: 'USDC', available: MAX, held: 0 },
    ]);
    expectError(await credit(base, actor.merchantId, 1), 400, /^Amount ceiling/);
  });

  it('an amount above 2^53 − 1 in a request is a 422 naming it (schema), on the control API and on /v1', async () => {
    const { sandbox, base } = await listening();
    const actor = await createMerchant(sandbox);
    for (const amount of ['9007199254740992', '1e300']) {
      expectError(await credit(base, actor.merchantId, amount), 422, 'amount');
      const checkout = await http(`${base}/v1/checkouts`, {
        method: 'POST',
        headers: actor.auth,
        raw: `{"title":"Huge","amount":${amount},"expires_at":"${inFuture(sandbox)}"}`,
      });
      expectError(checkout, 422, 'amount');
    }
    expect(json(await http(`${base}/sandbox/merchants/${actor.merchantId}/balances`))).toEqual([]);
  });
});

describe('PATCH /sandbox/settings is bounded', () => {
  const patch = (base: string, raw: string) => http(`${base}/sandbox/settings`, { method: 'PATCH', raw });
  const settingsOf = async (base: string) =>
    json<{
      platform_rate: number;
      chains: { chain: string; tokens: unknown[] }[];
      card_catalogue: { id: string; name: string; type: string }[];
    }>(await http(`${base}/sandbox/settings`));

  it('an unknown key → 422 naming it, and nothing of the patch is stored', async () => {
    const { base } = await listening();
    const before = await settingsOf(base);
    expectError(await patch(base, '{"platform_rate":250,"no_such_setting":1}'), 422, 'no_such_setting');
    const after = await settingsOf(base);
    expect(after).toEqual(before);
    expect(Object.keys(after)).not.toContain('no_such_setting');
  });

  it('a value nested 5,000 deep → 422 (never 500), under a known key and under an unknown one', async () => {
    const { base } = await listening();
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const deepObject = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
    for (const raw of [
      `{"card_catalogue":${deep}}`,
      `{"chains":${deep}}`,
      `{"chains":[{"chain":"x","tokens":[${deepObject}]}]}`,
      `{"nested":${deepObject}}`,
    ]) {
      expectError(await patch(base, raw), 422);
    }
    expect((await http(`${base}/sandbox/health`)).status).toBe(200);
  });

  it('chains: at most 32, each at most 16 tokens; card_catalogue: at most 100 → 422 beyond, 200 at the limit', async () => {
    const { base } = await listening();
    const { chains, card_catalogue } = await settingsOf(base);
    const chain = chains[0]!;
    const manyChains = (n: number) => Array.from({ length: n }, (_, i) => ({ ...chain, chain: `chain${i}` }));
    const token = chain.tokens[0] as Record<string, unknown>;
    const manyTokens = (n: number) => [
      { chain: chain.chain, tokens: Array.from({ length: n }, (_, i) => ({ ...token, name: `T${i}` })) },
    ];
    const catalogue = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ id: randomUUID(), name: `Card ${i}`, type: 'virtual' }));

    expectError(await patch(base, JSON.stringify({ chains: manyChains(33) })), 422, 'chains');
    expectError(await patch(base, JSON.stringify({ chains: manyTokens(17) })), 422, 'tokens');
    expectError(await patch(base, JSON.stringify({ card_catalogue: catalogue(101) })), 422, 'card_catalogue');
    const unchanged = await settingsOf(base);
    expect(unchanged.chains).toEqual(chains);
    expect(unchanged.card_catalogue).toEqual(card_catalogue);

    expect(
      json<{ chains: unknown[] }>(await patch(base, JSON.stringify({ chains: manyChains(32) }))).chains,
    ).toHaveLength(32);
    expect(
      json<{ chains: { tokens: unknown[] }[] }>(await patch(base, JSON.stringify({ chains: manyTokens(16) })))
        .chains[0]!.tokens,
    ).toHaveLength(16);
    expect(
      json<{ card_catalogue: unknown[] }>(
        await patch(base, JSON.stringify({ card_catalogue: catalogue(100) })),
      ).card_catalogue,
    ).toHaveLength(100);
  });
});

describe('header, request and keep-alive timeouts (createSandbox `timeouts`)', () => {
  const timeouts = { headersMs: 300, requestMs: 600, keepAliveMs: 300 };

  /** If the server said anything before closing, it is a 408 {error}. */
  function expectClosedOr408(raw: Raw) {
    if (raw.received.length === 0) return;
    const text = raw.received;
    const end = text.indexOf('\r\n\r\n');
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1]);
    expect(status, text).toBe(408);
    const body = JSON.parse(text.slice(end + 4)) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(['error']);
  }

  it('half the headers, then a stall: the connection is closed (or answered 408) within ~1 s', async () => {
    const { port } = await listening({ timeouts });
    const raw = await Raw.open(port);
    const started = performance.now();
    raw.write(`GET /sandbox/health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Half: `);
    expect(await raw.closesWithin(1500), 'closed by the headers timeout').toBe(true);
    expect(raw.closedAt! - started).toBeLessThan(1500);
    expectClosedOr408(raw);
  });

  it('complete headers but half the body, then a stall: closed (or 408) within ~1 s', async () => {
    const { sandbox, port } = await listening({ timeouts });
    const actor = await createMerchant(sandbox);
    const raw = await Raw.open(port);
    const started = performance.now();
    raw.write(
      `POST /v1/customers HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${actor.key}\r\n` +
        `Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":`,
    );
    expect(await raw.closesWithin(1500), 'closed by the request timeout').toBe(true);
    expect(raw.closedAt! - started).toBeLessThan(1500);
    expectClosedOr408(raw);
  });

  it('an idle keep-alive connection is closed within ~1 s of its last response', async () => {
    const { port } = await listening({ timeouts });
    const raw = await Raw.open(port);
    raw.write(`GET /sandbox/health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    const reply = await raw.response();
    expect(reply.status).toBe(200);
    expect(reply.headers.connection ?? 'keep-alive').not.toBe('close');
    const answered = performance.now();
    expect(await raw.closesWithin(1500), 'closed by the keep-alive timeout').toBe(true);
    expect(raw.closedAt! - answered).toBeLessThan(1500);
  });

  it('the SSE stream (GET /sandbox/events) is not cut by those timeouts: still open after 2 s', async () => {
    const { port } = await listening({ timeouts });
    const raw = await Raw.open(port);
    raw.write(`GET /sandbox/events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\n\r\n`);
    await sleep(2000);
    expect(raw.closedAt, 'the stream is still open').toBeNull();
    expect(raw.received).toMatch(/^HTTP\/1\.1 200/);
    expect(raw.received.toLowerCase()).toContain('content-type: text/event-stream');
    expect(raw.received).toContain(': connected');
    raw.destroy();
  });
});

describe('the money controls honour ?env=', () => {
  it('credit, deposits and payouts act in ?env=production; a body env still works; both, and different → 422 naming env', async () => {
    const { sandbox, base } = await listening();
    const actor = await createMerchant(sandbox);
    const id = actor.merchantId;
    const post = (path: string, body: Record<string, unknown>) =>
      http(`${base}${path}`, { method: 'POST', body });
    const balancesIn = async (env: string) =>
      json(await http(`${base}/sandbox/merchants/${id}/balances?env=${env}`));

    // credit
    json(
      await post(`/sandbox/merchants/${id}/credit?env=production`, { currency: 'USDC', amount: 5_000_000 }),
    );
    expect(await balancesIn('production')).toEqual([{ currency: 'USDC', available: 5_000_000, held: 0 }]);
    expect(await balancesIn('test')).toEqual([]);
    json(
      await post(`/sandbox/merchants/${id}/credit`, {
        env: 'production',
        currency: 'USDC',
        amount: 1_000_000,
      }),
    );
    json(
      await post(`/sandbox/merchants/${id}/credit?env=production`, {
        env: 'production',
        currency: 'USDC',
        amount: 1_000_000,
      }),
    );
    expect(await balancesIn('production')).toEqual([{ currency: 'USDC', available: 7_000_000, held: 0 }]);
    expectError(
      await post(`/sandbox/merchants/${id}/credit?env=test`, {
        env: 'production',
        currency: 'USDC',
        amount: 1,
      }),
      422,
      'env',
    );

    // deposits
    const deposit = { merchant_id: id, chain: 'ethereum', currency: 'USDC', amount: 2_000_000 };
    const viaQuery = json<{ id: string; env: string }>(
      await post('/sandbox/deposits?env=production', deposit),
    );
    expect(viaQuery.env).toBe('production');
    const viaBody = json<{ id: string; env: string }>(
      await post('/sandbox/deposits', { ...deposit, env: 'production' }),
    );
    expect(viaBody.env).toBe('production');
    const depositsIn = async (env: string) =>
      json<{ id: string }[]>(await http(`${base}/sandbox/merchants/${id}/deposits?env=${env}`)).map(
        (d) => d.id,
      );
    expect((await depositsIn('production')).sort()).toEqual([viaQuery.id, viaBody.id].sort());
    expect(await depositsIn('test')).toEqual([]);
    expectError(await post('/sandbox/deposits?env=production', { ...deposit, env: 'test' }), 422, 'env');

    // payouts
    const payout = { merchant_id: id, amount: 1_000_000, currency: 'USDC' };
    const paidOut = json<{ id: string; env: string; status: string }>(
      await post('/sandbox/payouts?env=production', payout),
    );
    expect(paidOut).toMatchObject({ env: 'production', status: 'completed' });
    const bodyPayout = json<{ env: string }>(
      await post('/sandbox/payouts', { ...payout, env: 'production' }),
    );
    expect(bodyPayout.env).toBe('production');
    const payoutsIn = async (env: string) =>
      json<{ id: string }[]>(await http(`${base}/sandbox/merchants/${id}/payouts?env=${env}`)).map(
        (p) => p.id,
      );
    expect(await payoutsIn('production')).toContain(paidOut.id);
    expect(await payoutsIn('test')).toEqual([]);
    expectError(await post('/sandbox/payouts?env=test', { ...payout, env: 'production' }), 422, 'env');
    // 7 credited + 4 deposited − 2 paid out, all in production; nothing ever reached test.
    expect(await balancesIn('production')).toEqual([{ currency: 'USDC', available: 9_000_000, held: 0 }]);
    expect(await balancesIn('test')).toEqual([]);
  });
});

const externalIPv4 = Object.values(networkInterfaces())
  .flat()
  .find((i) => i !== undefined && i.family === 'IPv4' && !i.internal)?.address;

describe('who may use the control API', () => {
  it('a foreign Origin (Origin: null included) or Sec-Fetch-Site: cross-site → 403 {error} on every method, GET included; same-origin is served', async () => {
    const { sandbox, base, port } = await listening();
    const actor = await createMerchant(sandbox);
    const host = `127.0.0.1:${port}`;
    const calls: { method: string; path: string; body?: Record<string, unknown> }[] = [
      { method: 'GET', path: '/sandbox/merchants' },
      { method: 'GET', path: `/sandbox/merchants/${actor.merchantId}/api-keys` },
      { method: 'GET', path: '/sandbox/settings' },
      { method: 'POST', path: '/sandbox/merchants', body: { name: 'Cross' } },
      { method: 'PATCH', path: `/sandbox/merchants/${actor.merchantId}`, body: { name: 'Cross' } },
      { method: 'DELETE', path: '/sandbox/inboxes/cross/messages' },
    ];
    const refused: Record<string, string>[] = [
      { origin: 'http://evil.com' },
      { origin: 'null' },
      { origin: `https://${host}` },
      { origin: 'http://127.0.0.1:1' },
      { 'sec-fetch-site': 'cross-site' },
      { origin: `http://${host}`, 'sec-fetch-site': 'cross-site' },
    ];
    for (const headers of refused) {
      for (const c of calls) {
        const reply = await http(`${base}${c.path}`, {
          method: c.method,
          headers: { host, ...headers },
          ...(c.body ? { body: c.body } : {}),
        });
        expect(reply.status, `${c.method} ${c.path} ${JSON.stringify(headers)}`).toBe(403);
        expectError(reply, 403);
      }
      const head = await http(`${base}/sandbox/merchants`, { method: 'HEAD', headers: { host, ...headers } });
      expect(head.status, `HEAD ${JSON.stringify(headers)}`).toBe(403);
    }
    const merchants = json<{ name: string }[]>(await http(`${base}/sandbox/merchants`));
    expect(merchants.map((m) => m.name)).toEqual(['Acme']);

    for (const [hostHeader, origin] of [
      [host, `http://${host}`],
      [`localhost:${port}`, `http://localhost:${port}`],
    ] as const) {
      const same = await http(`${base}/sandbox/merchants`, { headers: { host: hostHeader, origin } });
      expect(same.status, same.body).toBe(200);
      const sameWrite = await http(`${base}/sandbox/merchants/${actor.merchantId}`, {
        method: 'PATCH',
        headers: { host: hostHeader, origin, 'sec-fetch-site': 'same-origin' },
        body: { name: 'Same origin' },
      });
      expect(sameWrite.status, sameWrite.body).toBe(200);
    }
  });

  it.skipIf(externalIPv4 === undefined)(
    `a peer that is not loopback (this machine's ${externalIPv4 ?? 'no non-loopback IPv4: skipped'}) → 403 on /sandbox, /v1 still served; allowRemoteControl: true serves it`,
    async () => {
      const { sandbox, port } = await listening({ host: '0.0.0.0' });
      const actor = await createMerchant(sandbox);
      const remote = `http://${externalIPv4}:${port}`;
      const headers = { host: `localhost:${port}` };

      expectError(await http(`${remote}/sandbox/merchants`, { headers }), 403, 'control API');
      expectError(
        await http(`${remote}/sandbox/merchants`, { method: 'POST', headers, body: { name: 'Remote' } }),
        403,
        'control API',
      );
      // /v1 is protected by API keys, not by the peer address (the Host allow-list still applies).
      const v1 = await http(`${remote}/v1/checkouts`, { headers: { ...headers, ...actor.auth } });
      expect(v1.status, v1.body).toBe(200);
      expectError(
        await http(`${remote}/v1/checkouts`, { headers: { host: `${externalIPv4}:${port}`, ...actor.auth } }),
        403,
        /host/i,
      );
      // The same listener still serves the control API to loopback peers.
      expect((await http(`http://127.0.0.1:${port}/sandbox/merchants`)).status).toBe(200);
      const names = json<{ name: string }[]>(await http(`http://127.0.0.1:${port}/sandbox/merchants`));
      expect(names.map((m) => m.name)).not.toContain('Remote');

      const open = await listening({ host: '0.0.0.0', allowRemoteControl: true });
      const allowed = await http(`http://${externalIPv4}:${open.port}/sandbox/merchants`, {
        headers: { host: `localhost:${open.port}` },
      });
      expect(allowed.status, allowed.body).toBe(200);
    },
  );
});

describe('errors straight from the HTTP parser are {error} JSON', () => {
  it('20 KB of headers → 431 {"error": "Request header fields too large"}', async () => {
    const { port } = await listening();
    const raw = await Raw.open(port);
    raw.write(
      `GET /sandbox/health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Filler: ${'a'.repeat(20 * 1024)}\r\n\r\n`,
    );
    const reply = await raw.response();
    expect(expectError(reply, 431)).toBe('Request header fields too large');
  });

  it('a request without Host → 400 {error}', async () => {
    const { port } = await listening();
    for (const path of ['/sandbox/health', '/v1/checkouts']) {
      const raw = await Raw.open(port);
      raw.write(`GET ${path} HTTP/1.1\r\nConnection: close\r\n\r\n`);
      expectError(await raw.response(), 400, /host/i);
    }
  });

  it('a malformed request line → 400 {error}', async () => {
    const { port } = await listening();
    for (const line of ['NOT A REQUEST LINE', 'GET /sandbox/health HTTP/9.9x', 'GET\u0001 / HTTP/1.1']) {
      const raw = await Raw.open(port);
      raw.write(`${line}\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
      expectError(await raw.response(), 400);
    }
  });

  it('Authorization: bearer/BEARER/Bearer <key> are all accepted', async () => {
    const { sandbox, base } = await listening();
    const actor = await createMerchant(sandbox);
    for (const scheme of ['bearer', 'BEARER', 'Bearer', 'bEaReR']) {
      const reply = await http(`${base}/v1/checkouts`, {
        headers: { authorization: `${scheme} ${actor.key}` },
      });
      expect(reply.status, `${scheme}: ${reply.body}`).toBe(200);
    }
    expectError(
      await http(`${base}/v1/checkouts`, { headers: { authorization: `Basic ${actor.key}` } }),
      401,
    );
  });
});
