import { generateTxid, isValidAddress } from '../../addresses/formats.js';
import type { Clock } from '../../clock.js';
import type { CheckoutStatus, CryptoChain } from '../../contract/checkouts.js';
import type { RefundBody, RefundResult } from '../../contract/refunds.js';
import type { Settings } from '../../contract/settings.js';
import type { CheckoutRow } from '../../db/checkouts.js';
import type { RefundRow, RefundsRepo } from '../../db/refunds.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import { BusinessRuleError, ForbiddenError, ValidationError } from '../../errors.js';
import type { Ids } from '../../ids.js';
import { type CheckoutLifecycle, FEE_HOLD_MS } from '../checkouts/lifecycle.js';
import type { CheckoutService } from '../checkouts/service.js';
import type { EventRecorder } from '../events/recorder.js';
import { Accounts, type Ledger } from '../ledger/service.js';
import { clawbackShares, refundGas } from '../money/fees.js';
import { formatMoney } from '../money/format.js';
import { checkoutStates } from '../state.js';
import type { Principal } from '../types.js';

/** A checkout can be refunded from every status the state table lets move to `refunded`. */
const refundable = (status: CheckoutStatus) => checkoutStates.can(status, 'refunded');

export interface RefundDeps {
  checkouts: Pick<CheckoutService, 'owned'>;
  lifecycle: Pick<CheckoutLifecycle, 'ensureSettled' | 'transition' | 'find'>;
  repo: RefundsRepo;
  ledger: Ledger;
  events: Pick<EventRecorder, 'record'>;
  unit: Pick<UnitOfWork, 'atomically'>;
  clock: Clock;
  ids: Ids;
  settings: () => Settings;
}

/** POST /v1/checkouts/{id}/refund — every rule of the spec's refund section, in order. */
export class RefundService {
  constructor(private readonly deps: RefundDeps) {}

  refund(principal: Principal, checkoutId: string, body: RefundBody): RefundResult {
    if (principal.role !== 'owner' && principal.role !== 'admin') {
      throw new ForbiddenError(`Refunds require the owner or admin role (this key is ${principal.role})`);
    }
    return this.deps.unit.atomically(() => {
      const row = this.deps.checkouts.owned(principal, checkoutId);
      const paid = row.paid_amount ?? 0;
      const remaining = paid - row.refunded_amount;
      if (row.status === 'refunded' || (refundable(row.status) && remaining <= 0)) {
        throw new BusinessRuleError('Checkout already fully refunded');
      }
      if (!refundable(row.status))
        throw new BusinessRuleError(`Cannot refund a checkout with status ${row.status}`);
      const amount = body.amount ?? remaining;
      if (amount <= 0 || amount > remaining) {
        throw new BusinessRuleError(
          `Invalid refund amount. Max refundable: ${formatMoney(remaining, row.currency)}`,
        );
      }

      const crypto = row.paid_chain !== null;
      const gas = crypto ? this.gasFee(row) : 0;
      const payer = crypto && body.gas_fee_payer === 'merchant' ? 'merchant' : 'customer';
      const { customer_amount: customerAmount, funded } = refundGas(amount, gas, payer);
      if (customerAmount <= 0) {
        throw new BusinessRuleError(
          `Refund amount too small to cover gas fee (gas: ${formatMoney(gas, row.currency)}, amount: ${formatMoney(amount, row.currency)})`,
        );
      }
      const receiver = crypto ? (body.receiver ?? row.payer_address) : null;
      if (crypto) {
        if (receiver === null) {
          throw new ValidationError('receiver', 'required: this checkout has no recorded payer address');
        }
        if (!isValidAddress(row.paid_chain!, receiver)) {
          throw new ValidationError('receiver', `not a valid ${row.paid_chain} address`);
        }
      }

      // A refund before settlement settles first, so the money is where the rules expect it.
      const settled = this.deps.lifecycle.ensureSettled(row);
      const now = this.deps.clock.now();
      const withinHold =
        settled.fees_released_at === null && now < Date.parse(settled.paid_at!) + FEE_HOLD_MS;
      const shares = clawbackShares(funded, remaining, settled, withinHold);
      const env = row.env;
      const available = this.deps.ledger.balance(env, Accounts.available(row.merchant_id), row.currency);
      if (available < shares.merchant_debit) {
        throw new BusinessRuleError(
          `Merchant balance insufficient to cover refund (required: ${formatMoney(shares.merchant_debit, row.currency)}, available: ${formatMoney(available, row.currency)})`,
        );
      }

      const refundId = this.deps.ids.uuid();
      const { currency, merchant_id: merchantId } = row;
      this.deps.ledger.post(env, 'checkout.refund', row.id, [
        { account: Accounts.available(merchantId), currency, amount: -shares.merchant_debit },
        {
          account: Accounts.feesHeld(merchantId),
          currency,
          amount: -(shares.platform_clawback + shares.reseller_clawback),
        },
        { account: Accounts.world, currency, amount: customerAmount },
        { account: Accounts.platformGas, currency, amount: funded - customerAmount },
      ]);
      const refundedAmount = row.refunded_amount + amount;
      const status = refundedAmount === paid ? 'refunded' : 'partially_refunded';
      const next = this.deps.lifecycle.transition(settled, status, {
        refund_status: status,
        refunded_amount: refundedAmount,
        platform_fee: settled.platform_fee - shares.platform_clawback,
        reseller_fee: settled.reseller_fee - shares.reseller_clawback,
      });
      const record: RefundRow = {
        id: refundId,
        checkout_id: row.id,
        merchant_id: merchantId,
        env,
        amount,
        refund_fee: gas,
        gas_fee_payer: payer,
        customer_amount: customerAmount,
        merchant_debit: shares.merchant_debit,
        platform_clawback: shares.platform_clawback,
        reseller_clawback: shares.reseller_clawback,
        receiver,
        reason: body.reason ?? null,
        txid: crypto ? generateTxid(row.paid_chain!, this.deps.ids) : null,
        status_after: status,
        created_at: this.deps.clock.nowIso(),
      };
      this.deps.repo.insert(record);
      const remainingAfter = paid - refundedAmount;
      this.deps.events.record(env, merchantId, 'checkout.refunded', {
        id: row.id,
        merchant_id: merchantId,
        refund_amount: amount,
        refunded_amount: refundedAmount,
        refund_fee: gas,
        remaining_amount: remainingAfter,
        currency,
        reason: record.reason,
        status,
      });
      return {
        id: next.id,
        status,
        refund_status: status,
        refunded_amount: refundedAmount,
        refund_fee: gas,
        remaining_amount: remainingAfter,
      };
    });
  }

  list(checkoutId: string): RefundRow[] {
    this.deps.lifecycle.find(checkoutId);
    return this.deps.repo.ofCheckout(checkoutId);
  }

  /** The chain/token's gas fee as GET /v1/withdraw/chains lists it now; else as fixed at creation. */
  private gasFee(row: CheckoutRow): number {
    const fromSettings = this.deps
      .settings()
      .chains.find((c) => c.chain === row.paid_chain)
      ?.tokens.find((t) => t.name === row.paid_token)?.gas_fee;
    if (fromSettings !== undefined) return fromSettings;
    const chains = JSON.parse(row.crypto_chains) as CryptoChain[];
    return (
      chains.find((c) => c.chain === row.paid_chain)?.tokens.find((t) => t.name === row.paid_token)
        ?.gas_fee ?? 0
    );
  }
}
