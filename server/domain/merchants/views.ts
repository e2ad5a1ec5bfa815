import type { Env } from '../../contract/common.js';
import type { StaticAddress } from '../../contract/static-addresses.js';
import type { StaticAddressesRepo } from '../../db/static-addresses.js';
import type { MerchantService } from './service.js';

export interface MerchantViewDeps {
  addresses: Pick<StaticAddressesRepo, 'list'>;
  merchants: Pick<MerchantService, 'get'>;
}

/** Read-only views of a merchant's resources: what /v1 shows the merchant and the dashboard shows anyone. */
export class MerchantViews {
  constructor(private readonly deps: MerchantViewDeps) {}

  /** The merchant's five static deposit addresses (spec: checkout_id is always null). */
  staticAddresses(merchantId: string, env: Env): StaticAddress[] {
    return this.deps.addresses
      .list(merchantId, env)
      .map(({ env: _env, ...row }) => ({ ...row, checkout_id: null }));
  }

  /** The same, for the control API: 404 for an unknown merchant. */
  staticAddressesOf(merchantId: string, env: Env): StaticAddress[] {
    this.deps.merchants.get(merchantId);
    return this.staticAddresses(merchantId, env);
  }
}
