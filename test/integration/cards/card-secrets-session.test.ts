import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../server/sandbox.js';
import { expectError } from '../../helpers/api.js';
import {
  decryptPayload,
  encryptPayload,
  newSession,
  pinBlock,
  readPinBlock,
} from '../../helpers/card-client.js';
import { isObject, listOperations, type OpenApiDocument } from '../../helpers/openapi.js';
import { type Actor, createMerchant, testSandbox } from '../../helpers/sandbox.js';

/**
 * The card-secret reads take `session` in a JSON body (the PIN read in the body of a GET,
 * as the spec has it), which fetch-based clients cannot send. They also take it as the
 * `X-SVC-Session` header or the `session` query parameter; given in several places, the values must
 * agree (else 422 naming `session`).
 */

const VIRTUAL = '6f1c2a8e-3b4d-4c5e-9f60-7a8b9c0d1e21';
const APPLY = {
  account_purpose: 'business expenses',
  occupation: 'engineer',
  annual_salary: '50000_100000',
  expected_monthly_volume: '1000_5000',
};

interface Fixture {
  sandbox: Sandbox;
  actor: Actor;
  url: string;
  pem: string;
}

async function inject(
  sandbox: Sandbox,
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  options: { headers?: Record<string, string>; payload?: object } = {},
): Promise<LightMyRequestResponse> {
  return (await sandbox.apps.test.inject({
    method,
    url,
    headers: { ...options.headers, ...(options.payload ? { 'content-type': 'application/json' } : {}) },
    ...(options.payload ? { payload: JSON.stringify(options.payload) } : {}),
  })) as LightMyRequestResponse;
}

/** A merchant with an issued virtual card whose PIN is 904512. */
async function cardWithPin(): Promise<Fixture> {
  const sandbox = await testSandbox();
  const actor = await createMerchant(sandbox);
  const v1 = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    inject(sandbox, method, url, { headers: actor.auth, ...(payload ? { payload } : {}) });
  const holder = (await v1('POST', '/v1/cardholders', { name: 'Jane Doe' })).json() as { id: string };
  await inject(sandbox, 'POST', `/sandbox/cardholders/${holder.id}/kyc`, { payload: { result: 'approved' } });
  expect(
    (await v1('POST', `/v1/cardholders/${holder.id}/cards/apply`, { catalogue: VIRTUAL, ...APPLY }))
      .statusCode,
  ).toBe(200);
  const card = await v1('POST', `/v1/cardholders/${holder.id}/cards`, {
    catalogue: VIRTUAL,
    type: 'virtual',
  });
  expect(card.statusCode, card.body).toBe(200);
  const url = `/v1/cardholders/${holder.id}/cards/${(card.json() as { id: string }).id}`;
  const pem = ((await inject(sandbox, 'GET', '/sandbox/keys?env=test')).json() as { public_key_pem: string })
    .public_key_pem;
  const { key, session } = newSession(pem);
  const set = await v1('PUT', `${url}/pin`, {
    session,
    encrypted_data: encryptPayload(key, pinBlock('904512')),
  });
  expect(set.statusCode, set.body).toBe(200);
  return { sandbox, actor, url, pem };
}

const q = (session: string) => `?session=${encodeURIComponent(session)}`;

