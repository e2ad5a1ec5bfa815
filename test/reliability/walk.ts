import type { ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import type { LightMyRequestResponse } from 'fastify';
import type { Env } from '../../server/contract/common.js';
import type { Sandbox } from '../../server/sandbox.js';
import {
  isObject,
  type JsonObject,
  type OpenApiDocument,
  type Operation,
  pathParams,
} from '../helpers/openapi.js';
import { errorShapeProblem } from './support.js';
import { kindOf, paramKind, Random, type ValueContext, Values } from './walk-values.js';

/**
 * A random walk over every operation of a sandbox's OpenAPI document, as one client session that
 * builds state: each answer's ids, keys, addresses and names go into pools by kind, and later calls
 * take their path ids, body ids and /v1 keys from those pools (mostly the same merchant's, in the
 * same environment; sometimes another merchant's, an unknown or a garbage one). Bodies are built
 * from the operation's request schema so that most get past validation, and a share of them is
 * mutated (boundary numbers, wrong types, missing fields, deep nesting, long strings, bodies near
 * and over the size limit, unknown keys, malformed JSON). Bundles from the walk's exports are
 * imported again; recordings run throughout and what they recorded is replayed as a scenario.
 *
 * Everything random comes from one seeded PRNG, and the sandbox is made with the same seed and a
 * manual clock, so a seed replays the same walk.
 */

const UNKNOWN_UUID = '00000000-0000-4000-8000-000000000000';
const BOUNDARY_NUMBERS = [0, -1, 1, 2 ** 31, 2 ** 31 - 1, 2 ** 53 - 1, 2 ** 53, -(2 ** 53), 1e300, 0.5, -0];
const WRONG_TYPES: unknown[] = ['a string', '', true, false, [], [1, 2], {}, { a: 1 }, null, 1.5, '1'];
const GARBAGE_IDS = [
  'not-an-id',
  '%00',
  '..',
  'a'.repeat(300),
  '-1',
  '0',
  '1e300',
  'null',
  '💳',
  ' ',
  "' OR 1=1 --",
];
const MALFORMED = ['{', '{"a":', 'nul', '[1,]', '\u0000', '{"a":1}{"b":2}', '"open'];
/** Bodies just under the JSON limit (they reach validation) and over it (413). */
const HUGE_SIZES = [900_000, 1_500_000];
/** Nesting levels of deep bodies: a few hundred is what stack-bound code trips on, later. */
const DEEP_LEVELS = [300, 1_000, 2_000, 50_000];
const POOL_SIZE = 40;
const SLOW_OPS = /\/(scenarios\/(run|library\/\{[^}]+\}\/run)|parity)$/;

/** The start of a walk: merchants (with keys), the scenario library, an inbox, a few objects. */
const BOOTSTRAP = [
  'POST /sandbox/merchants',
  'POST /sandbox/merchants',
  'POST /sandbox/merchants',
  'GET /sandbox/scenarios/library',
  'PUT /sandbox/inboxes/{name}',
  'POST /v1/customers',
  'POST /v1/checkouts',
  'POST /v1/checkouts',
  'POST /v1/cardholders',
  'POST /sandbox/merchants/{id}/webhook-endpoints',
];

interface Entry {
  value: string;
  merchant?: string | undefined;
  env: Env;
}

interface Key {
  key: string;
  merchant: string;
}

export interface Call {
  step: number;
  op: Operation;
  env: Env;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  /** how the request was made: `valid`, or the mutation applied */
  kind: string;
  /** /v1: the merchant whose key the call carries */
  merchant?: string | undefined;
}

export interface Answer {
  statusCode: number;
  headers: Record<string, unknown>;
  body: string;
  raw: Buffer;
}

export interface WalkResult {
  calls: number;
  statuses: Map<number, number>;
  /** operations called at least once / answered 2xx at least once */
  hit: Set<string>;
  succeeded: Set<string>;
  problems: string[];
  exports: number;
  imports: number;
  scenarioRuns: number;
  recordings: number;
}

/** `{"a":{"a":…}}` as text (JSON.stringify of it would itself recurse per level). */
const deepText = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
/** Stand-ins put into a body, replaced in its JSON text by the deep or huge value. */
const DEEP_MARK = '__walk_deep__';
const HUGE_MARK = '__walk_huge__';

