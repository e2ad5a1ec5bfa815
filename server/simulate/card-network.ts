import type { Clock } from '../clock.js';
import type { AuthorizationBody, Card, CardMoveBody, CardTransactionStatus } from '../contract/cards.js';
import type { CardRow, CardsRepo, CardTransactionRow } from '../db/cards.js';
import type { UnitOfWork } from '../db/unit-of-work.js';
import { CARD_ACCOUNTS, type CardService, toCard } from '../domain/cards/service.js';
import type { EventRecorder } from '../domain/events/recorder.js';
import { Accounts, type Ledger } from '../domain/ledger/service.js';
import { formatMoney } from '../domain/money/format.js';
import { cardStates, cardTransactionStates } from '../domain/state.js';
import { BusinessRuleError, NotFoundError } from '../errors.js';
import type { Ids } from '../ids.js';
import type { JobQueue, JobRegistry } from '../scheduler.js';

export interface NetworkDeps {
  repo: Pick<
    CardsRepo,
    'insertTransaction' | 'updateTransaction' | 'findTransaction' | 'transactionsOf' | 'spentSince'
  >;
  cards: Pick<CardService, 'cardById' | 'walletCurrency' | 'saveCard'>;
  ledger: Ledger;
  events: Pick<EventRecorder, 'record'>;
  unit: Pick<UnitOfWork, 'atomically'>;
  clock: Clock;
  ids: Ids;
  scheduler: JobQueue;
}

/** The settlement an authorization expects (`settle_after_seconds`), due on the sandbox clock. */
export const JOB_CARD_SETTLE = 'card.settle';

type Type = CardTransactionRow['type'];

/** How each decided authorization moves the held funds. */
const OUTCOMES = {
  completed: 'settled by the card network',
  declined: 'declined by the card network',
  reversed: 'voided before settlement',
} as const;

const cents = (micro: number) => Math.round(micro / 10_000);

/**
 * The card network simulator: authorizations decided by the card rules (status, channel, limits,
 * balance), then settled, declined or reversed; refunds, and deposits/withdrawals on physical
 * cards. Every step emits card.transaction with the same data.id, through the ledger.
 */
export class CardNetwork {
  constructor(private readonly deps: NetworkDeps) {}

  authorize(cardId: string, body: AuthorizationBody): CardTransactionRow {
    const card = this.deps.cards.cardById(cardId);
    const currency = this.deps.cards.walletCurrency(body.currency ?? 'USDC');
    const channel = body.channel ?? 'online';
    return this.deps.unit.atomically(() => {
      // Decided before the transaction exists, so its own amount is not counted against the limits twice.
      const reason = this.declineReason(card, body.amount, currency, channel);
      const tx = this.insert(card, 'card_payment', 'requested', -body.amount, currency, body, channel);
      if (reason !== null) return this.update(tx, 'declined', reason);
      this.move(card, tx, [
        { account: CARD_ACCOUNTS.wallet(card.cardholder_id), amount: -body.amount },
        { account: CARD_ACCOUNTS.held(card.cardholder_id), amount: body.amount },
      ]);
      if (body.settle_after_seconds !== undefined) {
        this.deps.scheduler.schedule(
          JOB_CARD_SETTLE,
          tx.id,
          this.deps.clock.now() + body.settle_after_seconds * 1000,
        );
      }
      return tx;
    });
  }

  settle(txId: string): CardTransactionRow {
    return this.decide(txId, 'completed');
  }

  decline(txId: string): CardTransactionRow {
    return this.decide(txId, 'declined');
  }

  reverse(txId: string): CardTransactionRow {
    return this.decide(txId, 'reversed');
  }

  /** A merchant refunded the cardholder: one completed card_refund, credited to the wallet. */
  refund(cardId: string, body: CardMoveBody): CardTransactionRow {
    const card = this.deps.cards.cardById(cardId);
    if (card.status === 'canceled') throw new BusinessRuleError('Card is canceled');
    return this.single(card, 'card_refund', body, +1);
  }

