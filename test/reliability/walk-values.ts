import fc from 'fast-check';
import type { Env } from '../../server/contract/common.js';
import type { Sandbox } from '../../server/sandbox.js';
import {
  isObject,
  type JsonObject,
  type OpenApiDocument,
  type Operation,
  pathParams,
} from '../helpers/openapi.js';
import { mulberry32, PATTERN_VALUES, PHYSICAL_CATALOGUE, VIRTUAL_CATALOGUE } from './support.js';

/**
 * The stateful fuzz's values (walk.ts): the seeded PRNG, the kinds of ids, and valid-looking values
 * built from the request schemas of the OpenAPI document, steered by field names toward what the
 * sandbox accepts (ids from the walk's pools, known chains and currencies, loopback URLs).
 */

const UNKNOWN_UUID = '00000000-0000-4000-8000-000000000000';

/** The walk's one source of chance: mulberry32, seeded. */
export class Random {
  private readonly next: () => number;
  constructor(seed: number) {
    this.next = mulberry32(seed);
  }
  float(): number {
    return this.next();
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.next() * list.length)]!;
  }
  shuffle<T>(list: T[]): T[] {
    for (let i = list.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [list[i], list[j]] = [list[j]!, list[i]!];
    }
    return list;
  }

  /** A version-4 UUID from the walk's PRNG (a replay makes the same one). */
  uuid(): string {
    const hex = Array.from({ length: 32 }, () => this.int(0, 15).toString(16));
    hex[12] = '4';
    hex[16] = '8';
    const h = hex.join('');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }
}

/** Plural kinds a path segment or an `x_id` field names, where the API spells them otherwise. */
const KIND_ALIASES: Record<string, string> = {
  connections: 'connections',
  'reseller-connections': 'connections',
  connection: 'connections',
  inbox: 'inboxes',
  applications: 'card-applications',
  apply: 'card-applications',
  application: 'card-applications',
  authorizations: 'card-transactions',
  transactions: 'card-transactions',
  transaction: 'card-transactions',
  endpoint: 'webhook-endpoints',
  endpoints: 'webhook-endpoints',
  delivery: 'deliveries',
  reseller: 'merchants',
  address: 'static-addresses',
  catalogue: 'card-catalogue',
  holder: 'cardholders',
  'api-key': 'api-keys',
};

export function kindOf(word: string): string {
  const hyphen = word.replace(/_/g, '-');
  if (KIND_ALIASES[hyphen]) return KIND_ALIASES[hyphen];
  if (hyphen.endsWith('s')) return hyphen;
  if (hyphen.endsWith('y')) return `${hyphen.slice(0, -1)}ies`;
  return `${hyphen}s`;
}

/** The kind of id a path parameter takes: the segment before it (`/checkouts/{id}` → checkouts). */
export function paramKind(path: string, param: string): string {
  if (param === 'ch_id') return 'cardholders';
  if (param === 'card_id') return 'cards';
  if (param === 'connection_id') return 'connections';
  if (param === 'address') return 'static-addresses';
  const segments = path.split('/');
  const at = segments.indexOf(`{${param}}`);
  return kindOf(at > 0 ? segments[at - 1]! : param);
}

/** Who a value is for: ids are drawn for this merchant in this environment. */
export interface ValueContext {
  merchant?: string | undefined;
  env: Env;
}

/** What the values need of the walk: its pools, and the scenarios it recorded. */
export interface ValueSources {
  idOf(kind: string, merchant: string | undefined, env: Env): string;
  recorded(): readonly string[];
}

export class Values {
  constructor(
    private readonly random: Random,
    private readonly doc: OpenApiDocument,
    private readonly sandbox: Sandbox,
    private readonly sources: ValueSources,
    private readonly operations: readonly Operation[],
  ) {}

  private readonly patterns = new Map<string, fc.Arbitrary<string>>();

