import { request as httpRequest } from 'node:http';
import { networkInterfaces } from 'node:os';
import { describe, expect, it } from 'vitest';
import type { Sandbox, SandboxOptions } from '../../../server/sandbox.js';
import { testSandbox } from '../../helpers/sandbox.js';

/**
 * How a sandbox in a container (or behind a proxy) is reached, over real HTTP: the control API for
 * other machines (allowRemoteControl), its shared secret (controlToken: header or the dashboard's
 * cookie), extra Host names (allowedHosts, the public URLs' hosts) and the public URLs the API names.
 */

interface Answer {
  status: number;
  type: string;
  body: string;
}

/** One request with exactly the headers given (Host included) to `address:port`. */
function send(
  address: string,
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<Answer> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: address,
        port,
        method,
        path,
        setHost: false,
        headers: {
          ...headers,
          ...(payload === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
        },
      },
      (res) => {
        const type = String(res.headers['content-type'] ?? '');
        if (type.startsWith('text/event-stream')) {
          res.destroy();
          resolve({ status: res.statusCode ?? 0, type, body: '' });
          return;
        }
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, type, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.setTimeout(10_000, () => req.destroy(new Error(`${method} ${path}: no answer within 10 s`)));
    req.on('error', reject);
    req.end(payload);
  });
}

async function started(options: SandboxOptions): Promise<{ sandbox: Sandbox; port: number }> {
  const sandbox = await testSandbox(options);
  await sandbox.listen();
  const address = sandbox.apps.test.server.address();
  if (address === null || typeof address !== 'object') throw new Error('no listener address');
  return { sandbox, port: address.port };
}

/** A non-loopback IPv4 address of this machine, if it has one. */
function outsideAddress(): string | undefined {
  for (const list of Object.values(networkInterfaces()))
    for (const info of list ?? []) if (info.family === 'IPv4' && !info.internal) return info.address;
  return undefined;
}

const TOKEN = 'correct horse battery staple';

