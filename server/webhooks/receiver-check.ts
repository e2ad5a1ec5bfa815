import { performance } from 'node:perf_hooks';
import { EVENT_TYPES, type EventType } from '../contract/events.js';
import type {
  ReceiverCheckBody,
  ReceiverCheckCase,
  ReceiverCheckResult,
} from '../contract/receiver-checks.js';
import { sampleData, WEBHOOK_HEADER } from '../contract/webhooks.js';
import { createIds, type Ids } from '../ids.js';
import { envelopeBody, envelopeHeaders, looseEnvelopeBody } from './envelope.js';
import { sign } from './signing.js';
import type { SendResult } from './transport.js';

export interface ReceiverCheckDeps {
  /** the sandbox's delivery timeout (setting webhook_timeout_ms), read for each check */
  timeoutMs: () => number;
  /** a transport of its own for one check, bounded by `timeoutMs` (closed when the check ends) */
  transport: (timeoutMs: number) => {
    post(url: string, headers: Record<string, string>, body: string): Promise<SendResult>;
    close(): Promise<void>;
  };
}

/** How much of a response body a case quotes. */
const QUOTED = 120;
/** The large-payload case's body size: far above any real event, well under common 1 MiB limits. */
export const LARGE_PAYLOAD_BYTES = 256 * 1024;
/** An event type no version of the spec has: new types may appear, a receiver must accept them. */
const UNKNOWN_EVENT = 'sandbox.unknown_event';

interface Sent {
  result: SendResult;
  ms: number;
}

/**
 * The receiver check: sends the developer's receiver a fixed set of deliveries (each a case) and
 * grades its answers. The bodies come from the seed alone (the same seed sends the same bytes);
 * sends go to the given URL only, through a transport of the check's own, and nothing is recorded
 * in the workspace (no event, no delivery).
 */
export class ReceiverCheck {
  constructor(private readonly deps: ReceiverCheckDeps) {}

  async run(input: ReceiverCheckBody): Promise<ReceiverCheckResult> {
    const seed = input.seed ?? createIds().token(16);
    const ids = createIds(`receiver-check:${seed}`);
    const timeoutMs = this.deps.timeoutMs();
    const transport = this.deps.transport(timeoutMs);
    const cases: ReceiverCheckCase[] = [];
    let slowest = 0;
    let late = 0;
    const send = async (event: string, deliveryId: string, body: string, signature: string | null) => {
      const started = performance.now();
      const result = await transport.post(input.url, envelopeHeaders(event, deliveryId, signature), body);
      const ms = Math.round(performance.now() - started);
      slowest = Math.max(slowest, ms);
      // No answer at all is not an answer in time, however quickly the connection failed.
      if (result.status === null) late++;
      return { result, ms };
    };
    const signed = (body: string) => sign(input.secret, body);
    try {
      // A correctly signed delivery of each event type: 2xx.
      for (const type of input.events ?? EVENT_TYPES) {
        const { id, body } = delivery(ids, type, sample(ids, type));
        const sent = await send(type, id, body, signed(body));
        // Nothing listening (refused, no such host): every other case would fail the same way.
        if (cases.length === 0 && sent.result.status === null && sent.ms < timeoutMs)
          return unreachable(input.url, seed, timeoutMs, type, sent);
        cases.push(
          grade(
            `signed ${type}`,
            `a correctly signed ${type} delivery (${body.length} bytes)`,
            sent,
            'accept',
          ),
        );
      }

      // Refused signatures: any non-2xx answer.
      {
        const { id, body } = delivery(ids, 'checkout.paid', sample(ids, 'checkout.paid'));
        const wrong = sign(`${input.secret}-wrong`, body);
        cases.push(
          grade(
            'wrong signature',
            'a checkout.paid delivery signed with another secret',
            await send('checkout.paid', id, body, wrong),
            'refuse',
          ),
        );
        cases.push(
          grade(
            'missing signature',
            'a checkout.paid delivery with no X-SVC-Signature header',
            await send('checkout.paid', id, body, null),
            'refuse',
          ),
        );
      }

      // The raw bytes are what is signed: spaces, escaped unicode and its own key order.
      {
        const id = ids.uuid();
        const data = sample(ids, 'checkout.created');
        const body = looseEnvelopeBody(id, 'checkout.created', looseJson(data));
        cases.push(
          grade(
            'raw body bytes',
            'a correctly signed checkout.created whose bytes differ from re-serialized JSON (spaces, \\u-escaped unicode, key order)',
            await send('checkout.created', id, body, signed(body)),
            'accept',
            'an HMAC over re-serialized JSON instead of the raw bytes fails here',
          ),
        );
      }

      // The same delivery twice: both answered 2xx (and, with an effects URL, processed once).
      cases.push(await this.duplicate(ids, input, send, signed));

      // Out of order: checkout.completed before checkout.paid of the same checkout.
      {
        const paid = sample(ids, 'checkout.paid');
        const completed = {
          ...sample(ids, 'checkout.completed'),
          id: paid.id,
          merchant_id: paid.merchant_id,
        };
        const first = delivery(ids, 'checkout.completed', completed);
        const second = delivery(ids, 'checkout.paid', paid);
        const a = await send('checkout.completed', first.id, first.body, signed(first.body));
        const b = await send('checkout.paid', second.id, second.body, signed(second.body));
        cases.push(
          gradeBoth(
            'out of order',
            `checkout.completed, then checkout.paid, of checkout ${paid.id as string}`,
            [a, b],
          ),
        );
      }

      // An unknown event type: accepted (new types may appear).
      {
        const { id, body } = delivery(ids, UNKNOWN_EVENT, {
          id: ids.uuid(),
          note: 'a type this receiver has never seen',
        });
        cases.push(
          grade(
            'unknown event type',
            `a correctly signed delivery of event type ${UNKNOWN_EVENT}`,
            await send(UNKNOWN_EVENT, id, body, signed(body)),
            'accept',
          ),
        );
      }

      // A large payload: accepted.
      {
        const data = sample(ids, 'checkout.created');
        const padding = LARGE_PAYLOAD_BYTES - JSON.stringify(data).length;
        const { id, body } = delivery(ids, 'checkout.created', {
          ...data,
          description: 'x'.repeat(Math.max(0, padding)),
        });
        cases.push(
          grade(
            'large payload',
            `a correctly signed checkout.created of ${body.length} bytes`,
            await send('checkout.created', id, body, signed(body)),
            'accept',
          ),
        );
      }
    } finally {
      await transport.close();
    }

    // Speed: every answer above came within the delivery timeout.
    cases.push({
      name: 'answers in time',
      ok: late === 0 && slowest <= timeoutMs,
      expected: `every answer within the sandbox's delivery timeout (${timeoutMs} ms); the spec asks receivers to answer quickly`,
      actual:
        late === 0
          ? `the slowest answer took ${slowest} ms`
          : `${late} deliveries had no answer within ${timeoutMs} ms`,
      sent: 'every delivery of the cases above',
      status: null,
      ms: slowest,
    });
    const passed = cases.filter((c) => c.ok).length;
    return {
      url: input.url,
      seed,
      timeout_ms: timeoutMs,
      passed,
      failed: cases.length - passed,
      cases,
      hints: hints(cases, Boolean(input.effects_url)),
    };
  }

