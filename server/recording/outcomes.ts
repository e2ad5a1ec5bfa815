/**
 * What the recorder expects after an action (docs/decisions.md, "Recording"): the key fields of an
 * answer or of a state it reads back, which state a simulation leaves and how it is read, where a
 * created object can be read, and how it is named for people. No state of its own.
 */
import type { Env } from '../contract/common.js';
import type { RecordedResource } from '../contract/recording.js';
import { isUuid, isVolatile, substitute, substitutePath } from './translate.js';

/**
 * Fields that say what happened: statuses and outcomes, amounts and fees, the currency, the
 * environment. Everything else (timestamps, urls, free text, secrets) is left out: it says nothing
 * about the behaviour, or differs in every sandbox.
 */
const KEY_FIELD =
  /^(status|type|currency|env|decline_reason|failure_reason|refund_status|kyb_status|kyc_status|is_kyc_verified|available|held)$|(^|_)(amount|fee)$/;
/** A null that says something (not declined, not failed); other nulls are "not yet" noise. */
const KEY_NULL = /^(decline_reason|failure_reason)$/;

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The key fields of an answer or a state, as a subset to expect: each key field, and (`links`) each
 * string that is a known value (an id, a key, an address of an earlier step) as its reference. One
 * level of nested objects (`{checkout, payment}`); arrays are left out (their length and order are
 * the business of an explicit expectation). Undefined when nothing is left.
 */
