import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '../../../server/contract/requests.js';
import type { Sandbox } from '../../../server/sandbox.js';
import { expectError } from '../../helpers/api.js';
import { encryptPayload, newSession, pinBlock } from '../../helpers/card-client.js';
import { type Actor, createMerchant, tempDir, testSandbox } from '../../helpers/sandbox.js';

/**
 * The request log. Every /v1 request is recorded (time, env, merchant, masked key,
 * method, route and URL, status, duration, capped bodies); secrets never reach the table.
 */

const VIRTUAL = '6f1c2a8e-3b4d-4c5e-9f60-7a8b9c0d1e21';
const APPLY = {
  account_purpose: 'business expenses',
  occupation: 'engineer',
  annual_salary: '50000_100000',
  expected_monthly_volume: '1000_5000',
};
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

function v1(
  sandbox: Sandbox,
  actor: Actor | null,
  method: Method,
  url: string,
  payload?: object,
  env: 'test' | 'production' = 'test',
): Promise<LightMyRequestResponse> {
  return sandbox.apps[env].inject({
    method,
    url,
    headers: {
      ...(actor ? actor.auth : {}),
      ...(payload ? { 'content-type': 'application/json' } : {}),
    },
    ...(payload ? { payload: JSON.stringify(payload) } : {}),
  }) as Promise<LightMyRequestResponse>;
}

