import type { Clock } from '../clock.js';
import type { Env } from '../contract/common.js';
import type { PayoutStatus } from '../contract/funds.js';
import type { FundsRepo, PayoutRow } from '../db/funds.js';
import type { UnitOfWork } from '../db/unit-of-work.js';
import type { EventRecorder } from '../domain/events/recorder.js';
import type { FundsService } from '../domain/funds/service.js';
import { Accounts, type Ledger } from '../domain/ledger/service.js';
import { formatMoney } from '../domain/money/format.js';
import { payoutStates } from '../domain/state.js';
import type { Ids } from '../ids.js';

export interface PayoutDeps {
  funds: Pick<FundsService, 'merchant'>;
  repo: Pick<FundsRepo, 'insertPayout'>;
  ledger: Ledger;
  events: Pick<EventRecorder, 'record'>;
  unit: Pick<UnitOfWork, 'atomically'>;
  clock: Clock;
  ids: Ids;
}

export interface PayoutInput {
  merchant_id: string;
  env: Env;
  amount: number;
  currency: string;
  destination?: string | undefined;
  outcome: PayoutStatus;
  failure_reason?: string | undefined;
}

/** The payout rail, played by the sandbox: a payout to an external account confirms or fails. */
export class PayoutRail {
  constructor(private readonly deps: PayoutDeps) {}

  /**
   * A payout to an external account. `completed` debits the available balance; one larger than
   * the balance fails with the reason. Emits payout.completed or payout.failed with the payout.
   */
  payout(input: PayoutInput): PayoutRow {
    this.deps.funds.merchant(input.merchant_id);
    const currency = input.currency.toUpperCase();
    return this.deps.unit.atomically(() => {
      const available = this.deps.ledger.balance(input.env, Accounts.available(input.merchant_id), currency);
      let status: PayoutRow['status'] = input.outcome;
      let reason: string | null = null;
      if (status === 'failed') {
        reason = input.failure_reason ?? 'Payout rejected by the receiving institution';
      } else if (input.amount > available) {
        status = 'failed';
        reason = `Insufficient balance: available ${formatMoney(available, currency)}, requested ${formatMoney(input.amount, currency)}`;
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
      payoutStates.assertInitial(row.status);
      this.deps.repo.insertPayout(row);
      if (status === 'completed') {
        this.deps.ledger.post(input.env, 'payout', row.id, [
          { account: Accounts.available(row.merchant_id), currency, amount: -row.amount },
          { account: Accounts.world, currency, amount: row.amount },
        ]);
      }
      this.deps.events.record(
        input.env,
        row.merchant_id,
        status === 'completed' ? 'payout.completed' : 'payout.failed',
        { ...row },
      );
      return row;
    });
  }
}
