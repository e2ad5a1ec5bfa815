import { type Static, Type } from 'typebox';
import type { OperationId } from '../../contract/call.js';
import {
  ApplyBody,
  AuthorizationBody,
  Card,
  CardApplication,
  Cardholder,
  CardholderDetail,
  CardMoveBody,
  CardTransaction,
  CreateCardholderBody,
  FundBody,
  IssueCardBody,
  KeysQuery,
  KycResultBody,
  KycState,
  PatchCardBody,
  ReviewBody,
} from '../../contract/cards.js';
import { EnvQuery, ListQuery } from '../../contract/common.js';
import { CardProduct } from '../../contract/settings.js';
import { count, type IdArg, idArg, list, merge, money, operationTool, type Tool } from './tool.js';

// Card issuing: cardholders, the identity provider (KYC, application review), cards, and the card
// network's authorizations, declines, reversals and settlements.

const HolderBrief = Type.Pick(Cardholder, ['id', 'merchant_id', 'name', 'is_kyc_verified', 'balances']);
const CardBrief = Type.Pick(Card, ['id', 'user_id', 'status', 'ctype', 'last4']);
type CardBrief = Static<typeof CardBrief>;
const TxBrief = Type.Pick(CardTransaction, [
  'id',
  'card_id',
  'type',
  'status',
  'amount',
  'currency',
  'decline_reason',
]);
type TxBrief = Static<typeof TxBrief>;

const cardWords = (c: CardBrief) => `Card ${c.id} (${c.ctype}, ****${c.last4}) is ${c.status}.`;
const txWords = (t: TxBrief) =>
  `Card transaction ${t.id} (${t.type}, ${money(t.amount, t.currency)}) is ${t.status}${t.decline_reason ? `: ${t.decline_reason}` : ''}.`;

const txTool = (
  name: string,
  title: string,
  operationId: OperationId,
  pathArg: IdArg,
  description: string,
  body?: typeof CardMoveBody | typeof AuthorizationBody,
): Tool =>
  operationTool<TxBrief>({
    name,
    title,
    description,
    operationId,
    pathArg,
    ...(body ? { body } : {}),
    output: TxBrief,
    words: txWords,
  });

const cardMove = (name: string, title: string, operationId: OperationId, description: string): Tool =>
  operationTool<CardBrief>({
    name,
    title,
    description,
    operationId,
    pathArg: 'card_id',
    idempotent: true,
    output: CardBrief,
    words: cardWords,
  });

const Funded = Type.Object({
  cardholder_id: idArg('cardholder_id', 'the cardholder'),
  amount: FundBody.properties.amount,
  currency: FundBody.properties.currency,
});

const fund = (
  name: string,
  title: string,
  operationId: 'sandboxFundCardholder' | 'sandboxRecallCardholder',
  description: string,
): Tool =>
  operationTool<undefined>({
    name,
    title,
    description,
    operationId,
    pathArg: 'cardholder_id',
    body: FundBody,
    output: Funded,
    words: (_, args) =>
      `Cardholder ${String(args.cardholder_id)}: ${operationId === 'sandboxFundCardholder' ? 'funded' : 'recalled'} ${String(args.amount)} ${String(args.currency)} (minor units).`,
    shape: (_, args) => ({ cardholder_id: args.cardholder_id, amount: args.amount, currency: args.currency }),
  });

