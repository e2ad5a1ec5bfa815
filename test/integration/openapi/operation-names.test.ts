import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { listOperations, type OpenApiDocument } from '../../helpers/openapi.js';
import { testSandbox } from '../../helpers/sandbox.js';

/**
 * Every route names itself in its schema (`operationId` + `summary`); nothing derives a name from
 * the path. These are the rules those names follow, and the names generated clients already use:
 * `test/fixtures/operation-names.json` lists them, and none may change (a new route adds a line).
 */

type Names = Record<string, { operationId: string; summary: string }>;

const FROZEN = JSON.parse(
  readFileSync(new URL('../../fixtures/operation-names.json', import.meta.url), 'utf8'),
) as Names;

async function servedNames(): Promise<Names> {
  const sandbox = await testSandbox();
  const res = await sandbox.apps.test.inject({ url: '/sandbox/openapi.json' });
  expect(res.statusCode).toBe(200);
  const names: Names = {};
  for (const { key, operation } of listOperations(res.json() as OpenApiDocument)) {
    const { operationId, summary } = operation as { operationId?: unknown; summary?: unknown };
    names[key] = { operationId: operationId as string, summary: summary as string };
  }
  return names;
}

/** What is wrong with one operation's name (empty: nothing). */
function nameProblems(key: string, operationId: unknown, summary: unknown): string[] {
  const problems: string[] = [];
  const path = key.slice(key.indexOf(' ') + 1);
  if (typeof operationId !== 'string') problems.push(`${key}: no operationId in its route schema`);
  else {
    // camelCase, a verb first: `createCheckout`, `sandboxAdvanceClock`.
    if (!/^[a-z]+(?:[A-Z][a-z0-9]*)+$/.test(operationId))
      problems.push(`${key}: ${operationId} is not camelCase`);
    const control = path.startsWith('/sandbox/');
    if (control !== /^sandbox[A-Z]/.test(operationId))
      problems.push(
        `${key}: ${operationId} must ${control ? '' : 'not '}start with "sandbox" (control routes do, /v1 routes do not)`,
      );
  }
  if (typeof summary !== 'string' || summary.trim() === '')
    problems.push(`${key}: no summary in its route schema`);
  else if (!/^[A-Z]/.test(summary) || /[.\s]$/.test(summary) || summary.length > 80)
    problems.push(
      `${key}: summary "${summary}" must start with a capital, end without a period, fit 80 characters`,
    );
  return problems;
}

describe('operation names', () => {
  it('every operation has a well-formed operationId and summary, unique across the document', async () => {
    const names = await servedNames();
    const problems = Object.entries(names).flatMap(([key, n]) => nameProblems(key, n.operationId, n.summary));
    const byId = new Map<string, string[]>();
    for (const [key, { operationId }] of Object.entries(names))
      byId.set(operationId, [...(byId.get(operationId) ?? []), key]);
    for (const [id, keys] of byId) if (keys.length > 1) problems.push(`${id} is used by ${keys.join(', ')}`);
    expect(problems).toEqual([]);
  });

  it('keeps every name generated clients use (a rename fails here)', async () => {
    const names = await servedNames();
    const changed = Object.entries(FROZEN)
      .filter(([key, frozen]) => JSON.stringify(names[key]) !== JSON.stringify(frozen))
      .map(
        ([key, frozen]) => `${key}: was ${JSON.stringify(frozen)}, now ${JSON.stringify(names[key] ?? null)}`,
      );
    expect(changed).toEqual([]);
    expect(Object.keys(FROZEN).length).toBeGreaterThanOrEqual(136);
  });

  it('the rules catch a bad name', () => {
    expect(nameProblems('GET /v1/things', 'getThings', 'List things')).toEqual([]);
    expect(nameProblems('GET /v1/things', 'sandboxGetThings', 'List things')).toHaveLength(1);
    expect(nameProblems('GET /sandbox/things', 'getThings', 'List things')).toHaveLength(1);
    expect(nameProblems('GET /v1/things', 'get_things', 'List things')).toHaveLength(1);
    expect(nameProblems('GET /v1/things', undefined, undefined)).toHaveLength(2);
    expect(nameProblems('GET /v1/things', 'getThings', 'list things.')).toHaveLength(1);
  });
});
