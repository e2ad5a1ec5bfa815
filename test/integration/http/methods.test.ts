import { METHODS } from 'node:http';
import { describe, expect, it } from 'vitest';
import { fillPath, type OpenApiDocument, pathParams } from '../../helpers/openapi.js';
import { testSandbox } from '../../helpers/sandbox.js';

/**
 * Every method Node knows (QUERY and the WebDAV ones included, CONNECT aside: it opens a tunnel)
 * to every path of the served document: a documented method gets a documented kind of answer (never
 * 405, never 5xx); any other gets 405 whose `Allow` lists exactly the document's methods for that
 * path (and HEAD, which every GET path serves), never a sibling route's, never a 400 for a body.
 */
const SENT = METHODS.filter((method) => method !== 'CONNECT');
const ID = '00000000-0000-4000-8000-000000000000';

/** The event stream never ends: a test request would wait on it for ever (stream.test.ts tests it). */
const STREAMS = new Set(['GET /sandbox/events', 'HEAD /sandbox/events']);

describe('methods', () => {
  it('every method to every documented path: its answer, or 405 with that path’s own Allow', {
    timeout: 120_000,
  }, async () => {
    const sandbox = await testSandbox();
    const app = sandbox.apps.test;
    const doc = (await app.inject({ url: '/sandbox/openapi.json' })).json() as OpenApiDocument;
    const problems: string[] = [];
    let sent = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      const documented = Object.keys(item)
        .filter((key) => SENT.includes(key.toUpperCase()))
        .map((key) => key.toUpperCase());
      const allow = [...new Set([...documented, ...(documented.includes('GET') ? ['HEAD'] : [])])].sort();
      const url = fillPath(path, Object.fromEntries(pathParams(path).map((name) => [name, ID])));
      for (const method of SENT) {
        if (STREAMS.has(`${method} ${path}`)) continue;
        const res = await Promise.race([
          app.inject({ method: method as 'GET', url }),
          new Promise<null>((resolve) => setTimeout(() => resolve(null), 5_000)),
        ]);
        sent++;
        if (res === null) {
          problems.push(`${method} ${path}: no answer within 5 s`);
          continue;
        }
        if (allow.includes(method)) {
          if (res.statusCode === 405 || res.statusCode >= 500)
            problems.push(`${method} ${path}: ${res.statusCode} ${res.body.slice(0, 120)}`);
          continue;
        }
        if (res.statusCode !== 405 || res.headers.allow !== allow.join(', '))
          problems.push(
            `${method} ${path}: ${res.statusCode} allow=${String(res.headers.allow)} (want 405, ${allow.join(', ')})`,
          );
        // (a HEAD answer has no body)
        else if (
          method !== 'HEAD' &&
          !(res.json() as { error?: string }).error?.startsWith(`Method not allowed: ${method} `)
        )
          problems.push(`${method} ${path}: ${res.body}`);
      }
    }
    expect(problems).toEqual([]);
    expect(sent).toBeGreaterThan(100 * SENT.length);
  });

  it('a path no route has is 404 whatever the method, QUERY included, before any body is read', async () => {
    const sandbox = await testSandbox();
    for (const method of ['GET', 'QUERY', 'PROPFIND', 'POST']) {
      const res = await sandbox.apps.test.inject({
        method: method as 'GET',
        url: '/v1/nothing-here',
        headers: { 'content-type': 'text/plain' },
        payload: 'not json',
      });
      expect(res.statusCode, method).toBe(404);
      expect(res.json(), method).toEqual({ error: `Route not found: ${method} /v1/nothing-here` });
    }
  });

  it('the more specific path owns its methods: GET /sandbox/request-log/verify is 405, not an id lookup', async () => {
    const sandbox = await testSandbox();
    const res = await sandbox.apps.test.inject({ method: 'GET', url: '/sandbox/request-log/verify' });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('POST');
    const byId = await sandbox.apps.test.inject({ method: 'GET', url: `/sandbox/request-log/${ID}` });
    expect(byId.statusCode).toBe(404);
  });
});