describe('card secrets: session in the body, the X-SVC-Session header or the session query', () => {
  it('reads the PIN with the session from each source, and from several that agree', async () => {
    const { sandbox, actor, url, pem } = await cardWithPin();
    const pinWith = (options: {
      header?: string | undefined;
      query?: string | undefined;
      body?: string | undefined;
    }) =>
      inject(sandbox, 'GET', `${url}/pin${options.query ? q(options.query) : ''}`, {
        headers: { ...actor.auth, ...(options.header ? { 'x-svc-session': options.header } : {}) },
        ...(options.body ? { payload: { session: options.body } } : {}),
      });
    for (const where of ['body', 'header', 'query', 'header+query', 'all three'] as const) {
      const { key, session } = newSession(pem);
      const res = await pinWith({
        body: where === 'body' || where === 'all three' ? session : undefined,
        header: where.includes('header') || where === 'all three' ? session : undefined,
        query: where.includes('query') || where === 'all three' ? session : undefined,
      });
      expect(res.statusCode, `${where}: ${res.body}`).toBe(200);
      const pin = readPinBlock(
        decryptPayload(key, (res.json() as { encryptedPin: { iv: string; data: string } }).encryptedPin),
      );
      expect(pin, where).toBe('904512');
    }
  });

  it('reads PAN and CVC with the session in the header or the query, without a body', async () => {
    const { sandbox, actor, url, pem } = await cardWithPin();
    for (const where of ['header', 'query'] as const) {
      const { key, session } = newSession(pem);
      const res = await inject(sandbox, 'POST', `${url}/secrets${where === 'query' ? q(session) : ''}`, {
        headers: { ...actor.auth, ...(where === 'header' ? { 'x-svc-session': session } : {}) },
      });
      expect(res.statusCode, `${where}: ${res.body}`).toBe(200);
      const body = res.json() as {
        encryptedPan: { iv: string; data: string };
        encryptedCvc: { iv: string; data: string };
      };
      expect(decryptPayload(key, body.encryptedPan)).toMatch(/^\d{16}$/);
      expect(decryptPayload(key, body.encryptedCvc)).toMatch(/^\d{3}$/);
    }
    // The body (the spec's shape) still works.
    const { session } = newSession(pem);
    expect(
      (await inject(sandbox, 'POST', `${url}/secrets`, { headers: actor.auth, payload: { session } }))
        .statusCode,
    ).toBe(200);
  });

  it('different values in different places, or none at all, are a 422 naming session', async () => {
    const { sandbox, actor, url, pem } = await cardWithPin();
    const a = newSession(pem).session;
    const b = newSession(pem).session;
    const conflicts: {
      method: 'GET' | 'POST';
      path: string;
      header?: string;
      query?: string;
      body?: string;
    }[] = [
      { method: 'GET', path: 'pin', header: a, query: b },
      { method: 'GET', path: 'pin', body: a, header: b },
      { method: 'GET', path: 'pin', body: a, query: b },
      { method: 'POST', path: 'secrets', header: a, query: b },
      { method: 'POST', path: 'secrets', body: a, header: b },
    ];
    for (const c of conflicts) {
      const res = await inject(sandbox, c.method, `${url}/${c.path}${c.query ? q(c.query) : ''}`, {
        headers: { ...actor.auth, ...(c.header ? { 'x-svc-session': c.header } : {}) },
        ...(c.body ? { payload: { session: c.body } } : {}),
      });
      expectError(res, 422, 'session');
    }
    expectError(await inject(sandbox, 'GET', `${url}/pin`, { headers: actor.auth }), 422, 'session');
    expectError(await inject(sandbox, 'POST', `${url}/secrets`, { headers: actor.auth }), 422, 'session');
    expectError(await inject(sandbox, 'GET', `${url}/pin?session=`, { headers: actor.auth }), 422, 'session');
    // A bad session in the header is the same 400 as a bad one in the body, never a 500.
    const bad = await inject(sandbox, 'GET', `${url}/pin`, {
      headers: { ...actor.auth, 'x-svc-session': 'bm90IHJzYQ==' },
    });
    expect(bad.statusCode, bad.body).toBe(400);
  });

  it('the document lists the header and the query parameter on both reads', async () => {
    const sandbox = await testSandbox();
    const doc = (await sandbox.apps.test.inject({ url: '/sandbox/openapi.json' })).json() as OpenApiDocument;
    for (const key of [
      'GET /v1/cardholders/{ch_id}/cards/{card_id}/pin',
      'POST /v1/cardholders/{ch_id}/cards/{card_id}/secrets',
    ]) {
      const op = listOperations(doc).find((o) => o.key === key);
      expect(op, key).toBeDefined();
      const params = (op?.operation.parameters ?? []).map((p) => `${p.in}:${p.name.toLowerCase()}`);
      expect(params, key).toEqual(expect.arrayContaining(['query:session', 'header:x-svc-session']));
      for (const p of op?.operation.parameters ?? []) {
        if (p.name === 'session' || p.name.toLowerCase() === 'x-svc-session') {
          expect(p.required ?? false, `${key} ${p.name} is optional`).toBe(false);
          expect(isObject(p.schema)).toBe(true);
        }
      }
    }
  });
});
