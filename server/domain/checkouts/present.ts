import type { Checkout, CheckoutBase, CheckoutStatus, CryptoChain } from '../../contract/checkouts.js';
import type { CheckoutRow } from '../../db/checkouts.js';

/** Turns stored rows into the API's objects. URLs are derived, so they follow the live ports. */
export function toCheckoutBase(row: CheckoutRow, baseUrl: string): CheckoutBase {
  return {
    id: row.id,
    merchant_id: row.merchant_id,
    title: row.title,
    description: row.description,
    amount: row.amount,
    currency: row.currency,
    method: row.method,
    status: row.status as CheckoutStatus,
    hosted_url: `${baseUrl}/pay/${row.id}`,
    reference: row.reference,
    customer_id: row.customer_id,
    paid_amount: row.paid_amount,
    paid_at: row.paid_at,
    payer_address: row.payer_address,
    refunded_amount: row.refunded_amount,
    refund_status: row.refund_status,
    reseller_id: row.reseller_id,
    reseller_fee: row.reseller_fee,
    platform_fee: row.platform_fee,
    platform_gas_fee: row.platform_gas_fee,
    expires_at: row.expires_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** Presented checkouts of unchanged rows (rows are replaced, never mutated, on every write). */
const presented = new WeakMap<CheckoutRow, { baseUrl: string; checkout: Checkout }>();

export function toCheckout(row: CheckoutRow, baseUrl: string): Checkout {
  const hit = presented.get(row);
  if (hit?.baseUrl === baseUrl) return hit.checkout;
  const checkout = present(row, baseUrl);
  presented.set(row, { baseUrl, checkout });
  return checkout;
}

/**
 * A checkout just created from `row`, whose `crypto_chains` column was written from `chains`: the
 * same object `toCheckout` would give, without parsing back what was just serialised (nor
 * remembering it: nothing reads that row object again).
 */
export function toNewCheckout(row: CheckoutRow, baseUrl: string, chains: CryptoChain[]): Checkout {
  return present(row, baseUrl, chains);
}

function present(
  row: CheckoutRow,
  baseUrl: string,
  chains: CryptoChain[] = JSON.parse(row.crypto_chains) as CryptoChain[],
): Checkout {
  // The base object gains the two fields (same key order as a spread, without copying 22 fields).
  return Object.assign(toCheckoutBase(row, baseUrl), {
    crypto_chains: chains,
    fiat:
      row.method === 'crypto'
        ? null
        : {
            session_url: `${baseUrl}/pay/${row.id}/fiat`,
            success_url: row.success_url,
            cancel_url: row.cancel_url,
          },
  });
}

/** checkout.created payload, field for field as the spec's table. */
export function createdPayload(checkout: Checkout) {
  return {
    id: checkout.id,
    merchant_id: checkout.merchant_id,
    hosted_url: checkout.hosted_url,
    amount: checkout.amount,
    currency: checkout.currency,
    method: checkout.method,
    reference: checkout.reference,
    customer_id: checkout.customer_id,
    reseller_id: checkout.reseller_id,
    expires_at: checkout.expires_at,
    status: checkout.status,
    crypto_chains: checkout.crypto_chains.map(({ chain, address }) => ({ chain, address })),
    fiat: checkout.fiat,
  };
}

export function paidPayload(row: CheckoutRow) {
  return {
    id: row.id,
    merchant_id: row.merchant_id,
    amount: row.amount,
    currency: row.currency,
    status: row.status,
  };
}

export function completedPayload(row: CheckoutRow) {
  return {
    ...paidPayload(row),
    reseller_fee: row.reseller_fee,
    platform_fee: row.platform_fee,
    reseller_id: row.reseller_id,
    // Referral programmes are not modelled: the spec's "0 without referral".
    referral_fee: 0,
    referred_by: null,
  };
}
