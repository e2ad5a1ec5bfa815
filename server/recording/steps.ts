/**
 * How one exchange becomes a step of a recording's session: the step's kind, its path and body
 * with references, `as` for what its answer revealed, and `expect` from the answer. Shared by the
 * in-sandbox recorder (./recorder.ts) and `svc-sandbox record`'s proxy (./upstream.ts), which differ
 * only in how they learn about a merchant or an object the session did not see being made
 * (`Translation`).
 */
import type { Merchant } from '../contract/merchants.js';
import { type Exchange, typesIn } from './exchange.js';
import { describeResource, outcome, resourcePath } from './outcomes.js';
import { mapStrings } from './own.js';
import type { Owner, Session, Step } from './session.js';
import {
  duration,
  isEmptyBody,
  isVolatile,
  prefixFor,
  relativeTime,
  slug,
  strings,
  substitute,
  substitutePath,
  topId,
  withChaosSeed,
} from './translate.js';

/** What a step's translation asks of the recorder it works for. */
export interface Translation {
  /** the time a timestamp in the request body is written against (`${clock.in.1h}`) */
  now: number;
  /** the merchant step's name for a merchant id; one the session has not named yet gets its step */
  merchantName(merchantId: string): string;
  /** names what the exchange uses that the session did not make (before its step is written) */
  adopt(ex: Exchange): void;
  /** a string of the body as the replaying sandbox's own address, when it is one of the recorder's */
  ownUrl(value: string): string;
  /** address prefixes written as a reference (`${sandbox.urls.test}/...`) */
  ownUrls: readonly [prefix: string, ref: string][];
}

/** A `/v1` exchange as a `call` step (null when no merchant made it). */
export function callStep(s: Session, ex: Exchange, t: Translation): Step | null {
  if (ex.merchantId === null) return null;
  const merchant = t.merchantName(ex.merchantId);
  t.adopt(ex);
  const refOf = (v: string) => s.refs.get(v);
  const step: Step = { call: `${ex.method} ${substitutePath(ex.url, refOf)}`, merchant, env: ex.env };
  finish(s, ex, step, { merchantId: ex.merchantId, env: ex.env }, t);
  return step;
}

/** A `/sandbox` exchange as the step that replays it: merchant, clock, settings, faults or control. */
export function controlStep(s: Session, ex: Exchange, t: Translation): Step | null {
  const ok = ex.status < 400;
  const route = `${ex.method} ${ex.route}`;
  if (ok && route === 'POST /sandbox/merchants') return merchantStep(s, ex);
  t.adopt(ex);
  if (ok && route === 'POST /sandbox/clock/advance') {
    const seconds = (ex.body as { seconds?: unknown } | null)?.seconds;
    // What fell due meanwhile: expiries, settlements, scheduled outcomes.
    if (typeof seconds === 'number')
      return {
        clock: { advance: duration(seconds) },
        // Only events of objects it made or adopted: earlier ones do not exist where it replays.
        ...(ex.fired ? { expect: { events: typesIn(ex.fired, s.merchants, (id) => s.refs.has(id)) } } : {}),
      };
  }
  if (ok && route === 'POST /sandbox/clock/freeze') return { clock: 'freeze' };
  if (ok && route === 'POST /sandbox/clock/resume') return { clock: 'resume' };
  if (ok && route === 'PATCH /sandbox/settings' && !isEmptyBody(ex.body)) return { settings: ex.body };
  // API faults as a `faults:` step, with the seed the sandbox used (drawn when none was given),
  // so a replay makes the same decisions.
  if (ok && route === 'PUT /sandbox/faults') {
    const seed = (ex.response as { seed?: unknown } | null)?.seed;
    const rules = (ex.body as { rules?: unknown } | null)?.rules ?? [];
    return { faults: { ...(typeof seed === 'string' ? { seed } : {}), rules } };
  }
  if (ok && route === 'DELETE /sandbox/faults') return { faults: 'clear' };
  const refOf = (v: string) => s.refs.get(v);
  const step: Step = { control: `${ex.method} ${substitutePath(ex.url, refOf)}` };
  finish(s, withChaosSeed(ex), step, controlOwner(s, ex), t);
  return step;
}