export function outcome(
  value: unknown,
  refOf: (v: string) => string | undefined,
  links = true,
  depth = 0,
): Json | undefined {
  if (!isObject(value)) return undefined;
  const out: Json = {};
  for (const [key, item] of Object.entries(value)) {
    if (typeof item === 'string') {
      const ref = links ? refOf(item) : undefined;
      if (ref !== undefined || KEY_FIELD.test(key)) out[key] = substitute(item, refOf);
    } else if (item === null) {
      if (KEY_NULL.test(key)) out[key] = item;
    } else if (typeof item === 'number' || typeof item === 'boolean') {
      if (KEY_FIELD.test(key)) out[key] = item;
    } else if (depth === 0 && isObject(item)) {
      const inner = outcome(item, refOf, links, depth + 1);
      if (inner) out[key] = inner;
    }
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The balance a simulation moves: whose, where, in what. */
export interface BalanceRead {
  merchantId: string;
  env: Env;
  currency: string;
}

export interface StateReads {
  /** a control-API path to read the simulated object's state from */
  get?: string;
  /** the balance it moved, from the answer or the state read (undefined when it says nothing) */
  balance?: (state: unknown) => BalanceRead | undefined;
}

/** The exchange fields the reads depend on. */
interface Simulation {
  route: string;
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
  response: unknown;
}

const envOf = (value: unknown): Env | undefined =>
  value === 'production' ? 'production' : value === 'test' ? 'test' : undefined;

/** `{merchant_id, env, currency}` of an object (a deposit, a payout), when it has all three. */
function ownBalance(value: unknown): BalanceRead | undefined {
  if (!isObject(value)) return undefined;
  const env = envOf(value.env);
  const { merchant_id: merchantId, currency } = value;
  if (typeof merchantId !== 'string' || typeof currency !== 'string' || !env) return undefined;
  return { merchantId, env, currency };
}

/**
 * What a simulation (the outside world acting: payments, card network, KYC, deposits, payouts)
 * left that a replay should find the same. Other steps read nothing back: their answer is their
 * outcome.
 */
export function stateReads(ex: Simulation): StateReads {
  const route = ex.route;
  const id = ex.params.id ?? '';
  if (/^\/sandbox\/checkouts\/:id\/(payments|complete|expire|cancel|refund)$/.test(route)) {
    return {
      get: `/sandbox/checkouts/${id}`,
      // The inspection has the env; its checkout the merchant and currency.
      balance: (state) =>
        isObject(state)
          ? ownBalance({ ...(isObject(state.checkout) ? state.checkout : {}), env: state.env })
          : undefined,
    };
  }
  if (/^\/sandbox\/cards\/:id\/(authorizations|refunds|deposits|withdrawals)$/.test(route)) {
    const tx = isObject(ex.response) ? ex.response.id : undefined;
    return typeof tx === 'string' ? { get: `/sandbox/card-transactions/${tx}` } : {};
  }
  if (/^\/sandbox\/card-transactions\/:id\/(settle|decline|reverse)$/.test(route))
    return { get: `/sandbox/card-transactions/${id}` };
  if (route === '/sandbox/cardholders/:id/kyc') return { get: `/sandbox/cardholders/${id}` };
  if (
    route === '/sandbox/deposits' ||
    route === '/sandbox/static-addresses/:address/deposits' ||
    route === '/sandbox/payouts'
  )
    return { balance: () => ownBalance(ex.response) };
  if (route === '/sandbox/merchants/:id/credit') {
    const body = isObject(ex.body) ? ex.body : {};
    const env = envOf(body.env) ?? envOf(ex.query.env) ?? 'test';
    return typeof body.currency === 'string'
      ? { balance: () => ({ merchantId: id, env, currency: String(body.currency).toUpperCase() }) }
      : {};
  }
  return {};
}

/** Whether a path still has a literal id (an object from before the recording). */
const containsUuid = (path: string): boolean => path.split(/[/?&=]/).some(isUuid);

/** A GET through the app of the test listener, where the control API answers (no key). */
type Read = (path: string, key: null) => Promise<{ status: number; body: unknown }>;

/** A merchant's balance in one currency when the recording started (undefined: none then). */
type BalanceAtStart = (
  merchantId: string,
  env: Env,
  currency: string,
) => { available: number; held: number } | undefined;

/**
 * The expectations a simulation's `reads` give: the object's state (`get`, by control-API path) and
 * the owner's balance, as what the session moved since it started (a merchant that held money
 * before is made anew by the replay, with none). Only what a replay can reproduce: an object from
 * before the recording (a literal id in the path) or a merchant no step names gets none.
 */
export async function stateExpectations(
  reads: StateReads,
  read: Read,
  refOf: (v: string) => string | undefined,
  merchantName: (id: string) => string | undefined,
  atStart: BalanceAtStart = () => undefined,
): Promise<Record<string, unknown>[]> {
  const added: Record<string, unknown>[] = [];
  let state: unknown;
  if (reads.get) {
    const path = substitutePath(reads.get, refOf);
    const answer = await read(reads.get, null);
    if (answer.status === 200 && !containsUuid(path)) {
      state = answer.body;
      // Its status and amounts: which objects it links to, the answer's expectation already says.
      const body = outcome(answer.body, refOf, false);
      if (body) added.push({ expect: { get: path, body } });
    }
  }
  const balance = reads.balance?.(state);
  const merchant = balance && merchantName(balance.merchantId);
  if (!balance || !merchant) return added;
  const answer = await read(`/sandbox/merchants/${balance.merchantId}/balances?env=${balance.env}`, null);
  if (answer.status !== 200 || !Array.isArray(answer.body)) return added;
  // None yet in that currency counts as 0 (as the balance expectation reads it).
  const found = (answer.body as { currency?: unknown; available?: unknown; held?: unknown }[]).find(
    (b) => b.currency === balance.currency,
  );
  const before = atStart(balance.merchantId, balance.env, balance.currency) ?? { available: 0, held: 0 };
  added.push({
    expect: {
      balance: {
        merchant,
        currency: balance.currency,
        available: (typeof found?.available === 'number' ? found.available : 0) - before.available,
        held: (typeof found?.held === 'number' ? found.held : 0) - before.held,
        ...(balance.env === 'test' ? {} : { env: balance.env }),
      },
    },
  });
  return added;
}

/** Kinds of objects by the route that creates them, in the words the pages use. */
const KINDS: [RegExp, string][] = [
  [/checkouts$/, 'checkout'],
  [/customers$/, 'customer'],
  [/invoices$/, 'invoice'],
  [/cardholders$/, 'cardholder'],
  [/cards$/, 'card'],
  [/\/(authorizations|refunds|deposits|withdrawals)$/, 'card transaction'],
  [/connections$/, 'reseller connection'],
];

/** How the expectation picker names a created object: kind, title or name, amount. */
export function describeResource(ex: {
  route: string;
  response: unknown;
}): Pick<RecordedResource, 'kind' | 'title' | 'amount' | 'currency'> {
  const kind = KINDS.find(([pattern]) => pattern.test(ex.route))?.[1] ?? 'object';
  const r = isObject(ex.response) ? ex.response : {};
  const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  const last4 = text(r.last4);
  const title =
    text(r.title) ??
    text(r.name) ??
    text(r.merchant_name) ??
    text(r.email) ??
    (last4 === undefined ? undefined : `•••• ${last4}`);
  const amount = typeof r.amount === 'number' || r.amount === null ? r.amount : undefined;
  const currency = text(r.currency);
  return {
    kind,
    ...(title === undefined ? {} : { title }),
    ...(amount === undefined || currency === undefined ? {} : { amount, currency }),
  };
}

/** Where an object a step created can be read back, when there is a GET for it. */
export function resourcePath(
  ex: { method: string; url: string; route: string; params: Record<string, string> },
  id: string,
): string | null {
  if (ex.method !== 'POST') return null;
  const path = ex.url.split('?')[0]!;
  if (ex.route === '/sandbox/merchants/:id/checkouts') return `/v1/checkouts/${id}`;
  if (ex.route === '/sandbox/merchants/:id/cardholders') return `/v1/cardholders/${id}`;
  if (ex.route === '/sandbox/cardholders/:id/cards') return `/v1/cardholders/${ex.params.id}/cards/${id}`;
  if (/^\/sandbox\/cards\/:id\/(authorizations|refunds|deposits|withdrawals)$/.test(ex.route))
    return `/sandbox/card-transactions/${id}`;
  if (
    /^\/v1\/(checkouts|customers|invoices|cardholders|cardholders\/:id\/cards|reseller\/connections)$/.test(
      ex.route,
    )
  )
    return `${path}/${id}`;
  return null;
}

/** `status` when there is one, else every top-level scalar that is not an id or a timestamp. */
export function defaultFields(current: Record<string, unknown>): string[] {
  if ('status' in current) return ['status'];
  return Object.entries(current)
    .filter(
      ([k, v]) =>
        (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'string') &&
        k !== 'id' &&
        !k.endsWith('_at') &&
        !(typeof v === 'string' && isVolatile(k, v)),
    )
    .map(([k]) => k);
}