  private async duplicate(
    ids: Ids,
    input: ReceiverCheckBody,
    send: (event: string, id: string, body: string, signature: string | null) => Promise<Sent>,
    signed: (body: string) => string,
  ): Promise<ReceiverCheckCase> {
    const { id, body } = delivery(ids, 'checkout.paid', sample(ids, 'checkout.paid'));
    const before = input.effects_url ? await processedCount(input.effects_url) : null;
    const a = await send('checkout.paid', id, body, signed(body));
    const b = await send('checkout.paid', id, body, signed(body));
    const graded = gradeBoth('duplicate delivery', `the same checkout.paid delivery (id ${id}) twice`, [
      a,
      b,
    ]);
    if (!input.effects_url || before === null) return graded;
    const after = await processedCount(input.effects_url);
    const once = typeof before === 'number' && typeof after === 'number' && after - before === 1;
    return {
      ...graded,
      ok: graded.ok && once,
      expected: `${graded.expected}, and processed once (the effects URL's count up by 1)`,
      actual: `${graded.actual}; effects URL: ${
        typeof before === 'number' && typeof after === 'number'
          ? `count ${before} → ${after} (${after - before} processed)`
          : `unreadable (${typeof before === 'string' ? before : after})`
      }`,
    };
  }
}

/** The result when nothing answers at the URL: one failed case that says so, and no timing verdict. */
function unreachable(
  url: string,
  seed: string,
  timeoutMs: number,
  type: string,
  sent: Sent,
): ReceiverCheckResult {
  const hint = `nothing answers at ${url}: is your receiver running, and on that address and port?`;
  return {
    url,
    seed,
    timeout_ms: timeoutMs,
    passed: 0,
    failed: 1,
    cases: [
      {
        name: 'reachable',
        ok: false,
        expected: 'an answer from the receiver (the other cases need one)',
        actual: answered(sent),
        sent: `a correctly signed ${type} delivery; the check stopped there`,
        status: null,
        ms: sent.ms,
      },
    ],
    hints: [hint],
  };
}

/** The cases whose delivery carried a correct signature and wants a 2xx. */
const SIGNED_CASES = /^(?:signed |raw body bytes$|unknown event type$|large payload$)/;

