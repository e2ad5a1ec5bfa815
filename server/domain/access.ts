import { ForbiddenError } from '../errors.js';
import type { Principal } from './types.js';

/**
 * The merchant a create call acts for: the caller's own, or (reseller) the `merchant_id` in the
 * body. Acting for another merchant needs an active reseller connection; until connections exist
 * in this build, only the caller's own id is accepted.
 */
export function targetMerchant(principal: Principal, merchantId: string | undefined): string {
  if (merchantId === undefined || merchantId === principal.merchantId) return principal.merchantId;
  throw new ForbiddenError(`merchant_id: no active reseller connection to merchant ${merchantId}`);
}