export class Walk {
  readonly random: Random;
  private readonly values: Values;
  private readonly pools = new Map<string, Entry[]>();
  private readonly keys: Key[] = [];
  /** keys the walk saw revoked: sent now and then, as a client with a stale key would */
  private readonly revoked = new Set<string>();
  private readonly bundles: Buffer[] = [];
  private readonly recorded: string[] = [];
  private readonly trail: string[] = [];
  private readonly result: WalkResult = {
    calls: 0,
    statuses: new Map(),
    hit: new Set(),
    succeeded: new Set(),
    problems: [],
    exports: 0,
    imports: 0,
    scenarioRuns: 0,
    recordings: 0,
  };
  private step = 0;
  /** false while the walk builds its start: valid bodies, good keys */
  private mutating = true;

  constructor(
    private readonly sandbox: Sandbox,
    private readonly doc: OpenApiDocument,
    readonly seed: number,
    /** settings the walk keeps (the rate limits off): put back after a reset, an import or a PATCH */
    private readonly baseline: JsonObject,
  ) {
    this.random = new Random(seed);
    const sources = { idOf: this.idOf.bind(this), recorded: () => this.recorded };
    this.values = new Values(this.random, doc, sandbox, sources, this.operations());
  }

  get stats(): WalkResult {
    return this.result;
  }

  problem(text: string): void {
    if (this.result.problems.length < 40)
      this.result.problems.push(`${text}\n      after: ${this.trail.slice(-6).join(' | ')}`);
  }

  // ---- pools ----

  private add(kind: string, entry: Entry): void {
    if (!entry.value || entry.value.length > 200) return;
    const pool = this.pools.get(kind) ?? [];
    if (pool.some((e) => e.value === entry.value && e.env === entry.env)) return;
    pool.push(entry);
    if (pool.length > POOL_SIZE) pool.splice(0, pool.length - POOL_SIZE);
    this.pools.set(kind, pool);
  }

  /** After a reset nothing the pools hold exists: they start over (a few stale ids stay as noise). */
  private forget(): void {
    for (const [kind, pool] of this.pools) this.pools.set(kind, pool.slice(-2));
    this.keys.splice(0, this.keys.length);
  }

  /** Takes every id, key, address and name out of an answer, by kind. */
  harvest(op: Operation, call: Call, response: unknown, merchant: string | undefined): void {
    const segments = op.path.split('/').filter((s) => s !== '' && s !== 'v1' && s !== 'sandbox');
    const statics = segments.filter((s) => !s.startsWith('{'));
    const lastStatic = statics.at(-1) ?? '';
    const paramKinds = pathParams(op.path).map((p) => paramKind(op.path, p));
    const known = new Set([...this.pools.keys(), ...paramKinds]);
    // An action (`/checkouts/{id}/cancel`) answers the resource it acts on.
    const lastIsParam = segments.at(-1)?.startsWith('{') ?? false;
    const topKind = lastIsParam
      ? paramKinds.at(-1)!
      : known.has(kindOf(lastStatic)) || paramKinds.length === 0
        ? kindOf(lastStatic)
        : paramKinds.at(-1)!;
    const pathMerchant = op.path.startsWith('/sandbox/merchants/{id}')
      ? decodeURIComponent(call.url.split('/')[3]?.split('?')[0] ?? '')
      : undefined;
    const visit = (value: unknown, kind: string, owner: string | undefined, depth: number): void => {
      if (depth > 5) return;
      if (Array.isArray(value)) {
        for (const item of value.slice(0, 50)) visit(item, kind, owner, depth + 1);
        return;
      }
      if (!isObject(value)) return;
      const nestedMerchant =
        isObject(value.merchant) && typeof value.merchant.id === 'string' ? value.merchant.id : undefined;
      const own =
        (typeof value.merchant_id === 'string' ? value.merchant_id : undefined) ??
        nestedMerchant ??
        (kind === 'merchants' && typeof value.id === 'string' ? value.id : undefined) ??
        owner;
      for (const [field, v] of Object.entries(value)) {
        if (typeof v === 'string') {
          if (field === 'id') this.add(kind, { value: v, merchant: own, env: call.env });
          else if (field.endsWith('_id') && v.length > 0)
            this.add(kindOf(field.slice(0, -3)), { value: v, merchant: own, env: call.env });
          else if (field === 'address' && v.length >= 16)
            this.add('static-addresses', { value: v, merchant: own, env: call.env });
          else if (field === 'name' && (kind === 'inboxes' || kind === 'libraries'))
            this.add(kind, { value: v, env: call.env });
          else if (field === 'key' && v.startsWith('svcb_') && own) {
            const revoked = typeof value.revoked_at === 'string';
            if (revoked || call.op.method === 'DELETE') this.revoke(v);
            else if (!this.revoked.has(v) && !this.keys.some((k) => k.key === v))
              this.keys.push({ key: v, merchant: own });
          } else if (field === 'scenario' && op.path.endsWith('/recording/stop')) this.remember(v);
        } else if (Array.isArray(v) && (field === 'items' || field === 'data'))
          visit(v, kind, own, depth + 1);
        else if (typeof v === 'object' && v !== null) {
          // A nested object under a name says its kind (`merchant`, `api_key`, `checkout`).
          const nested = field === 'items' || field === 'data' ? kind : kindOf(field);
          visit(v, nested, nested === 'merchants' ? undefined : own, depth + 1);
        }
      }
    };
    visit(response, topKind, pathMerchant ?? merchant, 0);
    if (this.keys.length > 60) this.keys.splice(0, this.keys.length - 60);
  }

