import type { OperationId } from '../contract/call.js';

/**
 * What the recorder's model of the outside world (infer.ts) knows of the service: which control
 * operation plays each thing it reports, the facts it infers with, and how a note's transfer is
 * matched to the webhook it announced.
 */

/** The control operation that plays a card.transaction of each type the service sends. */
export const CARD_MOVES: Record<string, OperationId | undefined> = {
  card_payment: 'sandboxCreateCardAuthorization',
  card_refund: 'sandboxCreateCardRefund',
  card_deposit: 'sandboxCreateCardDeposit',
  card_withdraw: 'sandboxCreateCardWithdrawal',
};

/** The control operation that moves an authorization to each status the service reports. */
export const TRANSACTION_MOVES: Record<string, OperationId | undefined> = {
  completed: 'sandboxSettleCardTransaction',
  declined: 'sandboxDeclineCardTransaction',
  reversed: 'sandboxReverseCardTransaction',
};

/** The sandbox's settlement delay (about a minute after paid, as the service says). */
export const SETTLEMENT_SECONDS = 60;

/** Which tokens each chain's static address accepts (the service's table). */
export const CHAIN_TOKENS: Record<string, readonly string[]> = {
  ethereum: ['USDC', 'USDT', 'ETH'],
  tron: ['USDT'],
  bitcoin: ['BTC'],
  polygon: ['USDC', 'USDT'],
  bsc: ['USDT'],
};

/** Whether a note already played a transfer of `amount` `currency` (it is used up then). */
export function takeTold(
  told: { currency: string; amount: number }[],
  currency: string,
  amount: number,
): boolean {
  const at = told.findIndex((t) => t.currency === currency && t.amount === amount);
  if (at >= 0) told.splice(at, 1);
  return at >= 0;
}
