import type { ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { Env } from '../../server/contract/common.js';
import type { Sandbox } from '../../server/sandbox.js';
import { sized } from '../helpers/depth.js';
import { isObject, type JsonObject, listOperations, type Operation } from '../helpers/openapi.js';
import { startReceiver } from '../helpers/receiver.js';
import { testSandbox } from '../helpers/sandbox.js';
import {
  buildWorld,
  errorShapeProblem,
  fillWith,
  fixtureFields,
  loadDocument,
  requestSchema,
  UNKNOWN_UUID,
  type ValueContext,
  validArb,
  type World,
} from './support.js';

/**
 * Every operation of the OpenAPI document, fed requests derived from its own schemas —
 * valid bodies, boundary integers, wrong types, missing fields, huge strings, 2,000-deep nesting,
 * unknown keys; real, unknown and garbage path ids; odd querystrings — against one sandbox holding
 * a fixture world. Never a 5xx; every error is exactly `{error: string}`; every 2xx JSON parses.
 * A fixed seed makes the run repeatable (FUZZ_SEED overrides it, FUZZ_RUNS the count; `npm run
 * test:deep` runs ten times as many).
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20_251_010);
const RUNS = Number(process.env.FUZZ_RUNS ?? sized(2_000, 20_000));
const TIME_LIMIT_MS = 80_000;

const BOUNDARY_INTEGERS = [0, -1, 1, 2 ** 31, 2 ** 53 - 1, 2 ** 53, 1e300, -(2 ** 53)];
const WRONG_TYPES: unknown[] = ['a string', '', true, false, [], [1, 2], {}, { a: 1 }, null, 1.5, -0, '1'];
const GARBAGE_IDS = [
  'not-a-uuid',
  '%00',
  '..',
  '.',
  'a'.repeat(300),
  '-1',
  '0',
  '9007199254740993',
  '1e300',
  'null',
  '{}',
  '💳',
  ' ',
  '00000000-0000-0000-0000-00000000000g',
  "' OR 1=1 --",
];
const MALFORMED_BODIES = ['{', '{"a":', 'nul', '[1,]', '\u0000', '{"a":1}{"b":2}', '"unterminated'];
const DEPTH = 2_000;

/** `{"a":{"a":…}}`, DEPTH levels, built once. */
function deepObject(depth: number): JsonObject {
  let node: JsonObject = {};
  for (let i = 0; i < depth; i++) node = { a: node };
  return node;
}
const DEEP = deepObject(DEPTH);

interface FuzzRequest {
  op: Operation;
  env: Env;
  url: string;
  headers: Record<string, string>;
  payload?: string;
  kind: string;
}

function queryArb(op: Operation, ctx: ValueContext): fc.Arbitrary<string> {
  const params = (op.operation.parameters ?? []).filter((p) => p.in === 'query');
  const entries = params.map((p) =>
    fc.option(
      fc
        .oneof(
          { arbitrary: validArb(p.schema, ctx, p.name).map((v) => String(v)), weight: 6 },
          { arbitrary: fc.constantFrom(...BOUNDARY_INTEGERS).map(String), weight: 2 },
          { arbitrary: fc.constantFrom('abc', 'true', '', '-', '[]', 'null', '1.5'), weight: 2 },
          { arbitrary: fc.constantFrom(...GARBAGE_IDS), weight: 1 },
          { arbitrary: fc.constant('q'.repeat(5_000)), weight: 1 },
        )
        .map((value) => [p.name, value] as const),
      { freq: 2 },
    ),
  );
  const unknown = fc.option(
    fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.string({ maxLength: 10 }), { maxKeys: 3 }),
    { freq: 4 },
  );
  return fc.tuple(fc.tuple(...entries), unknown).map(([known, extra]) => {
    const search = new URLSearchParams();
    for (const entry of known) if (entry) search.append(entry[0], entry[1]);
    for (const [k, v] of Object.entries(extra ?? {})) search.append(k, v);
    const text = search.toString();
    return text ? `?${text}` : '';
  });
}

function pathArb(op: Operation, world: World): fc.Arbitrary<string> {
  const names = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  if (names.length === 0) return fc.constant(op.path);
  const values = names.map((name) =>
    fc.oneof(
      { arbitrary: fc.constantFrom(...fixtureFields(op.path, name).map((f) => world[f])), weight: 7 },
      { arbitrary: fc.oneof(fc.constant(UNKNOWN_UUID), fc.uuid({ version: 4 })), weight: 2 },
      { arbitrary: fc.constantFrom(...GARBAGE_IDS), weight: 2 },
      { arbitrary: fc.string({ minLength: 1, maxLength: 24 }), weight: 1 },
    ),
  );
  return fc.tuple(...values).map((chosen) => {
    const byName = new Map(names.map((n, i) => [n, chosen[i]!]));
    return fillWith(op.path, (name) => byName.get(name)!);
  });
}

