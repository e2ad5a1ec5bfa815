import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { Env } from '../../server/contract/common.js';
import type { Sandbox } from '../../server/sandbox.js';
import { listOperations, type Operation } from '../helpers/openapi.js';
import { startReceiver } from '../helpers/receiver.js';
import { testSandbox } from '../helpers/sandbox.js';
import {
  bodyFor,
  buildWorld,
  errorShapeProblem,
  fillWith,
  fixtureFields,
  loadDocument,
  type World,
} from './support.js';

/**
 * Authentication and ownership on EVERY /v1 operation of the OpenAPI document. No key,
 * another scheme, an unknown key and a revoked key are 401; the scheme in lower case is accepted;
 * another merchant's resource is 403; the same resource through the other environment's address
 * is 404. Every refusal is exactly `{error}`. Each operation gets a fresh world (the lower-case
 * call really runs and may change it).
 */

type Case =
  | 'no-auth'
  | 'basic'
  | 'unknown-key'
  | 'revoked-key'
  | 'other-merchant'
  | 'other-env'
  | 'lowercase';
const CASES: Case[] = [
  'no-auth',
  'basic',
  'unknown-key',
  'revoked-key',
  'other-merchant',
  'other-env',
  'lowercase',
];

function urlFor(op: Operation, world: World): string {
  // A refund needs a paid checkout to be about.
  if (op.key === 'POST /v1/checkouts/{id}/refund') return fillWith(op.path, () => world.paidCheckout);
  return fillWith(op.path, (param) => world[fixtureFields(op.path, param)[0]!]);
}

interface Outcome {
  status: number;
  problem: string | null;
}

describe('reliability: the auth matrix of every /v1 operation', () => {
  it('401 without a valid key, bearer in any case, 403 across merchants, 404 across environments', async () => {
    const started = performance.now();
    const receiver = await startReceiver();
    const sandbox = await testSandbox();
    const limits = await sandbox.apps.test.inject({
      method: 'PATCH',
      url: '/sandbox/settings',
      payload: { rate_limit_per_minute: 0, concurrency_limit: 0 },
    });
    expect(limits.statusCode, limits.body).toBe(200);
    const doc = await loadDocument(sandbox);
    const ops = listOperations(doc).filter((op) => op.path.startsWith('/v1/'));
    expect(ops.length).toBeGreaterThan(25);

    // Another merchant (owner of the 403 key), and a revoked key of a third.
    const other = await buildWorld(sandbox, 'Other merchant', receiver.url);
    const revoked = await buildWorld(sandbox, 'Revoked', receiver.url);
    const revoke = await sandbox.apps.test.inject({
      method: 'DELETE',
      url: `/sandbox/api-keys/${revoked.keyId}`,
    });
    expect(revoke.statusCode, revoke.body).toBe(200);

    const mismatches: string[] = [];
    let checks = 0;
    const run = async (
      sandbox: Sandbox,
      env: Env,
      op: Operation,
      url: string,
      headers: Record<string, string>,
      body: object | undefined,
    ): Promise<Outcome> => {
      const res = (await sandbox.apps[env].inject({
        method: op.method as 'GET',
        url,
        headers,
        ...(body === undefined ? {} : { payload: body }),
      })) as LightMyRequestResponse;
      return { status: res.statusCode, problem: res.statusCode >= 400 ? errorShapeProblem(res) : null };
    };

    for (const [index, op] of ops.entries()) {
      const world = await buildWorld(sandbox, `Matrix ${index}`, receiver.url);
      const url = urlFor(op, world);
      const body = bodyFor(op, world, sandbox.ctx.clock.now());
      const params = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
      const hasId = params.length > 0;
      // Merchants (and keys) are shared by both environments: only env-scoped resources are 404 there.
      const envScoped = params.some((p) => fixtureFields(op.path, p)[0] !== 'merchantId');
      const note = (kase: Case, expected: string, outcome: Outcome) => {
        mismatches.push(
          `${op.key} [${kase}]: expected ${expected}, got ${outcome.status}${outcome.problem ? ` (${outcome.problem})` : ''}`,
        );
      };
      for (const kase of CASES) {
        if (kase === 'other-merchant' && !hasId) continue;
        if (kase === 'other-env' && !envScoped) continue;
        checks++;
        const headers: Record<string, string> =
          kase === 'no-auth'
            ? {}
            : kase === 'basic'
              ? { authorization: 'Basic x' }
              : kase === 'unknown-key'
                ? { authorization: 'Bearer svcb_unknown000000000000000000000000' }
                : kase === 'revoked-key'
                  ? revoked.auth
                  : kase === 'other-merchant'
                    ? other.auth
                    : kase === 'lowercase'
                      ? { authorization: `bearer ${world.key}` }
                      : world.auth;
        const env: Env = kase === 'other-env' ? 'production' : 'test';
        const outcome = await run(sandbox, env, op, url, headers, body);
        const expected =
          kase === 'other-merchant' ? 403 : kase === 'other-env' ? 404 : kase === 'lowercase' ? null : 401;
        if (expected === null) {
          if (outcome.status === 401 || outcome.status >= 500 || outcome.problem)
            note(kase, 'not 401, < 500, errors as {error}', outcome);
        } else if (outcome.status !== expected || outcome.problem) note(kase, `${expected} {error}`, outcome);
      }
    }

    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      `auth-matrix: ${ops.length} operations × ${CASES.length} cases, ${mismatches.length} mismatches (${checks} checks; 403 on operations with an id, 404 on those with an environment-scoped id; ${seconds} s)`,
    );
    if (mismatches.length > 0) console.log(`auth-matrix mismatches:\n  ${mismatches.join('\n  ')}`);
    expect(mismatches).toEqual([]);
  }, 60_000);
});
