import { type Static, Type } from 'typebox';
import { KycStatus } from '../../contract/cards.js';
import { CheckoutStatus, type Method } from '../../contract/checkouts.js';
import { Nullable, Timestamp } from '../../contract/common.js';

/**
 * What the hosted checkout page shows and follows live (GET /pay/{id}/status): the checkout's
 * public state and the sandbox clock, so the page's countdown runs on sandbox time and stops when it
 * is frozen. Hidden from the OpenAPI document like the pages themselves: it is the page's, not the
 * API's. The page's script (client/hosted.ts) reads the same type.
 */
export const HostedCheckoutState = Type.Object({
  id: Type.String(),
  status: CheckoutStatus,
  amount: Nullable(Type.Integer()),
  currency: Type.String(),
  /** every transfer so far, also while the checkout is still active (a partial payment) */
  received_amount: Type.Integer(),
  paid_amount: Nullable(Type.Integer()),
  refunded_amount: Type.Integer(),
  expires_at: Timestamp,
  paid_at: Nullable(Timestamp),
  /** the sandbox clock */
  now: Timestamp,
  frozen: Type.Boolean(),
});
export type HostedCheckoutState = Static<typeof HostedCheckoutState>;

/** The checkout page's data (`<script type="application/json" id="checkout-state">`). */
export interface HostedPageData extends HostedCheckoutState {
  merchant: string;
  method: Method;
  /** the checkout's chains, with their names in words */
  chains: { chain: string; name: string }[];
  success_url: string | null;
}

/** The card provider's page data (`<script type="application/json" id="fiat-state">`). */
export interface FiatPageData {
  id: string;
  success_url: string | null;
  cancel_url: string | null;
}

/** What the identity provider's page follows live (GET /kyc/{token}/status). Hidden like the page. */
export const KycSessionState = Type.Object({ kyc_status: KycStatus, is_kyc_verified: Type.Boolean() });
export type KycSessionState = Static<typeof KycSessionState>;

/** The identity provider's page data (`<script type="application/json" id="kyc-state">`). */
export interface KycPageData extends KycSessionState {
  holder_id: string;
  token: string;
}
