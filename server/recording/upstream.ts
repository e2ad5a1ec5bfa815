/**
 * A session recorded against the real service through `svc-sandbox record`'s proxy, as a scenario
 * file (docs/scenarios.md, "Recorded sessions"). Each proxied `/v1` exchange goes through the same
 * translation as the sandbox's own recorder (./steps.ts) and carries what the service answered
 * (`recorded`); each webhook the service delivered is attached to the step before it; what the
 * outside world did is inferred (./infer.ts) or told by a note. Secrets never reach the file
 * (./redact.ts). No I/O here: the CLI (server/cli/record.ts) proxies, and writes what `render` gives.
 */
import { type InputArgs, type OperationId, resolveCall } from '../contract/call.js';
import { DURATION_PATTERN } from '../scenarios/format.js';
import type { Exchange } from './exchange.js';
import { OutsideWorld } from './infer.js';
import { mapStrings } from './own.js';
import { Secrets } from './redact.js';
import { matchRoute, queryOf } from './routes.js';
import { newSession, type Session, type Step } from './session.js';
import { callStep, nextName, type Translation, takeName, uniqueName } from './steps.js';
import { clipDepth, duration, prefixFor, renderScenario, substitute, substitutePath } from './translate.js';

/** One request the proxy forwarded and the service's answer. */
export interface ProxiedExchange {
  method: string;
  /** path and query as the integration sent them, under the proxy's root */
  url: string;
  /** the Authorization header */
  authorization: string | undefined;
  requestBody: Buffer;
  status: number;
  responseBody: Buffer;
  /** when the answer arrived (this machine's clock, ms) */
  at: number;
}

export interface Recorded {
  /** the steps this added (inferred ones first), or none */
  steps: Step[];
  /** why nothing was written, when nothing was */
  skipped?: string;
}

/** How far back a late webhook looks for the step that caused it. */
const LATE_STEPS = 5;
/** Events that time itself fires (expiry, settlement, the network's own settlement). */
const TIME_EVENTS = /^checkout\.(completed|partial|expired)$|^card\.transaction$|^payout\./;

/** Statuses that say nothing a replay could reproduce: the key (401), a rate limit, a server fault. */
const SKIPPED = (status: number) => status === 401 || status === 429 || status >= 500;

export const NOTE_HELP = `Notes (typed here, or POST /__record/note {"line": "..."}): each becomes a step at this point.
  pay <checkout> <amount>          a payment arrived (the checkout as a step name, co1, or its id; minor units)
  advance <duration>               time passed (30s, 5m, 2h, 1d, 1h30m)
  control METHOD /sandbox/... [json body]
                                   any control-API call (ids of the service become references)
  help                             this list
`;

