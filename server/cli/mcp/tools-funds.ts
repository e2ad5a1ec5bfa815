import { EnvQuery } from '../../contract/common.js';
import {
  AddressDepositBody,
  Balance,
  CreditBody,
  Deposit,
  DepositBody,
  MerchantListQuery,
  Payout,
  PayoutBody,
} from '../../contract/funds.js';
import { count, list, money, operationTool, type Tool } from './tool.js';

// A merchant's money outside checkouts: deposits (to its balance or a static address), direct
// credits, payouts, and the balances they move.

export const fundsTools: Tool[] = [
  operationTool<Deposit>({
    name: 'deposit_create',
    title: 'Deposit to a merchant',
    description:
      "An on-chain deposit to the merchant's balance (chain, currency, amount in minor units); deposit.received fires.",
    operationId: 'sandboxCreateDeposit',
    query: EnvQuery,
    body: DepositBody,
    output: Deposit,
    words: (d) =>
      `Deposit ${d.id}: ${money(d.amount, d.currency)} on ${d.chain}, credited to ${d.merchant_id}.`,
  }),
  operationTool<Deposit>({
    name: 'static_address_deposit',
    title: 'Deposit to a static address',
    description:
      "A transfer to a static deposit address the merchant's app made on /v1 (currency, amount in minor units): credited to its merchant, deposit.received fires.",
    operationId: 'sandboxCreateStaticAddressDeposit',
    pathArg: 'address',
    body: AddressDepositBody,
    output: Deposit,
    words: (d) => `Deposit ${d.id}: ${money(d.amount, d.currency)} to ${d.address} on ${d.chain}.`,
  }),
  operationTool<Balance[]>({
    name: 'merchant_credit',
    title: 'Credit a merchant',
    description:
      "Credit the merchant's available balance directly (amount in minor units), e.g. before a payout or funding a cardholder.",
    operationId: 'sandboxCreditMerchant',
    pathArg: 'merchant_id',
    query: EnvQuery,
    body: CreditBody,
    output: list(Balance, 'the balances after the credit, one per currency'),
    words: (items) => items.map((b) => `${b.currency}: ${b.available} available, ${b.held} held`).join('; '),
  }),
  operationTool<Payout>({
    name: 'payout_create',
    title: 'Pay out to a merchant',
    description:
      "A payout from the merchant's balance on the payout rail; `outcome: failed` rehearses a failure (the funds come back). payout.* fires.",
    operationId: 'sandboxCreatePayout',
    query: EnvQuery,
    body: PayoutBody,
    output: Payout,
    words: (p) =>
      `Payout ${p.id}: ${money(p.amount, p.currency)}, ${p.status}${p.failure_reason ? ` (${p.failure_reason})` : ''}.`,
  }),
  operationTool<Deposit[]>({
    name: 'deposits_list',
    title: "List a merchant's deposits",
    description:
      "A merchant's on-chain deposits (chain, address, amount in minor units, txid), newest first.",
    operationId: 'sandboxListMerchantDeposits',
    pathArg: 'merchant_id',
    query: MerchantListQuery,
    output: list(Deposit),
    words: (items) => `${count(items.length, 'deposit')}.`,
  }),
  operationTool<Payout[]>({
    name: 'payouts_list',
    title: "List a merchant's payouts",
    description: "A merchant's payouts (amount in minor units, completed or failed, reason), newest first.",
    operationId: 'sandboxListMerchantPayouts',
    pathArg: 'merchant_id',
    query: MerchantListQuery,
    output: list(Payout),
    words: (items) =>
      `${count(items.length, 'payout')}: ${items.map((p) => `${p.id} ${p.status}`).join(', ')}.`,
  }),
  operationTool<Balance[]>({
    name: 'balances',
    title: "A merchant's balances",
    description:
      "A merchant's balances per currency: available and held (fees held 7 days), integers in minor units.",
    operationId: 'sandboxListMerchantBalances',
    pathArg: 'merchant_id',
    query: EnvQuery,
    output: list(Balance, 'one per currency'),
    words: (items) =>
      items.length
        ? items.map((b) => `${b.currency}: ${b.available} available, ${b.held} held`).join('; ')
        : 'No balance yet.',
  }),
];