/** Picks a key of a body by an index (the body's own keys, else the schema's properties). */
function keyAt(body: JsonObject, schema: JsonObject, index: number): string {
  const keys = Object.keys(body).length > 0 ? Object.keys(body) : Object.keys(schema.properties ?? {});
  return keys.length === 0 ? 'amount' : keys[index % keys.length]!;
}

function bodyArb(op: Operation, ctx: ValueContext): fc.Arbitrary<{ kind: string; text: string | undefined }> {
  const schema = requestSchema(op);
  const json = (kind: string) => (value: unknown) => ({ kind, text: JSON.stringify(value) });
  const random = fc.jsonValue({ maxDepth: 3 }).map(json('random-json'));
  const malformed = fc.constantFrom(...MALFORMED_BODIES).map((text) => ({ kind: 'malformed', text }));
  if (schema === undefined) {
    // No body documented: mostly none, sometimes whatever a client might send anyway.
    // GETs mostly carry nothing; the PIN read carries its `session` in a GET body, so GETs get
    // bodies too, including over-long ones (over 64 KiB and over 1 MiB).
    if (op.method === 'GET')
      return fc.oneof(
        { arbitrary: fc.constant({ kind: 'none', text: undefined }), weight: 12 },
        { arbitrary: fc.constant({ kind: 'session', text: '{"session":"x"}' }), weight: 3 },
        {
          arbitrary: fc
            .constantFrom(70_000, 1_100_000)
            .map((n) => ({ kind: `huge-get-body-${n}`, text: JSON.stringify({ session: 'x'.repeat(n) }) })),
          weight: 1,
        },
        { arbitrary: random, weight: 1 },
        { arbitrary: malformed, weight: 1 },
      );
    return fc.oneof(
      { arbitrary: fc.constant({ kind: 'none', text: undefined }), weight: 8 },
      { arbitrary: fc.constant({ kind: 'empty-object', text: '{}' }), weight: 2 },
      { arbitrary: random, weight: 1 },
      { arbitrary: malformed, weight: 1 },
    );
  }
  const valid = validArb(schema, ctx).map((v) => (isObject(v) ? v : {}));
  const mutate = (kind: string, change: (body: JsonObject, index: number) => void) =>
    fc.tuple(valid, fc.nat()).map(([body, index]) => {
      const copy = { ...body };
      change(copy, index);
      return { kind, text: JSON.stringify(copy) };
    });
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  return fc.oneof(
    { arbitrary: valid.map(json('valid')), weight: 10 },
    {
      arbitrary: fc
        .constantFrom(...BOUNDARY_INTEGERS)
        .chain((n) => mutate('boundary-int', (b, i) => Object.assign(b, { [keyAt(b, schema, i)]: n }))),
      weight: 4,
    },
    {
      arbitrary: fc
        .constantFrom(...WRONG_TYPES)
        .chain((w) => mutate('wrong-type', (b, i) => Object.assign(b, { [keyAt(b, schema, i)]: w }))),
      weight: 3,
    },
    {
      arbitrary: mutate('missing-field', (b, i) => {
        if (required.length > 0) delete b[required[i % required.length]!];
        else delete b[keyAt(b, schema, i)];
      }),
      weight: 2,
    },
    {
      arbitrary: fc
        .constantFrom(10_000, 70_000, 1_100_000)
        .chain((n) =>
          mutate(`huge-string-${n}`, (b, i) => Object.assign(b, { [keyAt(b, schema, i)]: 'x'.repeat(n) })),
        ),
      weight: 2,
    },
    {
      arbitrary: fc.oneof(
        mutate('deep-field', (b, i) => Object.assign(b, { [keyAt(b, schema, i)]: DEEP })),
        fc.constant({ kind: 'deep-body', text: JSON.stringify(DEEP) }),
      ),
      weight: 2,
    },
    {
      arbitrary: fc
        .tuple(
          valid,
          fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), fc.jsonValue({ maxDepth: 1 }), {
            minKeys: 1,
            maxKeys: 4,
          }),
        )
        .map(([body, extra]) => ({ kind: 'unknown-keys', text: JSON.stringify({ ...extra, ...body }) })),
      weight: 3,
    },
    {
      arbitrary: fc.constantFrom<unknown>([], [{}], 1, 'text', null, true).map(json('not-an-object')),
      weight: 1,
    },
    { arbitrary: random, weight: 1 },
    { arbitrary: malformed, weight: 1 },
  );
}