describe('the control token', () => {
  it('refuses a control call without it or with a wrong one, allows it in the header or the cookie', async () => {
    const { port } = await started({ controlToken: TOKEN });
    const host = { host: `127.0.0.1:${port}` };
    const without = await send('127.0.0.1', port, 'GET', '/sandbox/clock', host);
    expect(without.status).toBe(401);
    expect(JSON.parse(without.body).error).toMatch(/control token.*X-SVC-Control-Token/);
    const wrong = await send('127.0.0.1', port, 'GET', '/sandbox/clock', {
      ...host,
      'x-svc-control-token': `${TOKEN}!`,
    });
    expect(wrong.status).toBe(401);
    const writeWithout = await send('127.0.0.1', port, 'POST', '/sandbox/merchants', host, { name: 'A' });
    expect(writeWithout.status).toBe(401);

    const header = await send('127.0.0.1', port, 'GET', '/sandbox/clock', {
      ...host,
      'x-svc-control-token': TOKEN,
    });
    expect(header.status).toBe(200);
    expect(JSON.parse(header.body)).toHaveProperty('now');
    // The dashboard's way: a same-site cookie (EventSource cannot send headers), %-encoded.
    const cookie = await send('127.0.0.1', port, 'GET', '/sandbox/clock', {
      ...host,
      cookie: `theme=dark; svc_control_token=${encodeURIComponent(TOKEN)}`,
    });
    expect(cookie.status).toBe(200);
    const wrongCookie = await send('127.0.0.1', port, 'GET', '/sandbox/clock', {
      ...host,
      cookie: 'svc_control_token=guess',
    });
    expect(wrongCookie.status).toBe(401);
  });

  it("lets the built-in inbox receive the sandbox's own deliveries, while reading it takes the token", async () => {
    const { sandbox, port } = await started({ controlToken: TOKEN });
    const base = `http://127.0.0.1:${port}`;
    const headers = { 'content-type': 'application/json', 'x-svc-control-token': TOKEN };
    const made = await fetch(`${base}/sandbox/merchants`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'Shop' }),
    });
    const { merchant, api_key } = (await made.json()) as {
      merchant: { id: string };
      api_key: { key: string };
    };
    const endpoint = await fetch(`${base}/sandbox/merchants/${merchant.id}/webhook-endpoints`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ url: `${base}/sandbox/inbox/qa`, events: ['checkout.created'] }),
    });
    expect(endpoint.status).toBe(200);
    const expires = new Date(sandbox.ctx.clock.now() + 3600_000).toISOString();
    const checkout = await fetch(`${base}/v1/checkouts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${api_key.key}` },
      body: JSON.stringify({ title: 'Order', amount: 1_000_000, expires_at: expires }),
    });
    expect(checkout.status).toBe(200);
    await expect
      .poll(
        async () => {
          const inbox = await fetch(`${base}/sandbox/inboxes/qa`, { headers });
          return inbox.status === 200 ? ((await inbox.json()) as { messages: unknown[] }).messages.length : 0;
        },
        { timeout: 5_000 },
      )
      .toBe(1);
    const deliveries = (await (await fetch(`${base}/sandbox/deliveries`, { headers })).json()) as {
      status: string;
    }[];
    expect(deliveries.map((d) => d.status)).toEqual(['delivered']);
    const host = { host: `127.0.0.1:${port}` };
    expect((await send('127.0.0.1', port, 'GET', '/sandbox/inboxes/qa', host)).status).toBe(401);
  });

  it('guards the event stream too (header or cookie), and leaves the health check open', async () => {
    const { port } = await started({ controlToken: TOKEN });
    const host = { host: `localhost:${port}` };
    expect((await send('127.0.0.1', port, 'GET', '/sandbox/events', host)).status).toBe(401);
    const viaCookie = await send('127.0.0.1', port, 'GET', '/sandbox/events', {
      ...host,
      cookie: `svc_control_token=${encodeURIComponent(TOKEN)}`,
    });
    expect(viaCookie.status).toBe(200);
    expect(viaCookie.type).toMatch(/^text\/event-stream/);
    const health = await send('127.0.0.1', port, 'GET', '/sandbox/health', host);
    expect(health.status).toBe(200);
    expect(JSON.parse(health.body).status).toBe('ok');
    // The dashboard's files carry no data: they load, and the dashboard asks for the token.
    expect((await send('127.0.0.1', port, 'GET', '/', host)).status).not.toBe(401);
  });

  it('leaves /v1 alone: its API key is what protects it', async () => {
    const { port } = await started({ controlToken: TOKEN });
    const headers = { host: `127.0.0.1:${port}`, 'x-svc-control-token': TOKEN };
    const created = await send('127.0.0.1', port, 'POST', '/sandbox/merchants', headers, { name: 'Acme' });
    expect(created.status).toBe(200);
    const key = (JSON.parse(created.body) as { api_key: { key: string } }).api_key.key;
    const v1 = await send('127.0.0.1', port, 'GET', '/v1/checkouts', {
      host: `127.0.0.1:${port}`,
      authorization: `Bearer ${key}`,
    });
    expect(v1.status).toBe(200);
    const noKey = await send('127.0.0.1', port, 'GET', '/v1/checkouts', { host: `127.0.0.1:${port}` });
    expect(noKey.status).toBe(401);
    expect(JSON.parse(noKey.body).error).not.toMatch(/control token/);
  });

  it('keeps the origin checks: a foreign page is refused even with the token', async () => {
    const { port } = await started({ controlToken: TOKEN });
    const answer = await send('127.0.0.1', port, 'GET', '/sandbox/clock', {
      host: `localhost:${port}`,
      origin: 'http://evil.example',
      'x-svc-control-token': TOKEN,
    });
    expect(answer.status).toBe(403);
  });
});

describe('remote control from another machine', () => {
  const outside = outsideAddress();
  it.skipIf(outside === undefined)(
    'is refused by default, allowed with allowRemoteControl, and then asks for the token when one is set',
    async () => {
      const address = outside!;
      const clock = async (options: SandboxOptions, headers: Record<string, string> = {}) => {
        const { port } = await started({ host: '0.0.0.0', ...options });
        return send(address, port, 'GET', '/sandbox/clock', { host: `localhost:${port}`, ...headers });
      };
      const closed = await clock({});
      expect(closed.status).toBe(403);
      expect(JSON.parse(closed.body).error).toMatch(/--allow-remote-control/);
      expect((await clock({ allowRemoteControl: true })).status).toBe(200);
      expect((await clock({ allowRemoteControl: true, controlToken: TOKEN })).status).toBe(401);
      expect(
        (await clock({ allowRemoteControl: true, controlToken: TOKEN }, { 'x-svc-control-token': TOKEN }))
          .status,
      ).toBe(200);
      // A token alone does not open the control API to other machines.
      expect((await clock({ controlToken: TOKEN }, { 'x-svc-control-token': TOKEN })).status).toBe(403);
    },
  );
});