/** Entries are written on the next turn, after the response: let it come. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

async function log(sandbox: Sandbox, query = ''): Promise<RequestLogEntry[]> {
  await settle();
  const res = await sandbox.apps.test.inject({ method: 'GET', url: `/sandbox/request-log${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as RequestLogEntry[];
}

// Everything the log stores (server/request-log/ keeps it beside the workspace database).
const rawTable = (sandbox: Sandbox) => JSON.stringify(sandbox.ctx.repos.requestLog.dump());

describe('request log', () => {
  it('records success, 401 (no merchant), 422 and 404 with masked keys, newest first', async () => {
    const sandbox = await testSandbox();
    const actor = await createMerchant(sandbox);
    const created = await v1(sandbox, actor, 'POST', '/v1/customers', {
      name: 'Ada',
      email: 'ada@example.com',
    });
    expect(created.statusCode).toBe(200);
    const customer = (created.json() as { id: string }).id;
    expect((await v1(sandbox, null, 'GET', '/v1/customers')).statusCode).toBe(401);
    expect((await v1(sandbox, actor, 'POST', '/v1/customers', { email: 'nope' })).statusCode).toBe(422);
    expect((await v1(sandbox, actor, 'GET', `/v1/customers/${UNKNOWN_ID}?expand=x`)).statusCode).toBe(404);

    const entries = await log(sandbox);
    expect(entries.map((e) => [e.method, e.route, e.status])).toEqual([
      ['GET', '/v1/customers/:id', 404],
      ['POST', '/v1/customers', 422],
      ['GET', '/v1/customers', 401],
      ['POST', '/v1/customers', 200],
    ]);
    const [notFound, invalid, unauthorized, ok] = entries as [
      RequestLogEntry,
      RequestLogEntry,
      RequestLogEntry,
      RequestLogEntry,
    ];
    expect(ok).toMatchObject({
      env: 'test',
      merchant_id: actor.merchantId,
      path: '/v1/customers',
      api_key: `svcb_…${actor.key.slice(-4)}`,
    });
    expect(ok.api_key_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(ok.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.parse(ok.request_body!)).toEqual({ name: 'Ada', email: 'ada@example.com' });
    expect((JSON.parse(ok.response_body!) as { id: string }).id).toBe(customer);
    expect(ok.duration_ms).toBeGreaterThan(0);
    expect(unauthorized.duration_ms).toBeGreaterThan(0);
    expect(Date.parse(ok.created_at)).not.toBeNaN();
    expect(unauthorized).toMatchObject({
      merchant_id: null,
      api_key_id: null,
      api_key: null,
      request_body: null,
    });
    expect(JSON.parse(unauthorized.response_body!)).toHaveProperty('error');
    expect(invalid.response_body).toContain('name');
    expect(JSON.parse(invalid.request_body!)).toEqual({ email: 'nope' });
    expect(notFound.path).toBe(`/v1/customers/${UNKNOWN_ID}?expand=x`);
    // The key itself is nowhere in the table (and no header is stored).
    expect(rawTable(sandbox)).not.toContain(actor.key);

    // Filters: merchant + env, status class and exact, pagination, one entry.
    expect(await log(sandbox, `?merchant_id=${actor.merchantId}&env=test`)).toHaveLength(3);
    expect(await log(sandbox, `?merchant_id=${actor.merchantId}&env=production`)).toHaveLength(0);
    expect((await log(sandbox, '?status=4xx')).map((e) => e.status)).toEqual([404, 422, 401]);
    expect((await log(sandbox, '?status=2xx')).map((e) => e.status)).toEqual([200]);
    expect((await log(sandbox, '?status=422')).map((e) => e.status)).toEqual([422]);
    expect((await log(sandbox, `?limit=2&starting_after=${invalid.id}`)).map((e) => e.id)).toEqual([
      unauthorized.id,
      ok.id,
    ]);
    const one = await sandbox.apps.test.inject({ method: 'GET', url: `/sandbox/request-log/${ok.id}` });
    expect(one.json()).toEqual(ok);
    expect(
      (await sandbox.apps.test.inject({ method: 'GET', url: `/sandbox/request-log/${UNKNOWN_ID}` }))
        .statusCode,
    ).toBe(404);
    expectError(
      await sandbox.apps.test.inject({ method: 'GET', url: '/sandbox/request-log?status=4x' }),
      422,
      'status',
    );
    expectError(
      await sandbox.apps.test.inject({
        method: 'GET',
        url: `/sandbox/request-log?starting_after=${UNKNOWN_ID}`,
      }),
      422,
      'starting_after',
    );
  });

  it('lists the requests no merchant matched (unauthenticated=true), and refuses it with merchant_id', async () => {
    const sandbox = await testSandbox();
    const actor = await createMerchant(sandbox);
    expect((await v1(sandbox, actor, 'GET', '/v1/customers')).statusCode).toBe(200);
    expect((await v1(sandbox, null, 'GET', '/v1/customers?missing')).statusCode).toBe(401);
    const wrong = {
      merchantId: '',
      key: 'svcb_wrongwrongwrongwrong',
      auth: { authorization: 'Bearer svcb_wrongwrongwrongwrong' },
    };
    expect((await v1(sandbox, wrong, 'POST', '/v1/customers', { name: 'x' })).statusCode).toBe(401);
    expect((await v1(sandbox, null, 'GET', '/v1/customers?prod', undefined, 'production')).statusCode).toBe(
      401,
    );

    const refused = await log(sandbox, '?unauthenticated=true&env=test');
    expect(refused.map((e) => [e.method, e.path, e.status, e.api_key])).toEqual([
      ['POST', '/v1/customers', 401, 'svcb_…rong'],
      ['GET', '/v1/customers?missing', 401, null],
    ]);
    expect((await log(sandbox, '?unauthenticated=true')).map((e) => e.env)).toEqual([
      'production',
      'test',
      'test',
    ]);
    expect((await log(sandbox, '?unauthenticated=false')).map((e) => e.merchant_id)).toEqual([
      actor.merchantId,
    ]);
    const both = await sandbox.apps.test.inject({
      method: 'GET',
      url: `/sandbox/request-log?unauthenticated=true&merchant_id=${actor.merchantId}`,
    });
    expect(both.statusCode).toBe(422);
    expect(both.json()).toEqual({
      error: expect.stringMatching(/^unauthenticated: cannot be combined with merchant_id/),
    });
    const bad = await sandbox.apps.test.inject({
      method: 'GET',
      url: '/sandbox/request-log?unauthenticated=maybe',
    });
    expectError(bad, 422, 'unauthenticated');
  });

  it('times each request to its first byte: a body sent slowly takes as long as it took', async () => {
    const sandbox = await testSandbox();
    const urls = await sandbox.listen();
    const actor = await createMerchant(sandbox);
    // A quick one: a real, non-zero duration with decimals (not a whole number of ms).
    expect((await v1(sandbox, actor, 'GET', '/v1/customers?quick')).statusCode).toBe(200);
    // A slow one: the headers, then half the body, a pause, then the rest over real HTTP.
    const { hostname, port } = new URL(urls.test);
    const body = JSON.stringify({ name: 'Slow Co', email: 'slow@example.com' });
    const socket = connect(Number(port), hostname);
    await once(socket, 'connect');
    let answer = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => {
      answer += chunk;
    });
    const closed = once(socket, 'close');
    socket.write(
      `POST /v1/customers?slow HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: Bearer ${actor.key}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n` +
        body.slice(0, 10),
    );
    const PAUSE_MS = 300;
    await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
    socket.write(body.slice(10));
    await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 200/);

    const [slow, quick] = await log(sandbox);
    expect(slow!.path).toBe('/v1/customers?slow');
    expect(quick!.path).toBe('/v1/customers?quick');
    // (less a margin: the server may see the headers late on a busy machine, which shortens it)
    expect(slow!.duration_ms).toBeGreaterThanOrEqual(PAUSE_MS * 0.8);
    expect(slow!.duration_ms).toBeLessThan(PAUSE_MS + 10_000);
    expect(quick!.duration_ms).toBeGreaterThan(0);
    expect(quick!.duration_ms).toBeLessThan(1000);
    expect(Number.isInteger(quick!.duration_ms)).toBe(false);
    // At most three decimals (µs): what the log keeps, and the same after a read from disk.
    expect(Math.round(quick!.duration_ms * 1000) / 1000).toBe(quick!.duration_ms);
  });

  it('masks a wrong key too, and caps bodies at 16 KiB with a marker', async () => {
    const sandbox = await testSandbox();
    const actor = await createMerchant(sandbox);
    const wrong = 'svcb_thisisnotarealkey0000WXYZ';
    await sandbox.apps.test.inject({
      method: 'GET',
      url: '/v1/customers',
      headers: { authorization: `Bearer ${wrong}` },
    });
    const big = 'x'.repeat(40_000);
    const res = await v1(sandbox, actor, 'POST', '/v1/customers', {
      name: 'Big',
      email: 'big@example.com',
      notes: big,
    });
    expect([200, 422]).toContain(res.statusCode);
    const [capped, masked] = (await log(sandbox)) as [RequestLogEntry, RequestLogEntry];
    expect(masked).toMatchObject({ status: 401, api_key: 'svcb_…WXYZ', merchant_id: null });
    expect(rawTable(sandbox)).not.toContain(wrong);
    expect(Buffer.byteLength(capped.request_body!)).toBeLessThan(16 * 1024 + 64);
    expect(capped.request_body).toMatch(/…\[truncated \d+ bytes\]$/);
    expect(capped.request_body!.startsWith('{"name":"Big"')).toBe(true);
  });

  it('never stores card secrets, PINs or the provisioning password', async () => {
    const sandbox = await testSandbox();
    const actor = await createMerchant(sandbox);
    const holder = (await v1(sandbox, actor, 'POST', '/v1/cardholders', { name: 'Jane Doe' })).json() as {
      id: string;
    };
    await sandbox.apps.test.inject({
      method: 'POST',
      url: `/sandbox/cardholders/${holder.id}/kyc`,
      payload: { result: 'approved' },
    });
    await v1(sandbox, actor, 'POST', `/v1/cardholders/${holder.id}/cards/apply`, {
      catalogue: VIRTUAL,
      ...APPLY,
    });
    const card = await v1(sandbox, actor, 'POST', `/v1/cardholders/${holder.id}/cards`, {
      catalogue: VIRTUAL,
      type: 'virtual',
    });
    expect(card.statusCode, card.body).toBe(200);
    const url = `/v1/cardholders/${holder.id}/cards/${(card.json() as { id: string }).id}`;
    const pem = (
      (await sandbox.apps.test.inject({ method: 'GET', url: '/sandbox/keys?env=test' })).json() as {
        public_key_pem: string;
      }
    ).public_key_pem;

    const set = newSession(pem);
    const encrypted = encryptPayload(set.key, pinBlock('904512'));
    expect(
      (await v1(sandbox, actor, 'PUT', `${url}/pin`, { session: set.session, encrypted_data: encrypted }))
        .statusCode,
    ).toBe(200);
    const read = newSession(pem);
    const pin = await v1(sandbox, actor, 'GET', `${url}/pin`, { session: read.session });
    expect(pin.statusCode, pin.body).toBe(200);
    const byQuery = newSession(pem);
    const pinByQuery = await v1(
      sandbox,
      actor,
      'GET',
      `${url}/pin?session=${encodeURIComponent(byQuery.session)}`,
    );
    expect(pinByQuery.statusCode, pinByQuery.body).toBe(200);
    const secretsSession = newSession(pem);
    const secrets = await v1(sandbox, actor, 'POST', `${url}/secrets`, { session: secretsSession.session });
    expect(secrets.statusCode, secrets.body).toBe(200);

    const password = 'hunter2-very-secret';
    const provision = await v1(
      sandbox,
      actor,
      'POST',
      '/v1/reseller/provision',
      {
        email: 'owner@sub.example',
        password,
        merchant_name: 'Sub',
        legal_name: 'Sub GmbH',
        country: 'DE',
        rate: 250,
      },
      'production',
    );
    expect(provision.statusCode, provision.body).toBe(200);

    const entries = await log(sandbox);
    const redacted = entries.filter((e) => /\/(pin|secrets)$/.test(e.route ?? ''));
    expect(redacted).toHaveLength(4);
    for (const entry of redacted) {
      expect(entry.request_body).toBe('[redacted]');
      expect(entry.response_body).toBe('[redacted]');
      expect(entry.status).toBe(200);
    }
    expect(redacted.some((e) => e.path.endsWith('/pin?[redacted]'))).toBe(true);
    const provisioned = entries.find((e) => e.route === '/v1/reseller/provision')!;
    expect(provisioned.env).toBe('production');
    expect(JSON.parse(provisioned.request_body!)).toMatchObject({
      email: 'owner@sub.example',
      password: '[redacted]',
    });

    const table = rawTable(sandbox);
    for (const secret of [
      password,
      set.session,
      read.session,
      byQuery.session,
      encodeURIComponent(byQuery.session),
      secretsSession.session,
      encrypted.data,
      JSON.parse(pin.body).encrypted_data?.data ?? JSON.parse(pin.body).data,
      JSON.parse(secrets.body).encrypted_data?.data ?? JSON.parse(secrets.body).data,
      actor.key,
    ].filter((s): s is string => typeof s === 'string' && s.length > 0))
      expect(table).not.toContain(secret);
  });

  it('keeps exactly the newest rows (requestLogLimit), on disk beside the database file', async () => {
    const dbPath = join(tempDir(), 'log.db');
    const sandbox = await testSandbox({ requestLogLimit: 5, dbPath });
    const actor = await createMerchant(sandbox);
    // Retention is applied on every append: after 11, exactly the newest 5 are kept.
    for (let i = 0; i < 11; i++) {
      await v1(sandbox, actor, 'GET', `/v1/customers?limit=${i + 1}`);
      await settle();
    }
    const count = () => sandbox.ctx.repos.requestLog.count();
    // The files: a segment is deleted once none of its entries is kept (segments of 2 here).
    const recordsOnDisk = () =>
      readdirSync(`${dbPath}-requests`)
        .map(
          (f) =>
            readFileSync(join(`${dbPath}-requests`, f), 'utf8')
              .split('\n')
              // One header line per record (the bodies follow it).
              .filter((line) => line.startsWith('{"seq":')).length,
        )
        .reduce((a, b) => a + b, 0);
    expect(count()).toBe(5);
    expect(recordsOnDisk()).toBeLessThanOrEqual(5 + 2);
    const kept = await log(sandbox);
    expect(kept.map((e) => e.path)).toEqual([11, 10, 9, 8, 7].map((n) => `/v1/customers?limit=${n}`));
    await v1(sandbox, actor, 'GET', '/v1/customers?limit=12');
    await settle();
    expect(count()).toBe(5);
    // The workspace database's own table stays empty: the log lives beside it.
    expect(sandbox.db.prepare('SELECT COUNT(*) AS n FROM request_log').get()).toEqual({ n: 0 });
  });

  it('streams each new entry as `event: request`, filtered by merchant and env (a 401 passes the merchant filter)', async () => {
    const sandbox = await testSandbox();
    const urls = await sandbox.listen();
    const actor = await createMerchant(sandbox);
    const other = await createMerchant(sandbox, 'Other');
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 5000);
    try {
      const response = await fetch(`${urls.test}/sandbox/events?env=test&merchant_id=${actor.merchantId}`, {
        signal: controller.signal,
      });
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      let buffer = decoder.decode((await reader.read()).value);
      await v1(sandbox, other, 'GET', '/v1/customers');
      await v1(sandbox, actor, 'GET', '/v1/customers?limit=3');
      await v1(sandbox, null, 'GET', '/v1/customers?limit=4', undefined, 'production');
      await v1(sandbox, null, 'GET', '/v1/customers?limit=5');
      let entries: RequestLogEntry[] = [];
      while (entries.length < 2) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        entries = buffer
          .split('\n\n')
          .slice(0, -1)
          .filter((block) => /^event: request$/m.test(block))
          .map((block) => JSON.parse(/^data: (.+)$/m.exec(block)![1]!) as RequestLogEntry);
      }
      const [entry, refused] = entries;
      expect(entry).toMatchObject({
        merchant_id: actor.merchantId,
        path: '/v1/customers?limit=3',
        status: 200,
      });
      // The other merchant's request is not there; the one no key matched is (the other env's is not).
      expect(refused).toMatchObject({ merchant_id: null, path: '/v1/customers?limit=5', status: 401 });
      const stored = await sandbox.apps.test.inject({
        method: 'GET',
        url: `/sandbox/request-log/${entry!.id}`,
      });
      expect(stored.json()).toEqual(entry);
    } finally {
      clearTimeout(timer);
      controller.abort();
    }
  });
});