function requestArb(op: Operation, world: World, ctx: ValueContext): fc.Arbitrary<FuzzRequest> {
  const isV1 = op.path.startsWith('/v1');
  const auth = isV1
    ? fc.oneof(
        { arbitrary: fc.constant<Record<string, string>>(world.auth), weight: 17 },
        { arbitrary: fc.constant<Record<string, string>>({}), weight: 1 },
        { arbitrary: fc.constant({ authorization: `bearer ${world.key}` }), weight: 1 },
        { arbitrary: fc.constant({ authorization: 'Bearer svcb_unknown0000000000000000' }), weight: 1 },
      )
    : fc.constant<Record<string, string>>({});
  const env = fc.oneof(
    { arbitrary: fc.constant<Env>('test'), weight: 9 },
    { arbitrary: fc.constant<Env>('production'), weight: 1 },
  );
  const contentType = fc.oneof(
    { arbitrary: fc.constant('application/json'), weight: 29 },
    { arbitrary: fc.constant('text/plain'), weight: 1 },
  );
  return fc
    .record({
      env,
      path: pathArb(op, world),
      query: queryArb(op, ctx),
      body: bodyArb(op, ctx),
      auth,
      contentType,
    })
    .map(({ env, path, query, body, auth, contentType }) => ({
      op,
      env,
      url: `${path}${query}`,
      headers: { ...auth, ...(body.text === undefined ? {} : { 'content-type': contentType }) },
      ...(body.text === undefined ? {} : { payload: body.text }),
      kind: body.kind,
    }));
}

interface Observed {
  statusCode: number;
  headers: Record<string, unknown>;
  body: string;
}

