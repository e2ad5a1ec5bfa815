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
 * A checkout's status as the merchant says it, short enough for a badge beside a list row (the
 * API's word stays in `data-status`): "active" is open for payment, "paid" is received and not yet
 * settled, "completed" is paid for good, "partial" closed with part of the money.
 */
export const CHECKOUT_LABEL: Record<CheckoutStatus, string> = {
  active: 'Open',
  paid: 'Received',
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
