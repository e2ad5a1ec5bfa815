import type { DepositRow, FundsRepo, PayoutRow } from '../../db/funds.js';
import type { MerchantsRepo } from '../../db/merchants.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import { NotFoundError } from '../../errors.js';
import { Accounts, type Ledger } from '../ledger/service.js';
import type { Env } from '../types.js';

export interface FundsDeps {
  repo: FundsRepo;
  merchants: Pick<MerchantsRepo, 'findById'>;
  ledger: Ledger;
  unit: Pick<UnitOfWork, 'atomically'>;
}

/**
 * A merchant's money outside checkouts: deposits and payouts as recorded (the chain and the payout
 * rail simulators in server/simulate make them), and the sandbox credit used to set up tests.
 */
export class FundsService {
  constructor(private readonly deps: FundsDeps) {}

  /** Test set-up: credits a merchant's available balance from the outside world, through the ledger. */
  credit(merchantId: string, env: Env, currency: string, amount: number, memo?: string): void {
    this.merchant(merchantId);
    this.deps.unit.atomically(() => {
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

  /** Throws 404 for an unknown merchant. */
  merchant(id: string): void {
    if (!this.deps.merchants.findById(id)) throw new NotFoundError('Merchant', id);
  }
}