/** `as`, `body` and `expect` of a call or control step; names what the answer created. */
function finish(s: Session, ex: Exchange, step: Step, owner: Owner | null, t: Translation): void {
  const refOf = (v: string) => s.refs.get(v) ?? relativeTime(v, t.now);
  const body = isEmptyBody(ex.body) ? undefined : substitute(mapStrings(ex.body, t.ownUrl), refOf, t.ownUrls);
  if (ex.status >= 400) {
    if (body !== undefined) step.body = body;
    step.expect = { status: ex.status };
    return;
  }
  // What the answer says, before its own new ids are learned: those are the step's result, not
  // something to expect (`id: ${co1.id}` on the step that names co1).
  const answered = outcome(ex.response, (v) => s.refs.get(v));
  const prefix = prefixFor(ex.route);
  const name = nextName(s, prefix);
  // Only a step whose answer revealed something new gets a name (and uses up its number).
  if (learn(s, name, ex.response)) {
    takeName(s, prefix, name);
    step.as = name;
    const id = topId(ex.response);
    if (id && s.refs.get(id) === `${name}.id`) {
      if (owner) s.owners.set(id, owner);
      const path = resourcePath(ex, id);
      // A /v1 path is read as its owner; a control-API path needs none.
      if (path && (owner || path.startsWith('/sandbox/')))
        s.resources.push({ name, id, path, env: owner?.env ?? 'test', ...describeResource(ex) });
    }
  }
  if (body !== undefined) step.body = body;
  const expected: Step = { status: ex.status };
  if (answered) expected.body = answered;
  if (ex.fired) expected.events = typesIn(ex.fired, s.merchants);
  step.expect = expected;
}

/** Registers every volatile value of an answer not known yet under `name`; true when there was one. */
export function learn(s: Session, name: string, response: unknown, volatile = isVolatile): boolean {
  let learned = false;
  for (const [path, value] of strings(response)) {
    const key = path.at(-1) ?? '';
    if (!volatile(key, value) || s.refs.has(value)) continue;
    s.refs.set(value, [name, ...path].join('.'));
    learned = true;
  }
  return learned;
}

/** The next free name with a prefix (`co3`), not yet taken. */
export function nextName(s: Session, prefix: string): string {
  let n = (s.counters.get(prefix) ?? 0) + 1;
  while (s.names.has(`${prefix}${n}`)) n++;
  return `${prefix}${n}`;
}

/** Takes a name `nextName` gave: later steps number on from it. */
export function takeName(s: Session, prefix: string, name: string): void {
  s.names.add(name);
  s.counters.set(prefix, (s.counters.get(prefix) ?? 0) + 1);
}

/** A name not used yet, from a base (`acme`, then `acme2`). */
export function uniqueName(s: Session, base: string): string {
  let name = base;
  for (let n = 2; s.names.has(name); n++) name = `${base}${n}`;
  s.names.add(name);
  return name;
}

/** A merchant id under a merchant step's name: `${name.id}` from now on. */
export function nameMerchant(s: Session, id: string, name: string): void {
  s.merchants.set(id, name);
  s.refs.set(id, `${name}.id`);
}

function merchantStep(s: Session, ex: Exchange): Step | null {
  const created = ex.response as { merchant?: Merchant; api_key?: { id?: string; key?: string } } | undefined;
  const merchant = created?.merchant;
  if (!merchant) return null;
  const name = uniqueName(s, slug(merchant.name));
  nameMerchant(s, merchant.id, name);
  if (created.api_key?.key) s.refs.set(created.api_key.key, `${name}.key`);
  // The runner's merchant result is { id, name, key, merchant, api_key }.
  if (created.api_key?.id) s.refs.set(created.api_key.id, `${name}.api_key.id`);
  const step: Step = { merchant: name };
  if (!isEmptyBody(ex.body)) step.body = ex.body;
  return step;
}

function controlOwner(s: Session, ex: Exchange): Owner | null {
  const env = ex.query.env === 'production' ? 'production' : ex.query.env === 'test' ? 'test' : undefined;
  if (ex.route.startsWith('/sandbox/merchants/:id') && ex.params.id)
    return { merchantId: ex.params.id, env: env ?? 'test' };
  const parent = Object.values(ex.params)
    .map((v) => s.owners.get(v))
    .find((o) => o !== undefined);
  if (parent) return parent;
  const merchantId = (ex.response as { merchant_id?: unknown } | undefined)?.merchant_id;
  return typeof merchantId === 'string' ? { merchantId, env: env ?? 'test' } : null;
}
