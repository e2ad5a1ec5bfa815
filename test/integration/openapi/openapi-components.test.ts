import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nameComponents } from '../../../server/http/openapi-components.js';
import { isObject, listOperations, type OpenApiDocument } from '../../helpers/openapi.js';
import { testSandbox } from '../../helpers/sandbox.js';

/**
 * Client generators make one model per component and one more per inline copy; so every JSON
 * body and answer of the document is a `$ref` to a named component, every error answer is `Error`,
 * and the names (which generated code imports) are frozen in `test/fixtures/component-names.json`:
 * a new route adds lines; none may be renamed or removed.
 */

interface Frozen {
  components: string[];
  operations: Record<string, Record<string, string>>;
}

const FROZEN = JSON.parse(
  readFileSync(new URL('../../fixtures/component-names.json', import.meta.url), 'utf8'),
) as Frozen;

async function servedDocument(): Promise<OpenApiDocument> {
  const sandbox = await testSandbox();
  const res = await sandbox.apps.test.inject({ url: '/sandbox/openapi.json' });
  expect(res.statusCode).toBe(200);
  return res.json() as OpenApiDocument;
}

const refName = (schema: unknown): string | undefined =>
  isObject(schema) && typeof schema.$ref === 'string'
    ? schema.$ref.replace('#/components/schemas/', '')
    : undefined;

/** `{body, <status>...}` → component name, for each JSON body and answer; a missing `$ref` is `null`. */
function references(doc: OpenApiDocument): Record<string, Record<string, string | null>> {
  const out: Record<string, Record<string, string | null>> = {};
  for (const { key, operation } of listOperations(doc)) {
    const refs: Record<string, string | null> = {};
    const body = operation.requestBody?.content?.['application/json'];
    if (body) refs.body = refName(body.schema) ?? null;
    for (const [status, response] of Object.entries(operation.responses ?? {})) {
      const json = response.content?.['application/json'];
      if (json) refs[status] = refName(json.schema) ?? null;
    }
    out[key] = refs;
  }
  return out;
}

