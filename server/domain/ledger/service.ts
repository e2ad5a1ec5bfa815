import type { Clock } from '../../clock.js';
import type { LedgerRepo } from '../../db/ledger.js';
import { BusinessRuleError } from '../../errors.js';
import type { Ids } from '../../ids.js';
import type { Env } from '../types.js';

/** Named accounts. A positive entry increases the account's balance; every transaction sums to 0. */
export const Accounts = {
  available: (merchantId: string) => `merchant:${merchantId}:available`,
  /** Detected on-chain but not yet settled to the merchant. */
  pending: (merchantId: string) => `merchant:${merchantId}:pending`,
  /** Platform and reseller fees of settled checkouts during the 7-day hold. */
  feesHeld: (merchantId: string) => `merchant:${merchantId}:fees_held`,
  platformFees: 'platform:fees',
  platformGas: 'platform:gas',
  resellerFees: (resellerId: string) => `reseller:${resellerId}:fees`,
  /** Transfers the service received but credits to no one (a payment after a checkout closed). */
  unmatched: 'platform:unmatched',
  /** Customers, chains and banks: where money comes from and goes to. */
  world: 'world',
} as const;

export interface Entry {
  account: string;
  currency: string;
  amount: number;
}

export interface Balance {
  currency: string;
  available: number;
  held: number;
}

export class LedgerError extends Error {}

/**
 * The ceiling of every account balance, in minor units (2^53 − 1: the largest integer JSON and
 * JavaScript carry exactly). A posting that would cross it is refused before anything is written,
 * so no sequence of valid calls can overflow a balance or lose precision.
 */
export const MAX_BALANCE = Number.MAX_SAFE_INTEGER;

export class Ledger {
  constructor(
    private readonly repo: LedgerRepo,
    private readonly clock: Clock,
    private readonly ids: Ids,
  ) {}

  /** Posts one balanced transaction. Must run inside the caller's database transaction. */
  post(
    env: Env,
    kind: string,
    refId: string | null,
    entries: readonly Entry[],
    memo: string | null = null,
  ): string {
    const sums = new Map<string, number>();
    for (const entry of entries) {
      if (!Number.isSafeInteger(entry.amount))
        throw new LedgerError(`non-integer amount on ${entry.account}`);
      sums.set(entry.currency, (sums.get(entry.currency) ?? 0) + entry.amount);
    }
    for (const [currency, sum] of sums) {
      if (sum !== 0) throw new LedgerError(`unbalanced ${kind}: ${currency} entries sum to ${sum}`);
    }
    const id = this.ids.uuid();
    this.repo.insertTransaction({ id, env, kind, ref_id: refId, memo, created_at: this.clock.nowIso() });
    for (const entry of entries) {
      if (entry.amount === 0) continue;
      const balance = this.repo.addToBalance(env, entry.account, entry.currency, entry.amount);
      if (Math.abs(balance) > MAX_BALANCE) {
        // Thrown inside the caller's transaction: nothing of this posting is written.
        throw new BusinessRuleError(
          `Amount ceiling: this would take ${entry.account} to ${balance} ${entry.currency}; balances are kept within ±${MAX_BALANCE} minor units`,
        );
      }
      this.repo.insertEntry({ tx_id: id, env, ...entry });
    }
    return id;
  }

  balance(env: Env, account: string, currency: string): number {
    return this.repo.balance(env, account, currency);
  }

  /** Sums per account and currency for many accounts in one query. */
  balancesOf(env: Env, accounts: string[]) {
    return this.repo.balances(env, accounts);
  }

  merchantBalances(env: Env, merchantId: string): Balance[] {
    const available = Accounts.available(merchantId);
    const byCurrency = new Map<string, Balance>();
    for (const row of this.repo.balances(env, [available, Accounts.pending(merchantId)])) {
      const balance = byCurrency.get(row.currency) ?? { currency: row.currency, available: 0, held: 0 };
      if (row.account === available) balance.available = row.total;
      else balance.held = row.total;
      byCurrency.set(row.currency, balance);
    }
    return [...byCurrency.values()];
  }

  /**
   * Every merchant's balances at this moment, keyed `merchantId env currency`: a baseline to
   * measure what later work moved (a recording's balance expectations).
   */
  merchantBalancesNow(): Map<string, { available: number; held: number }> {
    const out = new Map<string, { available: number; held: number }>();
    for (const row of this.repo.storedBalances()) {
      const [owner, merchantId, kind] = row.account.split(':');
      if (owner !== 'merchant' || (kind !== 'available' && kind !== 'pending')) continue;
      const key = `${merchantId} ${row.env} ${row.currency}`;
      const balance = out.get(key) ?? { available: 0, held: 0 };
      if (kind === 'available') balance.available = row.balance;
      else balance.held = row.balance;
      out.set(key, balance);
    }
    return out;
  }

  merchantTransactions(env: Env, merchantId: string, limit = 100) {
    // The merchant's accounts, including its fees on hold (so the 7-day release shows too).
    const txs = this.repo.transactionsOf(
      env,
      [Accounts.available(merchantId), Accounts.pending(merchantId), Accounts.feesHeld(merchantId)],
      limit,
    );
    const entries = this.repo.entriesOf(txs.map((t) => t.id));
    return txs.map((tx) => ({
      ...tx,
      entries: entries
        .filter((e) => e.tx_id === tx.id)
        .map(({ account, currency, amount }) => ({ account, currency, amount })),
    }));
  }
}