export const cardTools: Tool[] = [
  operationTool<CardProduct[]>({
    name: 'card_catalogue',
    title: 'The card catalogue',
    description:
      'The card products a cardholder can apply for (id, name, virtual or physical): `catalogue` in card_application_create and card_issue.',
    operationId: 'sandboxGetCardCatalogue',
    query: KeysQuery,
    output: list(CardProduct, 'every card product'),
    words: (items) =>
      `${count(items.length, 'card product')}: ${items.map((p) => `${p.name} (${p.type}, ${p.id})`).join(', ')}.`,
  }),
  operationTool<Cardholder>({
    name: 'cardholder_create',
    title: 'Create a cardholder',
    description:
      'Create a cardholder of the merchant (as the merchant, /v1 rules). Next: kyc_review, then card_application_create or card_issue.',
    operationId: 'sandboxCreateMerchantCardholder',
    pathArg: 'merchant_id',
    query: EnvQuery,
    body: CreateCardholderBody,
    output: HolderBrief,
    words: (h) =>
      `Created cardholder ${h.name} (${h.id}), KYC ${h.is_kyc_verified ? 'verified' : 'not verified yet'}.`,
  }),
  operationTool<Cardholder[]>({
    name: 'cardholders_list',
    title: "List a merchant's cardholders",
    description: "A merchant's cardholders with KYC flag and balances, newest first.",
    operationId: 'sandboxListMerchantCardholders',
    pathArg: 'merchant_id',
    query: merge(EnvQuery, ListQuery),
    output: list(HolderBrief),
    words: (items) => `${count(items.length, 'cardholder')}.`,
  }),
  operationTool<CardholderDetail>({
    name: 'cardholder_get',
    title: 'Get a cardholder',
    description: 'A cardholder with its KYC status, card applications and cards.',
    operationId: 'sandboxGetCardholder',
    pathArg: 'cardholder_id',
    output: Type.Object({
      cardholder: Type.Pick(CardholderDetail.properties.cardholder, [
        'id',
        'merchant_id',
        'name',
        'is_kyc_verified',
        'kyc_status',
        'balances',
      ]),
      applications: Type.Array(Type.Pick(CardApplication, ['id', 'catalogue', 'status'])),
      cards: Type.Array(CardBrief),
    }),
    words: (d) =>
      `Cardholder ${d.cardholder.name} (${d.cardholder.id}): KYC ${d.cardholder.kyc_status}, ${count(d.applications.length, 'application')}, ${count(d.cards.length, 'card')}.`,
  }),
  operationTool<KycState>({
    name: 'kyc_review',
    title: "Decide a cardholder's KYC",
    description:
      "The identity provider's verdict on a cardholder's KYC: `result` approved or rejected. A card needs an approved cardholder.",
    operationId: 'sandboxReviewCardholderKyc',
    pathArg: 'cardholder_id',
    body: KycResultBody,
    output: KycState,
    words: (k) => `Cardholder ${k.id}: KYC ${k.kyc_status}.`,
  }),
  operationTool<CardApplication>({
    name: 'card_application_create',
    title: 'Apply for a card',
    description:
      'Apply for a card for the cardholder (as the merchant). With settings.application_review "manual" it stays pending until card_application_review.',
    operationId: 'sandboxCreateCardholderApplication',
    pathArg: 'cardholder_id',
    body: ApplyBody,
    output: CardApplication,
    words: (a) => `Card application ${a.id} is ${a.status}.`,
  }),
  operationTool<CardApplication>({
    name: 'card_application_review',
    title: 'Review a card application',
    description: "Approve or reject a pending card application (`status`), as the issuer's review would.",
    operationId: 'sandboxReviewCardApplication',
    pathArg: 'application_id',
    body: ReviewBody,
    output: CardApplication,
    words: (a) => `Card application ${a.id} is ${a.status}.`,
  }),
  operationTool<CardBrief>({
    name: 'card_issue',
    title: 'Issue a card',
    description:
      'Issue a card to the cardholder (as the merchant), of a product its approved application (card_application_create) is for: a virtual card is active at once, a physical one notActivated (card_activate).',
    operationId: 'sandboxCreateCardholderCard',
    pathArg: 'cardholder_id',
    body: IssueCardBody,
    output: CardBrief,
    words: cardWords,
  }),
  fund(
    'cardholder_fund',
    'Fund a cardholder',
    'sandboxFundCardholder',
    "Move money from the merchant's balance to the cardholder's (amount in minor units), so its cards can spend.",
  ),
  fund(
    'cardholder_recall',
    'Recall funds from a cardholder',
    'sandboxRecallCardholder',
    "Move money back from the cardholder's balance to the merchant's.",
  ),
  operationTool<CardBrief>({
    name: 'card_update',
    title: 'Lock or unlock a card',
    description: 'Lock a card or unlock it (`status` locked or active), as the cardholder would in the app.',
    operationId: 'sandboxUpdateCard',
    pathArg: 'card_id',
    body: PatchCardBody,
    output: CardBrief,
    words: cardWords,
  }),
  cardMove(
    'card_activate',
    'Activate a card',
    'sandboxActivateCard',
    'Activate a physical card once it has arrived (notActivated → active); virtual cards start active.',
  ),
  {
    ...cardMove(
      'card_cancel',
      'Cancel a card',
      'sandboxCancelCard',
      'Cancel a card for good: it authorizes nothing more (card status canceled).',
    ),
    destructive: true,
  },
  txTool(
    'card_authorize',
    'Authorize a card purchase',
    'sandboxCreateCardAuthorization',
    'card_id',
    'The card network asks to authorize a purchase (`amount` in minor units): held until card_settle or card_reverse, or declined at once when the card rules say so (not active, channel off, a limit, balance short). `settle_after_seconds` schedules the settlement on the sandbox clock.',
    AuthorizationBody,
  ),
  txTool(
    'card_settle',
    'Settle a card authorization',
    'sandboxSettleCardTransaction',
    'transaction_id',
    'The network settles a held authorization: the money leaves the cardholder (completed).',
  ),
  txTool(
    'card_decline',
    'Decline a card authorization',
    'sandboxDeclineCardTransaction',
    'transaction_id',
    'The network declines a requested authorization: the hold is released.',
  ),
  txTool(
    'card_reverse',
    'Reverse a card authorization',
    'sandboxReverseCardTransaction',
    'transaction_id',
    'The network reverses an authorization: the hold is released (reversed).',
  ),
  txTool(
    'card_refund',
    'Refund a card purchase',
    'sandboxCreateCardRefund',
    'card_id',
    'A shop refunds a card purchase: money back to the cardholder.',
    CardMoveBody,
  ),
  txTool(
    'card_deposit',
    'Deposit onto a card',
    'sandboxCreateCardDeposit',
    'card_id',
    'A deposit onto the card (amount in minor units): the cardholder balance grows.',
    CardMoveBody,
  ),
  txTool(
    'card_withdrawal',
    'Withdraw from a card',
    'sandboxCreateCardWithdrawal',
    'card_id',
    'A withdrawal from the card (amount in minor units): the cardholder balance shrinks.',
    CardMoveBody,
  ),
  operationTool<TxBrief>({
    name: 'card_transaction_get',
    title: 'Get a card transaction',
    description: 'One card transaction: type, status, amount, decline reason.',
    operationId: 'sandboxGetCardTransaction',
    pathArg: 'transaction_id',
    output: TxBrief,
    words: txWords,
  }),
  operationTool<TxBrief[]>({
    name: 'card_transactions_list',
    title: "List a card's transactions",
    description: "A card's transactions, newest first, with their status.",
    operationId: 'sandboxListCardTransactions',
    pathArg: 'card_id',
    output: list(TxBrief),
    words: (items) =>
      `${count(items.length, 'transaction')}: ${items.map((t) => `${t.id} ${t.type} ${t.status}`).join(', ')}.`,
  }),
];
