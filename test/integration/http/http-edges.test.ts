import { describe, expect, it } from 'vitest';
import { MAX_PARAM_LENGTH } from '../../../server/app.js';
import { rawRequest } from '../../helpers/http.js';
import { listOperations, type OpenApiDocument } from '../../helpers/openapi.js';
import { createMerchant, testSandbox } from '../../helpers/sandbox.js';

/**
 * What the HTTP edge answers before any handler, as the document says: 405 with `Allow` for a known
 * path asked with another method, 431 for headers over Node's limit, a path parameter as long as
 * its `maxLength` routed (longer: 414), and a `__proto__` body refused with a message naming it.
 */

describe('the HTTP edge', () => {
  it('answers 405 with Allow for a known path and another method; 404 for an unknown path', async () => {
    const sandbox = await testSandbox();
    const actor = await createMerchant(sandbox);
    const put = await sandbox.apps.test.inject({ method: 'PUT', url: '/v1/checkouts', headers: actor.auth });
    expect(put.statusCode).toBe(405);
    expect(put.headers.allow).toBe('GET, HEAD, POST');
    expect(put.json()).toEqual({ error: 'Method not allowed: PUT /v1/checkouts (allowed: GET, HEAD, POST)' });
    // A parameter in the path, a query string after it.
    const patch = await sandbox.apps.test.inject({
      method: 'PATCH',
      url: '/v1/checkouts/00000000-0000-4000-8000-000000000000?x=1',
      headers: actor.auth,
    });
    expect(patch.statusCode).toBe(405);
    expect(patch.headers.allow).toBe('DELETE, GET, HEAD');
    const unknown = await sandbox.apps.test.inject({ method: 'PUT', url: '/v1/nothing-here' });
    expect(unknown.statusCode).toBe(404);
  });

  it('answers 431 {error} when the headers pass 16 KiB', async () => {
    const sandbox = await testSandbox();
    const urls = await sandbox.listen();
    const { host } = new URL(urls.test);
    const raw = await rawRequest(
      urls.test,
      `GET /sandbox/health HTTP/1.1\r\nHost: ${host}\r\nX-Big: ${'x'.repeat(17 * 1024)}\r\n\r\n`,
    );
    expect(raw).toMatch(/^HTTP\/1\.1 431 /);
    expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))).toEqual({
      error: 'Request header fields too large',
    });
  });

  it('declares 405 (with Allow) and 431 on every operation', async () => {
    const sandbox = await testSandbox();
    const doc = (await sandbox.apps.test.inject({ url: '/sandbox/openapi.json' })).json() as OpenApiDocument;
    const missing: string[] = [];
    for (const { key, operation } of listOperations(doc)) {
      const responses = operation.responses as Record<string, { headers?: Record<string, unknown> }>;
      if (responses['405']?.headers?.Allow === undefined) missing.push(`${key}: 405 with Allow`);
      if (responses['431'] === undefined) missing.push(`${key}: 431`);
    }
    expect(missing).toEqual([]);
  });

  it('routes a path parameter up to the longest maxLength the document declares, and 414 past the router limit', async () => {
    const sandbox = await testSandbox();
    const doc = (await sandbox.apps.test.inject({ url: '/sandbox/openapi.json' })).json() as OpenApiDocument;
    const lengths = listOperations(doc).flatMap(({ operation }) =>
      (operation.parameters ?? [])
        .filter((p) => p.in === 'path')
        .map((p) => (typeof p.schema?.maxLength === 'number' ? p.schema.maxLength : 0)),
    );
    expect(Math.max(...lengths)).toBe(MAX_PARAM_LENGTH);

    const address = (n: number) => `/sandbox/static-addresses/${'a'.repeat(n)}/deposits`;
    const body = { amount: 1_000_000 };
    const atLimit = await sandbox.apps.test.inject({ method: 'POST', url: address(128), payload: body });
    expect(atLimit.statusCode, atLimit.body).not.toBe(414);
    expect(atLimit.statusCode).toBeLessThan(500);
    const over = await sandbox.apps.test.inject({ method: 'POST', url: address(129), payload: body });
    expect(over.statusCode).toBe(414);
  });

  it('refuses a __proto__ key saying what it refused; malformed JSON stays malformed JSON', async () => {
    const sandbox = await testSandbox();
    const actor = await createMerchant(sandbox);
    const headers = { ...actor.auth, 'content-type': 'application/json' };
    const proto = await sandbox.apps.test.inject({
      method: 'POST',
      url: '/v1/customers',
      headers,
      payload: '{"name":"A","meta":{"__proto__":{"admin":true}}}',
    });
    expect(proto.statusCode).toBe(400);
    expect(proto.json<{ error: string }>().error).toMatch(/^Refused body: the key meta\.__proto__ /);
    const escaped = await sandbox.apps.test.inject({
      method: 'POST',
      url: '/v1/customers',
      headers,
      payload: '{"\\u005f_proto__":{}}',
    });
    expect(escaped.json<{ error: string }>().error).toMatch(/__proto__/);
    const prototype = await sandbox.apps.test.inject({
      method: 'POST',
      url: '/v1/customers',
      headers,
      payload: '{"constructor":{"prototype":{"x":1}}}',
    });
    expect(prototype.json<{ error: string }>().error).toMatch(/constructor\.prototype/);
    const malformed = await sandbox.apps.test.inject({
      method: 'POST',
      url: '/v1/customers',
      headers,
      payload: '{"a":',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json<{ error: string }>().error).toMatch(/^Malformed JSON body/);
  });
});
