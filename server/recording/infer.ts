/**
 * The outside world of a recorded session, inferred (`svc-sandbox record`, docs/scenarios.md,
 * "Recorded sessions"). In a session against the real service a payment arriving on chain, a KYC
 * decision, a card authorization or time passing shows only as changed answers and webhooks. This
 * model keeps what the replaying sandbox will have been told up to the current step (amounts paid,
 * cardholders verified, transactions made, its clock), compares each answer and webhook with it,
 * and gives the control or clock step that plays the difference. A note (`pay`, `advance`,
 * `control`) tells it the same way, so a change a note played is not inferred again.
 */
import { type InputArgs, type OperationId, operation as operationOf, resolveCall } from '../contract/call.js';
import { matchRoute } from './routes.js';
import type { Session, Step } from './session.js';
import { nextName, takeName } from './steps.js';
import { duration, prefixFor, substitute, substitutePath } from './translate.js';
import { CARD_MOVES, CHAIN_TOKENS, SETTLEMENT_SECONDS, TRANSACTION_MOVES, takeTold } from './world-tables.js';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const num = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

interface CheckoutState {
  id: string;
  status: string;
  amount: number | null;
  currency: string;
  /** what the replay has been told has arrived, and has been refunded */
  told: number;
  refunded: number;
  /** replay seconds since the start at which it expires, and at which it was paid */
  expiresAt: number;
  paidAt: number | null;
}

/** A step the model adds, and why. */
export type Inferred = Step & { inferred: string };

export class OutsideWorld {
  /** replay seconds since the start: the sum of the clock steps so far */
  private elapsed = 0;
  private readonly checkouts = new Map<string, CheckoutState>();
  private readonly holders = new Map<string, { verified: boolean }>();
  private readonly transactions = new Map<string, { status: string }>();
  private readonly deposits = new Set<string>();
  private readonly toldDeposits: { currency: string; amount: number }[] = [];
  /** payouts seen (by id), and those notes made that no webhook has matched yet */
  private readonly payouts = new Set<string>();
  private readonly toldPayouts: { currency: string; amount: number }[] = [];
  /** authorizations notes made per card id, not matched to a transaction yet (their step names) */
  private readonly toldAuthorizations = new Map<string, string[]>();
  private readonly addresses: { chain: string; address: string }[] = [];

  constructor(private readonly s: Session) {}

  private refOf = (v: string) => this.s.refs.get(v);

  // ---- what calls made (their answers) --------------------------------------------------------

  /** Objects a call's answer shows: new ones become known; others are compared (`observe`). */
  answered(
    route: string,
    method: string,
    response: unknown,
    now: number,
    params: Record<string, string> = {},
  ): Inferred[] {
    if (method === 'DELETE' && route === '/v1/checkouts/:id') {
      // The call's own cancellation (204, no body): the replay makes it too.
      const m = this.checkouts.get(params.id ?? '');
      if (m) m.status = 'cancelled';
      return [];
    }
    if (route === '/v1/static-addresses' && Array.isArray(response)) {
      for (const a of response)
        if (isObject(a) && str(a.chain) && str(a.address))
          this.addresses.push({ chain: String(a.chain), address: String(a.address) });
      return [];
    }
    if (method === 'POST' && route === '/v1/checkouts' && isObject(response)) {
      this.newCheckout(response, now);
      return [];
    }
    if (method === 'POST' && route === '/v1/checkouts/:id/refund' && isObject(response)) {
      // The call's own refund: the replay makes it too (its answer is compared below as any other).
      const m = this.checkouts.get(str(response.id) ?? '');
      if (m) m.refunded = Math.max(m.refunded, num(response.refunded_amount) ?? 0);
    }
    if (method === 'POST' && route === '/v1/cardholders' && isObject(response)) {
      const id = str(response.id);
      if (id) this.holders.set(id, { verified: response.is_kyc_verified === true });
      return [];
    }
    const items = Array.isArray(response) ? response : [response];
    const out: Inferred[] = [];
    const seen = `${method} ${route.replace(/:(\w+)/g, '{$1}')}`;
    for (const item of items) {
      if (!isObject(item)) continue;
      if (route.startsWith('/v1/checkouts')) out.push(...this.checkout(item, seen));
      else if (route.startsWith('/v1/cardholders') && !route.includes('/cards'))
        out.push(...this.holder(item, seen));
    }
    return out;
  }

