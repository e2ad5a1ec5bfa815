import type { CardSecrets } from '../api/card-secrets';
import * as api from '../api/sandbox';
import type {
  AuthorizationInput,
  Balance,
  Cardholder,
  CardholderDetail,
  CardProduct,
  CardTransaction,
  CreateCardholderBody,
  KycResultBody,
  PaymentCard,
  PublicKey,
  ReviewBody,
} from '../api/types';
import { formatAmount } from '../lib/format';
import { currentScope, serialized, stillCurrent } from './merchant-scope';
import { attempt } from './notices';
import type { Slice } from './types';

export type CardAction = 'activate' | 'cancel' | 'lock' | 'unlock';
export type TransactionAction = 'settle' | 'decline' | 'reverse';
/** Card-network movements outside authorizations (deposits and withdrawals: physical cards only). */
export type CardMove = 'refunds' | 'deposits' | 'withdrawals';

export interface CardsSlice {
  cardholders: Cardholder[];
  /** The scope the cardholders were read for. */
  cardholdersScope: string | null;
  selectedCardholderId: string | null;
  cardholderDetail: CardholderDetail | null;
  selectedCardId: string | null;
  /** The selected card's transactions, newest first. */
  cardTransactions: CardTransaction[];
  catalogue: CardProduct[];
  /** The environment's RSA public key (card secrets are encrypted for it). */
  publicKey: PublicKey | null;
  /** The merchant's own balances: the business wallet funding draws on. */
  businessBalances: Balance[];
  loadCards: () => Promise<void>;
  selectCardholder: (id: string) => Promise<void>;
  selectCard: (id: string) => Promise<void>;
  createCardholder: (input: CreateCardholderBody) => Promise<boolean>;
  setKycResult: (result: KycResultBody['result']) => Promise<boolean>;
  applyForCard: (product: CardProduct) => Promise<boolean>;
  reviewApplication: (applicationId: string, status: ReviewBody['status']) => Promise<boolean>;
  issueCard: (product: CardProduct) => Promise<boolean>;
  fundCardholder: (amount: number, currency: string) => Promise<boolean>;
  cardAction: (card: PaymentCard, action: CardAction) => Promise<boolean>;
  authorizeCard: (cardId: string, input: AuthorizationInput) => Promise<boolean>;
  decideTransaction: (tx: CardTransaction, action: TransactionAction) => Promise<boolean>;
  moveCardFunds: (cardId: string, kind: CardMove, amount: number) => Promise<boolean>;
  /**
   * The card secrets exchange (api/card-secrets.ts): PAN, CVC and PIN decrypted in the page. They are
   * returned, not stored: the component that asked shows them and forgets them.
   */
  revealCard: (card: PaymentCard) => Promise<CardSecrets | null>;
}

const MOVE_DONE: Record<CardMove, string> = {
  refunds: 'refunded to the card by a merchant',
  deposits: 'deposited onto the card',
  withdrawals: 'withdrawn from the card',
};

const CARD_DONE: Record<CardAction, string> = {
  activate: 'Card activated.',
  cancel: 'Card cancelled.',
  lock: 'Card locked: authorizations are declined until it is unlocked.',
  unlock: 'Card unlocked.',
};

const TX_DONE: Record<TransactionAction, string> = {
  settle: 'settled: completed',
  decline: 'declined: the hold is released',
  reverse: 'reversed: the hold is released',
};

