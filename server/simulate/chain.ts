import { generateTxid, isValidAddress } from '../addresses/formats.js';
import type { AddressSource } from '../addresses/source.js';
import type { Clock } from '../clock.js';
import type { Checkout, CheckoutPayment, CryptoChain, SimulatePaymentBody } from '../contract/checkouts.js';
import type { Env } from '../contract/common.js';
import type { DepositBurst } from '../contract/funds.js';
import type { Settings } from '../contract/settings.js';
import type { CheckoutRow } from '../db/checkouts.js';
import type { DepositRow, FundsRepo } from '../db/funds.js';
import type { StaticAddressesRepo } from '../db/static-addresses.js';
import type { UnitOfWork } from '../db/unit-of-work.js';
import type { CheckoutLifecycle, IncomingPayment } from '../domain/checkouts/lifecycle.js';
import type { EventRecorder } from '../domain/events/recorder.js';
import type { FundsService } from '../domain/funds/service.js';
import { Accounts, type Ledger } from '../domain/ledger/service.js';
import { checkoutStates } from '../domain/state.js';
import { BusinessRuleError, NotFoundError, ValidationError } from '../errors.js';
import type { Ids } from '../ids.js';

const noChain = { target: null, tokenEntry: null } as const;

export interface ChainDeps {
  lifecycle: CheckoutLifecycle;
  funds: Pick<FundsService, 'merchant'>;
  fundsRepo: Pick<FundsRepo, 'insertDeposit' | 'depositByTxid'>;
  addresses: Pick<StaticAddressesRepo, 'list' | 'findByAddress'>;
  ledger: Ledger;
  events: Pick<EventRecorder, 'record'>;
  unit: Pick<UnitOfWork, 'atomically'>;
  clock: Clock;
  ids: Ids;
  /** payer addresses for payments that name none */
  addressSource: Pick<AddressSource, 'next'>;
  settings: () => Settings;
}

export interface DepositInput {
  merchant_id: string;
  env: Env;
  chain: string;
  currency: string;
  amount: number;
  txid?: string | undefined;
}

/**
 * The blockchain (and the fiat provider), played by the sandbox: transfers to a checkout's deposit
 * addresses, confirmation (settle now), expiry now, and transfers to static addresses.
 */
export class ChainSimulator {
  constructor(private readonly deps: ChainDeps) {}

  /**
   * A transfer (or a fiat payment) detected for a checkout: full, partial or over; `late` (after it
   * closed) or on a chain it does not offer (`unsupported_chain`), both recorded and not credited.
   */
  pay(id: string, body: SimulatePaymentBody): { checkout: Checkout; payment: CheckoutPayment } {
    const { lifecycle } = this.deps;
    if (body.late && body.unsupported_chain) {
      throw new ValidationError(
        'late',
        'cannot be combined with unsupported_chain (a transfer on a chain the checkout does not offer is never detected, early or late)',
      );
    }
    const found = lifecycle.find(id);
    if (body.txid !== undefined) {
      const seen = this.seenPayment(found, body.txid);
      if (seen) return seen;
    }
    const method = body.method ?? (found.method === 'fiat' ? 'fiat' : 'crypto');
    if (method === 'fiat' && found.method === 'crypto')
      throw new BusinessRuleError('Checkout does not accept fiat payment');
    if (method === 'crypto' && found.method === 'fiat')
      throw new BusinessRuleError('Checkout does not accept crypto payment');
    if (body.unsupported_chain) return this.payOnUnsupportedChain(found, body, method);
    // The expiry wins a tie: a transfer detected at or after expires_at comes after the expiry,
    // whether or not the scheduler has run the expiry job yet (it runs on the next tick).
    const overdue = found.status === 'active' && Date.parse(found.expires_at) <= this.deps.clock.now();
    if (!body.late && !overdue) {
      // Only an active checkout receives transfers (the table's only way to `paid`).
      checkoutStates.assert(
        found.status,
        'paid',
        `Checkout is not active (status: ${found.status}); send late: true to play a transfer that arrives after it closed`,
      );
    }
    const { target, tokenEntry } = method === 'crypto' ? this.offered(found, body) : noChain;
    const amount = body.amount ?? (found.amount === null ? null : found.amount - found.received_amount);
    if (amount === null || amount <= 0) {
      throw new ValidationError(
        'amount',
        'required for an open-amount checkout or one already fully received',
      );
    }
    const incoming = this.incoming(method, target?.chain ?? null, tokenEntry, amount, body);
    return this.deps.unit.atomically(() => {
      if (found.status === 'active' && !body.late && !overdue) {
        const result = lifecycle.receive(found, incoming);
        return { checkout: lifecycle.present(result.row), payment: result.payment };
      }
      const closed = found.status === 'active' ? lifecycle.expire(found) : found;
      const payment = lifecycle.recordUncounted(closed, incoming, 'late');
      return { checkout: lifecycle.present(closed), payment };
    });
  }

