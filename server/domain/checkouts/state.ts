import { BusinessRuleError } from '../../errors.js';
import type { CheckoutStatus } from '../../schemas/checkouts.js';

/** Every allowed checkout move, in one place (spec: States and transitions, Checkout). */
const TRANSITIONS: Record<CheckoutStatus, readonly CheckoutStatus[]> = {
  active: ['paid', 'expired', 'partial', 'cancelled'],
  paid: ['completed', 'partially_refunded', 'refunded'],
  completed: ['partially_refunded', 'refunded'],
  partial: ['partially_refunded', 'refunded'],
  partially_refunded: ['partially_refunded', 'refunded'],
  refunded: [],
  expired: [],
  cancelled: [],
};

export function canMove(from: string, to: CheckoutStatus): boolean {
  return (TRANSITIONS[from as CheckoutStatus] ?? []).includes(to);
}

export function assertMove(from: string, to: CheckoutStatus, message: string): void {
  if (!canMove(from, to)) throw new BusinessRuleError(message);
}
