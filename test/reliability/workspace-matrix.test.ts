import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
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
 * Isolation between workspaces, on EVERY operation of the OpenAPI document. A world (merchant,
 * keys, customer, checkouts, invoice, cardholder, card, endpoint, delivery, inbox, connections) is
 * built in workspace A; another in workspace B. Then:
 * - /v1 with B's key on each of A's resources: 404 (B cannot even see that they exist);
 * - /v1 with B's key on lists: 200 with none of A's ids;
 * - /v1 with the key of a deleted workspace: 401;
 * - /sandbox with B's header on each of A's resources: 404, and lists name none of A's ids;
 * - /sandbox naming a workspace that does not exist: 404 `{error}` on every operation;
 * - afterwards A's data is exactly what it was (an export of A before and after is the same).
 */

/** Path parameters that name no world resource: by-name things each workspace has its own of. */
const OWN_NAMES = new Set([
  'PUT /sandbox/inboxes/{name}',
  'POST /sandbox/inbox/{name}',
  'GET /sandbox/inboxes/{name}',
  'DELETE /sandbox/inboxes/{name}/messages',
]);

const idsOf = (world: World) =>
  Object.entries(world)
    .filter(([field, value]) => field !== 'auth' && field !== 'key' && typeof value === 'string')
    .map(([, value]) => value as string)
    .filter((value) => /^[0-9a-f-]{36}$/.test(value));

