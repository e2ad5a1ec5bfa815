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

/** Statuses a refund can start from (the spec's state machine). */
export const REFUNDABLE: readonly CheckoutStatus[] = ['paid', 'completed', 'partial', 'partially_refunded'];