  private revoke(key: string): void {
    this.revoked.add(key);
    const at = this.keys.findIndex((k) => k.key === key);
    if (at >= 0) this.keys.splice(at, 1);
  }

  private remember(scenario: string): void {
    this.recorded.push(scenario);
    if (this.recorded.length > 2) this.recorded.shift();
  }

  /** An id of `kind` for a call acting as `merchant` in `env`: mostly its own, sometimes not. */
  private idOf(kind: string, merchant: string | undefined, env: Env): string {
    const pool = this.pools.get(kind) ?? [];
    const mine = pool.filter(
      (e) => (kind === 'merchants' || e.env === env) && (merchant === undefined || e.merchant === merchant),
    );
    const roll = this.random.float();
    if (roll < 0.78 && mine.length > 0) return this.random.pick(mine).value;
    if (roll < 0.9 && pool.length > 0) return this.random.pick(pool).value; // another merchant's, or env's
    if (roll < 0.95 || kind === 'inboxes' || kind === 'libraries') {
      if (kind === 'inboxes') return this.random.pick(['walk', 'walk-down', 'other']);
      if (kind === 'libraries') return this.random.pick(['checkout.paid', 'no-such-scenario']);
      return this.random.chance(0.5) ? UNKNOWN_UUID : this.random.uuid();
    }
    return this.random.pick(GARBAGE_IDS);
  }

  // ---- calls ----