const parseJson = (bytes: Buffer): unknown => {
  if (bytes.length === 0) return undefined;
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** A step the service answered or the recorder added (not a `merchant:` step): it can carry webhooks. */
const acts = (step: Step): boolean => 'call' in step || 'control' in step || 'clock' in step;

const secondsOf = (text: string): number | undefined => {
  if (!new RegExp(DURATION_PATTERN).test(text)) return undefined;
  const size = { d: 86_400, h: 3_600, m: 60, s: 1 } as const;
  let total = 0;
  for (const [, n, unit] of text.matchAll(/(\d+)([dhms])/g))
    total += Number(n) * size[unit as keyof typeof size];
  return total;
};

export class UpstreamRecorder {
  readonly session: Session;
  private readonly secrets = new Secrets();
  private readonly world: OutsideWorld;
  /** an API key → the id its merchant goes by in the session */
  private readonly keys = new Map<string, string>();
  /** merchants whose id at the service is known (a reference to their merchant step) */
  private readonly identified = new Set<string>();
  /** the service's clock minus this machine's, from the last object it made */
  private offset = 0;
  private readonly deliveries = new Set<string>();

  constructor(
    private readonly options: { upstream: string; startedAt: Date; name?: string; webhooks: boolean },
  ) {
    const at = options.startedAt.toISOString();
    this.session = newSession(options.name ?? `session recorded against ${options.upstream}`, at);
    this.world = new OutsideWorld(this.session);
  }

  private refOf = (v: string) => this.session.refs.get(v);

  /** The file as it stands; null while it has no step but merchants (not a runnable scenario yet). */
  render(): string | null {
    const s = this.session;
    if (!s.steps.some(acts)) return null;
    return renderScenario(s.name, s.startedAt, s.steps, { upstream: this.options.upstream, at: s.startedAt });
  }

  // ---- requests -------------------------------------------------------------------------------

  exchange(p: ProxiedExchange): Recorded {
    if (SKIPPED(p.status)) return { steps: [], skipped: `the service answered ${p.status}` };
    // A step's body is JSON: a body that is not (a malformed one, a form) would replay as none.
    if (p.requestBody.length > 0 && parseJson(p.requestBody) === undefined)
      return { steps: [], skipped: 'its body is not JSON (a step sends JSON)' };
    const key = this.secrets.addAuthorization(p.authorization);
    if (!key) return { steps: [], skipped: 'no API key' };
    const merchantId = this.merchantFor(key);
    const url = this.secrets.text(p.url);
    const { route, params } = matchRoute(p.method, url);
    const response = clipDepth(this.secrets.value(parseJson(p.responseBody)));
    const ex: Exchange = {
      env: 'test',
      method: p.method,
      url,
      route,
      params,
      query: queryOf(url),
      body: clipDepth(this.secrets.value(parseJson(p.requestBody))),
      status: p.status,
      response,
      merchantId,
      fired: null,
    };
    const created = isObject(response) && p.method === 'POST' ? Date.parse(String(response.created_at)) : NaN;
    if (!Number.isNaN(created)) this.offset = created - p.at;
    const now = Number.isNaN(created) ? p.at + this.offset : created;
    this.identify(merchantId, Array.isArray(response) ? response[0] : response);
    // What the outside world did shows in this answer: it happened before the request.
    const inferred = p.status < 400 ? this.world.answered(route, p.method, response, now, params) : [];
    const step = callStep(this.session, ex, this.translation(now));
    if (!step) return { steps: [] };
    step.recorded = {
      status: p.status,
      ...(response === undefined ? {} : { body: substitute(response, this.refOf) }),
      ...(this.options.webhooks ? { webhooks: [] } : {}),
    };
    const added = [...inferred.map((i) => this.withWebhooks(i)), step];
    this.session.steps.push(...added);
    return { steps: added };
  }

  private translation(now: number): Translation {
    return {
      now,
      merchantName: (id) => this.session.merchants.get(id) ?? 'merchant',
      // An object made before the session stays a literal id: the service cannot be asked about it.
      adopt: () => {},
      ownUrl: (v) => v,
      ownUrls: [],
    };
  }

  /** The merchant of an API key: each key seen is one `merchant:` step, at the top. */
  private merchantFor(key: string): string {
    const known = this.keys.get(key);
    if (known) return known;
    const n = this.keys.size + 1;
    const id = `key ${n}`;
    this.keys.set(key, id);
    const name = uniqueName(this.session, 'merchant');
    this.session.merchants.set(id, name);
    // The replay makes its own merchant and key; approved, as a merchant using the service is.
    this.session.steps.splice(n - 1, 0, {
      merchant: name,
      body: { name: n === 1 ? 'Merchant' : `Merchant ${n}`, kyb_status: 'approved' },
    });
    return id;
  }

  /** The service's id of a merchant, from the `merchant_id` its answers carry: `${merchant.id}`. */
  private identify(merchantId: string, value: unknown): void {
    const name = this.session.merchants.get(merchantId);
    const id = isObject(value) ? value.merchant_id : undefined;
    if (!name || this.identified.has(name) || typeof id !== 'string' || this.session.refs.has(id)) return;
    this.session.refs.set(id, `${name}.id`);
    this.identified.add(name);
  }

  private withWebhooks(step: Step): Step {
    if (this.options.webhooks) step.recorded = { webhooks: [] };
    return step;
  }

  // ---- webhooks -------------------------------------------------------------------------------

  /** A delivery the service made to the proxy: recorded once (a retry is the same delivery). */
  webhook(body: Buffer): Recorded & { type?: string; error?: string } {
    const envelope = parseJson(body);
    if (!isObject(envelope) || typeof envelope.event !== 'string')
      return { steps: [], error: 'not a webhook: a JSON body with event and data expected' };
    const type = envelope.event;
    const id = typeof envelope.id === 'string' ? envelope.id : undefined;
    if (id !== undefined && this.deliveries.has(id))
      return { steps: [], type, skipped: 'a retry of a delivery already recorded' };
    if (id !== undefined) this.deliveries.add(id);
    const data = clipDepth(this.secrets.value(envelope.data));
    // One merchant: its id is the one the event names.
    if (this.session.merchants.size === 1) this.identify([...this.session.merchants.keys()][0]!, data);
    const inferred = this.world.webhook(type, data).map((i) => this.withWebhooks(i));
    this.session.steps.push(...inferred);
    const target = this.causeOf(type, data) ?? this.session.steps.at(-1);
    if (!target || !acts(target))
      return { steps: inferred, type, skipped: 'it came before any request: no step to attach it to' };
    const recorded = (target.recorded ?? {}) as { webhooks?: unknown[] };
    recorded.webhooks = [
      ...(recorded.webhooks ?? []),
      { type, ...(data === undefined ? {} : { data: substitute(data, this.refOf) }) },
    ];
    target.recorded = recorded;
    return { steps: inferred, type };
  }

  /**
   * The step a webhook belongs to when it arrived late: deliveries are sent after the answer, so one
   * may come while the next request is on its way, or after it. Among the last few steps, the latest
   * that made or acted on the object the event names (a GET fires none; a clock step, only what
   * time does). Undefined: the step before it, in arrival order.
   */
  private causeOf(type: string, data: unknown): Step | undefined {
    const id = isObject(data) && typeof data.id === 'string' ? data.id : undefined;
    const name = id === undefined ? undefined : this.refOf(id)?.replace(/\.id$/, '');
    if (name === undefined || name.includes('.')) return undefined;
    const steps = this.session.steps;
    for (let i = steps.length - 1; i >= Math.max(0, steps.length - LATE_STEPS); i--) {
      const step = steps[i]!;
      if ('clock' in step) {
        if (TIME_EVENTS.test(type)) return step;
        continue;
      }
      const request =
        typeof step.call === 'string' ? step.call : typeof step.control === 'string' ? step.control : '';
      if (request === '' || request.startsWith('GET ')) continue;
      if (step.as === name || request.includes(`\${${name}.`)) return step;
    }
    return undefined;
  }

  // ---- notes ----------------------------------------------------------------------------------

  /** A note's line as the step it plays here; `help` gives the list. */
  note(line: string): { steps: Step[] } | { error: string } | { help: string } {
    const text = line.trim();
    const [command = '', ...args] = text.split(/\s+/);
    const why = `a note: ${this.secrets.text(text)}`.slice(0, 500);
    if (command === 'help' || command === '') return { help: NOTE_HELP };
    if (command === 'pay') {
      const [which, amountText] = args;
      if (!which || !amountText || args.length > 2) return { error: 'pay <checkout> <amount>' };
      const id = this.world.checkoutId(which);
      if (!id)
        return { error: `pay: no checkout ${which} in this session (a step name like co1, or its id)` };
      const amount = Number(amountText);
      if (!Number.isSafeInteger(amount) || amount <= 0)
        return { error: `pay: amount must be a positive whole number of minor units, got ${amountText}` };
      return this.control('sandboxPayCheckout', { params: { id }, body: { amount } }, why);
    }
    if (command === 'advance') {
      const seconds = args.length === 1 ? secondsOf(args[0]!) : undefined;
      if (seconds === undefined || seconds <= 0)
        return {
          error: `advance: a duration like 30s, 5m, 2h, 1d or 1h30m, got ${args.join(' ') || 'nothing'}`,
        };
      this.world.advance(seconds);
      return this.add({ clock: { advance: duration(seconds) }, inferred: why });
    }
    if (command === 'control') return this.controlNote(text.slice('control'.length).trim(), why);
    return { error: `unknown note ${command}: pay, advance, control or help` };
  }

  private control<K extends OperationId>(
    operation: K,
    input: InputArgs<K>[0],
    why: string,
  ): { steps: Step[] } | { error: string } {
    const call = resolveCall(operation, ...([input] as InputArgs<K>));
    this.world.told(call.method, call.path, call.body);
    return this.add({
      control: `${call.method} ${substitutePath(call.path, this.refOf)}`,
      body: substitute(call.body, this.refOf),
      inferred: why,
    });
  }

  /** `control METHOD /sandbox/... [json]`: references typed as `${co1.id}` or the service's ids. */
  private controlNote(rest: string, why: string): { steps: Step[] } | { error: string } {
    const match = /^(GET|POST|PUT|PATCH|DELETE)\s+(\/sandbox\/\S*)\s*(.*)$/s.exec(rest);
    if (!match)
      return {
        error:
          'control METHOD /sandbox/path [json body], e.g. control POST /sandbox/clock/advance {"seconds": 60}',
      };
    const [, method = '', path = '', json = ''] = match;
    let body: unknown;
    if (json !== '') {
      try {
        body = JSON.parse(json);
      } catch (error) {
        return { error: `control: the body is not JSON: ${(error as Error).message}` };
      }
    }
    const written = substitutePath(path, this.refOf);
    const writtenBody = body === undefined ? undefined : mapStrings(body, (v) => this.asRef(v));
    const unknown = [...JSON.stringify([written, writtenBody ?? null]).matchAll(/\$\{([A-Za-z_][\w-]*)/g)]
      .map((m) => m[1]!)
      .find((name) => !this.session.names.has(name));
    if (unknown !== undefined) return { error: `control: \${${unknown}...} names no step of this session` };
    // The model reads the service's ids: references typed in the note are turned back.
    const service = (v: string) => this.fromRef(v);
    const servicePath = path.split('/').map(service).join('/');
    this.world.told(method, servicePath, body === undefined ? undefined : mapStrings(body, service));
    const step: Step = { control: `${method} ${written}` };
    if (writtenBody !== undefined) step.body = writtenBody;
    step.inferred = why;
    const { operationId, params, route } = matchRoute(method, servicePath);
    if (operationId === 'sandboxCreateCardAuthorization' && params.id) {
      const prefix = prefixFor(route);
      const name = nextName(this.session, prefix);
      takeName(this.session, prefix, name);
      step.as = name;
      this.world.toldAuthorization(params.id, name);
    }
    return this.add(step);
  }

  private asRef(value: string): string {
    const ref = this.refOf(value);
    return ref === undefined ? value : `\${${ref}}`;
  }

  /** `${co1.id}` as the service's id it stands for (other text as it is). */
  private fromRef(value: string): string {
    const ref = /^\$\{([^}]+)\}$/.exec(value)?.[1];
    if (ref === undefined) return value;
    for (const [service, name] of this.session.refs) if (name === ref) return service;
    return value;
  }

  private add(step: Step): { steps: Step[] } {
    this.withWebhooks(step);
    this.session.steps.push(step);
    return { steps: [step] };
  }
}