async function send(apps: Sandbox['apps'], req: FuzzRequest): Promise<Observed> {
  // Any GET may land on the event stream: a `..` path parameter resolves
  // /sandbox/merchants/../events to /sandbox/events. Read GETs as streams and close a live one.
  const sse = req.op.method === 'GET';
  const res = (await apps[req.env].inject({
    method: req.op.method as 'GET',
    url: req.url,
    headers: req.headers,
    ...(req.payload === undefined ? {} : { payload: req.payload }),
    ...(sse ? { payloadAsStream: true } : {}),
  })) as LightMyRequestResponse;
  if (!sse) return { statusCode: res.statusCode, headers: res.headers, body: res.body };
  const stream = res.stream() as Readable;
  if (String(res.headers['content-type']).startsWith('text/event-stream')) {
    // A live stream never ends: close it as a client going away would.
    (res.raw.res as ServerResponse).destroy();
    stream.destroy();
    return { statusCode: res.statusCode, headers: res.headers, body: '' };
  }
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return { statusCode: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') };
}

describe('reliability: fuzz of every route in the OpenAPI document', () => {
  it(`${RUNS} seeded requests: never a 5xx, errors exactly {error}, 2xx JSON parses`, async () => {
    const started = performance.now();
    const receiver = await startReceiver();
    const sandbox = await testSandbox();
    const inject = (method: string, url: string, payload?: object) =>
      sandbox.apps.test.inject({
        method: method as 'GET',
        url,
        ...(payload ? { payload } : {}),
      }) as Promise<LightMyRequestResponse>;
    const limitsOff = await inject('PATCH', '/sandbox/settings', {
      rate_limit_per_minute: 0,
      concurrency_limit: 0,
    });
    expect(limitsOff.statusCode, limitsOff.body).toBe(200);
    const baseline = limitsOff.json() as JsonObject;
    const world = await buildWorld(sandbox, 'Fuzz', receiver.url);
    const doc = await loadDocument(sandbox);
    const all = listOperations(doc);
    const reset = all.find((op) => op.key === 'POST /sandbox/reset');
    const ops = all.filter((op) => op !== reset);
    expect(ops.length).toBeGreaterThan(90);
    const ctx: ValueContext = { world, url: receiver.url, now: sandbox.ctx.clock.now() };
    const arbitraries = new Map(ops.map((op) => [op.key, requestArb(op, world, ctx)]));

    const statuses = new Map<number, number>();
    const hit = new Set<string>();
    const problems = new Map<string, string[]>();
    const inboxStatus = new Map<string, number>([[world.inbox, 200]]);
    let requests = 0;
    let fiveXx = 0;
    const problem = (key: string, text: string) => {
      const list = problems.get(key) ?? [];
      if (list.length < 5) list.push(text);
      problems.set(key, list);
    };

    const check = (req: FuzzRequest, res: Observed) => {
      requests++;
      hit.add(req.op.key);
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      const what = `${req.env} ${req.op.method} ${req.url.slice(0, 160)} [${req.kind}] → ${res.statusCode}`;
      // The built-in inbox answers with the status it was configured to give, by design.
      const inboxName =
        req.op.key === 'POST /sandbox/inbox/{name}'
          ? decodeURIComponent(req.url.split('/')[3]!.split('?')[0]!)
          : undefined;
      const rehearsed = inboxName !== undefined && inboxStatus.get(inboxName) === res.statusCode;
      // Every status is declared for its operation (exactly, as a class, or by `default`).
      const responses = req.op.operation.responses ?? {};
      const code = String(res.statusCode);
      if (!(code in responses || `${code[0]}XX` in responses || 'default' in responses))
        problem(req.op.key, `${what}: status ${code} is not declared for this operation`);
      if (res.statusCode >= 500 && !rehearsed) {
        fiveXx++;
        problem(req.op.key, `${what} ${res.body.slice(0, 200)}`);
        return;
      }
      if (res.statusCode >= 400 && !rehearsed) {
        const shape = errorShapeProblem(res);
        if (shape) problem(req.op.key, `${what}: ${shape}`);
        return;
      }
      if (res.statusCode >= 200 && res.statusCode < 300 && res.body.length > 0) {
        const type = String(res.headers['content-type'] ?? '');
        if (/json/.test(type)) {
          try {
            JSON.parse(res.body);
          } catch {
            problem(req.op.key, `${what}: 2xx body is not valid JSON: ${res.body.slice(0, 120)}`);
          }
        }
      }
    };

    /** Keeps the world usable: settings back to the baseline after a fuzzed PATCH went through. */
    const fixUp = async (req: FuzzRequest, res: Observed) => {
      if (res.statusCode >= 300) return;
      if (req.op.key === 'PATCH /sandbox/settings') {
        const restored = await inject('PATCH', '/sandbox/settings', baseline);
        if (restored.statusCode !== 200) problem('fixture', `restoring settings: ${restored.body}`);
      }
      // API faults answer 5xx (or nothing) on purpose: the fuzz is about the API's own answers.
      if (req.op.key === 'PUT /sandbox/faults') {
        const cleared = await inject('DELETE', '/sandbox/faults');
        if (cleared.statusCode !== 204) problem('fixture', `clearing faults: ${cleared.body}`);
      }
      if (req.op.key === 'PUT /sandbox/inboxes/{name}') {
        const name = decodeURIComponent(req.url.split('/')[3]!.split('?')[0]!);
        const configured = (JSON.parse(res.body) as { response_status?: number }).response_status;
        if (typeof configured === 'number') inboxStatus.set(name, configured);
      }
    };

    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ops).chain((op) => arbitraries.get(op.key)!),
        async (req) => {
          let res: Observed;
          try {
            res = await send(sandbox.apps, req);
          } catch (error) {
            requests++;
            problem(
              req.op.key,
              `${req.op.method} ${req.url.slice(0, 160)} [${req.kind}] threw ${String(error)}`,
            );
            return;
          }
          check(req, res);
          await fixUp(req, res);
        },
      ),
      { seed: SEED, numRuns: RUNS, interruptAfterTimeLimit: TIME_LIMIT_MS, markInterruptAsFailure: true },
    );

    // POST /sandbox/reset last: it wipes the world the others need.
    if (reset) {
      const req: FuzzRequest = { op: reset, env: 'test', url: reset.path, headers: {}, kind: 'none' };
      check(req, await send(sandbox.apps, req));
    }

    const counts = Object.fromEntries([...statuses.entries()].sort(([a], [b]) => a - b));
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      `fuzz: ${requests} requests over ${hit.size} routes, seed ${SEED}, ${fiveXx} 5xx, statuses ${JSON.stringify(counts).replace(/"/g, '')} (${seconds} s)`,
    );
    const report = [...problems.entries()].map(([key, list]) => `${key}\n    ${list.join('\n    ')}`);
    if (report.length > 0) console.log(`fuzz problems (${report.length} routes):\n  ${report.join('\n  ')}`);

    expect(requests).toBeGreaterThanOrEqual(RUNS);
    expect(
      all.filter((op) => !hit.has(op.key)).map((op) => op.key),
      'every route of the document was fuzzed',
    ).toEqual([]);
    expect(report, 'no 5xx, every error exactly {error}, every 2xx JSON parses').toEqual([]);
    expect(fiveXx).toBe(0);
  }, 90_000);
});