  /**
   * A transfer the chain already reported (its txid seen before) is the same transfer: the first
   * payment comes back with the checkout as it is now, and nothing is credited or recorded again.
   */
  private seenPayment(
    row: CheckoutRow,
    txid: string,
  ): { checkout: Checkout; payment: CheckoutPayment } | null {
    const seen = this.deps.lifecycle.paymentByTxid(txid);
    if (!seen) return null;
    if (seen.checkout_id !== row.id) {
      throw new ValidationError('txid', `already reported as a payment to checkout ${seen.checkout_id}`);
    }
    return { checkout: this.deps.lifecycle.present(row), payment: seen };
  }

  /**
   * A transfer on a known chain the checkout does not offer, to one of its deposit addresses whose
   * format that chain shares (an EVM address on another EVM chain): recorded, never credited.
   */
  private payOnUnsupportedChain(
    row: CheckoutRow,
    body: SimulatePaymentBody,
    method: 'crypto' | 'fiat',
  ): { checkout: Checkout; payment: CheckoutPayment } {
    if (method === 'fiat') throw new ValidationError('unsupported_chain', 'applies to crypto transfers only');
    if (body.chain === undefined) throw new ValidationError('chain', 'required with unsupported_chain');
    const known = this.deps.settings().chains;
    const chain = known.find((c) => c.chain.toLowerCase() === body.chain!.toLowerCase());
    if (!chain) {
      throw new ValidationError(
        'chain',
        `unknown chain ${body.chain} (one of ${known.map((c) => c.chain).join(', ')})`,
      );
    }
    const offered = JSON.parse(row.crypto_chains) as CryptoChain[];
    if (offered.some((c) => c.chain === chain.chain)) {
      throw new BusinessRuleError(
        `Checkout offers ${chain.chain}: a transfer there is a payment (drop unsupported_chain)`,
      );
    }
    const reachable = offered.find((c) => isValidAddress(chain.chain, c.address));
    if (!reachable) {
      throw new BusinessRuleError(
        `No deposit address of this checkout is valid on ${chain.chain} (chains: ${offered.map((c) => c.chain).join(', ') || 'none'})`,
      );
    }
    const token = body.token
      ? chain.tokens.find((t) => t.name.toUpperCase() === body.token!.toUpperCase())
      : chain.tokens[0];
    if (!token) {
      throw new ValidationError(
        'token',
        `${body.token} is not a token of ${chain.chain} (tokens: ${chain.tokens.map((t) => t.name).join(', ')})`,
      );
    }
    const amount =
      body.amount ?? (row.amount === null ? null : Math.max(row.amount - row.received_amount, 0));
    if (amount === null || amount <= 0) {
      throw new ValidationError(
        'amount',
        'required for an open-amount checkout or one already fully received',
      );
    }
    const incoming = this.incoming('crypto', chain.chain, { name: token.name, gas_fee: 0 }, amount, body);
    const payment = this.deps.lifecycle.recordUncounted(row, incoming, 'unsupported_chain');
    return { checkout: this.deps.lifecycle.present(row), payment };
  }

  /** The offered chain and token a crypto transfer uses (the first of each unless named). */
  private offered(
    row: CheckoutRow,
    body: SimulatePaymentBody,
  ): { target: CryptoChain; tokenEntry: { name: string; gas_fee: number } } {
    const chains = JSON.parse(row.crypto_chains) as CryptoChain[];
    const target = body.chain
      ? chains.find((c) => c.chain.toLowerCase() === body.chain!.toLowerCase())
      : chains[0];
    if (!target) {
      throw new BusinessRuleError(
        `Checkout has no deposit address on chain ${body.chain} (chains: ${chains.map((c) => c.chain).join(', ') || 'none'}); send unsupported_chain: true to play a transfer on it`,
      );
    }
    const tokenEntry = body.token
      ? target.tokens.find((t) => t.name.toUpperCase() === body.token!.toUpperCase())
      : target.tokens[0];
    if (!tokenEntry) {
      throw new BusinessRuleError(
        `Token ${body.token} is not accepted on ${target.chain} for this checkout (tokens: ${target.tokens.map((t) => t.name).join(', ')})`,
      );
    }
    return { target, tokenEntry };
  }

  /** The transfer as the chain reports it: payer and txid as given, else made up for the chain. */
  private incoming(
    method: 'crypto' | 'fiat',
    chain: string | null,
    token: { name: string; gas_fee: number } | null,
    amount: number,
    body: SimulatePaymentBody,
  ): IncomingPayment {
    if (method === 'fiat' || chain === null || token === null) {
      return { method, chain: null, token: null, amount, payer_address: null, txid: null, gas_fee: 0 };
    }
    if (body.payer_address !== undefined && !isValidAddress(chain, body.payer_address)) {
      throw new ValidationError('payer_address', `not a valid ${chain} address`);
    }
    return {
      method,
      chain,
      token: token.name,
      amount,
      payer_address: body.payer_address ?? this.deps.addressSource.next(chain),
      txid: body.txid ?? generateTxid(chain, this.deps.ids),
      gas_fee: token.gas_fee,
    };
  }