/** What to do about the failed cases, in words (the scorecard prints them under the cases). */
function hints(cases: readonly ReceiverCheckCase[], effects: boolean): string[] {
  const found: string[] = [];
  const signed = cases.filter((c) => SIGNED_CASES.test(c.name));
  const refusedAll =
    signed.length > 0 && signed.every((c) => c.status !== null && c.status >= 400 && c.status < 500);
  if (refusedAll)
    found.push(
      `every correctly signed delivery was refused (${signed[0]!.status}): the secret given is probably ` +
        'not the one your receiver verifies with. Pass the signing secret of the endpoint it serves ' +
        '(whsec_…; `--secret` on the command line, `secret` in the API).',
    );
  // (with the wrong secret the repeat is refused like every signed delivery: that hint says it all)
  const duplicate = cases.find((c) => c.name === 'duplicate delivery');
  if (duplicate && !duplicate.ok && !refusedAll)
    found.push(
      effects && /\(\d+ processed\)/.test(duplicate.actual) && !/\(1 processed\)/.test(duplicate.actual)
        ? `the same delivery was processed more than once: deduplicate on the ${WEBHOOK_HEADER.deliveryId} ` +
            'header (keep the ids you have processed, and answer 2xx to a repeat without acting again).'
        : `a repeated delivery must be answered 2xx too: deduplicate on the ${WEBHOOK_HEADER.deliveryId} ` +
            'header and acknowledge a repeat without acting again.',
    );
  return found;
}

/** An envelope of `type` with a fresh delivery id; the bytes are what the dispatcher would send. */
function delivery(ids: Ids, type: string, data: Record<string, unknown>): { id: string; body: string } {
  const id = ids.uuid();
  return { id, body: envelopeBody(id, type, JSON.stringify(data)) };
}

/** A payload of `type`: the contract's sample, else a resource of the spec's shape, with seeded ids. */
function sample(ids: Ids, type: EventType): Record<string, unknown> {
  const id = ids.uuid();
  const merchant = ids.uuid();
  const at = '2026-01-15T10:00:00.000Z';
  const base = sampleData(type) ?? fallbackSample(type, at);
  return {
    ...base,
    ...('id' in base ? { id } : {}),
    ...('merchant_id' in base ? { merchant_id: merchant } : {}),
  };
}

function fallbackSample(type: EventType, at: string): Record<string, unknown> {
  const [resource, action] = type.split('.') as [string, string];
  if (resource === 'checkout') {
    const created = sampleData('checkout.created') ?? {};
    // A new sample object (its id is set by sample()), not a status move of a row.
    return { ...created, id: '', status: action, updated_at: at };
  }
  if (resource === 'invoice') {
    return {
      id: '',
      merchant_id: '',
      invoice_number: 'INV-000001',
      title: 'Consulting, January',
      status: action,
      amount: 120_000_000,
      currency: 'USDC',
      line_items: [{ description: 'Consulting', quantity: 1, unit_price: 120_000_000, amount: 120_000_000 }],
      created_at: at,
      updated_at: at,
    };
  }
  return {
    id: '',
    merchant_id: '',
    amount: 50_000_000,
    currency: 'USDT',
    status: action,
    failure_reason: action === 'failed' ? 'Payout rejected by the receiving institution' : null,
    created_at: at,
  };
}

/**
 * The data as JSON text that no serializer writes: its keys in reverse order, spaces around every
 * token, and every non-ASCII character (a café's é is added) \u-escaped.
 */
function looseJson(data: Record<string, unknown>): string {
  const withUnicode = { ...data, reference: 'café № 7 – ✓' };
  const entries = Object.entries(withUnicode).reverse();
  const text = `{ ${entries.map(([k, v]) => `${JSON.stringify(k)} : ${JSON.stringify(v)}`).join(' , ')} }`;
  return text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** What came back, in words: status, the first bytes of the body, the time. */
function answered({ result, ms }: Sent): string {
  if (result.status === null) return `${result.error ?? 'no answer'} after ${ms} ms`;
  const body = (result.body ?? '').slice(0, QUOTED).replace(/\s+/g, ' ').trim();
  return `${result.status} in ${ms} ms${body ? `, body: ${JSON.stringify(body)}` : ', empty body'}`;
}

const is2xx = (s: SendResult) => s.status !== null && s.status >= 200 && s.status < 300;

function grade(
  name: string,
  sent: string,
  answer: Sent,
  want: 'accept' | 'refuse',
  why?: string,
): ReceiverCheckCase {
  const ok =
    want === 'accept' ? is2xx(answer.result) : answer.result.status !== null && !is2xx(answer.result);
  const expected =
    want === 'accept'
      ? 'a 2xx answer'
      : 'a non-2xx answer (4xx): a receiver must refuse an unverified delivery';
  return {
    name,
    ok,
    expected: why && !ok ? `${expected}; ${why}` : expected,
    actual: answered(answer),
    sent,
    status: answer.result.status,
    ms: answer.ms,
  };
}

function gradeBoth(name: string, sent: string, answers: [Sent, Sent]): ReceiverCheckCase {
  const [a, b] = answers;
  return {
    name,
    ok: is2xx(a.result) && is2xx(b.result),
    expected: 'a 2xx answer to both',
    actual: `first: ${answered(a)}; second: ${answered(b)}`,
    sent,
    status: is2xx(a.result) ? b.result.status : a.result.status,
    ms: Math.max(a.ms, b.ms),
  };
}

/** The receiver's count of processed deliveries, or why it could not be read. */
async function processedCount(url: string): Promise<number | string> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
    const value: unknown = await response.json();
    const count =
      typeof value === 'object' && value !== null ? (value as { processed?: unknown }).processed : value;
    return typeof count === 'number' ? count : `answered ${JSON.stringify(value).slice(0, QUOTED)}`;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
