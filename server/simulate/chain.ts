import { generateTxid, isValidAddress } from '../addresses/formats.js';
import type { AddressSource } from '../addresses/source.js';
import type { Clock } from '../clock.js';
import type { Checkout, CheckoutPayment, CryptoChain, SimulatePaymentBody } from '../contract/checkouts.js';
import type { Env } from '../contract/common.js';
import type { Settings } from '../contract/settings.js';
import type { DepositRow, FundsRepo } from '../db/funds.js';
import type { StaticAddressesRepo } from '../db/static-addresses.js';
import type { UnitOfWork } from '../db/unit-of-work.js';
import type { CheckoutLifecycle } from '../domain/checkouts/lifecycle.js';
import type { EventRecorder } from '../domain/events/recorder.js';
import type { FundsService } from '../domain/funds/service.js';
import { Accounts, type Ledger } from '../domain/ledger/service.js';
import { checkoutStates } from '../domain/state.js';
import { BusinessRuleError, NotFoundError, ValidationError } from '../errors.js';
import type { Ids } from '../ids.js';

export interface ChainDeps {
  lifecycle: CheckoutLifecycle;
  funds: Pick<FundsService, 'merchant'>;
  fundsRepo: Pick<FundsRepo, 'insertDeposit'>;
  addresses: Pick<StaticAddressesRepo, 'list' | 'findByAddress'>;
  ledger: Ledger;
  events: Pick<EventRecorder, 'record'>;
  unit: Pick<UnitOfWork, 'transaction'>;
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

  /** A transfer (or a fiat payment) detected for a checkout: full, partial or over. */
  pay(id: string, body: SimulatePaymentBody): { checkout: Checkout; payment: CheckoutPayment } {
    const { lifecycle } = this.deps;
    const row = lifecycle.find(id);
    // Only an active checkout receives transfers (the table's only way to `paid`).
    checkoutStates.assert(row.status, 'paid', `Checkout is not active (status: ${row.status})`);
    const method = body.method ?? (row.method === 'fiat' ? 'fiat' : 'crypto');
    if (method === 'fiat' && row.method === 'crypto')
      throw new BusinessRuleError('Checkout does not accept fiat payment');
    if (method === 'crypto' && row.method === 'fiat')
      throw new BusinessRuleError('Checkout does not accept crypto payment');

    let chain: string | null = null;
    let token: string | null = null;
    let gasFee = 0;
    let payer: string | null = null;
    let txid: string | null = null;
    if (method === 'crypto') {
      const chains = JSON.parse(row.crypto_chains) as CryptoChain[];
      const target = body.chain
        ? chains.find((c) => c.chain.toLowerCase() === body.chain!.toLowerCase())
        : chains[0];
      if (!target) {
        throw new BusinessRuleError(
          `Checkout has no deposit address on chain ${body.chain} (chains: ${chains.map((c) => c.chain).join(', ') || 'none'})`,
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
      chain = target.chain;
      token = tokenEntry.name;
      gasFee = tokenEntry.gas_fee;
      if (body.payer_address !== undefined && !isValidAddress(chain, body.payer_address)) {
        throw new ValidationError('payer_address', `not a valid ${chain} address`);
      }
      payer = body.payer_address ?? this.deps.addressSource.next(chain);
      txid = body.txid ?? generateTxid(chain, this.deps.ids);
    }
    const amount = body.amount ?? (row.amount === null ? null : row.amount - row.received_amount);
    if (amount === null) throw new ValidationError('amount', 'required for an open-amount checkout');

    const result = lifecycle.receive(row, {
      method,
      chain,
      token,
      amount,
      payer_address: payer,
      txid,
      gas_fee: gasFee,
    });
    return { checkout: lifecycle.present(result.row), payment: result.payment };
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

  /** A transfer to a merchant's static address: credited on confirmation, emits deposit.received. */
  deposit(input: DepositInput): DepositRow {
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
    return this.deps.unit.transaction(() => {
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
