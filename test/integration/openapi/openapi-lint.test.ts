import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { rawRequest } from '../../helpers/http.js';
import { isObject, listOperations, type OpenApiDocument } from '../../helpers/openapi.js';
import { tempDir, testSandbox } from '../../helpers/sandbox.js';

/**
 * The served OpenAPI document lints clean with Redocly's `recommended` ruleset (0 errors),
 * and every operation is named for client generators: a unique operationId, a summary, and security
 * on every `/v1` operation. Redocly runs offline (no telemetry, no update check).
 */

const CLI = join(process.cwd(), 'node_modules/@redocly/cli/bin/cli.js');
const run = promisify(execFile);

interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location?: { pointer?: string }[];
}
interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: LintProblem[];
}

async function servedDocument(): Promise<OpenApiDocument> {
  const sandbox = await testSandbox();
  const res = await sandbox.apps.test.inject({ url: '/sandbox/openapi.json' });
  expect(res.statusCode).toBe(200);
  return res.json() as OpenApiDocument;
}

describe('the OpenAPI document', () => {
  it('lints with 0 errors under Redocly recommended', { timeout: 60_000 }, async () => {
    const doc = await servedDocument();
    const dir = tempDir();
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(doc, null, 2));
    // The recommended ruleset as it is: no rule turned off.
    writeFileSync(join(dir, 'redocly.yaml'), 'extends:\n  - recommended\n');
    let stdout: string;
    try {
      ({ stdout } = await run(
        process.execPath,
        [
          CLI,
          'lint',
          file,
          `--config=${join(dir, 'redocly.yaml')}`,
          '--format=json',
          '--max-problems=100000',
        ],
        {
          cwd: dir,
          maxBuffer: 64 * 1024 * 1024,
          env: {
            ...process.env,
            REDOCLY_TELEMETRY: 'off',
            REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
            NO_COLOR: '1',
          },
        },
      ));
    } catch (error) {
      // lint exits 1 when there are errors; the JSON report is still on stdout.
      stdout = (error as { stdout?: string }).stdout ?? '';
      if (!stdout.trim().startsWith('{')) throw error;
    }
    const report = JSON.parse(stdout) as LintReport;
    const byRule = new Map<string, number>();
    for (const p of report.problems)
      byRule.set(`${p.severity} ${p.ruleId}`, (byRule.get(`${p.severity} ${p.ruleId}`) ?? 0) + 1);
    console.log(
      `redocly lint: ${report.totals.errors} errors, ${report.totals.warnings} warnings`,
      Object.fromEntries([...byRule].sort()),
    );
    const errors = report.problems
      .filter((p) => p.severity === 'error')
      .map((p) => `${p.ruleId} ${p.location?.[0]?.pointer ?? ''}: ${p.message}`);
    expect(errors).toEqual([]);
    expect(report.totals.errors).toBe(0);
  });

  it('names every operation: unique operationId, a summary, security on /v1', async () => {
    const doc = await servedDocument();
    expect(doc.openapi).toBe('3.1.0');
    const operations = listOperations(doc);
    expect(operations.length).toBeGreaterThan(50);
    const ids = new Map<string, string[]>();
    const problems: string[] = [];
    for (const { key, path, operation } of operations) {
      const op = operation as typeof operation & {
        operationId?: unknown;
        summary?: unknown;
        security?: unknown;
      };
      if (typeof op.operationId !== 'string' || !/^[a-z][A-Za-z0-9]*$/.test(op.operationId)) {
        problems.push(`${key}: operationId ${JSON.stringify(op.operationId)}`);
      } else {
        ids.set(op.operationId, [...(ids.get(op.operationId) ?? []), key]);
      }
      if (typeof op.summary !== 'string' || op.summary.length === 0) problems.push(`${key}: no summary`);
      if (path.startsWith('/v1/')) {
        expect(op.security, key).toEqual([{ bearer: [] }]);
      } else if (path.startsWith('/sandbox/')) {
        expect(op.security, key).toEqual([]);
      }
    }
    // The webhooks are operations too: their ids share the namespace.
    for (const [name, item] of Object.entries(
      (doc as { webhooks?: Record<string, unknown> }).webhooks ?? {},
    )) {
      const post = isObject(item) && isObject(item.post) ? item.post : undefined;
      const id = post?.operationId;
      if (typeof id === 'string') ids.set(id, [...(ids.get(id) ?? []), `webhook ${name}`]);
      else problems.push(`webhook ${name}: no operationId`);
    }
    for (const [id, keys] of ids)
      if (keys.length > 1) problems.push(`operationId ${id} is used by ${keys.join(', ')}`);
    expect(problems).toEqual([]);
    // The scheme, on a few well-known operations.
    const idOf = (key: string) =>
      (operations.find((o) => o.key === key)?.operation as { operationId?: string } | undefined)?.operationId;
    expect(idOf('POST /v1/checkouts')).toBe('createCheckout');
    expect(idOf('GET /v1/checkouts')).toBe('listCheckouts');
    expect(idOf('GET /v1/checkouts/{id}')).toBe('getCheckout');
    expect(idOf('POST /v1/checkouts/{id}/refund')).toBe('refundCheckout');
    expect(idOf('POST /sandbox/checkouts/{id}/cancel')).toBe('sandboxCancelCheckout');
    expect(idOf('POST /sandbox/checkouts/{id}/payments')).toBe('sandboxPayCheckout');
  });

  it('documents servers, tags, webhooks and the event stream', async () => {
    const doc = (await servedDocument()) as OpenApiDocument & {
      servers?: { url: string; description?: string }[];
      tags?: { name: string; description?: string }[];
      webhooks?: Record<string, { post?: Record<string, unknown> }>;
    };
    expect(doc.servers?.every((s) => (s.description ?? '').length > 0)).toBe(true);
    expect(typeof doc.info?.description).toBe('string');
    const tagNames = new Set(doc.tags?.map((t) => t.name));
    for (const { key, operation } of listOperations(doc)) {
      for (const tag of operation.tags ?? []) expect(tagNames.has(tag), `${key} tag ${tag}`).toBe(true);
    }
    const { EVENT_TYPES } = await import('../../../server/contract/events.js');
    expect(Object.keys(doc.webhooks ?? {}).sort()).toEqual([...EVENT_TYPES].sort());
    const paid = doc.webhooks?.['checkout.paid']?.post as {
      parameters: { name: string; in: string }[];
      requestBody: { content: Record<string, { schema: { required: string[] } }> };
    };
    expect(paid.parameters.map((p) => `${p.in}:${p.name}`)).toEqual([
      'header:X-SVC-Event',
      'header:X-SVC-Delivery-Id',
      'header:X-SVC-Signature',
    ]);
    expect(paid.requestBody.content['application/json']?.schema.required).toEqual(['id', 'event', 'data']);
    const stream = listOperations(doc).find((o) => o.key === 'GET /sandbox/events');
    expect(Object.keys(stream?.operation.responses?.['200']?.content ?? {})).toEqual(['text/event-stream']);
  });

  it('names as servers the addresses this sandbox serves, as the client reached it', async () => {
    const sandbox = await testSandbox();
    const urls = await sandbox.listen();
    const port = (url: string) => new URL(url).port;
    expect(port(urls.test)).not.toBe('4010');
    const serversVia = async (base: string, host?: string) => {
      // fetch will not send another Host: a raw request does.
      const { hostname, port: p } = new URL(base);
      const raw = await rawRequest(
        base,
        `GET /sandbox/openapi.json HTTP/1.1\r\nHost: ${host ?? `${hostname}:${p}`}\r\nConnection: close\r\n\r\n`,
      );
      expect(raw).toMatch(/^HTTP\/1\.1 200/);
      const body = raw.slice(raw.indexOf('\r\n\r\n') + 4);
      const doc = JSON.parse(body) as { servers: { url: string; description: string }[] };
      return doc.servers.map((s) => s.url);
    };
    // Either listener: both addresses, test first, with the ports the OS picked.
    expect(await serversVia(urls.test)).toEqual([urls.test, urls.production]);
    expect(await serversVia(urls.production)).toEqual([urls.test, urls.production]);
    // Reached as localhost: that name, for both listeners (same machine, same ports).
    expect(await serversVia(urls.test, `localhost:${port(urls.test)}`)).toEqual([
      `http://localhost:${port(urls.test)}`,
      `http://localhost:${port(urls.production)}`,
    ]);
    expect(await serversVia(urls.production, `[::1]:${port(urls.production)}`)).toEqual([
      `http://[::1]:${port(urls.test)}`,
      `http://[::1]:${port(urls.production)}`,
    ]);
    // Through a port mapping (the Host names another port): that origin for its own listener; the
    // other listener's mapping is unknown, so its real address stays.
    expect(await serversVia(urls.test, 'localhost:8080')).toEqual(['http://localhost:8080', urls.production]);
  });

  it('openapiServers: the one place the servers come from (a public URL plugs in here)', async () => {
    const { openapiServers } = await import('../../../server/http/openapi.js');
    const addresses = { test: 'https://sandbox.example.com', production: 'https://prod.sandbox.example.com' };
    expect(openapiServers(addresses).map((s) => s.url)).toEqual([addresses.test, addresses.production]);
    expect(
      openapiServers(addresses, { env: 'test', origin: 'https://sandbox.example.com' }).map((s) => s.url),
    ).toEqual([addresses.test, addresses.production]);
  });
});
