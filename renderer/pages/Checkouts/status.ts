import type { CheckoutStatus } from '../../api/types';
import type { Tone } from '../../components/StatusBadge';

export const CHECKOUT_TONE: Record<CheckoutStatus, Tone> = {
  active: 'accent',
  paid: 'info',
  completed: 'success',
  partial: 'warning',
  partially_refunded: 'warning',
  refunded: 'neutral',
  expired: 'neutral',
  cancelled: 'danger',
};

/**
 * A checkout's status as the merchant says it (the badge's words; `data-status` keeps the API's):
 * "active" is a checkout still waiting for its money, "partial" one that closed part paid.
 */
export const CHECKOUT_LABEL: Record<CheckoutStatus, string> = {
  active: 'Awaiting payment',
  paid: 'Payment received',
  completed: 'Paid',
  partial: 'Part paid',
  partially_refunded: 'Part refunded',
  refunded: 'Refunded',
  expired: 'Expired',
  cancelled: 'Cancelled',
};

/** The badge's words for a status that may not be a checkout's (a summary row): as the API says it otherwise. */
export const checkoutLabel = (status: string): string | undefined =>
  (CHECKOUT_LABEL as Record<string, string>)[status];

/** Statuses a refund can start from (the spec's state machine). */
export const REFUNDABLE: readonly CheckoutStatus[] = ['paid', 'completed', 'partial', 'partially_refunded'];