export const createCardsSlice: Slice<CardsSlice> = (set, get) => {
  const readTransactions = async (cardId: string) => {
    const transactions = await api.listCardTransactions(cardId);
    if (get().selectedCardId === cardId) set({ cardTransactions: transactions });
  };

  /** The selected cardholder's applications and cards, then the selected card's transactions. */
  const readDetail = async (holderId: string) => {
    const detail = await api.getCardholder(holderId);
    if (get().selectedCardholderId !== holderId) return;
    const selectedCard = get().selectedCardId;
    const card = detail.cards.some((c) => c.id === selectedCard)
      ? selectedCard
      : (detail.cards[0]?.id ?? null);
    set({
      cardholderDetail: detail,
      selectedCardId: card,
      ...(card === selectedCard ? {} : { cardTransactions: [] }),
    });
    if (card) await readTransactions(card);
  };

  const load = serialized(async () => {
    const scope = currentScope(get());
    if (!scope) return;
    await attempt(get, async () => {
      const [cardholders, catalogue, publicKey, businessBalances] = await Promise.all([
        api.listCardholders(scope.merchantId, scope.env),
        api.getCardCatalogue(),
        api.getPublicKey(scope.env),
        api.listBalances(scope.merchantId, scope.env),
      ]);
      if (!stillCurrent(get, scope)) return;
      const selected = get().selectedCardholderId;
      // The page opens on a verified cardholder (one with cards to show) when there is one.
      const first = cardholders.find((h) => h.is_kyc_verified) ?? cardholders[0];
      const keep = cardholders.some((h) => h.id === selected) ? selected : (first?.id ?? null);
      set({
        cardholders,
        catalogue,
        publicKey,
        businessBalances,
        cardholdersScope: scope.key,
        selectedCardholderId: keep,
        ...(keep === selected ? {} : { cardholderDetail: null, selectedCardId: null, cardTransactions: [] }),
      });
      if (keep) await readDetail(keep);
    });
  });

  const change = (action: () => Promise<string>) =>
    attempt(get, async () => {
      get().notify('success', await action());
    }).then(async (ok) => {
      await load();
      return ok;
    });

  const holderId = () => {
    const id = get().selectedCardholderId;
    if (!id) throw new Error('Select a cardholder first.');
    return id;
  };

  return {
    cardholders: [],
    cardholdersScope: null,
    selectedCardholderId: null,
    cardholderDetail: null,
    selectedCardId: null,
    cardTransactions: [],
    catalogue: [],
    publicKey: null,
    businessBalances: [],

    loadCards: load,

    revealCard: async (card) => {
      let secrets: CardSecrets | null = null;
      const env = get().cardholderDetail?.cardholder.env ?? get().env;
      await attempt(get, async () => {
        // Loaded on the first reveal (its own chunk): the first paint does not need the exchange.
        const { revealCardSecrets } = await import('../api/card-secrets');
        secrets = await revealCardSecrets(card.id, env);
      });
      return secrets;
    },

    selectCardholder: async (id) => {
      set({ selectedCardholderId: id, cardholderDetail: null, selectedCardId: null, cardTransactions: [] });
      await attempt(get, () => readDetail(id));
    },

    selectCard: async (id) => {
      set({ selectedCardId: id, cardTransactions: [] });
      await attempt(get, () => readTransactions(id));
    },

    createCardholder: (input) =>
      attempt(get, async () => {
        const scope = currentScope(get());
        if (!scope) throw new Error('Select a merchant first.');
        const holder = await api.createCardholder(scope.merchantId, scope.env, input);
        set({
          selectedCardholderId: holder.id,
          cardholderDetail: null,
          selectedCardId: null,
          cardTransactions: [],
        });
        get().notify(
          'success',
          `Cardholder “${holder.name}” created. Verify their identity to apply for cards.`,
        );
        await load();
      }),

    setKycResult: (result) =>
      change(async () => {
        await api.kycResult(holderId(), result);
        return result === 'approved'
          ? 'Identity verified: KYC approved.'
          : 'Identity check failed: KYC rejected.';
      }),

    applyForCard: (product) =>
      change(async () => {
        const application = await api.applyForCard(holderId(), product.id);
        return `Application for ${product.name}: ${application.status}.`;
      }),

    reviewApplication: (applicationId, status) =>
      change(async () => {
        await api.reviewApplication(applicationId, status);
        return `Application ${status}.`;
      }),

    issueCard: (product) =>
      change(async () => {
        const card = await api.issueCard(holderId(), {
          catalogue: product.id,
          type: product.type,
        });
        set({ selectedCardId: card.id, cardTransactions: [] });
        return `${product.name} issued: •••• ${card.last4}, ${card.status === 'active' ? 'active' : 'to be activated'}.`;
      }),

    fundCardholder: (amount, currency) =>
      change(async () => {
        await api.fundCardholder(holderId(), { amount, currency });
        return `${formatAmount(amount)} ${currency} moved from the business wallet to the cardholder.`;
      }),

    cardAction: (card, action) =>
      change(async () => {
        if (action === 'activate') await api.activateCard(card.id);
        else if (action === 'cancel') await api.cancelCard(card.id);
        else await api.setCardStatus(card.id, action === 'lock' ? 'locked' : 'active');
        return CARD_DONE[action];
      }),

    authorizeCard: (cardId, input) =>
      attempt(get, async () => {
        const tx = await api.authorizeCard(cardId, input);
        const what = `Authorization of ${formatAmount(input.amount)} ${tx.currency}`;
        if (tx.status === 'declined') get().notify('error', `${what} declined: ${tx.decline_reason}.`);
        else get().notify('success', `${what} approved: funds held until it is settled or reversed.`);
      }).then(async (ok) => {
        await load();
        return ok;
      }),

    decideTransaction: (tx, action) =>
      change(async () => {
        await api.decideCardTransaction(tx.id, action);
        return `Transaction ${TX_DONE[action]}.`;
      }),

    moveCardFunds: (cardId, kind, amount) =>
      change(async () => {
        const tx = await api.moveCardFunds(cardId, kind, { amount });
        return `${formatAmount(Math.abs(tx.amount))} ${tx.currency} ${MOVE_DONE[kind]}.`;
      }),
  };
};
