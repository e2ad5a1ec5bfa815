import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../server/sandbox.js';
import { rawRequest } from '../../helpers/http.js';
import {
  ContractValidator,
  fillPath,
  type OpenApiDocument,
  type Operation,
  pathParams,
} from '../../helpers/openapi.js';
import { createMerchant, testSandbox } from '../../helpers/sandbox.js';

/**
 * Every status an operation answers is declared for it in the served document. The contract test
 * and the fuzz compare what they see with the document; this one drives the paths every route
 * has, whatever it does, on every operation: no Host, a foreign Host, a foreign Origin, no key, a
 * malformed or over-long id, headers over Node's limit, another method on the path, malformed JSON, a body that is not JSON, an over-limit body, and `{}` (what many
 * clients send to an operation that reads no body).
 */

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const SSE = 'GET /sandbox/events';

interface Probe {
  name: string;
  op: Operation;
  res: { statusCode: number; body: string; contentType?: string | undefined };
}

/** Path values: an unknown UUID where the parameter is one, else a plain name. */
function pathFor(op: Operation, bad = false): string {
  const params: Record<string, string> = {};
  for (const name of pathParams(op.path)) {
    const schema = op.operation.parameters?.find((p) => p.in === 'path' && p.name === name)?.schema;
    params[name] = schema?.format === 'uuid' ? (bad ? 'not-a-uuid' : UNKNOWN) : bad ? '%20' : 'probe';
  }
  return fillPath(op.path, params).replace('%2520', '%20');
}

const takesBody = (op: Operation) => op.operation.requestBody !== undefined;

async function inject(
  sandbox: Sandbox,
  op: Operation,
  options: { url?: string; headers?: Record<string, string>; payload?: string | Buffer } = {},
): Promise<Probe['res']> {
  const res = (await sandbox.apps.test.inject({
    method: op.method as 'GET',
    url: options.url ?? pathFor(op),
    headers: options.headers ?? {},
    ...(options.payload === undefined ? {} : { payload: options.payload }),
  })) as LightMyRequestResponse;
  return { statusCode: res.statusCode, body: res.body, contentType: res.headers['content-type'] as string };
}

