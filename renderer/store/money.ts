import * as api from '../api/sandbox';
import type {
  Balance,
  ChainConfig,
  LedgerTransaction,
  Payout,
  PayoutInput,
  StaticAddress,
} from '../api/types';
import { formatAmount } from '../lib/format';
import { currentScope, serialized, stillCurrent } from './merchant-scope';
import { attempt, scopedChange } from './notices';
import type { Slice } from './types';

export interface MoneySlice {
  balances: Balance[];
  staticAddresses: StaticAddress[];
  ledger: LedgerTransaction[];
  payouts: Payout[];
  /** The scope the money data was read for. */
  moneyScope: string | null;
  /** The chain catalogue (sandbox settings): which tokens each chain accepts. */
  chains: ChainConfig[];
  loadMoney: () => Promise<void>;
  /** `count` above 1: that many transfers of `amount` in the same block (a burst). */
  sendToAddress: (
    address: StaticAddress,
    currency: string,
    amount: number,
    count?: number,
  ) => Promise<boolean>;
  /** A payout in the current scope: the body of POST /sandbox/payouts without merchant and env. */
  createPayout: (input: Omit<PayoutInput, 'merchant_id' | 'env'>) => Promise<boolean>;
  creditMerchant: (currency: string, amount: number) => Promise<boolean>;
}

export const createMoneySlice: Slice<MoneySlice> = (set, get) => {
  const load = serialized(async () => {
    const scope = currentScope(get());
    if (!scope) return;
    await attempt(get, async () => {
      const { merchantId, env } = scope;
      const [balances, staticAddresses, ledger, payouts, settings] = await Promise.all([
        api.listBalances(merchantId, env),
        api.listStaticAddresses(merchantId, env),
        api.listLedger(merchantId, env),
        api.listPayouts(merchantId, env),
        api.getSettings(),
      ]);
      if (!stillCurrent(get, scope)) return;
      set({ balances, staticAddresses, ledger, payouts, chains: settings.chains, moneyScope: scope.key });
    });
  });

  /** Runs a change in the current scope, says so, then reads everything again. */
  const change = scopedChange(get, load);

  return {
    balances: [],
    staticAddresses: [],
    ledger: [],
    payouts: [],
    moneyScope: null,
    chains: [],

    loadMoney: load,

    sendToAddress: (address, currency, amount, count = 1) =>
      change(async ({ merchantId, env }) => {
        if (count > 1) {
          const burst = await api.depositBurst({
            merchant_id: merchantId,
            env,
            chain: address.chain,
            currency,
            amount,
            count,
          });
          return `${burst.count} transfers of ${formatAmount(amount)} ${currency} received on ${address.chain} in one block: ${formatAmount(burst.total)} ${currency}.`;
        }
        const deposit = await api.sendToAddress(address.address, { currency, amount });
        return `${formatAmount(deposit.amount)} ${deposit.currency} received on ${deposit.chain}.`;
      }),

    createPayout: (input) =>
      change(async ({ merchantId, env }) => {
        const payout = await api.createPayout({ merchant_id: merchantId, env, ...input });
        const what = `Payout of ${formatAmount(payout.amount)} ${payout.currency}`;
        if (payout.status === 'completed') return `${what} completed.`;
        // A failed payout is a result, not an error of the dashboard: shown as one all the same.
        throw new Error(`${what} failed: ${payout.failure_reason ?? 'no reason given'}.`);
      }),

    creditMerchant: (currency, amount) =>
      change(async ({ merchantId, env }) => {
        await api.creditMerchant(merchantId, { env, currency, amount });
        return `${formatAmount(amount)} ${currency} credited to the available balance.`;
      }),
  };
};