  /** Funds loaded onto a physical card. */
  deposit(cardId: string, body: CardMoveBody): CardTransactionRow {
    return this.single(this.physical(cardId), 'card_deposit', body, +1);
  }

  /** Funds pulled off a physical card. */
  withdraw(cardId: string, body: CardMoveBody): CardTransactionRow {
    return this.single(this.physical(cardId), 'card_withdraw', body, -1);
  }

  transaction(id: string): CardTransactionRow {
    const tx = this.deps.repo.findTransaction(id);
    if (!tx) throw new NotFoundError('Card transaction', id);
    return tx;
  }

  /** A card's transactions, newest first (the control API's full view). */
  transactionsOf(cardId: string, limit = 100): CardTransactionRow[] {
    return this.deps.repo.transactionsOf(this.deps.cards.cardById(cardId).id, limit);
  }

  /** A physical card reached its holder and is activated. */
  activate(cardId: string): Card {
    const card = this.deps.cards.cardById(cardId);
    return toCard(
      this.deps.cards.saveCard(
        cardStates.move(card, 'active', `Only a notActivated card can be activated (status: ${card.status})`),
      ),
    );
  }

  /** The issuer cancels a card for good. */
  cancel(cardId: string): Card {
    const card = this.deps.cards.cardById(cardId);
    const message = card.status === 'canceled' ? 'Card is already canceled' : undefined;
    return toCard(this.deps.cards.saveCard(cardStates.move(card, 'canceled', message)));
  }