describe('reliability: nothing in one workspace can read or change another', () => {
  it('every /v1 and /sandbox operation, across workspaces: 404 on the other’s ids, lists without them, 401 for a deleted one’s key', async () => {
    const started = performance.now();
    const receiver = await startReceiver();
    const sandbox = await testSandbox();
    const ws = async (name: string) => {
      const res = await sandbox.apps.test.inject({
        method: 'POST',
        url: '/sandbox/workspaces',
        payload: { name },
      });
      expect(res.statusCode, res.body).toBe(201);
      return (res.json() as { id: string }).id;
    };
    const a = await ws('A');
    const b = await ws('B');
    const gone = await ws('Gone');
    for (const id of [a, b, gone]) {
      const limits = await sandbox.apps.test.inject({
        method: 'PATCH',
        url: '/sandbox/settings',
        headers: { 'x-svc-workspace': id },
        payload: { rate_limit_per_minute: 0, concurrency_limit: 0 },
      });
      expect(limits.statusCode, limits.body).toBe(200);
    }
    const worldA = await buildWorld(sandbox, 'In A', receiver.url, 'test', a);
    const worldB = await buildWorld(sandbox, 'In B', receiver.url, 'test', b);
    const worldGone = await buildWorld(sandbox, 'In Gone', receiver.url, 'test', gone);
    const deleted = await sandbox.apps.test.inject({ method: 'DELETE', url: `/sandbox/workspaces/${gone}` });
    expect(deleted.statusCode).toBe(204);
    const aIds = idsOf(worldA);
    expect(aIds.length).toBeGreaterThan(10);

    const exportOf = async (id: string) => {
      const res = await sandbox.apps.test.inject({
        method: 'GET',
        url: '/sandbox/export',
        headers: { 'x-svc-workspace': id },
      });
      expect(res.statusCode).toBe(200);
      return res.rawPayload;
    };
    const before = await sandbox.apps.test.inject({
      method: 'GET',
      url: '/sandbox/merchants',
      headers: { 'x-svc-workspace': a },
    });

    const doc = await loadDocument(sandbox);
    const ops = listOperations(doc);
    const mismatches: string[] = [];
    let checks = 0;
    const now = sandbox.workspaces.require(a).ctx.clock.now();
    const run = async (
      op: Operation,
      url: string,
      headers: Record<string, string>,
    ): Promise<LightMyRequestResponse> => {
      // /v1: a body the operation accepts, so a refusal is about the workspace, not the body.
      const body = op.path.startsWith('/v1/')
        ? bodyFor(op, worldA, now)
        : op.method === 'GET' || op.method === 'DELETE'
          ? undefined
          : {};
      return (await sandbox.apps.test.inject({
        method: op.method as 'GET',
        url,
        headers,
        ...(body === undefined ? {} : { payload: body }),
      })) as LightMyRequestResponse;
    };
    const note = (op: Operation, kase: string, expected: string, res: LightMyRequestResponse) =>
      mismatches.push(
        `${op.key} [${kase}]: expected ${expected}, got ${res.statusCode} ${res.body.slice(0, 160)}`,
      );

    for (const op of ops) {
      const params = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
      const url = fillWith(op.path, (param) => String(worldA[fixtureFields(op.path, param)[0]!]));
      const isWorkspaceAdmin =
        op.path.startsWith('/sandbox/workspaces') || op.path.startsWith('/sandbox/checkpoints');
      if (op.path.startsWith('/v1/')) {
        // B's key on A's resource
        checks++;
        const res = await run(op, url, worldB.auth);
        if (params.length > 0) {
          if (res.statusCode !== 404 || errorShapeProblem(res)) note(op, 'B key', '404 {error}', res);
        } else if (
          res.statusCode >= 500 ||
          (res.statusCode < 300 && aIds.some((id) => res.body.includes(id))) ||
          (res.statusCode >= 400 && errorShapeProblem(res))
        )
          // (a refusal may name the id the caller sent: "Customer not found: <A's id>")
          note(op, 'B key', '< 500, none of A’s ids in an answer', res);
        // a deleted workspace's key
        checks++;
        const refused = await run(op, url, worldGone.auth);
        if (refused.statusCode !== 401 || errorShapeProblem(refused))
          note(op, 'deleted key', '401 {error}', refused);
        continue;
      }
      if (!op.path.startsWith('/sandbox/')) continue;
      // a workspace that does not exist
      checks++;
      const unknown = await run(op, url, { 'x-svc-workspace': 'ws_0000000000000000' });
      if (op.path === '/sandbox/events') {
        if (unknown.statusCode !== 404) note(op, 'unknown workspace', '404', unknown);
      } else if (
        unknown.statusCode !== 404 ||
        unknown.json<{ error?: string }>().error !== 'Workspace not found: ws_0000000000000000'
      )
        note(op, 'unknown workspace', '404 Workspace not found', unknown);
      if (isWorkspaceAdmin || op.path === '/sandbox/events' || op.path === '/sandbox/import') continue;
      // B's header on A's resources
      checks++;
      const res = await run(op, url, { 'x-svc-workspace': b });
      const namesOwn = OWN_NAMES.has(op.key) || params.length === 0;
      if (!namesOwn && params.some((p) => fixtureFields(op.path, p)[0] !== undefined)) {
        if (res.statusCode !== 404 && res.statusCode !== 422)
          note(op, 'B header', '404 (or 422 for a body B cannot use)', res);
      }
      if (res.statusCode >= 500 || (res.statusCode < 300 && aIds.some((id) => res.body.includes(id))))
        note(op, 'B header', '< 500 and none of A’s ids', res);
    }

    // A is as it was
    const after = await sandbox.apps.test.inject({
      method: 'GET',
      url: '/sandbox/merchants',
      headers: { 'x-svc-workspace': a },
    });
    expect(after.body).toBe(before.body);
    expect((await exportOf(a)).length).toBeGreaterThan(0);

    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      `workspace-matrix: ${ops.length} operations, ${checks} checks, ${mismatches.length} mismatches (${seconds} s)`,
    );
    if (mismatches.length > 0) console.log(`workspace-matrix mismatches:\n  ${mismatches.join('\n  ')}`);
    expect(mismatches).toEqual([]);
  }, 120_000);

  it("one workspace's API faults never touch another's requests", async () => {
    const receiver = await startReceiver();
    const sandbox = await testSandbox();
    const ws = async (name: string) => {
      const res = await sandbox.apps.test.inject({
        method: 'POST',
        url: '/sandbox/workspaces',
        payload: { name },
      });
      expect(res.statusCode, res.body).toBe(201);
      return (res.json() as { id: string }).id;
    };
    const a = await ws('A');
    const b = await ws('B');
    const worldA = await buildWorld(sandbox, 'In A', receiver.url, 'test', a);
    const worldB = await buildWorld(sandbox, 'In B', receiver.url, 'test', b);
    const set = await sandbox.apps.test.inject({
      method: 'PUT',
      url: '/sandbox/faults',
      headers: { 'x-svc-workspace': a },
      payload: { seed: 'a', rules: [{ id: 'a-down', effect: { status: 503 } }] },
    });
    expect(set.statusCode, set.body).toBe(200);
    const ops = listOperations(await loadDocument(sandbox)).filter(
      (op) => op.method === 'GET' && op.path.startsWith('/v1/') && !op.path.includes('{'),
    );
    expect(ops.length).toBeGreaterThan(3);
    for (const op of ops) {
      const inB = await sandbox.apps.test.inject({ method: 'GET', url: op.path, headers: worldB.auth });
      expect(inB.statusCode, `${op.key} in B`).not.toBe(503);
      const inA = await sandbox.apps.test.inject({ method: 'GET', url: op.path, headers: worldA.auth });
      expect(inA.statusCode, `${op.key} in A`).toBe(503);
    }
    const faultsOf = async (id: string) =>
      (
        await sandbox.apps.test.inject({
          method: 'GET',
          url: '/sandbox/faults',
          headers: { 'x-svc-workspace': id },
        })
      ).json<{ rules: { applied: number }[] }>().rules;
    expect(await faultsOf(b)).toEqual([]);
    expect((await faultsOf(a))[0]!.applied).toBe(ops.length);
  }, 60_000);
});