  resolve(node: unknown, depth = 0): unknown {
    if (!isObject(node) || typeof node.$ref !== 'string' || depth > 16) return node;
    let target: unknown = this.doc;
    for (const part of node.$ref.replace(/^#\//, '').split('/'))
      target = isObject(target) ? target[part] : undefined;
    return this.resolve(target, depth + 1);
  }

  private inboxUrl(): string {
    const base = this.sandbox.urls().test;
    return this.random.chance(0.9)
      ? `${base}/sandbox/inbox/${this.random.pick(['walk', 'walk', 'walk-down', 'other'])}`
      : 'http://127.0.0.1:1/refused';
  }

  /** A valid-looking value for `schema`, steered by the field's name toward what the sandbox accepts. */
  value(schema: unknown, name: string, ctx: ValueContext, depth = 0): unknown {
    const s = this.resolve(schema);
    if (!isObject(s) || depth > 6) return null;
    const alternatives = (Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : undefined) as
      | unknown[]
      | undefined;
    if (alternatives && alternatives.length > 0)
      return this.value(this.random.pick(alternatives), name, ctx, depth);
    if (s.nullable === true && this.random.chance(0.1)) return null;
    if (Array.isArray(s.enum) && s.enum.length > 0) return this.random.pick(s.enum);
    if ('const' in s) return s.const;
    const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
    switch (type) {
      case 'object': {
        const properties = isObject(s.properties) ? s.properties : {};
        const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
        const out: JsonObject = {};
        for (const [key, child] of Object.entries(properties))
          if (required.has(key) || this.random.chance(0.35))
            out[key] = this.value(child, key, ctx, depth + 1);
        return out;
      }
      case 'array': {
        const min = typeof s.minItems === 'number' ? s.minItems : 0;
        const max = Math.max(min, Math.min(typeof s.maxItems === 'number' ? s.maxItems : 3, 3));
        if (name === 'events')
          return this.random.pick([['checkout.paid'], ['checkout.created', 'checkout.completed']]);
        return Array.from({ length: this.random.int(min, max) }, () =>
          this.value(s.items, name, ctx, depth + 1),
        );
      }
      case 'integer':
      case 'number':
        return this.number(s, name);
      case 'boolean':
        return this.random.chance(0.5);
      case 'string':
        return this.string(s, name, ctx);
      default:
        return null;
    }
  }

  private number(s: JsonObject, name: string): number {
    const lo = typeof s.minimum === 'number' ? Math.max(s.minimum, -1e9) : 0;
    const hi = typeof s.maximum === 'number' ? Math.min(s.maximum, Number.MAX_SAFE_INTEGER) : 1e9;
    const within = (a: number, b: number) =>
      this.random.int(Math.max(lo, a), Math.max(Math.max(lo, a), Math.min(hi, b)));
    if (name === 'seconds')
      return this.random.pick([within(1, 600), within(3_600, 86_400), within(86_400, 8 * 86_400)]);
    if (name === 'response_status') return this.random.pick([200, 200, 204, 500, 503]);
    if (name === 'limit') return within(1, 100);
    if (/rate|bps/.test(name)) return within(0, 1_000);
    if (/amount|price|fee|subtotal/.test(name))
      return this.random.chance(0.9) ? within(1_000, 50_000_000) : within(lo, hi);
    if (/quantity|count/.test(name)) return within(1, 5);
    return this.random.chance(0.8) ? within(lo, Math.min(hi, lo + 1_000)) : within(lo, hi);
  }

  private string(s: JsonObject, name: string, ctx: ValueContext): string {
    const format = s.format;
    if (format === 'uuid' || name.endsWith('_id')) {
      if (name === 'catalogue' || name === 'catalogue_id')
        return this.random.chance(0.9)
          ? this.random.pick([VIRTUAL_CATALOGUE, PHYSICAL_CATALOGUE])
          : UNKNOWN_UUID;
      return this.sources.idOf(kindOf(name.replace(/_id$/, '')), ctx.merchant, ctx.env);
    }
    if (name === 'catalogue') return this.random.pick([VIRTUAL_CATALOGUE, PHYSICAL_CATALOGUE]);
    if (format === 'email') return this.random.pick(['ada@example.com', 'QA@Example.com', 'x+y@example.org']);
    if (format === 'uri' || name === 'url' || name.endsWith('_url')) return this.inboxUrl();
    const now = this.sandbox.ctx.clock.now();
    if (format === 'date-time') return new Date(now + this.random.int(60, 30 * 86_400) * 1000).toISOString();
    if (format === 'date')
      return new Date(now + this.random.int(0, 365) * 86_400_000).toISOString().slice(0, 10);
    if (typeof s.pattern === 'string') {
      if (name === 'path') return this.getPath(ctx);
      const known = PATTERN_VALUES[s.pattern];
      if (known) return this.random.pick(known);
      let arb = this.patterns.get(s.pattern);
      if (!arb) {
        arb = fc.stringMatching(new RegExp(s.pattern));
        this.patterns.set(s.pattern, arb);
      }
      return fc.sample(arb, { seed: this.random.int(0, 2 ** 30), numRuns: 1 })[0]!;
    }
    if (name === 'path') return this.getPath(ctx);
    if (name === 'scenario') return this.scenarioText();
    if (name === 'chain')
      return this.random.pick(['ethereum', 'tron', 'bitcoin', 'polygon', 'bsc', 'solana']);
    if (name === 'currency' || name === 'token' || name === 'local_currency')
      return this.random.chance(0.85)
        ? this.random.pick(['USDC', 'USDT'])
        : this.random.pick(['BTC', 'ETH', 'EUR']);
    if (name === 'session') return this.random.pick(['c2Vzc2lvbg==', 'x']);
    if (name === 'address') return this.sources.idOf('static-addresses', ctx.merchant, ctx.env);
    const min = typeof s.minLength === 'number' ? s.minLength : 0;
    const max = Math.max(min, Math.min(typeof s.maxLength === 'number' ? s.maxLength : 24, 24));
    const words = ['Walk', 'Acme', 'order', 'Ünïcødé', 'line two', `\${x}`, 'a', 'QA 42'];
    let text = this.random.pick(words);
    while (text.length < min) text += ` ${this.random.pick(words)}`;
    return text.slice(0, max);
  }

  /** A path `POST /sandbox/recording/expect` may read: a GET of the document, with pooled ids. */
  private getPath(ctx: ValueContext): string {
    const gets = this.operations.filter((op) => op.method === 'GET' && pathParams(op.path).length > 0);
    const op = this.random.pick(gets);
    return op.path.replace(/\{([^}]+)\}/g, (_, p: string) =>
      encodeURIComponent(this.sources.idOf(paramKind(op.path, p), ctx.merchant, ctx.env)),
    );
  }

  private scenarioText(): string {
    const roll = this.random.float();
    if (roll < 0.3 && this.sources.recorded().length > 0) return this.random.pick(this.sources.recorded());
    if (roll < 0.4)
      return this.random.pick([
        'name: [',
        'steps: 1',
        '{}',
        `${'['.repeat(5_000)}`,
        'name: x\nsteps: []',
        '\t',
      ]);
    const n = this.random.int(1, 1_000_000);
    return [
      `name: walk inline ${n}`,
      'steps:',
      `  - merchant: shop${n}`,
      `    body: { name: Walk Shop ${n} }`,
      '  - call: POST /v1/checkouts',
      `    merchant: shop${n}`,
      '    as: co',
      `    body: { title: Walk, amount: 5000000, expires_at: "\${clock.in.1h}" }`,
      '    expect: { status: 200 }',
      `  - control: POST /sandbox/checkouts/\${co.id}/payments`,
      '  - clock: { advance: 10m }',
      `  - expect: { get: "/v1/checkouts/\${co.id}", merchant: shop${n}, body: { amount: 5000000 } }`,
      `  - expect: { event: { type: checkout.created, data: { id: "\${co.id}" } } }`,
      '',
    ].join('\n');
  }
}