  /** PRODUCT.md, Card rules: the first reason an authorization must be declined, or null. */
  private declineReason(
    card: CardRow,
    amount: number,
    currency: string,
    channel: 'online' | 'present',
  ): string | null {
    if (card.status !== 'active') return `card is ${card.status}`;
    if (channel === 'online' && !card.spend_online_enabled)
      return 'online (card-not-present) spending is disabled';
    if (channel === 'present' && !card.spend_present_enabled) return 'in-person spending is disabled';
    if (card.spend_tx_max > 0 && amount > card.spend_tx_max)
      return `exceeds spend_tx_max (${formatMoney(card.spend_tx_max, currency)})`;
    const now = new Date(this.deps.clock.now());
    const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())).toISOString();
    const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString();
    if (card.spend_daily_max > 0 && this.deps.repo.spentSince(card.id, day) + amount > card.spend_daily_max) {
      return `exceeds spend_daily_max (${formatMoney(card.spend_daily_max, currency)})`;
    }
    if (
      card.spend_monthly_max > 0 &&
      this.deps.repo.spentSince(card.id, month) + amount > card.spend_monthly_max
    ) {
      return `exceeds spend_monthly_max (${formatMoney(card.spend_monthly_max, currency)})`;
    }
    const balance = this.deps.ledger.balance(card.env, CARD_ACCOUNTS.wallet(card.cardholder_id), currency);
    if (balance < amount) return `insufficient funds (balance ${formatMoney(balance, currency)})`;
    return null;
  }

  private decide(txId: string, status: keyof typeof OUTCOMES): CardTransactionRow {
    const tx = this.transaction(txId);
    const refused =
      `Only a requested authorization can be ${status} (status: ${tx.status})` +
      (status === 'reversed' && tx.status === 'completed'
        ? `; money back after settlement is a card refund, a new transaction: POST /sandbox/cards/${tx.card_id}/refunds`
        : '');
    if (tx.type !== 'card_payment') throw new BusinessRuleError(refused);
    cardTransactionStates.assert(tx.status, status, refused);
    const card = this.deps.cards.cardById(tx.card_id);
    const held = -tx.amount;
    return this.deps.unit.atomically(() => {
      // Decided now: an expected settlement still on the clock never comes.
      this.deps.scheduler.cancel(JOB_CARD_SETTLE, tx.id);
      this.move(card, tx, [
        { account: CARD_ACCOUNTS.held(card.cardholder_id), amount: -held },
        status === 'completed'
          ? { account: Accounts.world, amount: held }
          : { account: CARD_ACCOUNTS.wallet(card.cardholder_id), amount: held },
      ]);
      return this.update(tx, status, status === 'completed' ? null : OUTCOMES[status]);
    });
  }

  private single(card: CardRow, type: Type, body: CardMoveBody, sign: 1 | -1): CardTransactionRow {
    const currency = this.deps.cards.walletCurrency(body.currency ?? 'USDC');
    return this.deps.unit.atomically(() => {
      if (sign < 0) {
        const balance = this.deps.ledger.balance(
          card.env,
          CARD_ACCOUNTS.wallet(card.cardholder_id),
          currency,
        );
        if (balance < body.amount) {
          throw new BusinessRuleError(
            `Insufficient cardholder balance: available ${formatMoney(balance, currency)}, requested ${formatMoney(body.amount, currency)}`,
          );
        }
      }
      const tx = this.insert(card, type, 'completed', sign * body.amount, currency, body, null);
      this.move(card, tx, [
        { account: CARD_ACCOUNTS.wallet(card.cardholder_id), amount: sign * body.amount },
        { account: Accounts.world, amount: -sign * body.amount },
      ]);
      return tx;
    });
  }

  private physical(cardId: string): CardRow {
    const card = this.deps.cards.cardById(cardId);
    if (card.ctype !== 'physical')
      throw new BusinessRuleError('Deposits and withdrawals are for physical cards only');
    if (card.status !== 'active') throw new BusinessRuleError(`Card is ${card.status}`);
    return card;
  }

  private move(card: CardRow, tx: CardTransactionRow, entries: { account: string; amount: number }[]): void {
    this.deps.ledger.post(
      card.env,
      `card.${tx.type}`,
      tx.id,
      entries.map((e) => ({ ...e, currency: tx.currency })),
    );
  }

  private insert(
    card: CardRow,
    type: Type,
    status: CardTransactionStatus,
    amount: number,
    currency: string,
    body: {
      merchant_name?: string | undefined;
      local_amount?: number | undefined;
      local_currency?: string | undefined;
    },
    channel: CardTransactionRow['channel'],
  ): CardTransactionRow {
    const now = this.deps.clock.nowIso();
    const sign = amount < 0 ? -1 : 1;
    const tx: CardTransactionRow = {
      id: this.deps.ids.uuid(),
      card_id: card.id,
      cardholder_id: card.cardholder_id,
      merchant_id: card.merchant_id,
      env: card.env,
      type,
      status,
      amount,
      currency,
      local_amount: sign * (body.local_amount ?? cents(Math.abs(amount))),
      local_currency: body.local_currency ?? 'USD',
      merchant_name: body.merchant_name ?? null,
      channel,
      decline_reason: null,
      created_at: now,
      updated_at: now,
    };
    this.deps.repo.insertTransaction(tx);
    this.emit(tx);
    return tx;
  }

  private update(
    tx: CardTransactionRow,
    status: CardTransactionStatus,
    reason: string | null,
  ): CardTransactionRow {
    const next = {
      ...cardTransactionStates.move(tx, status),
      decline_reason: reason,
      updated_at: this.deps.clock.nowIso(),
    };
    this.deps.repo.updateTransaction(next);
    this.emit(next);
    return next;
  }

  /** card.transaction, the spec's payload; the same data.id for every step of a transaction. */
  private emit(tx: CardTransactionRow): void {
    this.deps.events.record(tx.env, tx.merchant_id, 'card.transaction', {
      id: tx.id,
      card_id: tx.card_id,
      amount: tx.amount,
      local_amount: tx.local_amount,
      local_currency: tx.local_currency,
      merchant_name: tx.merchant_name,
      type: tx.type,
      status: tx.status,
      created_at: tx.created_at,
    });
  }
}

/**
 * The network's scheduled work: an authorization's expected settlement. A transaction decided
 * meanwhile (reversed, declined, settled early) cancelled its job; one found decided anyway is left.
 */
export function registerCardNetworkJobs(scheduler: JobRegistry, network: CardNetwork): void {
  scheduler.register(JOB_CARD_SETTLE, (job) => {
    if (network.transaction(job.ref).status === 'requested') network.settle(job.ref);
  });
}