  operations(): Operation[] {
    const out: Operation[] = [];
    for (const [path, item] of Object.entries(this.doc.paths))
      for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const) {
        const operation = item[method.toLowerCase()];
        if (isObject(operation)) out.push({ key: `${method} ${path}`, method, path, operation });
      }
    return out;
  }

  /** Builds one request for `op`: valid-ish, or with one mutation. */
  build(op: Operation): Call {
    const env: Env = this.random.chance(0.85) ? 'test' : 'production';
    const isV1 = op.path.startsWith('/v1/');
    const headers: Record<string, string> = {};
    let kind = 'valid';
    // The call acts on something of the walk's first (its first path id, from the pool), as that
    // object's merchant; a call without path ids acts as a merchant drawn from the pool.
    const params = pathParams(op.path);
    const firstKind = params.length > 0 ? paramKind(op.path, params[0]!) : undefined;
    const usable = (e: Entry) =>
      (firstKind === 'merchants' || e.env === env) &&
      (!isV1 || this.keys.some((k) => k.merchant === e.merchant));
    const candidates = firstKind ? (this.pools.get(firstKind) ?? []).filter(usable) : [];
    const anchor =
      candidates.length > 0 && this.random.chance(0.8) ? this.random.pick(candidates) : undefined;
    let merchant = anchor?.merchant;
    if (merchant === undefined) {
      const merchants = this.pools.get('merchants') ?? [];
      if (merchants.length > 0) merchant = this.random.pick(merchants).value;
    }
    if (isV1) {
      const own = this.keys.filter((k) => k.merchant === merchant);
      const roll = this.random.float();
      if (roll < 0.9 && this.keys.length > 0) {
        const key =
          own.length > 0 && this.random.chance(0.9) ? this.random.pick(own) : this.random.pick(this.keys);
        merchant = key.merchant;
        headers.authorization = `Bearer ${key.key}`;
      } else if (roll < 0.93 || !this.mutating) {
        kind = 'no-key';
      } else {
        const stale = [...this.revoked];
        headers.authorization = this.random.pick([
          'Bearer svcb_unknown0000000000000000',
          'Basic eDp5',
          'Bearer ',
          ...stale.slice(-3).map((k) => `Bearer ${k}`),
        ]);
        kind = 'bad-key';
      }
    }
    const ctx = { merchant, env };
    let first = true;
    const url = op.path.replace(/\{([^}]+)\}/g, (_, param: string) => {
      const k = paramKind(op.path, param);
      const id = first && anchor ? anchor.value : this.idOf(k, merchant, env);
      first = false;
      return encodeURIComponent(id);
    });
    const query = this.query(op, ctx);
    const call: Call = { step: this.step, op, env, url: `${url}${query}`, headers, kind };
    if (isV1) call.merchant = merchant;
    this.body(op, call, ctx);
    return call;
  }

  private query(op: Operation, ctx: ValueContext): string {
    const search = new URLSearchParams();
    for (const p of op.operation.parameters ?? []) {
      if (p.in !== 'query' || !this.random.chance(p.required ? 0.95 : 0.4)) continue;
      const roll = this.random.float();
      let v: unknown;
      if (p.name === 'env') v = this.random.chance(0.9) ? ctx.env : 'staging';
      else if (roll < 0.85) v = this.values.value(p.schema, p.name, ctx);
      else if (roll < 0.93) v = this.random.pick(BOUNDARY_NUMBERS);
      else v = this.random.pick(['', 'abc', '[]', 'q'.repeat(3_000), ...GARBAGE_IDS]);
      search.append(p.name, String(v));
    }
    if (this.random.chance(0.05)) search.append(this.random.pick(['zzz', 'limit', 'env', '__proto__']), 'x');
    const text = search.toString();
    return text ? `?${text}` : '';
  }

  private body(op: Operation, call: Call, ctx: ValueContext): void {
    const content = op.operation.requestBody?.content ?? {};
    if (content['application/octet-stream']) {
      this.bundleBody(call);
      return;
    }
    const schema = content['application/json']?.schema;
    if (schema === undefined) {
      // No body documented: mostly none; sometimes `{}` or junk, as clients send anyway.
      if (op.method !== 'GET' && this.random.chance(0.1))
        this.json(call, this.random.chance(0.7) ? {} : { a: 1 });
      return;
    }
    const valid = this.values.value(schema, '', ctx);
    const body: JsonObject = isObject(valid) ? valid : {};
    if (!this.mutating || !this.random.chance(0.25)) {
      this.json(call, body);
      return;
    }
    const keys = Object.keys(body);
    const properties = Object.keys((this.values.resolve(schema) as JsonObject).properties ?? {});
    const field =
      keys.length > 0
        ? this.random.pick(keys)
        : properties.length > 0
          ? this.random.pick(properties)
          : 'amount';
    const mutation = this.random.pick([
      'boundary',
      'boundary',
      'wrong-type',
      'wrong-type',
      'missing',
      'deep',
      'long-string',
      'huge',
      'unknown-keys',
      'not-an-object',
      'malformed',
    ]);
    call.kind = mutation;
    switch (mutation) {
      case 'boundary':
        body[field] = this.random.pick(BOUNDARY_NUMBERS);
        break;
      case 'wrong-type':
        body[field] = this.random.pick(WRONG_TYPES);
        break;
      case 'missing':
        delete body[field];
        break;
      case 'deep': {
        const levels = this.random.pick(DEEP_LEVELS);
        call.kind = `deep-${levels}`;
        if (this.random.chance(0.3)) {
          call.payload = deepText(levels);
          call.headers['content-type'] = 'application/json';
          return;
        }
        body[field] = DEEP_MARK;
        this.json(call, body, deepText(levels));
        return;
      }
      case 'long-string':
        body[field] = 'x'.repeat(this.random.pick([1_000, 10_000, 70_000]));
        break;
      case 'huge': {
        const size = this.random.pick(HUGE_SIZES);
        call.kind = `huge-${size}`;
        body[field] = HUGE_MARK;
        this.json(call, body, undefined, `"${'h'.repeat(size)}"`);
        return;
      }
      case 'unknown-keys':
        Object.assign(body, { zzz: 1, __proto__x: { a: [1] }, [`k${this.random.int(0, 99)}`]: 'v' });
        break;
      case 'not-an-object':
        call.payload = JSON.stringify(this.random.pick([[], [body], 1, 'text', null, true]));
        call.headers['content-type'] = 'application/json';
        return;
      case 'malformed':
        call.payload = this.random.pick(MALFORMED);
        call.headers['content-type'] = this.random.chance(0.9) ? 'application/json' : 'text/plain';
        return;
    }
    this.json(call, body);
  }

  private json(call: Call, body: unknown, deep?: string, huge?: string): void {
    let text = JSON.stringify(body);
    if (deep !== undefined) text = text.replace(`"${DEEP_MARK}"`, () => deep);
    if (huge !== undefined) text = text.replace(`"${HUGE_MARK}"`, () => huge);
    call.payload = text;
    call.headers['content-type'] = 'application/json';
  }

  private bundleBody(call: Call): void {
    const bundle = this.bundles.length > 0 ? this.random.pick(this.bundles) : undefined;
    const roll = this.random.float();
    call.headers['content-type'] = 'application/octet-stream';
    if (bundle && roll < 0.7) {
      call.payload = bundle;
      call.kind = 'bundle';
    } else if (bundle && roll < 0.8) {
      call.payload = bundle.subarray(0, Math.floor(bundle.length / 2));
      call.kind = 'truncated-bundle';
    } else if (bundle && roll < 0.85) {
      const copy = Buffer.from(bundle);
      for (let i = 0; i < 64; i++) copy[this.random.int(100, copy.length - 1)] = this.random.int(0, 255);
      call.payload = copy;
      call.kind = 'damaged-bundle';
    } else if (roll < 0.93) {
      call.payload = Buffer.from('SQLite format 3\u0000 but not really');
      call.kind = 'garbage-bundle';
    } else {
      call.payload = '{"a":1}';
      call.headers['content-type'] = 'application/json';
      call.kind = 'json-to-import';
    }
  }

  async send(call: Call): Promise<Answer> {
    const app = this.sandbox.apps[call.env];
    // Any GET may be the event stream (a `..` id resolves to it): read GETs as streams.
    const stream = call.op.method === 'GET';
    const res = (await app.inject({
      method: call.op.method as 'GET',
      url: call.url,
      headers: call.headers,
      ...(call.payload === undefined ? {} : { payload: call.payload }),
      ...(stream ? { payloadAsStream: true } : {}),
    })) as LightMyRequestResponse;
    if (!stream)
      return { statusCode: res.statusCode, headers: res.headers, body: res.body, raw: res.rawPayload };
    const readable = res.stream() as Readable;
    if (String(res.headers['content-type']).startsWith('text/event-stream')) {
      (res.raw.res as ServerResponse).destroy();
      readable.destroy();
      return { statusCode: res.statusCode, headers: res.headers, body: '', raw: Buffer.alloc(0) };
    }
    const chunks: Buffer[] = [];
    for await (const chunk of readable) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    return { statusCode: res.statusCode, headers: res.headers, body: raw.toString('utf8'), raw };
  }

  /** Sends, checks the answer, harvests it and keeps the walk's invariants (settings, recording). */
  async run(op: Operation, options: { mutate?: boolean } = {}): Promise<Answer | undefined> {
    this.step++;
    this.mutating = options.mutate ?? true;
    const call = this.build(op);
    let answer: Answer;
    try {
      answer = await this.send(call);
    } catch (error) {
      this.problem(`${this.describe(call)} threw ${String(error)}`);
      return undefined;
    }
    this.check(call, answer);
    if (process.env.FUZZ_TRACE) console.log(this.describe(call, answer), answer.body.slice(0, 160));
    await this.after(call, answer);
    return answer;
  }

  describe(call: Call, answer?: Answer): string {
    const size = call.payload === undefined ? '' : ` ${call.payload.length} B`;
    return `#${call.step} ${call.env} ${call.op.method} ${call.url.slice(0, 140)} [${call.kind}${size}]${answer ? ` → ${answer.statusCode}` : ''}`;
  }

  private check(call: Call, answer: Answer): void {
    const r = this.result;
    r.calls++;
    r.hit.add(call.op.key);
    r.statuses.set(answer.statusCode, (r.statuses.get(answer.statusCode) ?? 0) + 1);
    this.trail.push(`${call.op.key} [${call.kind}] ${answer.statusCode}`);
    if (this.trail.length > 12) this.trail.shift();
    // The built-in inbox answers with whatever status it was configured to give: `{received: true}`.
    if (call.op.path.startsWith('/sandbox/inbox/') && answer.body === '{"received":true}') return;
    if (answer.statusCode >= 500) {
      this.problem(`${this.describe(call, answer)} ${answer.body.slice(0, 300)}`);
      return;
    }
    if (answer.statusCode >= 400) {
      const shape = errorShapeProblem(answer);
      if (shape) this.problem(`${this.describe(call, answer)}: ${shape}`);
      return;
    }
    if (answer.statusCode >= 200 && answer.statusCode < 300) {
      r.succeeded.add(call.op.key);
      if (/json/.test(String(answer.headers['content-type'] ?? '')) && answer.body.length > 0) {
        try {
          JSON.parse(answer.body);
        } catch {
          this.problem(`${this.describe(call, answer)}: 2xx body is not JSON: ${answer.body.slice(0, 120)}`);
        }
      }
    }
  }

  private async after(call: Call, answer: Answer): Promise<void> {
    if (answer.statusCode < 200 || answer.statusCode >= 300) return;
    const key = call.op.key;
    const type = String(answer.headers['content-type'] ?? '');
    if (type.startsWith('application/octet-stream') && call.op.method === 'GET') {
      this.result.exports++;
      this.bundles.push(answer.raw);
      if (this.bundles.length > 2) this.bundles.shift();
      return;
    }
    if (/json/.test(type) && answer.body.length > 0) {
      try {
        this.harvest(call.op, call, JSON.parse(answer.body), call.merchant);
      } catch {}
    }
    if (key.endsWith('/scenarios/run') || SLOW_OPS.test(call.op.path)) this.result.scenarioRuns++;
    if (key === 'POST /sandbox/recording/stop') {
      this.result.recordings++;
      // The walk runs with recording on: a stop is followed by a new recording.
      if (this.random.chance(0.9))
        await this.control('POST', '/sandbox/recording/start', { name: `walk ${this.seed}` });
    }
    if (key === 'POST /sandbox/reset') {
      this.forget();
      await this.bootstrap();
    }
    if (key === 'POST /sandbox/import') {
      this.result.imports++;
      await this.rediscover();
    }
    if (key === 'POST /sandbox/reset' || key === 'POST /sandbox/import' || key === 'PATCH /sandbox/settings')
      await this.control('PATCH', '/sandbox/settings', this.baseline);
    // API faults answer 5xx (or nothing) on purpose: the walk is about the API's own answers.
    if (key === 'PUT /sandbox/faults' || key === 'POST /sandbox/import')
      await this.control('DELETE', '/sandbox/faults');
  }

  /** Valid calls that give a walk (and a walk after a reset) something to act on. */
  async bootstrap(): Promise<void> {
    const byKey = new Map(this.operations().map((op) => [op.key, op]));
    for (const key of BOOTSTRAP) {
      const op = byKey.get(key);
      if (op) await this.run(op, { mutate: false });
    }
  }

  /**
   * After an import the workspace is the bundle's: keys made since it was exported are gone. As a
   * client would, the walk reads the merchants and their keys again.
   */
  private async rediscover(): Promise<void> {
    this.keys.splice(0, this.keys.length);
    const byKey = new Map(this.operations().map((op) => [op.key, op]));
    const list = byKey.get('GET /sandbox/merchants');
    const keys = byKey.get('GET /sandbox/merchants/{id}/api-keys');
    if (!list || !keys) return;
    const answer = await this.run(list, { mutate: false });
    const merchants = answer?.statusCode === 200 ? (JSON.parse(answer.body) as { id: string }[]) : [];
    for (const m of merchants.slice(-4))
      await this.runAt(keys, keys.path.replace('{id}', encodeURIComponent(m.id)));
  }

  /** A valid call of `op` at a given URL (the walk's own follow-up reads). */
  private async runAt(op: Operation, url: string): Promise<void> {
    this.step++;
    const call: Call = { step: this.step, op, env: 'test', url, headers: {}, kind: 'follow-up' };
    const answer = await this.send(call);
    this.check(call, answer);
    await this.after(call, answer);
  }

  /** A call the walk needs (not fuzzed): checked like the others. */
  async control(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: JsonObject,
  ): Promise<Answer> {
    const res = (await this.sandbox.apps.test.inject({
      method,
      url,
      ...(payload === undefined ? {} : { payload }),
    })) as LightMyRequestResponse;
    if (res.statusCode >= 500)
      this.problem(`walk's own ${method} ${url} → ${res.statusCode} ${res.body.slice(0, 300)}`);
    return { statusCode: res.statusCode, headers: res.headers, body: res.body, raw: res.rawPayload };
  }
}