describe('the statuses in the OpenAPI document', () => {
  it('declares every status the edge answers, on every operation', { timeout: 120_000 }, async () => {
    const sandbox = await testSandbox();
    const urls = await sandbox.listen();
    const actor = await createMerchant(sandbox);
    const doc = (await sandbox.apps.test.inject({ url: '/sandbox/openapi.json' })).json() as OpenApiDocument;
    const contract = new ContractValidator(doc);
    const probes: Probe[] = [];
    const auth = (op: Operation): Record<string, string> =>
      op.path.startsWith('/v1/') ? { authorization: `Bearer ${actor.key}` } : {};
    const json = { 'content-type': 'application/json' };
    // The reset wipes the merchant the others use: last.
    const operations = [...contract.operations].sort(
      (a, b) => Number(a.key === 'POST /sandbox/reset') - Number(b.key === 'POST /sandbox/reset'),
    );
    for (const op of operations) {
      const probe = (name: string, res: Probe['res']) => probes.push({ name, op, res });
      const { hostname, port } = new URL(urls.test);
      const raw = await rawRequest(
        urls.test,
        `${op.method} ${pathFor(op)} HTTP/1.1\r\nConnection: close\r\n\r\n`,
      );
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1]);
      probe('no Host', { statusCode: status, body: raw.slice(raw.indexOf('\r\n\r\n') + 4) });
      probe(
        'foreign Host',
        await inject(sandbox, op, { headers: { ...auth(op), host: 'sandbox.example.com' } }),
      );
      if (op.path.startsWith('/v1/')) probe('no key', await inject(sandbox, op));
      else
        probe(
          'foreign Origin',
          await inject(sandbox, op, {
            headers: { host: `${hostname}:${port}`, origin: 'https://example.com' },
          }),
        );
      const huge = await rawRequest(
        urls.test,
        `${op.method} ${pathFor(op)} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nX-Big: ${'x'.repeat(20 * 1024)}\r\nConnection: close\r\n\r\n`,
      );
      probe('headers over 16 KiB', {
        statusCode: Number(/^HTTP\/1\.1 (\d{3})/.exec(huge)?.[1]),
        body: huge.slice(huge.indexOf('\r\n\r\n') + 4),
      });
      // Another method on the same path (one no operation of the path has).
      const served = new Set(contract.operations.filter((o) => o.path === op.path).map((o) => o.method));
      const other = (['PUT', 'PATCH', 'DELETE', 'POST', 'GET'] as const).find((m) => !served.has(m));
      if (other !== undefined) {
        const res = (await sandbox.apps.test.inject({
          method: other,
          url: pathFor(op),
          headers: auth(op),
        })) as LightMyRequestResponse;
        expect(res.headers.allow, `${other} ${op.path}: Allow`).toBeTypeOf('string');
        probe(`${other} instead`, { statusCode: res.statusCode, body: res.body });
      }
      if (pathParams(op.path).length > 0) {
        probe('malformed id', await inject(sandbox, op, { url: pathFor(op, true), headers: auth(op) }));
        const long = op.path.replace(/\{[^}]+\}/, 'a'.repeat(600)).replace(/\{[^}]+\}/g, 'x');
        probe('over-long id', await inject(sandbox, op, { url: long, headers: auth(op) }));
      }
      if (op.key === SSE) continue;
      if (!takesBody(op)) continue;
      probe(
        'malformed JSON',
        await inject(sandbox, op, { headers: { ...auth(op), ...json }, payload: '{"a":' }),
      );
      if (op.key !== 'POST /sandbox/import' && op.key !== 'POST /sandbox/inbox/{name}') {
        probe(
          'text/plain',
          await inject(sandbox, op, {
            headers: { ...auth(op), 'content-type': 'text/plain' },
            payload: 'hello',
          }),
        );
      }
      probe(
        'over the limit',
        await inject(sandbox, op, {
          headers: { ...auth(op), ...json },
          payload: `{"a":"${'x'.repeat(1024 * 1024 + 16)}"}`,
        }),
      );
      if (op.operation.requestBody?.required === false)
        probe('{}', await inject(sandbox, op, { headers: { ...auth(op), ...json }, payload: '{}' }));
    }

    const undeclared: string[] = [];
    const seen = new Set<number>();
    for (const { name, op, res } of probes) {
      seen.add(res.statusCode);
      expect(res.statusCode, `${op.key} ${name}: ${res.body.slice(0, 200)}`).toBeLessThan(500);
      const documented = contract.responseFor(op, res.statusCode);
      if (documented === undefined)
        undeclared.push(`${op.key} (${name}) → ${res.statusCode} ${res.body.slice(0, 120)}`);
      // Errors are exactly {error} (the inbox answers what it was configured to, by design).
      if (res.statusCode >= 400 && op.key !== 'POST /sandbox/inbox/{name}')
        expect(Object.keys(JSON.parse(res.body) as object), `${op.key} ${name}`).toEqual(['error']);
    }
    console.log(
      `statuses: ${probes.length} probes over ${operations.length} operations, statuses ${[...seen].sort().join(' ')}`,
    );
    expect(undeclared).toEqual([]);
    // The probes reached what they aimed at (a probe that answers something else proves little).
    for (const s of [400, 401, 403, 405, 413, 414, 415, 422, 431])
      expect(seen.has(s), `status ${s} seen`).toBe(true);
  });

  it('declares a body on every POST, PUT and PATCH, optional where none is needed', async () => {
    const sandbox = await testSandbox();
    const doc = (await sandbox.apps.test.inject({ url: '/sandbox/openapi.json' })).json() as OpenApiDocument;
    const contract = new ContractValidator(doc);
    const missing: string[] = [];
    const optional: string[] = [];
    for (const op of contract.operations) {
      if (!['POST', 'PUT', 'PATCH'].includes(op.method)) continue;
      const body = op.operation.requestBody;
      if (body === undefined) missing.push(op.key);
      else if (body.required === false) optional.push(op.key);
    }
    expect(missing).toEqual([]);
    // Bodiless control actions: clients (the dashboard among them) send `{}` or nothing.
    for (const key of [
      'POST /sandbox/clock/freeze',
      'POST /sandbox/clock/resume',
      'POST /sandbox/reset',
      'POST /sandbox/checkouts/{id}/complete',
      'POST /sandbox/recording/stop',
      'POST /v1/cardholders/{id}/kyc',
      'PATCH /sandbox/settings',
    ])
      expect(optional, key).toContain(key);
    // A body with required fields stays required.
    expect(optional).not.toContain('POST /v1/checkouts');
    expect(optional).not.toContain('POST /sandbox/import');
    // And `{}` or nothing really is accepted where the document says so.
    for (const payload of ['{}', undefined]) {
      const res = await sandbox.apps.test.inject({
        method: 'POST',
        url: '/sandbox/clock/freeze',
        ...(payload === undefined ? {} : { payload, headers: { 'content-type': 'application/json' } }),
      });
      expect(res.statusCode, res.body).toBe(200);
    }
  });
});