describe('host names and public URLs', () => {
  it('refuses an unknown Host on every route, accepts one named by allowedHosts', async () => {
    const closed = await started({});
    for (const path of ['/v1/checkouts', '/sandbox/clock'])
      expect(
        (await send('127.0.0.1', closed.port, 'GET', path, { host: `sandbox:${closed.port}` })).status,
      ).toBe(403);
    const { port } = await started({ allowedHosts: ['sandbox'] });
    const clock = await send('127.0.0.1', port, 'GET', '/sandbox/clock', {
      host: `sandbox:${port}`,
      origin: `http://sandbox:${port}`,
    });
    expect(clock.status).toBe(200);
    expect((await send('127.0.0.1', port, 'GET', '/v1/checkouts', { host: `SANDBOX:${port}` })).status).toBe(
      401,
    );
    // Exact names only: a longer name that starts with it is not it.
    expect((await send('127.0.0.1', port, 'GET', '/v1/checkouts', { host: 'sandbox.evil.com' })).status).toBe(
      403,
    );
    // Same origin means the same host and port: another allowed page is still foreign.
    const otherPort = await send('127.0.0.1', port, 'GET', '/sandbox/clock', {
      host: `sandbox:${port}`,
      origin: 'http://sandbox:1',
    });
    expect(otherPort.status).toBe(403);
  });

  it('names the public URLs in hosted_url and health, and accepts their host', async () => {
    const publicUrls = {
      test: 'http://ci-runner.example:8080',
      production: 'https://ci-runner.example:8443',
    };
    const { sandbox, port } = await started({ publicUrls });
    expect(sandbox.urls()).toEqual({
      test: publicUrls.test,
      production: publicUrls.production,
      dashboard: `${publicUrls.test}/`,
    });
    const host = { host: 'ci-runner.example:8080' };
    const health = JSON.parse((await send('127.0.0.1', port, 'GET', '/sandbox/health', host)).body);
    expect(health.urls).toEqual({ ...sandbox.urls() });
    // A page behind a TLS-terminating proxy: its https origin is the sandbox's own.
    const created = await send(
      '127.0.0.1',
      port,
      'POST',
      '/sandbox/merchants',
      { host: 'ci-runner.example:8443', origin: 'https://ci-runner.example:8443' },
      { name: 'Acme' },
    );
    expect(created.status).toBe(200);
    const key = (JSON.parse(created.body) as { api_key: { key: string } }).api_key.key;
    const checkout = await send(
      '127.0.0.1',
      port,
      'POST',
      '/v1/checkouts',
      { ...host, authorization: `Bearer ${key}` },
      {
        title: 'Order 1',
        amount: 25_000_000,
        expires_at: new Date(sandbox.ctx.clock.now() + 3600_000).toISOString(),
      },
    );
    expect(checkout.status).toBe(200);
    const hosted = (JSON.parse(checkout.body) as { hosted_url: string }).hosted_url;
    expect(hosted.startsWith(`${publicUrls.test}/pay/`)).toBe(true);
    // The production listener accepts its public host too.
    const prodPort = (sandbox.apps.production.server.address() as { port: number }).port;
    const prodHealth = await send('127.0.0.1', prodPort, 'GET', '/sandbox/health', {
      host: 'ci-runner.example:8443',
    });
    expect(prodHealth.status).toBe(200);
  });

  it('runs scenarios over its own listeners, with the token, whatever the public URL', async () => {
    // A public URL nothing answers at from here (a container's host port): the run must not use it.
    const { sandbox, port } = await started({
      publicUrls: { test: 'http://unreachable.invalid:1' },
      controlToken: TOKEN,
    });
    const scenario = `name: behind a public URL
steps:
  - merchant: acme
  - call: POST /v1/checkouts
    as: co
    body: { title: Order, amount: 2000000, currency: USDC, expires_at: "\${clock.in.1h}" }
  - control: POST /sandbox/checkouts/\${co.id}/payments
  - expect: { event: { type: checkout.paid, data: { id: "\${co.id}" } } }
`;
    const answer = await send(
      '127.0.0.1',
      port,
      'POST',
      '/sandbox/scenarios/run',
      { host: `127.0.0.1:${port}`, 'x-svc-control-token': TOKEN },
      { scenario },
    );
    expect(answer.status).toBe(200);
    const run = JSON.parse(answer.body) as { ok: boolean; steps: { ok: boolean; error?: string }[] };
    expect(run.steps.filter((s) => !s.ok)).toEqual([]);
    expect(run.ok).toBe(true);
    expect(sandbox.urls().test).toBe('http://unreachable.invalid:1');
  });
});
