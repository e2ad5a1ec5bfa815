import type { Clock } from '../../clock.js';
import type { DepositRow, FundsRepo, PayoutRow } from '../../db/funds.js';
import type { MerchantsRepo } from '../../db/merchants.js';
import type { StaticAddressesRepo } from '../../db/static-addresses.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import type { Ids } from '../../ids.js';
import type { Settings } from '../../schemas/settings.js';
import { generateTxid } from '../../simulate/addresses.js';
import type { EventRecorder } from '../events/recorder.js';
import { Accounts, type Ledger } from '../ledger/service.js';
import type { Env } from '../types.js';

export interface FundsDeps {
  repo: FundsRepo;
  merchants: MerchantsRepo;
  addresses: StaticAddressesRepo;
  ledger: Ledger;
  events: EventRecorder;
  clock: Clock;
  ids: Ids;
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

export interface PayoutInput {
  merchant_id: string;
  env: Env;
  amount: number;
  currency: string;
  destination?: string | undefined;
  outcome: 'completed' | 'failed';
  failure_reason?: string | undefined;
}

export type Deposit = Omit<DepositRow, 'env'> & { env: Env };
export type Payout = Omit<PayoutRow, 'env'> & { env: Env };

/** Money arriving at static addresses and leaving to external accounts, through the ledger. */
export class FundsService {
  constructor(private readonly deps: FundsDeps) {}

  /** A transfer to a merchant's static address: credited on confirmation, emits deposit.received. */
  deposit(input: DepositInput): Deposit {
    this.merchant(input.merchant_id);
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
    const address = this.deps.addresses
      .list(input.merchant_id, input.env)
      .find((a) => a.chain === chain.chain);
    if (!address)
      throw new NotFoundError('Static address', `${chain.chain} of merchant ${input.merchant_id}`);
    return this.deps.events.transaction(() => {
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
      this.deps.repo.insertDeposit(row);
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
      return { ...row, env: input.env };
    });
  }

  depositToAddress(address: string, input: Omit<DepositInput, 'merchant_id' | 'env' | 'chain'>): Deposit {
    const target = this.deps.addresses.findByAddress(address);
    if (!target) throw new NotFoundError('Static address', address);
    return this.deposit({
      ...input,
      merchant_id: target.merchant_id,
      env: target.env as Env,
      chain: target.chain,
    });
  }

  /**
   * A payout to an external account. `completed` debits the available balance; one larger than
   * the balance fails with the reason. Emits payout.completed or payout.failed with the payout.
   */
  payout(input: PayoutInput): Payout {
    this.merchant(input.merchant_id);
    const currency = input.currency.toUpperCase();
    return this.deps.events.transaction(() => {
      const available = this.deps.ledger.balance(input.env, Accounts.available(input.merchant_id), currency);
      let status: PayoutRow['status'] = input.outcome;
      let reason: string | null = null;
      if (status === 'failed') {
        reason = input.failure_reason ?? 'Payout rejected by the receiving institution';
      } else if (input.amount > available) {
        status = 'failed';
        reason = `Insufficient balance: available ${available} ${currency}, requested ${input.amount}`;
      }
      const row: PayoutRow = {
        id: this.deps.ids.uuid(),
        merchant_id: input.merchant_id,
        env: input.env,
        amount: input.amount,
        currency,
        destination: input.destination ?? null,
        status,
        failure_reason: reason,
        created_at: this.deps.clock.nowIso(),
      };
      this.deps.repo.insertPayout(row);
      if (status === 'completed') {
        this.deps.ledger.post(input.env, 'payout', row.id, [
          { account: Accounts.available(row.merchant_id), currency, amount: -row.amount },
          { account: Accounts.world, currency, amount: row.amount },
        ]);
      }
      const payout: Payout = { ...row, env: input.env };
      this.deps.events.record(
        input.env,
        row.merchant_id,
        status === 'completed' ? 'payout.completed' : 'payout.failed',
        {
          ...payout,
        },
      );
      return payout;
    });
  }

  /** Test set-up: credits a merchant's available balance from the outside world, through the ledger. */
  credit(merchantId: string, env: Env, currency: string, amount: number, memo?: string): void {
    this.merchant(merchantId);
    this.deps.events.transaction(() => {
      this.deps.ledger.post(
        env,
        'credit',
        merchantId,
        [
          { account: Accounts.world, currency: currency.toUpperCase(), amount: -amount },
          { account: Accounts.available(merchantId), currency: currency.toUpperCase(), amount },
        ],
        memo ?? 'sandbox credit',
      );
    });
  }

  deposits(merchantId: string, env: Env, limit = 100): DepositRow[] {
    this.merchant(merchantId);
    return this.deps.repo.deposits(merchantId, env, limit);
  }

  payouts(merchantId: string, env: Env, limit = 100): PayoutRow[] {
    this.merchant(merchantId);
    return this.deps.repo.payouts(merchantId, env, limit);
  }

  private merchant(id: string): void {
    if (!this.deps.merchants.findById(id)) throw new NotFoundError('Merchant', id);
  }
}
