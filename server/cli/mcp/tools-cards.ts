import type { OperationId } from '../../contract/call.js';
import {
  ApplyBody,
  AuthorizationBody,
  type Card,
  type CardApplication,
  type Cardholder,
  type CardholderDetail,
  CardMoveBody,
  type CardTransaction,
  CreateCardholderBody,
  FundBody,
  IssueCardBody,
  KeysQuery,
  KycResultBody,
  type KycState,
  PatchCardBody,
  ReviewBody,
} from '../../contract/cards.js';
import { EnvQuery, IdParams, ListQuery } from '../../contract/common.js';
import type { CardProduct } from '../../contract/settings.js';
import { count, merge, money, operationTool, type Tool } from './tool.js';

// Card issuing: cardholders, the identity provider (KYC, application review), cards, and the card
// network's authorizations, declines, reversals and settlements.

const holderShape = (h: Cardholder) => ({
  id: h.id,
  merchant_id: h.merchant_id,
  name: h.name,
  is_kyc_verified: h.is_kyc_verified,
  balances: h.balances.map((b) => ({ currency: b.currency, balance: b.balance })),
});
const cardShape = (c: Card) => ({
  id: c.id,
  cardholder_id: c.user_id,
  status: c.status,
  type: c.ctype,
  last4: c.last4,
});
const cardWords = (c: Card) => `Card ${c.id} (${c.ctype}, ****${c.last4}) is ${c.status}.`;
const txShape = (t: CardTransaction) => ({
  id: t.id,
  card_id: t.card_id,
  type: t.type,
  status: t.status,
  amount: t.amount,
  currency: t.currency,
  decline_reason: t.decline_reason,
});
const txWords = (t: CardTransaction) =>
  `Card transaction ${t.id} (${t.type}, ${money(t.amount, t.currency)}) is ${t.status}${t.decline_reason ? `: ${t.decline_reason}` : ''}.`;

const txTool = (
  name: string,
  operationId: OperationId,
  description: string,
  body?: typeof CardMoveBody | typeof AuthorizationBody,
): Tool =>
  operationTool<CardTransaction>({
    name,
    description,
    operationId,
    params: IdParams,
    ...(body ? { body } : {}),
    words: txWords,
    shape: txShape,
  });

const cardMove = (name: string, operationId: OperationId, description: string): Tool =>
  operationTool<Card>({
    name,
    description,
    operationId,
    params: IdParams,
    words: cardWords,
    shape: cardShape,
  });

const fund = (
  name: string,
  operationId: 'sandboxFundCardholder' | 'sandboxRecallCardholder',
  description: string,
): Tool =>
  operationTool<undefined>({
    name,
    description,
    operationId,
    params: IdParams,
    body: FundBody,
    words: (_, args) =>
      `Cardholder ${String(args.id)}: ${operationId === 'sandboxFundCardholder' ? 'funded' : 'recalled'} ${String(args.amount)} ${String(args.currency)} (minor units).`,
    shape: (_, args) => ({ cardholder_id: args.id, amount: args.amount, currency: args.currency }),
  });