  private newCheckout(co: Json, now: number): void {
    const id = str(co.id);
    if (!id) return;
    const expires = Date.parse(str(co.expires_at) ?? '');
    const created = Date.parse(str(co.created_at) ?? '') || now;
    const left = Number.isNaN(expires) ? 30 * 86_400 : Math.max(0, Math.round((expires - created) / 1000));
    this.checkouts.set(id, {
      id,
      status: str(co.status) ?? 'active',
      amount: num(co.amount) ?? null,
      currency: str(co.currency) ?? 'USDC',
      told: 0,
      refunded: 0,
      expiresAt: this.elapsed + left,
      paidAt: null,
    });
  }

  // ---- webhooks -------------------------------------------------------------------------------

  /** A webhook's event compared with the model. */
  webhook(type: string, data: unknown): Inferred[] {
    if (!isObject(data)) return [];
    const seen = `${type} webhook`;
    if (type.startsWith('checkout.')) return this.checkout(data, seen);
    if (type === 'deposit.received') return this.deposit(data, seen);
    if (type === 'card.transaction') return this.cardTransaction(data, seen);
    if (type === 'payout.completed' || type === 'payout.failed') return this.payout(data, seen);
    return [];
  }

  // ---- checkouts ------------------------------------------------------------------------------

  private checkout(co: Json, seen: string): Inferred[] {
    const m = this.checkouts.get(str(co.id) ?? '');
    if (!m) return [];
    const out: Inferred[] = [];
    const status = str(co.status);
    const settledStates = ['paid', 'completed'];
    const paid =
      num(co.paid_amount) ??
      (status && settledStates.includes(status) ? (num(co.amount) ?? undefined) : undefined);
    if (paid !== undefined && paid > m.told && m.status === 'active') {
      const amount = paid - m.told;
      out.push(
        this.step(
          'sandboxPayCheckout',
          { params: { id: m.id }, body: { amount } },
          `${seen}: ${amount} ${m.currency} (minor units) arrived, paid_amount ${m.told} → ${paid}`,
        ),
      );
      this.pay(m, amount);
    } else if (paid === undefined && m.told === 0 && m.status === 'active' && str(co.payer_address)) {
      // A payer but no paid amount: part of the amount arrived, and the answer does not say how
      // much. The least payment stands for it (the answer looks the same); a later answer's total
      // (paid, or partial at expiry) adds the rest, and a note can tell the amount instead.
      out.push(
        this.step(
          'sandboxPayCheckout',
          { params: { id: m.id }, body: { amount: 1 } },
          `${seen}: payer_address appeared with no paid_amount: part of the amount arrived, how much the answer does not show (1 minor unit stands for it; \`pay <checkout> <amount>\` tells it)`,
        ),
      );
      this.pay(m, 1);
    }
    if ((status === 'expired' || status === 'partial') && m.status === 'active') {
      out.push(this.clock(m.expiresAt + 1 - this.elapsed, `${seen}: the checkout expired (${status})`));
    }
    if (status === 'completed' && m.status === 'paid' && m.paidAt !== null) {
      out.push(
        this.clock(
          m.paidAt + SETTLEMENT_SECONDS - this.elapsed,
          `${seen}: settled, about a minute after it was paid`,
        ),
      );
    }
    const refunded = num(co.refunded_amount);
    if (refunded !== undefined && refunded > m.refunded && m.told > 0) {
      // More refunded than any refund call made: the merchant refunded in the service's dashboard.
      const reason = str(co.reason);
      out.push(
        this.step(
          'sandboxRefundCheckout',
          { params: { id: m.id }, body: { amount: refunded - m.refunded, ...(reason ? { reason } : {}) } },
          `${seen}: refunded_amount ${m.refunded} → ${refunded} with no refund call (refunded in the service's dashboard)`,
        ),
      );
      m.refunded = refunded;
    }
    if (status === 'cancelled' && m.status !== 'cancelled') {
      out.push(
        this.step(
          'sandboxCancelCheckout',
          { params: { id: m.id } },
          `${seen}: cancelled with no cancelling call (cancelled in the service's dashboard)`,
        ),
      );
    }
    // What calls do to it (refunds) is the replay's own doing: taken as it is.
    if (status && ['cancelled', 'partially_refunded', 'refunded'].includes(status)) m.status = status;
    return out;
  }

  private pay(m: CheckoutState, amount: number): void {
    m.told += amount;
    if (m.status === 'active' && (m.amount === null || m.told >= m.amount)) {
      m.status = 'paid';
      m.paidAt = this.elapsed;
    }
  }

