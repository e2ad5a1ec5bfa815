import { type Static, Type } from 'typebox';
import { Null, Timestamp, Uuid } from './common.js';
import { ChainConfig } from './settings.js';

/** A deposit address in a path (`/sandbox/static-addresses/{address}/deposits`). */
export const AddressParams = Type.Object({ address: Type.String({ minLength: 1, maxLength: 128 }) });

export const StaticAddress = Type.Object({
  id: Type.Integer(),
  checkout_id: Null,
  merchant_id: Uuid,
  chain: Type.String(),
  address: Type.String(),
  created_at: Timestamp,
});
export type StaticAddress = Static<typeof StaticAddress>;

/**
 * GET /v1/withdraw/chains (shape not shown in the spec; ours): the chain/token catalogue with each
 * token's gas_fee, min and max in 6dp, the figures refunds and payouts use.
 */
export const WithdrawChains = Type.Array(ChainConfig);