describe('named components', () => {
  it('every JSON body and answer is a $ref; every error answer is Error; no def-N', async () => {
    const doc = await servedDocument();
    const problems: string[] = [];
    const components = doc.components?.schemas ?? {};
    for (const [key, refs] of Object.entries(references(doc))) {
      for (const [where, name] of Object.entries(refs)) {
        if (name === null) problems.push(`${key} ${where}: inline`);
        else if (!(name in components)) problems.push(`${key} ${where}: ${name} is not a component`);
        else if (/^[45]/.test(where) && name !== 'Error')
          problems.push(`${key} ${where}: ${name}, not Error`);
      }
    }
    expect(problems).toEqual([]);
    expect(Object.keys(components).filter((name) => /^def-/.test(name))).toEqual([]);
    expect(JSON.stringify(doc)).not.toContain('#/components/schemas/def-');
    // Every /v1 operation has at least its answer by reference.
    const v1 = Object.entries(references(doc)).filter(([key]) => key.includes(' /v1/'));
    expect(v1.length).toBeGreaterThanOrEqual(40);
  });

  it('keeps every component name and every operation’s body and answer names (a rename fails here)', async () => {
    const doc = await servedDocument();
    const names = new Set(Object.keys(doc.components?.schemas ?? {}));
    expect(FROZEN.components.filter((name) => !names.has(name))).toEqual([]);
    const served = references(doc);
    const changed = Object.entries(FROZEN.operations).flatMap(([key, frozen]) =>
      Object.entries(frozen)
        .filter(([where, name]) => served[key]?.[where] !== name)
        .map(([where, name]) => `${key} ${where}: was ${name}, now ${served[key]?.[where] ?? 'nothing'}`),
    );
    expect(changed).toEqual([]);
    // A new operation adds its line to the fixture.
    expect(Object.keys(served).filter((key) => !(key in FROZEN.operations))).toEqual([]);
  });

  it('links each create to its get, update and delete, and each list to its items', async () => {
    const doc = await servedDocument();
    type Link = { operationId: string; parameters: Record<string, string> };
    const linksOf = (path: string, method: string): Record<string, Link> => {
      const op = doc.paths[path]?.[method] as { responses: Record<string, { links?: Record<string, Link> }> };
      return op.responses['200']?.links ?? op.responses['201']?.links ?? {};
    };
    expect(linksOf('/v1/checkouts', 'post')).toMatchObject({
      GetCheckout: { operationId: 'getCheckout', parameters: { id: '$response.body#/id' } },
      DeleteCheckout: { operationId: 'deleteCheckout', parameters: { id: '$response.body#/id' } },
    });
    expect(linksOf('/v1/customers', 'post')).toMatchObject({
      UpdateCustomer: { operationId: 'updateCustomer', parameters: { id: '$response.body#/id' } },
    });
    expect(linksOf('/v1/checkouts', 'get').GetCheckout?.parameters).toEqual({ id: '$response.body#/0/id' });
    expect(linksOf('/sandbox/merchants', 'post').SandboxGetMerchant?.parameters).toEqual({
      id: '$response.body#/merchant/id',
    });
    // Every link names an operation that exists, with parameters that operation has.
    const byId = new Map(
      listOperations(doc).map(({ operation, path }) => [
        (operation as { operationId?: string }).operationId,
        path,
      ]),
    );
    const problems: string[] = [];
    let count = 0;
    for (const { key, operation } of listOperations(doc))
      for (const response of Object.values(operation.responses ?? {}) as { links?: Record<string, Link> }[])
        for (const link of Object.values(response.links ?? {})) {
          count++;
          const target = byId.get(link.operationId);
          if (target === undefined) problems.push(`${key}: ${link.operationId} does not exist`);
          else
            for (const name of Object.keys(link.parameters))
              if (!target.includes(`{${name}}`))
                problems.push(`${key}: ${link.operationId} has no {${name}}`);
        }
    expect(problems).toEqual([]);
    expect(count).toBeGreaterThan(20);
  });

  it('says what the server enforces: an email pattern that refuses 0@com, country codes as enums', async () => {
    const doc = await servedDocument();
    const customer = doc.components?.schemas?.CreateCustomerBody as {
      properties: { email: { pattern: string }; country: { enum: string[] } };
    };
    const email = new RegExp(customer.properties.email.pattern);
    expect(email.test('ada@example.com')).toBe(true);
    expect(email.test('0@com')).toBe(false);
    expect(customer.properties.country.enum).toContain('GBR');
    expect(customer.properties.country.enum).not.toContain('AAA');
    // The server agrees: 0@com and AAA are refused.
    const sandbox = await testSandbox();
    const made = await sandbox.apps.test.inject({
      method: 'POST',
      url: '/sandbox/merchants',
      payload: { name: 'M' },
    });
    const auth = { authorization: `Bearer ${(made.json() as { api_key: { key: string } }).api_key.key}` };
    for (const payload of [
      { name: 'A', email: '0@com' },
      { name: 'A', country: 'AAA' },
    ]) {
      const res = await sandbox.apps.test.inject({
        method: 'POST',
        url: '/v1/customers',
        headers: auth,
        payload,
      });
      expect(res.statusCode, JSON.stringify(payload)).toBeGreaterThanOrEqual(400);
    }
  });

  it('names nested copies by $ref, renames def-N, and names a new shape after its operation', () => {
    const Item = { type: 'object', properties: { id: { type: 'string' } } };
    const Err = { type: 'object', required: ['error'], properties: { error: { type: 'string' } } };
    const doc: Record<string, unknown> = {
      paths: {
        '/things': {
          get: {
            operationId: 'listThings',
            responses: {
              200: { content: { 'application/json': { schema: { type: 'array', items: { ...Item } } } } },
              404: { content: { 'application/json': { schema: { $ref: '#/components/schemas/def-0' } } } },
              422: { content: { 'application/json': { schema: { ...Err, title: 'Error' } } } },
            },
          },
        },
      },
      components: { schemas: { Item, Error: { ...Err, $id: 'Error' }, 'def-0': { ...Err, title: 'Error' } } },
    };
    nameComponents(doc);
    const schemas = (doc.components as { schemas: Record<string, unknown> }).schemas;
    expect(Object.keys(schemas).sort()).toEqual(['Error', 'Item', 'ListThingsResponse']);
    expect(schemas.ListThingsResponse).toEqual({
      type: 'array',
      items: { $ref: '#/components/schemas/Item' },
    });
    expect(schemas.Error).toEqual(Err);
    expect(JSON.stringify(doc.paths)).not.toContain('def-0');
  });
});
