import type { ResellersRepo } from '../db/resellers.js';
import { ForbiddenError } from '../errors.js';
import type { Env, Principal } from './types.js';

/** A reseller connection's terms, as a checkout snapshots them at creation (spec fee rule 5). */
export interface ResellerTerms {
  reseller_id: string;
  rate: number;
  min_fee: number | null;
  max_fee: number | null;
}

/** Whom a create call acts for, and through which reseller connection (null: the caller itself). */
export interface ActingFor {
  merchantId: string;
  reseller: ResellerTerms | null;
}

/**
 * spec: Authentication 6. A reseller key may pass `merchant_id` on create checkout, create invoice
 * and create customer, provided an active connection to that merchant exists in the environment
 * of the call; otherwise (no connection, a revoked one, an unknown merchant) the call is a 403.
 * The merchant's own id is the caller itself. Only those three creates take `merchant_id`: every
 * other operation on the object is its merchant's (the reseller gets the usual 403).
 */
export class MerchantAccess {
  constructor(private readonly connections: Pick<ResellersRepo, 'findPair'>) {}

  targetMerchant(principal: Principal, merchantId: string | undefined): ActingFor {
    if (merchantId === undefined || merchantId === principal.merchantId) {
      return { merchantId: principal.merchantId, reseller: null };
    }
    const reseller = this.activeTerms(principal.merchantId, merchantId, principal.env);
    if (!reseller)
      throw new ForbiddenError(`merchant_id: no active reseller connection to merchant ${merchantId}`);
    return { merchantId, reseller };
  }

  /** The terms of `resellerId`'s connection to `merchantId` in `env` while it is active, else null. */
  activeTerms(resellerId: string, merchantId: string, env: Env): ResellerTerms | null {
    const row = this.connections.findPair(resellerId, merchantId, env);
    if (row?.status !== 'active') return null;
    return { reseller_id: row.reseller_id, rate: row.rate, min_fee: row.min_fee, max_fee: row.max_fee };
  }
}