  // ---- cardholders ----------------------------------------------------------------------------

  private holder(h: Json, seen: string): Inferred[] {
    const id = str(h.id) ?? '';
    const m = this.holders.get(id);
    if (!m || m.verified || h.is_kyc_verified !== true) return [];
    m.verified = true;
    return [
      this.step(
        'sandboxReviewCardholderKyc',
        { params: { id }, body: { result: 'approved' } },
        `${seen}: is_kyc_verified false → true (the identity provider approved)`,
      ),
    ];
  }

  // ---- deposits -------------------------------------------------------------------------------

  private deposit(d: Json, seen: string): Inferred[] {
    const txid = str(d.txid);
    const amount = num(d.amount);
    const currency = str(d.currency);
    if (!txid || amount === undefined || !currency || this.deposits.has(txid)) return [];
    this.deposits.add(txid);
    if (takeTold(this.toldDeposits, currency, amount)) return [];
    const accepts = (chain: string) => CHAIN_TOKENS[chain]?.includes(currency.toUpperCase()) === true;
    const address = this.addresses.find((a) => accepts(a.chain));
    const why = `${seen}: ${amount} ${currency} (minor units) arrived at a static address`;
    if (address)
      return [
        this.step(
          'sandboxCreateStaticAddressDeposit',
          { params: { address: address.address }, body: { currency, amount, txid } },
          why,
        ),
      ];
    const chain = Object.keys(CHAIN_TOKENS).find(accepts) ?? 'ethereum';
    const merchant = str(d.merchant_id) ?? [...this.s.merchants.keys()][0] ?? '';
    return [
      this.step(
        'sandboxCreateDeposit',
        { body: { merchant_id: merchant, chain, currency, amount, txid } },
        why,
      ),
    ];
  }

  // ---- payouts --------------------------------------------------------------------------------

  /**
   * A payout is made in the service's dashboard, never through the API: its webhook is the only
   * sign of it, and the control step that plays it gives the same outcome.
   */
  private payout(p: Json, seen: string): Inferred[] {
    const id = str(p.id);
    const amount = num(p.amount);
    const currency = str(p.currency);
    const merchant = str(p.merchant_id);
    const outcome = str(p.status);
    if (!id || amount === undefined || !currency || !merchant || this.payouts.has(id)) return [];
    if (outcome !== 'completed' && outcome !== 'failed') return [];
    this.payouts.add(id);
    if (takeTold(this.toldPayouts, currency, amount)) return [];
    const destination = str(p.destination);
    const reason = str(p.failure_reason);
    return [
      this.step(
        'sandboxCreatePayout',
        {
          body: {
            merchant_id: merchant,
            ...(p.env === 'production' ? { env: 'production' as const } : {}),
            amount,
            currency,
            ...(destination ? { destination } : {}),
            outcome,
            ...(outcome === 'failed' && reason ? { failure_reason: reason } : {}),
          },
        },
        `${seen}: ${amount} ${currency} (minor units) paid out from the service's dashboard (${outcome})`,
      ),
    ];
  }

  // ---- card transactions ----------------------------------------------------------------------

  private cardTransaction(tx: Json, seen: string): Inferred[] {
    const id = str(tx.id);
    const status = str(tx.status);
    if (!id || !status) return [];
    const out: Inferred[] = [];
    let known = this.transactions.get(id);
    if (!known) {
      const card = str(tx.card_id) ?? '';
      if (!this.refOf(card)) return [];
      const type = str(tx.type) ?? 'card_payment';
      const told = this.toldAuthorizations.get(card)?.shift();
      if (told !== undefined && type === 'card_payment') {
        this.s.refs.set(id, `${told}.id`);
        known = { status: 'requested' };
      } else {
        const operation = CARD_MOVES[type];
        if (!operation) return [];
        const body = { amount: Math.abs(num(tx.amount) ?? 0) } as Json & { amount: number };
        if (str(tx.currency)) body.currency = tx.currency;
        if (str(tx.merchant_name)) body.merchant_name = tx.merchant_name;
        const local = Math.abs(num(tx.local_amount) ?? 0);
        if (local > 0 && str(tx.local_currency)) {
          body.local_amount = local;
          body.local_currency = tx.local_currency;
        }
        const step = this.step(
          operation,
          { params: { id: card }, body },
          `${seen}: the card network sent a ${type} (${status})`,
        );
        const prefix = prefixFor(operationOf(operation).path);
        const name = nextName(this.s, prefix);
        takeName(this.s, prefix, name);
        step.as = name;
        this.s.refs.set(id, `${name}.id`);
        out.push(step);
        known = { status: type === 'card_payment' ? 'requested' : status };
      }
      this.transactions.set(id, known);
    }
    const move = TRANSACTION_MOVES[status];
    if (move && known.status === 'requested') {
      out.push(
        this.step(
          move,
          { params: { id } },
          `${seen}: the card network ${status === 'completed' ? 'settled' : status} the authorization`,
        ),
      );
      known.status = status;
    }
    return out;
  }