  /** Confirmation now: a paid checkout settles without waiting for the settlement delay. */
  complete(id: string): Checkout {
    const row = this.deps.lifecycle.find(id);
    return this.deps.lifecycle.present(
      this.deps.lifecycle.settle(row, `Only a paid checkout can be completed (status: ${row.status})`),
    );
  }

  /** Expiry now: `partial` if anything arrived, else `expired`. */
  expire(id: string): Checkout {
    const row = this.deps.lifecycle.find(id);
    checkoutStates.assert(
      row.status,
      'expired',
      `Only an active checkout can expire (status: ${row.status})`,
    );
    return this.deps.lifecycle.present(this.deps.lifecycle.expire(row));
  }

  /** Cancelled from the dashboard (any merchant, either environment). */
  cancel(id: string): Checkout {
    return this.deps.lifecycle.present(this.deps.lifecycle.cancel(this.deps.lifecycle.find(id)));
  }

  /**
   * A transfer to a merchant's static address: credited on confirmation, emits deposit.received.
   * A txid already seen is the same transfer reported again: the first deposit, nothing credited.
   */
  deposit(input: DepositInput): DepositRow {
    if (input.txid !== undefined) {
      const seen = this.deps.fundsRepo.depositByTxid(input.txid);
      if (seen) return this.sameTransfer(seen, input);
    }
    const addresses = this.deps.addresses.list(input.merchant_id, input.env);
    // A merchant with addresses exists (they go with it): only without any is it looked up, so
    // an unknown merchant is still the first error.
    if (addresses.length === 0) this.deps.funds.merchant(input.merchant_id);
    const chain = this.deps
      .settings()
      .chains.find((c) => c.chain.toLowerCase() === input.chain.toLowerCase());
    if (!chain) {
      const known = this.deps.settings().chains.map((c) => c.chain);
      throw new ValidationError('chain', `unknown chain ${input.chain} (one of ${known.join(', ')})`);
    }
    const currency = input.currency.toUpperCase();
    if (!chain.tokens.some((t) => t.name === currency)) {
      throw new ValidationError(
        'currency',
        `${currency} is not accepted on ${chain.chain} (accepts ${chain.tokens.map((t) => t.name).join(', ')})`,
      );
    }
    const address = addresses.find((a) => a.chain === chain.chain);
    if (!address)
      throw new NotFoundError('Static address', `${chain.chain} of merchant ${input.merchant_id}`);
    return this.deps.unit.atomically(() => {
      const row: DepositRow = {
        id: this.deps.ids.uuid(),
        merchant_id: input.merchant_id,
        env: input.env,
        chain: chain.chain,
        address: address.address,
        currency,
        amount: input.amount,
        txid: input.txid ?? generateTxid(chain.chain, this.deps.ids),
        created_at: this.deps.clock.nowIso(),
      };
      this.deps.fundsRepo.insertDeposit(row);
      this.deps.ledger.post(input.env, 'deposit', row.id, [
        { account: Accounts.world, currency, amount: -row.amount },
        { account: Accounts.available(row.merchant_id), currency, amount: row.amount },
      ]);
      this.deps.events.record(
        input.env,
        row.merchant_id,
        'deposit.received',
        { merchant_id: row.merchant_id, amount: row.amount, currency, txid: row.txid },
        row.id,
      );
      return row;
    });
  }

  /**
   * A burst: `count` transfers of `amount` to the same static address in one block (one sandbox
   * instant, one transaction), each its own deposit with its own txid and deposit.received, in
   * order. All or none: a refused burst records nothing.
   */
  depositBurst(input: Omit<DepositInput, 'txid'>, count: number): DepositBurst {
    const total = input.amount * count;
    if (!Number.isSafeInteger(total)) {
      throw new ValidationError('count', 'amount × count is above the largest amount kept exactly');
    }
    return this.deps.unit.atomically(() => {
      const deposits: DepositRow[] = [];
      for (let i = 0; i < count; i++) deposits.push(this.deposit(input));
      return { count, total, deposits };
    });
  }

  /** The first deposit of a txid, unless the repeat names another merchant or environment. */
  private sameTransfer(seen: DepositRow, input: DepositInput): DepositRow {
    if (seen.merchant_id !== input.merchant_id || seen.env !== input.env) {
      throw new ValidationError(
        'txid',
        `already reported as a deposit to merchant ${seen.merchant_id} (${seen.env})`,
      );
    }
    return seen;
  }

  depositToAddress(address: string, input: Omit<DepositInput, 'merchant_id' | 'env' | 'chain'>): DepositRow {
    const target = this.deps.addresses.findByAddress(address);
    if (!target) throw new NotFoundError('Static address', address);
    return this.deposit({
      ...input,
      merchant_id: target.merchant_id,
      env: target.env,
      chain: target.chain,
    });
  }
}
