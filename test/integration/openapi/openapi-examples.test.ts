import { describe, expect, it } from 'vitest';
import {
  fillPath,
  isObject,
  listOperations,
  type OpenApiDocument,
  pathParams,
} from '../../helpers/openapi.js';
import { createMerchant, testSandbox } from '../../helpers/sandbox.js';

/**
 * What the document accepts, the server accepts: every request-body example the document gives
 * (on the media type, and on the body's component) is sent to its operation and must pass the
 * server's validation, so never a 422 (a 400 or 404 of state or business rules may follow: an
 * unknown id, an expiry already past).
 */

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe('the document’s own examples', () => {
  it('every request-body example passes the server’s validation', { timeout: 120_000 }, async () => {
    const sandbox = await testSandbox();
    const actor = await createMerchant(sandbox);
    const doc = (await sandbox.apps.test.inject({ url: '/sandbox/openapi.json' })).json() as OpenApiDocument;
    const schemas = (doc.components?.schemas ?? {}) as Record<string, unknown>;
    const refused: string[] = [];
    let sent = 0;
    for (const { key, method, path, operation } of listOperations(doc)) {
      const media = operation.requestBody?.content?.['application/json'] as
        | { schema?: unknown; example?: unknown; examples?: Record<string, { value?: unknown }> }
        | undefined;
      if (media === undefined) continue;
      const examples: unknown[] = [];
      if (media.example !== undefined) examples.push(media.example);
      for (const e of Object.values(media.examples ?? {})) if (e.value !== undefined) examples.push(e.value);
      const ref =
        isObject(media.schema) && typeof media.schema.$ref === 'string' ? media.schema.$ref : undefined;
      const component = ref === undefined ? undefined : schemas[ref.replace('#/components/schemas/', '')];
      if (isObject(component) && Array.isArray(component.examples)) examples.push(...component.examples);
      const url = fillPath(path, Object.fromEntries(pathParams(path).map((name) => [name, UNKNOWN])));
      for (const example of examples) {
        sent++;
        const res = await sandbox.apps.test.inject({
          method: method as 'POST',
          url:
            path.includes('{id}') && path.startsWith('/sandbox/merchants/')
              ? url.replace(UNKNOWN, actor.merchantId)
              : url,
          headers: path.startsWith('/v1/') ? actor.auth : {},
          payload: example as object,
        });
        if (res.statusCode === 422 || res.statusCode >= 500)
          refused.push(`${key} ${JSON.stringify(example).slice(0, 80)} → ${res.statusCode} ${res.body}`);
      }
    }
    expect(refused).toEqual([]);
    expect(sent).toBeGreaterThanOrEqual(8);
  });
});