  // ---- time -----------------------------------------------------------------------------------

  /** A clock step of at least a second, and what it does to the replay's objects. */
  private clock(seconds: number, why: string): Inferred {
    const whole = Math.max(1, Math.ceil(seconds));
    this.advance(whole);
    return { clock: { advance: duration(whole) }, inferred: why };
  }

  /** The replay's clock moves: what falls due meanwhile happens there (expiry, settlement). */
  advance(seconds: number): void {
    this.elapsed += seconds;
    for (const m of this.checkouts.values()) {
      if (m.status === 'active' && m.expiresAt <= this.elapsed) m.status = m.told > 0 ? 'partial' : 'expired';
      if (m.status === 'paid' && m.paidAt !== null && m.paidAt + SETTLEMENT_SECONDS <= this.elapsed)
        m.status = 'completed';
    }
  }

  // ---- notes ----------------------------------------------------------------------------------

  /** The checkout a note names: a step name (`co1`) or the service's id. */
  checkoutId(name: string): string | undefined {
    if (this.checkouts.has(name)) return name;
    return [...this.checkouts.keys()].find((id) => this.refOf(id) === `${name}.id`);
  }

  /**
   * What a control step a note wrote tells the replay (path and body with the service's ids), so
   * the same change is not inferred again.
   */
  told(method: string, path: string, body: unknown): void {
    const { operationId, params } = matchRoute(method, path);
    const b = isObject(body) ? body : {};
    const id = params.id ?? '';
    const m = this.checkouts.get(id);
    const transfer =
      str(b.currency) && num(b.amount) !== undefined
        ? { currency: String(b.currency), amount: num(b.amount)! }
        : null;
    switch (operationId) {
      case 'sandboxPayCheckout':
        if (m) this.pay(m, num(b.amount) ?? Math.max(0, (m.amount ?? 0) - m.told));
        break;
      case 'sandboxAdvanceClock':
        this.advance(num(b.seconds) ?? 0);
        break;
      case 'sandboxReviewCardholderKyc': {
        const holder = this.holders.get(id);
        if (holder && b.result === 'approved') holder.verified = true;
        break;
      }
      case 'sandboxCreateDeposit':
      case 'sandboxCreateStaticAddressDeposit':
        if (str(b.txid)) this.deposits.add(String(b.txid));
        else if (transfer) this.toldDeposits.push(transfer);
        break;
      case 'sandboxCancelCheckout':
        if (m) m.status = 'cancelled';
        break;
      case 'sandboxRefundCheckout':
        if (m) m.refunded += num(b.amount) ?? Math.max(0, m.told - m.refunded);
        break;
      case 'sandboxCreatePayout':
        if (transfer) this.toldPayouts.push(transfer);
        break;
      default: {
        const to = Object.entries(TRANSACTION_MOVES).find(([, op]) => op === operationId)?.[0];
        const tx = this.transactions.get(id);
        if (tx && to) tx.status = to;
      }
    }
  }

  /** A note's control step that makes an authorization on a card: the next unknown transaction is it. */
  toldAuthorization(cardId: string, stepName: string): void {
    const list = this.toldAuthorizations.get(cardId) ?? [];
    list.push(stepName);
    this.toldAuthorizations.set(cardId, list);
  }

  // ---- steps ----------------------------------------------------------------------------------

  /** A control step of an operation, the service's ids and addresses in it written as references. */
  private step<K extends OperationId>(operation: K, input: InputArgs<K>[0], why: string): Inferred {
    const call = resolveCall(operation, ...([input] as InputArgs<K>));
    const step: Step = { control: `${call.method} ${substitutePath(call.path, this.refOf)}` };
    if (call.body !== undefined) step.body = substitute(call.body, this.refOf);
    return { ...step, inferred: why };
  }
}