export const cardTools: Tool[] = [
  operationTool<CardProduct[]>({
    name: 'card_catalogue',
    description:
      'The card products a cardholder can apply for (id, name, virtual or physical): `catalogue` in card_application_create and card_issue.',
    operationId: 'sandboxGetCardCatalogue',
    query: KeysQuery,
    words: (list) =>
      `${count(list.length, 'card product')}: ${list.map((p) => `${p.name} (${p.type}, ${p.id})`).join(', ')}.`,
  }),
  operationTool<Cardholder>({
    name: 'cardholder_create',
    description:
      'Create a cardholder of the merchant (as the merchant, /v1 rules). Next: kyc_review, then card_application_create or card_issue.',
    operationId: 'sandboxCreateMerchantCardholder',
    params: IdParams,
    query: EnvQuery,
    body: CreateCardholderBody,
    words: (h) =>
      `Created cardholder ${h.name} (${h.id}), KYC ${h.is_kyc_verified ? 'verified' : 'not verified yet'}.`,
    shape: holderShape,
  }),
  operationTool<Cardholder[]>({
    name: 'cardholders_list',
    description: "A merchant's cardholders with KYC flag and balances, newest first.",
    operationId: 'sandboxListMerchantCardholders',
    params: IdParams,
    query: merge(EnvQuery, ListQuery),
    words: (list) => `${count(list.length, 'cardholder')}.`,
    shape: (list) => list.map(holderShape),
  }),
  operationTool<CardholderDetail>({
    name: 'cardholder_get',
    description: 'A cardholder with its KYC status, card applications and cards.',
    operationId: 'sandboxGetCardholder',
    params: IdParams,
    words: (d) =>
      `Cardholder ${d.cardholder.name} (${d.cardholder.id}): KYC ${d.cardholder.kyc_status}, ${count(d.applications.length, 'application')}, ${count(d.cards.length, 'card')}.`,
    shape: (d) => ({
      cardholder: { ...holderShape(d.cardholder), kyc_status: d.cardholder.kyc_status },
      applications: d.applications.map((a) => ({ id: a.id, status: a.status })),
      cards: d.cards.map(cardShape),
    }),
  }),
  operationTool<KycState>({
    name: 'kyc_review',
    description:
      "The identity provider's verdict on a cardholder's KYC: `result` approved or rejected. A card needs an approved cardholder.",
    operationId: 'sandboxReviewCardholderKyc',
    params: IdParams,
    body: KycResultBody,
    words: (k) => `Cardholder ${k.id}: KYC ${k.kyc_status}.`,
  }),
  operationTool<CardApplication>({
    name: 'card_application_create',
    description:
      'Apply for a card for the cardholder (as the merchant). With settings.application_review "manual" it stays pending until card_application_review.',
    operationId: 'sandboxCreateCardholderApplication',
    params: IdParams,
    body: ApplyBody,
    words: (a) => `Card application ${a.id} is ${a.status}.`,
  }),
  operationTool<CardApplication>({
    name: 'card_application_review',
    description: "Approve or reject a pending card application (`status`), as the issuer's review would.",
    operationId: 'sandboxReviewCardApplication',
    params: IdParams,
    body: ReviewBody,
    words: (a) => `Card application ${a.id} is ${a.status}.`,
  }),
  operationTool<Card>({
    name: 'card_issue',
    description:
      'Issue a card to the cardholder (as the merchant): a virtual card is active at once, a physical one notActivated (card_activate).',
    operationId: 'sandboxCreateCardholderCard',
    params: IdParams,
    body: IssueCardBody,
    words: cardWords,
    shape: cardShape,
  }),
  fund(
    'cardholder_fund',
    'sandboxFundCardholder',
    "Move money from the merchant's balance to the cardholder's (amount in minor units), so its cards can spend.",
  ),
  fund(
    'cardholder_recall',
    'sandboxRecallCardholder',
    "Move money back from the cardholder's balance to the merchant's.",
  ),
  operationTool<Card>({
    name: 'card_update',
    description: 'Lock a card or unlock it (`status` locked or active), as the cardholder would in the app.',
    operationId: 'sandboxUpdateCard',
    params: IdParams,
    body: PatchCardBody,
    words: cardWords,
    shape: cardShape,
  }),
  cardMove(
    'card_activate',
    'sandboxActivateCard',
    'Activate a physical card once it has arrived (notActivated → active); virtual cards start active.',
  ),
  cardMove(
    'card_cancel',
    'sandboxCancelCard',
    'Cancel a card for good: it authorizes nothing more (card status canceled).',
  ),
  txTool(
    'card_authorize',
    'sandboxCreateCardAuthorization',
    'The card network asks to authorize a purchase (`amount` in minor units): held until card_settle or card_reverse, or declined at once when the card rules say so (not active, channel off, a limit, balance short). `settle_after_seconds` schedules the settlement on the sandbox clock.',
    AuthorizationBody,
  ),
  txTool(
    'card_settle',
    'sandboxSettleCardTransaction',
    'The network settles a held authorization: the money leaves the cardholder (completed).',
  ),
  txTool(
    'card_decline',
    'sandboxDeclineCardTransaction',
    'The network declines a requested authorization: the hold is released.',
  ),
  txTool(
    'card_reverse',
    'sandboxReverseCardTransaction',
    'The network reverses an authorization: the hold is released (reversed).',
  ),
  txTool(
    'card_refund',
    'sandboxCreateCardRefund',
    'A shop refunds a card purchase: money back to the cardholder.',
    CardMoveBody,
  ),
  txTool(
    'card_deposit',
    'sandboxCreateCardDeposit',
    'A deposit onto the card (amount in minor units): the cardholder balance grows.',
    CardMoveBody,
  ),
  txTool(
    'card_withdrawal',
    'sandboxCreateCardWithdrawal',
    'A withdrawal from the card (amount in minor units): the cardholder balance shrinks.',
    CardMoveBody,
  ),
  operationTool<CardTransaction>({
    name: 'card_transaction_get',
    description: 'One card transaction: type, status, amount, decline reason.',
    operationId: 'sandboxGetCardTransaction',
    params: IdParams,
    words: txWords,
    shape: txShape,
  }),
  operationTool<CardTransaction[]>({
    name: 'card_transactions_list',
    description: "A card's transactions, newest first, with their status.",
    operationId: 'sandboxListCardTransactions',
    params: IdParams,
    words: (list) =>
      `${count(list.length, 'transaction')}: ${list.map((t) => `${t.id} ${t.type} ${t.status}`).join(', ')}.`,
    shape: (list) => list.map(txShape),
  }),
];
